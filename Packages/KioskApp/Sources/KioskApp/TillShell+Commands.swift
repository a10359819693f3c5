import DurableStore
import KioskCommands
import Menu
import Payment
import Stock
import Tabs

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

extension TillShell {
  /// Opens a tab for `customer` and returns its number.
  public func openTab(for customer: String) async throws -> Tab.ID {
    guard case .opened(let id, _) = try await run(.openTab(customer: customer)) else {
      preconditionFailure("opening a tab journals `opened`")
    }
    return id
  }

  /// Adds `item` to the open tab `tab`.
  public func add(_ item: Item.ID, to tab: Tab.ID) async throws { _ = try await run(.add(item: item, tab: tab)) }

  /// Takes the last `item` off the open tab `tab`.
  public func remove(_ item: Item.ID, from tab: Tab.ID) async throws {
    _ = try await run(.remove(item: item, tab: tab))
  }

  /// Adds a delivery of `count` units of `ingredient` to the stock.
  public func restock(_ ingredient: Ingredient, count: Int) async throws {
    _ = try await run(.restock(ingredient: ingredient, count: count))
  }

  /// Names the till in its chain (`kiosk till-name`); the name it has journals nothing.
  public func nameTill(_ name: String) async throws {
    guard HeadOfficeSync.isTillName(name) else { throw TillError.invalidTillName(name) }
    try await prepareToWrite()
    let sent = try store.send(.nameTill(name))
    if sent.outcome.record == nil, sent.outcome.reason != nil || sent.outcome.refusal != nil {
      throw DurableStore<KioskTill>.refusal(sent.outcome)
    }
  }

  /// Runs a command that moves no money, as the kiosk runs it, and returns its record.
  private func run(_ command: KioskAction) async throws -> KioskRecord {
    try await prepareToWrite()
    let sent = try store.send(.command(command))
    guard let record = sent.outcome.record else { throw DurableStore<KioskTill>.refusal(sent.outcome) }
    return record
  }

  /// Settles `tab` and waits for the processor: the receipt, or why there
  /// is none (a decline; exit 75 when the processor answered nothing, the
  /// charge left open for the next writer). A charge the processor already
  /// held for the tab is adopted (`adoptions`), not made again.
  public func settle(_ tab: Tab.ID) async throws -> Receipt {
    try await prepareToWrite()
    let (receipt, held) = try await store.settleAdopting(tab)
    if let held { adopted(held, tab: tab, receipt: receipt) }
    return receipt
  }

  /// Undoes the newest command and says what was undone; nil when there is
  /// nothing to undo. A settle is undone by a refund, as `settle` charges. An
  /// undo whose refund's answer was lost (exit 75), asked for again, finds the
  /// refund completed on its way in: that is the undo reported, and nothing
  /// more is undone.
  public func undo() async throws -> Undone? {
    let before = reconciledBeforeCommand
    try await prepareToWrite()
    if let completed = reconciled[before...].last(where: { $0.intent.kind == .refund && $0.undone != nil }),
      case .completed(let reference) = completed.resolution, let record = completed.undone
    {
      return Undone(record: record, refund: reference)
    }
    let (undone, held) = try await store.undoNewestAdopting()
    if let held, case .settled(let receipt)? = undone?.record { adopted(held, tab: receipt.tab, receipt: nil) }
    return undone
  }

  /// Closes the day (`kiosk close-day`) and returns its Z report. The day's
  /// journal must replay to the till's state first; when opening finished a
  /// close a crash cut short, and nothing was done since, that day's report
  /// is returned and nothing more is closed.
  public func closeDay() async throws -> ZReport {
    if let finished = finishedInterruptedClose {
      return try ZReport.build(path: KioskSegments.archivePath(of: store.path, day: finished))
    }
    try await prepareToWrite()
    let archivePath = KioskSegments.archivePath(of: store.path, day: day)
    var taken = stat()
    if lstat(archivePath, &taken) == 0, !KioskSegments.sameFile(store.path, archivePath) {
      throw TillError.archiveExists(path: archivePath)
    }
    let report = try ZReport.build(path: store.path)
    let slices = store.state.slices
    guard report.closingState.canonicalJSONWrittenByHand() == slices.canonicalJSONWrittenByHand() else {
      throw KioskVerifier.Failure(
        description: "the day's journal replays to \(report.closingState.digest), the till holds "
          + "\(slices.digest); not closing the day (run 'kiosk verify')")
    }
    try store.closeDay()
    return report
  }
}
