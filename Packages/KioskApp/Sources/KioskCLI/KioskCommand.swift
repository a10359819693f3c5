import Menu

/// One kiosk command, parsed from its words.
enum KioskCommand: Equatable {
  case menu, stock, board, undo, history, verify, reconcile, help, demo, shell, repair
  case restock(ingredient: String, count: Int)
  case open(customer: String)
  case add(tab: Int, item: String)
  case remove(tab: Int, item: String)
  case settle(tab: Int)

  /// The commands the usage text lists, in order.
  static let usage = """
    usage: kiosk [--journal PATH] [--processor PATH] [--json] [--wait SECONDS] <command> [arguments]

    commands:
      menu                       items, prices, and whether each can be made now
      stock                      ingredient units on hand
      restock INGREDIENT COUNT   add a delivery to stock
      open CUSTOMER              open a tab; prints its number
      add TAB ITEM               add an item (by number or name) to a tab
      remove TAB ITEM            take the last such item off an unsettled tab
      settle TAB                 charge a tab and print its receipt
      board                      every tab, oldest first
      undo                       revert the last command (a settle is refunded)
      history                    the journal, one record per line
      verify                     replay the journal twice; compare the states byte for byte; reconcile
      reconcile                  the processor's ledger and the journal side by side; every mismatch
      repair                     keep a backup of a corrupt journal and cut it to the last good record
      demo                       a scripted session on a fresh temporary journal
      shell                      read commands from standard input, one result line each
      help                       this text

    The journal is ./kiosk.journal, or $KIOSK_JOURNAL, or --journal PATH.
    The processor's ledger is JOURNAL.processor, or $KIOSK_PROCESSOR, or --processor PATH.
    A command waits up to --wait SECONDS (default 2) for another process's lock.
    Exit status: 0 done, 64 usage error, 65 refused by the kiosk, 74 journal error,
    75 the payment processor did not answer (the payment is reconciled on the next run).
    """

  /// Parses a command and its arguments.
  init(words: [String]) throws(KioskFailure) {
    guard let name = words.first else { throw .usage("missing command; run 'kiosk help'") }
    let arguments = Array(words.dropFirst())
    func expect(_ count: Int, _ shape: String) throws(KioskFailure) {
      guard arguments.count == count else { throw .usage("usage: kiosk \(name)\(shape.isEmpty ? "" : " \(shape)")") }
    }
    func tabNumber(_ text: String) throws(KioskFailure) -> Int {
      let digits = text.hasPrefix("#") ? String(text.dropFirst()) : text
      guard let number = Int(digits), number > 0 else { throw .usage("'\(text)' is not a tab number") }
      return number
    }
    switch name.lowercased() {
    case "menu":
      try expect(0, "")
      self = .menu
    case "stock":
      try expect(0, "")
      self = .stock
    case "board":
      try expect(0, "")
      self = .board
    case "undo":
      try expect(0, "")
      self = .undo
    case "history":
      try expect(0, "")
      self = .history
    case "verify":
      try expect(0, "")
      self = .verify
    case "reconcile":
      try expect(0, "")
      self = .reconcile
    case "repair":
      try expect(0, "")
      self = .repair
    case "demo":
      try expect(0, "")
      self = .demo
    case "shell":
      try expect(0, "")
      self = .shell
    case "help", "--help", "-h": self = .help
    case "restock":
      try expect(2, "INGREDIENT COUNT")
      guard let count = Int(arguments[1]) else { throw .usage("'\(arguments[1])' is not a count") }
      self = .restock(ingredient: arguments[0], count: count)
    case "open":
      guard !arguments.isEmpty else { throw .usage("usage: kiosk open CUSTOMER") }
      self = .open(customer: arguments.joined(separator: " "))
    case "add":
      guard arguments.count >= 2 else { throw .usage("usage: kiosk add TAB ITEM") }
      self = .add(tab: try tabNumber(arguments[0]), item: arguments.dropFirst().joined(separator: " "))
    case "remove":
      guard arguments.count >= 2 else { throw .usage("usage: kiosk remove TAB ITEM") }
      self = .remove(tab: try tabNumber(arguments[0]), item: arguments.dropFirst().joined(separator: " "))
    case "settle":
      try expect(1, "TAB")
      self = .settle(tab: try tabNumber(arguments[0]))
    default:
      throw .usage("unknown command '\(name)'; run 'kiosk help'")
    }
  }
}
