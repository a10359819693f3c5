import CanonicalJSON
import DurableStore
import FeatureKit
import Foundation
import Journal
import Synchronization
import Testing
import _ServiceLinkerTestSupport

/// A feature whose checkpoints keep what its environment knows: a meter
/// outside the process (a ledger's length, say) that no record mentions.
enum Metered: DurableFeature {
  typealias Request = NoRequest
  typealias Format = MeteredFormat

  struct State: Codable, Equatable, Sendable, CanonicalCodable {
    var count = 0
    /// The meter's reading when the last checkpoint was written.
    var meterAtCheckpoint: Int?
    /// The meter's reading when the period began.
    var meterAtPeriodStart: Int?
  }

  enum Action: Codable, Equatable, Sendable, CanonicalCodable {
    case add(Int)
  }

  struct Effect: Codable, Equatable, Sendable, CanonicalEncodable {}
  struct Outcome: Codable, Equatable, Sendable, CanonicalEncodable {}

  /// The meter: the app moves it, the feature reads it.
  final class Meter: Sendable {
    private let value = Mutex(0)
    var reading: Int {
      get { value.withLock { $0 } }
      set { value.withLock { $0 = newValue } }
    }
  }

  static func name(of action: Action) -> String { "add" }

  static func step(_ state: inout State, _ action: Action) -> StepResult<Effect, Outcome> {
    if case .add(let amount) = action { state.count += amount }
    return StepResult(effects: [], outcome: Outcome())
  }

  static func tasks(
    after action: Action, state: State, result: StepResult<Effect, Outcome>, environment: Meter
  ) -> [EffectTask<Action>] { [] }

  static func checkpointing(_ state: State, opensPeriod: Bool, environment: Meter) -> State {
    var kept = state
    kept.meterAtCheckpoint = environment.reading
    if opensPeriod { kept.meterAtPeriodStart = environment.reading }
    return kept
  }
}

/// The canonical format but for what a test says of its files and periods.
protocol CanonicalVariantFormat: DurableFormat {}

extension CanonicalVariantFormat {
  typealias Canonical = CanonicalDurableFormat<Model>

  static var versions: ClosedRange<UInt16> { Canonical.versions }
  static var newJournalVersion: UInt16 { Canonical.newJournalVersion }

  static func writeRecord(
    _ kind: DurableStepKind, _ action: Model.Action?, _ intents: [Intent<Model.Request>],
    result: StepResult<Model.Effect, Model.Outcome>?, version: UInt16, to out: inout [UInt8]
  ) { Canonical.writeRecord(kind, action, intents, result: result, version: version, to: &out) }

  static func readRecord(_ payload: ArraySlice<UInt8>, version: UInt16) throws -> DurableRecord<Model> {
    try Canonical.readRecord(payload, version: version)
  }

  static func writeCheckpoint(_ checkpoint: DurableCheckpoint<Model>, version: UInt16) -> [UInt8] {
    Canonical.writeCheckpoint(checkpoint, version: version)
  }

  static func readCheckpoint(_ payload: ArraySlice<UInt8>, version: UInt16) throws -> DurableCheckpoint<Model> {
    try Canonical.readCheckpoint(payload, version: version)
  }
}

/// The canonical format, with a file derived from the journal beside it.
enum MeteredFormat: CanonicalVariantFormat {
  typealias Model = Metered
  static var companionSuffixes: [String] { [".tally"] }
}

@MainActor @Suite struct CheckpointingTests {
  let folder: TemporaryDirectory
  let meter = Metered.Meter()
  var path: String { folder.path("metered.journal") }

  init() throws { folder = try TemporaryDirectory(prefix: "metered") }

  func open(options: DurableStoreOptions = DurableStoreOptions()) throws -> DurableStore<Metered> {
    try DurableStore<Metered>.open(at: path, initial: Metered.State(), environment: meter, options: options)
  }

  @Test func aCheckpointFollowsEveryNRecordsWhenAskedTo() throws {
    var options = DurableStoreOptions()
    options.checkpointRecords = 3
    let store = try open(options: options)
    meter.reading = 1
    try store.send(.add(1))
    try store.send(.add(1))
    #expect(store.state.meterAtCheckpoint == nil)
    try store.send(.add(1))
    #expect(store.state.meterAtCheckpoint == 1, "the third record is followed by a checkpoint")
    meter.reading = 2
    try store.send(.add(1))
    try store.send(.add(1))
    #expect(store.state.meterAtCheckpoint == 1)
    try store.send(.add(1))
    #expect(store.state.meterAtCheckpoint == 2)
  }

  /// Opens the store as a process of its own would, runs `body` on it, and lets it go.
  @discardableResult
  func inOneProcess<Result>(
    _ options: DurableStoreOptions, _ body: (DurableStore<Metered>) throws -> Result
  ) throws -> Result {
    try body(try open(options: options))
  }

  @Test func anOpenThatReplayedEnoughRecordsCheckpointsBeforeItsNextStepAndOnlyThen() throws {
    var options = DurableStoreOptions()
    options.checkpointRecords = 1_000
    options.checkpointRecordsReplayed = 4
    options.checkpointsAfterSteps = false
    for reading in 1...4 {
      meter.reading = reading
      try inOneProcess(options) { store in
        #expect(try !store.checkpointIfDue(), "open \(reading) replayed \(reading - 1) records")
        try store.send(.add(1))
      }
    }
    meter.reading = 5
    try inOneProcess(options) { store in
      #expect(try store.checkpointIfDue(), "the fifth open replayed four")
      #expect(store.state.meterAtCheckpoint == 5)
      #expect(try !store.checkpointIfDue(), "written: due no more")
      try store.send(.add(1))
    }
    // One record since the checkpoint.
    #expect(try !inOneProcess(options) { try $0.checkpointIfDue() })

    // Without the option, the journal replays on: only the thousand records would do.
    options.checkpointRecordsReplayed = nil
    for _ in 1...5 { try inOneProcess(options) { try $0.send(.add(1)) } }
    #expect(try !inOneProcess(options) { try $0.checkpointIfDue() })
    #expect(try inOneProcess(options) { $0.state } == Metered.State(count: 10, meterAtCheckpoint: 5))
  }

  @Test func anOpenThatReplayedFewerBytesThanTheLastCheckpointTakesNone() async throws {
    let till = try Till()
    till.options.checkpointRecordsReplayed = 2
    till.options.checkpointsAfterSteps = false
    var store: DurableStore<Tea>? = try till.open()
    // A checkpoint of forty long orders holds more bytes than two short ones.
    for order in 1...40 { try store?.send(.order(String(repeating: "sencha ", count: 20) + "\(order)")) }
    try store?.checkpoint()
    try store?.send(.order("bancha"))
    try store?.send(.order("hojicha"))
    await store?.finish()
    store = nil
    store = try till.open()
    #expect(try store?.checkpointIfDue() == false, "two orders, fewer bytes than the checkpoint")
    for order in 1...40 { try store?.send(.order(String(repeating: "gyokuro ", count: 20) + "\(order)")) }
    await store?.finish()
    store = nil
    store = try till.open()
    #expect(try store?.checkpointIfDue() == true)
  }

  @Test func aCheckpointKeepsWhatTheEnvironmentKnowsAndTheStoreGoesOnFromIt() throws {
    var store: DurableStore<Metered>? = try open()
    try store?.send(.add(2))
    meter.reading = 7
    try store?.checkpoint()
    #expect(store?.state == Metered.State(count: 2, meterAtCheckpoint: 7))
    try store?.send(.add(3))
    // Moved after the checkpoint: no record says so, and the next open does not know it.
    meter.reading = 9
    let live = try #require(store?.state)
    store = nil

    let reopened = try open()
    #expect(reopened.state == live)
    #expect(reopened.state == Metered.State(count: 5, meterAtCheckpoint: 7))
  }

  @Test func aPeriodsOpeningCheckpointKeepsWhatTheEnvironmentKnewThen() throws {
    var store: DurableStore<Metered>? = try open()
    try store?.send(.add(1))
    meter.reading = 4
    try store?.closePeriod(into: folder.path("period-1.journal"))
    #expect(store?.state == Metered.State(count: 1, meterAtCheckpoint: 4, meterAtPeriodStart: 4))
    meter.reading = 5
    store = nil

    #expect(try open().state == Metered.State(count: 1, meterAtCheckpoint: 4, meterAtPeriodStart: 4))
    // The period's closing checkpoint kept the meter too: the archive says where it closed.
    let archived = try DurableStore<Metered>.read(at: folder.path("period-1.journal"), initial: Metered.State())
    #expect(archived.state == Metered.State(count: 1, meterAtCheckpoint: 4))
  }

  @Test func aPeriodsDerivedFilesGoWithItsArchive() throws {
    var store: DurableStore<Metered>? = try open()
    try store?.send(.add(1))
    // Not there yet, but the name is the store's: an archive there would be moved away as the derived file.
    #expect(throws: DurableStoreError.archiveExists(path: path + ".tally")) {
      try store?.closePeriod(into: path + ".tally")
    }
    try Data("one\n".utf8).write(to: URL(fileURLWithPath: path + ".tally"))
    try store?.closePeriod(into: folder.path("period-1.journal"))
    store = nil

    #expect(!FileManager.default.fileExists(atPath: path + ".tally"), "the next period starts with no derived file")
    let moved = try Data(contentsOf: URL(fileURLWithPath: folder.path("period-1.journal.tally")))
    #expect(String(decoding: moved, as: UTF8.self) == "one\n")
  }
}

/// `Metered` whose format ends a period right after its last step, as a
/// format whose journals never had a checkpoint there keeps them.
enum PlainEnd: DurableFeature {
  typealias Request = NoRequest
  typealias State = Metered.State
  typealias Action = Metered.Action
  typealias Effect = Metered.Effect
  typealias Outcome = Metered.Outcome
  typealias Format = PlainEndFormat

  static func name(of action: Action) -> String { Metered.name(of: action) }
  static func step(_ state: inout State, _ action: Action) -> StepResult<Effect, Outcome> {
    Metered.step(&state, action)
  }
  static func tasks(after action: Action, state: State, result: StepResult<Effect, Outcome>, environment: Void)
    -> [EffectTask<Action>]
  { [] }
}

/// The canonical format, with no checkpoint before a period's end.
enum PlainEndFormat: CanonicalVariantFormat {
  typealias Model = PlainEnd
  static var checkpointsPeriodEnd: Bool { false }
}

@MainActor @Test func aFormatMayEndAPeriodRightAfterItsLastStep() throws {
  let folder = try TemporaryDirectory(prefix: "plain-end")
  let path = folder.path("plain.journal")
  var store: DurableStore<PlainEnd>? = try DurableStore<PlainEnd>.open(
    at: path, initial: Metered.State(), environment: ())
  try store?.send(.add(2))
  try store?.send(.add(3))
  try store?.closePeriod(into: "period-1.journal")
  store = nil

  let archive = try DurableJournal.read(path: folder.path("period-1.journal"))
  #expect(archive.count == 3, "two steps and the period's end")
  #expect(archive.lastCheckpoint == nil)
  let read = try DurableStore<PlainEnd>.read(at: folder.path("period-1.journal"), initial: Metered.State())
  #expect(read.state.count == 5)
  #expect(read.ended?.period == 0)
  #expect(try DurableStore<PlainEnd>.open(at: path, initial: Metered.State(), environment: ()).state.count == 5)
}
