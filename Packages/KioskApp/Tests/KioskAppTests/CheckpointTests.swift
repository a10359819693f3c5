import Foundation
import Journal
import KioskApp
import KioskCommands
import Menu
import Payment
import Stock
import Tabs
import Testing
import _ServiceLinkerTestSupport

/// Runs `count` random commands (opens, adds, removes, settles, restocks,
/// undos) on `shell`; refusals are part of the stream.
@MainActor
private func runRandomCommands(_ shell: TillShell, count: Int, random: inout SeededGenerator) async throws {
  for _ in 0..<count {
    let tabs = shell.snapshot.tabs.open.keys.sorted()
    let tab = tabs.randomElement(using: &random) ?? Tab.ID(raw: 1)
    let item = Item.ID(raw: Int.random(in: 1...5, using: &random))
    switch Int.random(in: 0..<10, using: &random) {
    case 0, 1: _ = try? await shell.openTab(for: "Guest")
    case 2, 3, 4: try? await shell.add(item, to: tab)
    case 5: try? await shell.remove(item, from: tab)
    case 6: _ = try? await shell.settle(tab)
    case 7: try? await shell.restock(.milk, count: Int.random(in: 1...20, using: &random))
    default: _ = try await shell.undo()
    }
  }
}

/// Every record of the journal file except its checkpoints, replayed from
/// scratch: what opening would give with no checkpoint at all.
private func fullReplay(of path: String) throws -> (KioskSnapshot, [UndoHistory.Entry]) {
  var world = ReplayWorld()
  var progress = KioskReplay.Progress()
  try KioskJournalReader.walk(path: path) { sequence, entry in
    if case .record(let record) = entry {
      try KioskReplay.apply(record, sequence: sequence, to: &world, progress: &progress)
    }
  }
  return (world.snapshot, progress.history.entries)
}

/// Opening from a checkpoint gives byte-identical state, the same undo
/// history and the same open intents as a replay of every record from the
/// first, over random command streams with a checkpoint every few records.
@MainActor
@Test(arguments: [UInt64(11), 12, 13, 14, 15, 16])
func openingFromACheckpointGivesTheStateOfAFullReplay(seed: UInt64) async throws {
  var random = SeededGenerator(seed: seed)
  let journal = try TemporaryJournal()
  let live: KioskSnapshot
  do {
    let shell = try await journal.openTill(checkpointEvery: Int.random(in: 3...20, using: &random))
    try await runRandomCommands(shell, count: 250, random: &random)
    live = shell.snapshot
  }
  let recovery = try DurableJournal.read(path: journal.path)
  #expect(recovery.startedAtCheckpoint, "seed \(seed): opening started at a checkpoint")
  let reopened = try await journal.openTill()
  let (replayed, undo) = try fullReplay(of: journal.path)
  #expect(reopened.snapshot.canonicalJSON() == replayed.canonicalJSON(), "seed \(seed)")
  #expect(reopened.snapshot.canonicalJSON() == live.canonicalJSON(), "seed \(seed)")
  #expect(reopened.undoDepth == undo.count, "seed \(seed)")
  #expect(recovery.count < 260, "only the records after the last checkpoint are read")
  // The undo history came through the checkpoint: undoing everything lands where a full replay's undo does.
  var reference = ReplayWorld()
  reference.restore(replayed)
  for _ in 0..<undo.count { _ = try await reopened.undo() }
  #expect(reopened.undoDepth == 0)
  let verified = try KioskVerifier.replay(path: journal.path)
  #expect(verified.checkpoints > 0)
  #expect(verified.state.canonicalJSON() == reopened.snapshot.canonicalJSON())
}

@MainActor
@Test func aCheckpointIsWrittenOnlyAfterAsManyBytesOfRecordsAsItHolds() async throws {
  let journal = try TemporaryJournal()
  let shell = try await journal.openTill(checkpointEvery: 5)
  for index in 0..<60 { _ = try await shell.openTab(for: "Guest \(index) with a long name to make a big state") }
  var checkpoints: [Int] = []
  try KioskJournalReader.walk(path: journal.path) { sequence, entry in
    if case .checkpoint = entry { checkpoints.append(sequence) }
  }
  // Each checkpoint holds every tab so far, so they grow further apart than every 5 records.
  #expect(checkpoints.count >= 2)
  let gaps = zip(checkpoints.dropFirst(), checkpoints).map { $0 - $1 }
  #expect(gaps.allSatisfy { $0 > 5 } && gaps == gaps.sorted(), "\(checkpoints)")
}

/// A kill while a checkpoint is being written leaves a torn checkpoint at the
/// end of the file: the next open cuts it and starts from the checkpoint
/// before, with every acknowledged command.
@MainActor
@Test func aTornCheckpointLosesNothingAcknowledged() async throws {
  let journal = try TemporaryJournal()
  let acknowledged: KioskSnapshot
  do {
    let shell = try await journal.openTill(checkpointEvery: 4)
    for index in 0..<10 { _ = try await shell.openTab(for: "Guest \(index)") }
    acknowledged = shell.snapshot
  }
  let beforeCheckpoint = journal.bytes.count
  do {
    let shell = try await journal.openTill()
    try shell.store.checkpoint()
  }
  // The checkpoint, cut short as a kill would leave it.
  let whole = journal.bytes
  try whole.prefix(beforeCheckpoint + (whole.count - beforeCheckpoint) / 2).write(
    to: URL(fileURLWithPath: journal.path))
  let reopened = try await journal.openTill()
  #expect(reopened.journalRecovery.droppedBytes > 0)
  #expect(reopened.snapshot == acknowledged)
  let (replayed, _) = try fullReplay(of: journal.path)
  #expect(replayed == acknowledged)
}

/// A checkpoint whose state is not what the records before it replay to is
/// caught by `verify`, naming the record: never silently trusted by an audit.
@MainActor
@Test func verifyCatchesACheckpointThatDisagreesWithTheReplay() async throws {
  let journal = try TemporaryJournal()
  do {
    let shell = try await journal.openTill()
    _ = try await shell.openTab(for: "Ada")
  }
  do {
    // A well-formed checkpoint (valid checksum) with a wrong state, as a bug would write it.
    var log = try DurableJournal(path: journal.path)
    var state = try KioskVerifier.replay(path: journal.path).state
    state.stock.units[.milk] = 999
    try log.appendCheckpoint(
      KioskCheckpoint(day: 1, state: state, undo: [], openIntents: [], paymentsJournaled: false))
  }
  #expect(throws: KioskVerifier.Failure.self) { _ = try KioskVerifier.replay(path: journal.path) }
  do {
    _ = try KioskVerifier.replay(path: journal.path)
  } catch let failure as KioskVerifier.Failure {
    #expect(failure.description.contains("the checkpoint at record 3"))
  }
}

/// A day of random commands after tabs for `customers` (names the encoder
/// escapes), with a checkpoint every few records, read back whole, in a
/// journal of `version` (format 2 unless told: the encoder's checkpoints).
@MainActor
func randomDayWithCheckpoints(
  seed: UInt64, customers: [String], version: UInt16 = JournalFormat.encoderVersion
) async throws -> JournalRecovery {
  var random = SeededGenerator(seed: seed)
  let journal = try TemporaryJournal()
  let shell = try await journal.openTill(
    newFileVersion: version, checkpointEvery: Int.random(in: 3...9, using: &random))
  for name in customers { _ = try await shell.openTab(for: name) }
  try await runRandomCommands(shell, count: 120, random: &random)
  return try DurableJournal.read(path: journal.path)
}

/// A checkpoint writes its own bytes (the tabs by hand, the rest through the
/// encoder): for every checkpoint of a random day, the writer gives the bytes
/// `JSONEncoder` gives for the same value, and they decode to it. (The undo
/// steps hold dictionaries the encoder writes in hash order, so the bytes are
/// compared for one value in one process, not across a decode.)
@MainActor
@Test(arguments: [UInt64(21), 22, 23])
func everyCheckpointWrittenIsTheEncodersBytes(seed: UInt64) async throws {
  let recovery = try await randomDayWithCheckpoints(
    seed: seed, customers: ["Ada \"the\" /Lovelace/", "Zoë \\ ☕️", "Grace"])
  // The journal's own encoder: the writer must give its bytes.
  let encoder = JournalJSONWriter.makeEncoder()
  var compared = 0
  for index in 0..<recovery.count where recovery.isCheckpoint(index) {
    let checkpoint = try JSONDecoder().decode(KioskCheckpoint.self, from: Data(recovery.payload(index)))
    var writer = JournalJSONWriter()
    #expect(checkpoint.writeJournal(to: &writer))
    let expected = Array(try encoder.encode(checkpoint))
    #expect(writer.bytes == expected, "seed \(seed), record \(index)")
    #expect(try JSONDecoder().decode(KioskCheckpoint.self, from: Data(writer.bytes)) == checkpoint)
    // Written after another value, it is still one element of valid JSON.
    var list = JournalJSONWriter()
    list.beginArray()
    list.int(1)
    #expect(checkpoint.writeJournal(to: &list))
    list.endArray()
    #expect(list.bytes == Array("[1,".utf8) + expected + Array("]".utf8))
    compared += 1
  }
  #expect(compared > 0)
}

/// Every checkpoint of a random day reads by hand as `JSONDecoder` reads it;
/// bytes in another form (whitespace, another escape) are left to the decoder.
@MainActor
@Test(arguments: [UInt64(31), 32, 33])
func everyCheckpointReadsAsTheDecoderReadsIt(seed: UInt64) async throws {
  let recovery = try await randomDayWithCheckpoints(
    seed: seed, customers: ["Ada \"the\" /Lovelace/", "Zoë \\ ☕️", "Grace é"])
  var compared = 0
  for index in 0..<recovery.count where recovery.isCheckpoint(index) {
    let payload = recovery.payload(index)
    let decoded = try JSONDecoder().decode(KioskCheckpoint.self, from: Data(payload))
    let read = try #require(KioskCheckpoint.readJournal(payload), "seed \(seed), record \(index)")
    #expect(read == decoded, "seed \(seed), record \(index)")
    // The same checkpoint with a space after a colon in its tabs: the decoder's.
    let text = String(decoding: payload, as: UTF8.self)
    let spaced = text.replacingOccurrences(of: #""open":["#, with: #""open": ["#)
    #expect(KioskCheckpoint.readJournal(Array(spaced.utf8)[...]) == nil)
    #expect(try JSONDecoder().decode(KioskCheckpoint.self, from: Data(spaced.utf8)) == decoded)
    // A customer's letter as a \u escape, wherever the name is (an open tab, or
    // a settled one in the undo history): the part holding it is the
    // decoder's, and the whole reads to the decoder's value.
    let escaped = text.replacingOccurrences(of: "Zo", with: #"Z\u006f"#)
    if escaped != text {
      let bytes = Array(escaped.utf8)[...]
      #expect(try KioskCheckpoint.decoded(from: bytes) == decoded)
      #expect(try JSONDecoder().decode(KioskCheckpoint.self, from: Data(bytes)) == decoded)
    }
    compared += 1
  }
  #expect(compared > 0)
}

/// A checkpoint's undo history reads by hand, every kind of step, to what
/// `JSONDecoder` reads; the whole checkpoint then reads to the decoder's value.
@MainActor
@Test func theUndoHistoryReadsByHandWithEveryKindOfStep() async throws {
  let journal = try TemporaryJournal()
  let shell = try await journal.openTill(newFileVersion: JournalFormat.encoderVersion)
  let ada = try await shell.openTab(for: "Ada")
  try await shell.add(Item.ID(raw: 1), to: ada)
  try await shell.add(Item.ID(raw: 4), to: ada)
  try await shell.remove(Item.ID(raw: 1), from: ada)
  try await shell.restock(.milk, count: 3)
  _ = try await shell.settle(ada)
  try shell.store.checkpoint()
  let recovery = try DurableJournal.read(path: journal.path)
  let index = try #require((0..<recovery.count).last { recovery.isCheckpoint($0) })
  let payload = recovery.payload(index)
  let decoded = try JSONDecoder().decode(KioskCheckpoint.self, from: Data(payload))
  let kinds = Set(
    decoded.undo.map { entry in
      switch entry.step {
      case .closeTab: "closeTab"
      case .dropLastLine: "dropLastLine"
      case .insertLine: "insertLine"
      case .reopen: "reopen"
      case .unrestock: "unrestock"
      }
    })
  #expect(kinds.count == 5, "\(kinds)")
  let key = Array(#""undo":"#.utf8)
  let at = try #require(
    payload.indices.first { payload[$0...].starts(with: key) }, "no undo history in the checkpoint")
  var reader = JournalJSONReader(payload[...], at: at + key.count)
  #expect(reader.undoEntries() == decoded.undo)
  #expect(KioskCheckpoint.readJournal(payload[...]) == decoded)
}
