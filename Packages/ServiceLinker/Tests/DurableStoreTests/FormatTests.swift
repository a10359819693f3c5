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
    var store: DurableStore<Tea>? = try till.open()
    try store?.send(.charged("tip"))
    store = nil
    let before = try Data(contentsOf: URL(fileURLWithPath: till.path))
    #expect {
      _ = try till.open(as: TextTea.self)
    } throws: { error in
      guard case DurableStoreError.replay(let sequence, _) = error else { return false }
      return sequence == 1
    }
    #expect(try Data(contentsOf: URL(fileURLWithPath: till.path)) == before)
  }
}
