import FeatureKit
import Journal

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Runs a feature over a write-ahead journal, so that what it acknowledged
/// survives the process: every step's record is synced before `send`
/// returns, an outside request is journaled as an intent (with its
/// idempotency key) before it runs and closed by an outcome after, and
/// opening replays the journal from its last checkpoint and asks each open
/// intent's service what became of it (`DurableFeature.reconcile`).
///
/// The state never leaves the main actor. Asynchronous work (the feature's
/// `tasks`, and outside requests) runs off it and feeds its action back as
/// a journaled step. The journal's lock is held until the store is released.
/// Its guarantees, and what stays the app's policy, are in docs/durable-store.md.
@MainActor
public final class DurableStore<Model: DurableFeature> {
  /// The journal's path.
  public let path: String
  /// What the feature's work and requests run on.
  public let environment: Model.Environment
  /// The clock deadlines, backoffs and the feature's timers run on.
  public let clock: any Clock<Duration>
  /// Called after every journaled step, sent, fed back, undone or closing an intent.
  public var onStep: ((DurableStep<Model>) -> Void)?
  /// Where a crash seam stopped the store, if one did.
  public private(set) var stoppedAt: CrashPoint? {
    didSet { halted = stoppedAt != nil || failure != nil }
  }
  /// The last error a step the app did not send met (work fed back, an outcome, a checkpoint).
  public internal(set) var lastError: DurableStoreError?

  // The hot path (`send`, `commit`) is `@inlinable`, so an app's build
  // specializes it for its own feature: these are what it touches.
  //
  // What a step touches is not checked for exclusive access at run time
  // (`swift_beginAccess`, about 75 instructions each time), but for the
  // ledger: the store is `@MainActor`, and no code but the store's own runs
  // while the journal (reached through its box's pointer), the record
  // buffer or the halted flag is being read or modified, so no second access
  // can overlap one. The ledger stays checked: the feature's `step` runs
  // inside its modification, and a step that reached back into the store
  // would trap rather than read it half-done.
  @usableFromInline var ledger: DurableLedger<Model>
  /// The journal, in a box of the journal's module (`DurableJournalBox`):
  /// letting the store go closes it there, without making its type by name.
  @usableFromInline let journalBox: DurableJournalBox
  /// The journal, where its box keeps it for as long as the store lives.
  @inlinable var journal: UnsafeMutablePointer<DurableJournal> { journalBox.journal }
  @usableFromInline let options: DurableStoreOptions
  /// The append that failed, after which the store refuses every step
  /// (`failedEarlier`) until it is opened again: the cause an app reports.
  public internal(set) var failure: DurableStoreError? {
    didSet { halted = stoppedAt != nil || failure != nil }
  }
  /// Whether a seam stopped the store or a write failed: the one flag every step reads.
  @exclusivity(unchecked) @usableFromInline var halted = false
  /// The last record's bytes, kept so the next step writes into the same
  /// storage rather than allocating and freeing a buffer every step.
  @exclusivity(unchecked) @usableFromInline var recordBuffer: [UInt8] = []
  @usableFromInline var work = WorkInFlight<Model.Action>()
  /// Whether opening replayed enough records for a checkpoint to be due
  /// (`checkpointRecordsReplayed`), until one is written.
  @exclusivity(unchecked) var checkpointDueAfterReplay = false
  private var intentsInFlight: [IntentKey: Task<IntentClosed<Model>?, Never>] = [:]

  /// The state after the last acknowledged step.
  public var state: Model.State { ledger.state }
  /// The journal's salt, which every intent key of this period is made from
  /// (`DurableFeature.key(for:salt:sequence:index:)`).
  public var salt: UInt64 { journal.pointee.salt }
  /// What opening the current journal found: a torn tail dropped, and where it was saved.
  public var recovery: JournalRecovery { journal.pointee.recovery }
  /// Intents journaled and not yet closed, in the order they were opened.
  public var openIntents: [Intent<Model.Request>] { ledger.open }
  /// Whether `undo` has a step to undo.
  public var canUndo: Bool { !ledger.undo.isEmpty }
  /// How many periods were closed before the current one.
  public var period: Int { ledger.period }
  /// The period the current one follows (its archive and last record): nil
  /// in the first, and nil when the format names it only in a period's
  /// opening checkpoint (`DurableCheckpoint.opensPeriod`) and the store
  /// opened from a later one.
  public var previousPeriod: DurablePeriodLink? { ledger.previous }
  /// The period whose close, cut short by a crash, `open` finished, until
  /// the journal's next record: an app that closes periods on request can
  /// tell a close asked for again from a new one (`nil` otherwise).
  public var closeFinishedOnOpen: DurablePeriodLink? {
    guard let finishedClose, journal.pointee.lastSequence == finishedClose.sequence else { return nil }
    return finishedClose.link
  }
  /// What `closeFinishedOnOpen` reports, and the journal's last record then
  /// (read, not written, by a step: it costs a send nothing).
  var finishedClose: (link: DurablePeriodLink, sequence: UInt64)?
  /// The ids of the feature's work in flight, sorted.
  public var inFlight: [String] { work.ids }

  private init(
    path: String, journal: consuming DurableJournal, ledger: DurableLedger<Model>, environment: Model.Environment,
    clock: any Clock<Duration>, options: DurableStoreOptions
  ) {
    self.path = path
    self.journalBox = DurableJournalBox(journal)
    self.ledger = ledger
    self.environment = environment
    self.clock = clock
    self.options = options
    work.deliver = { [weak self] action, id, generation in
      self?.feedBack(action, from: id, generation: generation)
    }
  }

  /// Opens the store whose journal is at `path`, creating it (at `initial`)
  /// when missing. Finishes a period close a crash interrupted, replays the
  /// journal from its last checkpoint, starts asking the service of each
  /// open intent what became of it, and starts the work the feature resumes.
  public static func open(
    at path: String, initial: Model.State, environment: Model.Environment,
    clock: any Clock<Duration> = ContinuousClock(), options: DurableStoreOptions = DurableStoreOptions()
  ) throws(DurableStoreError) -> DurableStore<Model> {
    try refuseNameWithoutRoom(at: path)
    try DurablePeriods.finishInterruptedClose(of: path, lockWait: options.lockWait)
    // Before the journal is opened to write, which may mend its tail: a
    // journal of a version the format does not read is left exactly as it is.
    if let version = DurablePeriods.headerVersion(at: path) { try refuseUnreadable(version, at: path) }
    let journal: DurableJournal
    do {
      journal = try DurableJournal(
        path: path, lockWait: options.lockWait, newFileVersion: Model.Format.newJournalVersion)
    } catch { throw .journal(error) }
    try refuseUnreadable(journal.version, at: path)
    // Only now, holding the journal's lock (a store closing its period holds
    // it throughout): a next period a close wrote but never put in place goes.
    DurablePeriods.removeIfThere(DurablePeriods.nextPath(of: path))
    let ledger = try DurableReplay.ledger(
      of: Model.self, from: journal.recovery, salt: journal.salt, initial: initial)
    // Finishing its close would put the next period in the archive's place.
    if let ended = ledger.ended, DurablePeriods.isSameName(ended.archive, as: path) { throw .archive(path: path) }
    let store = DurableStore(
      path: path, journal: journal, ledger: ledger, environment: environment, clock: clock, options: options)
    // A journal that ends with its period's end is a close cut short: finished now.
    let cutShort = store.ledger.ended
    try store.finishClosingPeriod()
    store.finishedClose = cutShort.map { ($0, store.journal.pointee.lastSequence) }
    if let replayed = options.checkpointRecordsReplayed {
      store.checkpointDueAfterReplay = store.recordsSinceCheckpoint(atLeast: replayed)
    }
    // A crash between a close's rename and its `chmod` left the archive writable.
    if let previous = store.ledger.previous {
      chmod(DurablePeriods.resolve(previous.archive, besideJournal: path), 0o444)
    }
    for intent in ledger.open { store.run(intent, recovering: true) }
    for task in Model.resumedTasks(state: store.ledger.state, environment: environment) { store.start(task) }
    return store
  }

  /// Refuses a journal at `path` of a version the feature's format does not read.
  nonisolated static func refuseUnreadable(_ version: UInt16, at path: String) throws(DurableStoreError) {
    guard Model.Format.versions.contains(version) else { throw .unsupportedVersion(version, path: path) }
  }

  /// Steps `action`, syncs its record, starts what it asked for, and returns
  /// what the step did. Throws, and acknowledges nothing, when the record
  /// could not be synced; the store then refuses every later step. A step
  /// the feature refuses (`DurableFeature.isRefusal`) is returned and leaves
  /// no record; an action the feature keeps for itself
  /// (`DurableFeature.isSendable`) is refused with `notSendable`.
  @inlinable @discardableResult
  public func send(_ action: Model.Action) throws(DurableStoreError) -> StepResult<Model.Effect, Model.Outcome> {
    if !Model.isSendable(action) { throw Self.notSendable(action) }
    // A sent step always has an action, so it always has a result.
    return try commit(.sent, action)!
  }

  /// Steps the inverse of the last step that can be undone, journaled as an
  /// undo; nil when there is none.
  @inlinable @discardableResult
  public func undo() throws(DurableStoreError) -> StepResult<Model.Effect, Model.Outcome>? {
    guard let inverse = ledger.undo.last else { return nil }
    return try commit(.undone, inverse)
  }

  /// Journals one step of `kind`, then starts its intents and work; returns
  /// what the step did (nil for an outcome with no action). A refused step
  /// is returned at once: nothing journaled, nothing started.
  @inlinable @discardableResult
  func commit(
    _ kind: DurableStepKind, _ action: Model.Action?
  ) throws(DurableStoreError) -> StepResult<Model.Effect, Model.Outcome>? {
    try checkRunning()
    // The next record's sequence number and the journal's salt, in one read.
    let next = journal.pointee.endAnchor
    let sequence = next.sequence
    // From here the state in memory is ahead of the journal until the record
    // is synced; if it cannot be, the store refuses everything (`failedEarlier`).
    let applied = ledger.apply(kind, action, sequence: sequence, salt: next.salt)
    if applied.refused { return applied.result }
    if let clash = applied.clash { Self.keyClash(clash) }
    try guarded { () throws(DurableStoreError) in
      try seam(.beforeRecord)
      try appendRecord(kind, action, applied.intents, result: applied.result)
      try seam(.afterRecord)
    }
    for intent in applied.intents { run(intent, recovering: false) }
    if let action, let result = applied.result {
      for task in Model.tasks(after: action, state: ledger.state, result: result, environment: environment) {
        start(task)
      }
    }
    if let onStep {
      onStep(DurableStep(action: action, result: applied.result, intents: applied.intents, sequence: sequence))
    }
    checkpointAfterStep()
    return applied.result
  }

  /// Writes a step's record in the feature's format, in the form of the
  /// journal's version, after the frame the journal fills in, and appends
  /// and syncs it: the one way a record reaches the journal.
  @inlinable func appendRecord(
    _ kind: DurableStepKind, _ action: Model.Action?, _ intents: [Intent<Model.Request>],
    result: StepResult<Model.Effect, Model.Outcome>?
  ) throws(DurableStoreError) {
    var framed = takeRecordBuffer()
    Model.Format.writeRecord(kind, action, intents, result: result, version: journal.pointee.version, to: &framed)
    // A format appends after the frame: one that replaced it would have its record's first bytes overwritten.
    if !Self.frameIsReserved(framed) { Self.frameOverwritten() }
    do throws(JournalError) { try journal.pointee.append(framed: &framed) } catch { throw .journal(error) }
    if framed.capacity <= Self.keptRecordCapacity { recordBuffer = framed }
  }

  /// The largest record buffer kept for the next step: one step's huge
  /// record is not held for the store's life.
  @usableFromInline static var keptRecordCapacity: Int { 1 << 16 }

  /// The kept record buffer, emptied to the frame's reserved zeros (the
  /// reserved frame itself when none is kept), owned by the caller alone.
  @inlinable func takeRecordBuffer() -> [UInt8] {
    var buffer: [UInt8] = []
    swap(&buffer, &recordBuffer)
    guard buffer.count >= JournalFormat.frameSize else { return JournalFormat.reservedFrame }
    buffer.removeLast(buffer.count - JournalFormat.frameSize)
    for index in 0..<JournalFormat.frameSize { buffer[index] = 0 }
    return buffer
  }

  // The two failures below are out of line: their messages name the feature's
  // types, and building them inside `commit` cost it about 5,000
  // instructions a send in generic metadata, even when nothing failed.

  /// The refusal of an action the app may not send, out of line (see below).
  @usableFromInline static func notSendable(_ action: Model.Action) -> DurableStoreError {
    .notSendable(Model.name(of: action))
  }

  /// Stops the process: the feature's key function gave a key already open.
  @usableFromInline static func keyClash(_ key: IntentKey) -> Never {
    preconditionFailure("\(Model.self).key(for:salt:sequence:index:) gave key \(key), which is already open")
  }

  /// Whether `framed` still starts with the frame's reserved zeros.
  @inlinable static func frameIsReserved(_ framed: [UInt8]) -> Bool {
    guard framed.count >= JournalFormat.frameSize else { return false }
    var bits: UInt8 = 0
    for index in 0..<JournalFormat.frameSize { bits |= framed[index] }
    return bits == 0
  }

  /// Stops the process: the feature's format wrote over the frame.
  @usableFromInline static func frameOverwritten() -> Never {
    preconditionFailure("\(Model.Format.self).writeRecord must append after the bytes already in `out`")
  }

  /// Refuses work once a seam stopped the store or a write failed.
  @inlinable func checkRunning() throws(DurableStoreError) {
    if halted { throw haltedError() }
  }

  /// Why the store refuses work, once it is halted.
  @usableFromInline func haltedError() -> DurableStoreError {
    if let stoppedAt { .stopped(at: stoppedAt) } else { .failedEarlier }
  }

  /// Calls the crash seam at `point`; a throwing seam stops the store.
  @usableFromInline func seam(_ point: CrashPoint) throws(DurableStoreError) {
    do { try options.crashSeam?(point) } catch { throw .stopped(at: point) }
  }

  /// Runs `body`, which writes to the journal; on error stops the store or marks it failed.
  @usableFromInline func guarded(_ body: () throws(DurableStoreError) -> Void) throws(DurableStoreError) {
    do { try body() } catch {
      if case .stopped(let point) = error { stop(at: point) } else { fail(error) }
      throw error
    }
  }

  /// Stops the store as a crash at `point` would: nothing more is written and every piece of work is cancelled.
  @usableFromInline func stop(at point: CrashPoint) {
    stoppedAt = stoppedAt ?? point
    cancelInFlight()
  }

  /// Marks the store failed, and cancels its work and requests: nothing a
  /// request answers can be journaled now, and one left running could still
  /// reach its service after a store opened again had given it up.
  @usableFromInline func fail(_ error: DurableStoreError) {
    failure = failure ?? error
    cancelInFlight()
  }

  /// Cancels the work and the requests in flight, without waiting for them.
  func cancelInFlight() {
    _ = work.cancelAll()
    for task in intentsInFlight.values { task.cancel() }
  }

  /// A store let go cancels what it started: its requests' outcomes could no
  /// longer be journaled (the intents stay open for the next `open` to ask about).
  isolated deinit {
    cancelInFlight()
  }

  // MARK: Work

  @inlinable func start(_ item: EffectTask<Model.Action>) {
    work.start(item)
  }

  @usableFromInline func feedBack(_ action: Model.Action?, from id: String, generation: Int) {
    // Work replaced or cancelled meanwhile feeds nothing back.
    guard let action = work.accept(action, from: id, generation: generation) else { return }
    do { try commit(.fedBack(task: id), action) } catch { lastError = error }
  }

  /// Runs `intent` off the main actor (asking its service first when
  /// `recovering`), then journals its outcome.
  @usableFromInline func run(_ intent: Intent<Model.Request>, recovering: Bool) {
    let environment = environment
    let clock = clock
    let seam = options.crashSeam
    let jitter = options.jitter
    let policy = options.effectPolicy ?? Model.effectPolicy
    intentsInFlight[intent.key] = Task(name: "intent \(intent.key)") { [weak self] in
      let closing: IntentClosing<Model>
      do {
        closing = try await IntentRunner<Model>.settle(
          intent, recovering: recovering, policy: policy, environment: environment, clock: clock, jitter: jitter,
          seam: seam)
      } catch let stopped as StoppedAtSeam {
        self?.stop(at: stopped.point)
        return nil
      } catch let unanswered as Unanswered {
        // Open still: the next open asks the service again.
        self?.intentsInFlight[intent.key] = nil
        return IntentClosed(abandoned: nil, outcome: nil, unanswered: unanswered)
      } catch {
        return nil  // Cancelled: the intent stays open, and the next open asks its service.
      }
      return self?.close(intent, closing)
    }
  }

  private func close(_ intent: Intent<Model.Request>, _ closing: IntentClosing<Model>) -> IntentClosed<Model>? {
    intentsInFlight[intent.key] = nil
    guard stoppedAt == nil, failure == nil else { return nil }
    do {
      let result = try commit(.outcome(key: intent.key, abandoned: closing.abandoned), closing.action)
      return IntentClosed(abandoned: closing.abandoned, outcome: result?.outcome)
    } catch {
      lastError = error
      return nil
    }
  }

  /// Starts asking the service again about every open intent no request is
  /// in flight for (one left open unanswered, `EffectPolicy.leavesUnansweredOpen`),
  /// as opening the store does: wait for each with `outcome(of:)`. Returns their keys.
  @inlinable @discardableResult
  public func reconcileOpenIntents() -> [IntentKey] {
    // Before every command of an app that asks: inlined, so that the usual
    // answer (no intent open) costs the app's build no generic call.
    guard !halted, !ledger.open.isEmpty else { return [] }
    return reconcileEachOpenIntent()
  }

  @usableFromInline func reconcileEachOpenIntent() -> [IntentKey] {
    var keys: [IntentKey] = []
    // A closure, not a key path: a key path into a generic type is resolved again at each call.
    for intent in ledger.open where intentsInFlight[intent.key] == nil {
      run(intent, recovering: true)
      keys.append(intent.key)
    }
    return keys
  }

  /// Waits for each of the open intents `keys` as `outcome(of:)` does for
  /// one, in order: every request in flight when called is waited for,
  /// whichever ends first (asked one by one, a request ending while the
  /// caller waits for another would have nothing left to report).
  public func outcomes(of keys: [IntentKey]) async -> [IntentClosed<Model>?] {
    let tasks = keys.map { intentsInFlight[$0] }
    var closed: [IntentClosed<Model>?] = []
    for task in tasks { closed.append(await task?.value ?? nil) }
    return closed
  }

  /// Waits for the open intent `key` to close, and returns how it closed:
  /// its outcome's step, and why it was given up if it was; or, under a
  /// policy that `leavesUnansweredOpen`, why it was left open. Nil when no
  /// request of it is in flight (it is not open, or it closed already) or
  /// when it ends without an outcome journaled (cancelled, the store
  /// stopped, or the outcome could not be journaled: `lastError`), so the
  /// intent stays open for the next open to ask about.
  public func outcome(of key: IntentKey) async -> IntentClosed<Model>? {
    guard let task = intentsInFlight[key] else { return nil }
    return await task.value
  }

  /// Waits until no work and no request is in flight, including what they
  /// started in turn.
  public func finish() async {
    while true {
      if let (id, task) = work.any {
        await task.value
        work.forget(id, ifStill: task)
      } else if let (key, task) = intentsInFlight.first {
        _ = await task.value
        if intentsInFlight[key] == task { intentsInFlight[key] = nil }
      } else {
        return
      }
    }
  }

  /// Cancels the work and requests in flight and waits for them to stop.
  /// A cancelled request's intent stays open: the next open asks its service.
  /// Work or a request that ended while it waited may have started more
  /// (an outcome's step asking for another request): that is cancelled too.
  public func cancelAll() async {
    while true {
      let tasks = work.cancelAll()
      let requests = Array(intentsInFlight.values)
      guard !tasks.isEmpty || !requests.isEmpty else { return }
      intentsInFlight.removeAll()
      for task in tasks { task.cancel() }
      for request in requests { request.cancel() }
      for task in tasks { await task.value }
      for request in requests { _ = await request.value }
    }
  }
}
