import CanonicalJSON
import DurableStore
import Foundation
import Journal
import Testing

/// A feature that names its own format (`TextTea`) runs on the store as one
/// on the canonical format does: its records and checkpoints are its own.
@MainActor @Suite struct FormatTests {
  @Test func aStoreWritesAndReplaysTheFeaturesOwnFormat() async throws {
    let till = try Till()
    till.options.checkpointBytes = 300
    var store: DurableStore<TextTea>? = try till.open(as: TextTea.self)
    try await till.stepEveryKind(on: store, givenUp: "pu-erh \"strong\"\t\n")
    let state = try #require(store?.state)
    store = nil

    let journal = try DurableJournal.read(path: till.path)
    let heads = (0..<journal.count).map { String(decoding: journal.payload($0).prefix { $0 != 9 }, as: UTF8.self) }
    #expect(Set(heads).isSubset(of: ["send", "fed", "undo", "outcome", "tea-checkpoint"]), "\(heads)")
    #expect(heads.contains("tea-checkpoint"), "a checkpoint was taken by size, in the format")
    till.cards.hang(false)
    let reopened = try till.open(as: TextTea.self)
    await reopened.finish()
    #expect(reopened.state == state)
    #expect(reopened.state.ordered == ["chai", "pu-erh \"strong\"\t\n"], "the undo took back the green tea")
    #expect(reopened.state.refunded == ["pu-erh \"strong\"\t\n"])
    #expect(try DurableStore<TextTea>.read(at: till.path, initial: Tea.State()).state == state)
  }

  @Test func aPeriodClosesIntoAnArchiveOfTheFeaturesFormat() async throws {
    let till = try Till()
    var store: DurableStore<TextTea>? = try till.open(as: TextTea.self)
    try store?.send(.order("sencha"))
    await store?.finish()
    try store?.closePeriod(into: till.folder.path("day-1.journal"))
    try store?.send(.order("genmaicha"))
    await store?.finish()
    store = nil
    let archive = try DurableStore<TextTea>.read(at: till.folder.path("day-1.journal"), initial: Tea.State())
    #expect(archive.state.ordered == ["sencha"])
    let reopened = try till.open(as: TextTea.self)
    #expect(reopened.state.ordered == ["sencha", "genmaicha"])
    #expect(reopened.period == 1)
  }

  @Test func aJournalOfAnotherFormatIsRefusedAtItsFirstRecordAndKeptAsItWas() async throws {
    let till = try Till()
    do {
      // Canonical records in a journal of the text format's version.
      var journal = try DurableJournal(path: till.path, newFileVersion: JournalFormat.encoderVersion)
      var framed = JournalFormat.reservedFrame
      CanonicalDurableFormat<Tea>.writeRecord(
        .sent, .charged("tip"), [], result: nil, version: JournalFormat.canonicalVersion, to: &framed)
      try journal.append(framed: &framed)
    }
    let before = try Data(contentsOf: URL(fileURLWithPath: till.path))
    #expect {
      _ = try till.open(as: TextTea.self)
    } throws: { error in
      guard case DurableStoreError.replay(let sequence, _) = error else { return false }
      return sequence == 1
    }
    #expect(try Data(contentsOf: URL(fileURLWithPath: till.path)) == before)
  }

  @Test func aJournalOfAVersionTheFormatDoesNotReadIsRefusedAndKeptAsItWas() async throws {
    let till = try Till()
    var store: DurableStore<Tea>? = try till.open()
    try store?.send(.charged("tip"))
    store = nil
    let before = try Data(contentsOf: URL(fileURLWithPath: till.path))
    let refusal = DurableStoreError.unsupportedVersion(JournalFormat.canonicalVersion, path: till.path)
    #expect(throws: refusal) { _ = try till.open(as: TextTea.self) }
    #expect(throws: refusal) { _ = try DurableStore<TextTea>.read(at: till.path, initial: Tea.State()) }
    #expect(try Data(contentsOf: URL(fileURLWithPath: till.path)) == before)
    #expect(refusal.description.contains("version 3"))
  }

  @Test func aJournalBegunInAnOlderFormGoesOnInItAndTheNextPeriodBeginsInTheNewest() async throws {
    let till = try Till()
    till.options.checkpointBytes = 1
    var old: DurableStore<TextTea>? = try till.open(as: TextTea.self)
    try old?.send(.charged("sencha"))
    old = nil
    #expect(try DurableJournal.read(path: till.path).version == JournalFormat.encoderVersion)

    var store: DurableStore<ChangedTea>? = try till.open(as: ChangedTea.self)
    try store?.send(.charged("bancha"))
    try store?.send(.charged("hojicha"))
    let archive = till.folder.path("day-1.journal")
    try store?.closePeriod(into: archive)
    try store?.send(.charged("matcha"))
    store = nil

    // The day begun in version 2 holds text to its end, its checkpoints too;
    // the next is of version 3 and holds canonical JSON from its first checkpoint.
    #expect(try DurableJournal.read(path: archive).version == JournalFormat.encoderVersion)
    // A reader starts at the last checkpoint: the archive's bytes show every record.
    let day1 = String(decoding: try Data(contentsOf: URL(fileURLWithPath: archive)), as: UTF8.self)
    #expect(day1.components(separatedBy: "send\t").count - 1 == 3)
    #expect(day1.components(separatedBy: "tea-checkpoint\t").count - 1 >= 2, "by size, and the period's end")
    #expect(!day1.contains(#"{"action""#))
    #expect(day1.contains("end\t\"\(archive)\"\t0\t-\t[]"), "the period's end, in text")
    let day2 = try DurableJournal.read(path: till.path)
    #expect(day2.version == JournalFormat.canonicalVersion)
    for index in 0..<day2.count {
      let payload = Array(day2.payload(index))
      #expect(try JSONValue.parse(payload).compactBytes == payload)
    }
    #expect(try DurableStore<ChangedTea>.read(at: archive, initial: Tea.State()).state.charged.count == 3)
    let reopened = try till.open(as: ChangedTea.self)
    #expect(reopened.period == 1)
    #expect(reopened.state.charged == ["sencha", "bancha", "hojicha", "matcha"])
  }
}
