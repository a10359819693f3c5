import KioskApp

/// One command, declared once: its name, arguments, help text, what it needs
/// (`access`) and what it runs. The usage text, `kiosk help COMMAND`, argument
/// checking and the README's command table (a test compares them) all come
/// from `CommandSpec.all`.
struct CommandSpec {
  /// What a command needs from the kiosk.
  enum Access {
    /// Reads the journal without a lock and without writing (never blocked by a writer).
    case reads
    /// Takes the journal's lock (waiting up to `--wait`), reconciles, and may append.
    case writes
    /// Runs on its own (help, demo, shell, repair).
    case own
  }

  /// The command's name.
  let name: String
  /// Argument placeholders, in order.
  let arguments: [String]
  /// Whether the last argument takes every remaining word (`open Grace Hopper`).
  var lastTakesRest = false
  /// Whether it takes `--all` (every day's file; for `board`, every tab of the day).
  var takesAll = false
  /// Whether it takes `--check` (`sync`: how far behind, without asking the head office).
  var takesCheck = false
  /// One line of help: the README's table says the same.
  let summary: String
  /// What it needs.
  let access: Access
  /// Runs it: returns what to print, or nil when it printed for itself.
  let run: @MainActor (CommandContext, [String]) async throws -> (any CommandOutput)?

  /// `add TAB ITEM`, `history [--all]`.
  var usage: String {
    ([name] + (takesAll ? ["[--all]"] : []) + (takesCheck ? ["[--check]"] : []) + arguments).joined(separator: " ")
  }

  /// The words after the name, checked against `arguments`.
  func checked(_ words: [String], all: Bool = false, check: Bool = false) throws(KioskFailure) -> [String] {
    guard !all || takesAll else { throw .usage("'--all' applies to history, verify and board, not to \(name)") }
    guard !check || takesCheck else { throw .usage("'--check' applies to sync, not to \(name)") }
    // `[COMMAND]` is optional.
    let required = arguments.reduce(0) { $1.utf8.first == UInt8(ascii: "[") ? $0 : $0 + 1 }
    let fits = words.count >= required && (lastTakesRest || words.count <= arguments.count)
    guard fits else { throw .usage("usage: kiosk \(usage)") }
    guard lastTakesRest, words.count > arguments.count else { return words }
    return words.prefix(arguments.count - 1) + [words.dropFirst(arguments.count - 1).joined(separator: " ")]
  }

  /// The command named `name` (any case).
  static func named(_ name: String) throws(KioskFailure) -> CommandSpec {
    // Typed names are lowercase ASCII: lowercasing allocates, so only when
    // needed (an uppercase letter, or any non-ASCII byte, as "\u{212A}" lowercases to "k").
    let needsLowering = name.utf8.contains { ($0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z")) || $0 >= 0x80 }
    let wanted = needsLowering ? name.lowercased() : name
    guard let spec = all.first(where: { $0.name == wanted }) else {
      throw .usage("unknown command '\(name)'; run 'kiosk help'")
    }
    return spec
  }

  /// Every command, in the order help lists them.
  static let all: [CommandSpec] = [
    CommandSpec(
      name: "menu", arguments: [], summary: "items, prices, and whether each can be made from the stock on hand",
      access: .reads, run: { context, _ in try ReadCommands.menu(context.view()) }),
    CommandSpec(
      name: "stock", arguments: [], summary: "units of each ingredient", access: .reads,
      run: { context, _ in try ReadCommands.stock(context.view()) }),
    CommandSpec(
      name: "restock", arguments: ["INGREDIENT", "COUNT"], summary: "add a delivery to stock", access: .writes,
      run: { context, words in
        try await WriteCommands.restock(context.writer(), ingredient: words[0], count: words[1])
      }),
    CommandSpec(
      name: "open", arguments: ["CUSTOMER"], lastTakesRest: true, summary: "open a tab; prints its number",
      access: .writes, run: { context, words in try await WriteCommands.open(context.writer(), customer: words[0]) }),
    CommandSpec(
      name: "add", arguments: ["TAB", "ITEM"], lastTakesRest: true,
      summary: "add an item, by number or by name (any case), to an unsettled tab", access: .writes,
      run: { context, words in
        try context.refuseWithoutATill(tab: words[0])
        return try await WriteCommands.add(context.writer(), tab: words[0], item: words[1])
      }),
    CommandSpec(
      name: "remove", arguments: ["TAB", "ITEM"], lastTakesRest: true,
      summary: "take the last such item off an unsettled tab", access: .writes,
      run: { context, words in
        try context.refuseWithoutATill(tab: words[0])
        return try await WriteCommands.remove(context.writer(), tab: words[0], item: words[1])
      }),
    CommandSpec(
      name: "settle", arguments: ["TAB"],
      summary: "charge the tab and print the receipt (the intent is journaled first)", access: .writes,
      run: { context, words in
        try context.refuseWithoutATill(tab: words[0])
        return try await context.sayingAdoptions {
          try await WriteCommands.settle(await context.writer(), tab: words[0])
        }
      }),
    CommandSpec(
      name: "board", arguments: [], takesAll: true,
      summary: "the open tabs, oldest first, with their totals, and what the day settled; --all: each settled tab too",
      access: .reads,
      run: { context, _ in
        try ReadCommands.board(context.view(listingSettled: context.options.all), all: context.options.all)
      }),
    CommandSpec(
      name: "undo", arguments: [],
      summary: "revert the last command; undoing a settle refunds the charge, reopens the tab, restores the stock",
      access: .writes,
      run: { context, _ in
        try context.refuseWithoutATill("nothing to undo")
        return try await context.sayingAdoptions { try await WriteCommands.undo(await context.writer()) }
      }),
    CommandSpec(
      name: "history", arguments: [], takesAll: true,
      summary: "the live day's journal, one record per line, as it is read; --all: every day's", access: .reads,
      run: { context, _ in try ReadCommands.history(context) }),
    CommandSpec(
      name: "verify", arguments: [], takesAll: true,
      summary:
        "replay the live day (--all: every day) twice, check each checkpoint and state byte for byte; audit payments",
      access: .reads,
      run: { context, _ in try ReadCommands.verify(context) }),
    CommandSpec(
      name: "reconcile", arguments: [],
      summary: "the processor's ledger and the journal side by side; every mismatch, exit 65", access: .reads,
      run: { context, _ in try ReadCommands.reconcile(context) }),
    CommandSpec(
      name: "close-day", arguments: [],
      summary: "print the Z report, archive the day's settled tabs and journal, start the next day", access: .writes,
      run: { context, _ in
        try context.requireJournal()
        let shell = try await context.writer()
        var output = try await WriteCommands.closeDay(shell)
        output.backgroundSync = await BackgroundSync.start(after: output.day, options: context.options, shell: shell)
        return output
      }),
    CommandSpec(
      name: "repair", arguments: [],
      summary: "back up a damaged journal and ledger; keep every record after the damage that can still be replayed",
      access: .own, run: { context, _ in try OwnCommands.repair(context.options) }),
    CommandSpec(
      name: "set-aside", arguments: ["DAY"],
      summary: "rename a damaged archive aside; history, verify and reconcile then leave its day out and say so",
      access: .own, run: { context, words in try SetAsideCommand.run(context.options, day: words[0]) }),
    CommandSpec(
      name: "sync", arguments: [], takesCheck: true,
      summary:
        "ship every closed day to the head office ($KIOSK_HEAD_OFFICE) as till $KIOSK_TILL, each exactly once; "
        + "--check: how far behind, and why, without asking it",
      access: .own, run: { context, _ in try await SyncCommand.run(context) }),
    CommandSpec(
      name: "rename-till", arguments: ["NAME"],
      summary: "rename the till in its chain: the head office accepts the name first; its days keep theirs",
      access: .own, run: { context, words in try await TillNameCommand.rename(context, to: words[0]) }),
    CommandSpec(
      name: "heal", arguments: ["DAY"],
      summary: "restore a closed day's archive from the head office's copy, checked against the chain and its digest",
      access: .own, run: { context, words in try HealCommand.run(context, day: words[0]) }),
    CommandSpec(
      name: "demo", arguments: [], summary: "a scripted session on a fresh temporary journal", access: .own,
      run: { context, _ in try await Demo(json: context.options.json).run() }),
    CommandSpec(
      name: "shell", arguments: [],
      summary: "read commands from standard input, one result line each; a refused one prints an error and goes on",
      access: .own, run: { context, _ in try await ShellSession(context: context).run() }),
    CommandSpec(
      name: "help", arguments: ["[COMMAND]"], summary: "usage, or one command's help",
      access: .own, run: { _, words in try OwnCommands.help(words.first) }),
  ]

  /// The whole usage text.
  static var usageText: String {
    let width = all.map(\.usage.count).max() ?? 0
    let lines = all.map { "  \(padded($0.usage, to: width))  \($0.summary)" }
    return """
      usage: kiosk \(GlobalOptions.usage) <command> [arguments]

      commands:
      \(lines.joined(separator: "\n"))

      Options go anywhere; '--' ends them. The journal is ./kiosk.journal, or
      $KIOSK_JOURNAL, or --journal PATH; the processor's ledger is JOURNAL.processor,
      or $KIOSK_PROCESSOR, or --processor PATH. A command that writes waits up to
      --wait SECONDS (default 2) for another process's lock; reading commands never wait.
      Exit status: 0 done, 64 usage error, 65 refused by the kiosk, 69 the head office did not
      answer (sync), 70 internal error, 74 journal error, 75 the payment processor did not answer
      (reconciled on the next run).
      """
  }
}
