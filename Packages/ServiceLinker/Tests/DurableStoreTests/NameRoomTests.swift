import DurableStore
import Foundation
import Testing

/// A journal's name against the longest its folder takes: a store that opens
/// has room for every file it keeps beside the journal, so it can always
/// take a checkpoint and close its period; a name or path without that room
/// is refused before anything is written.
@MainActor @Suite struct NameRoomTests {
  let till: Till

  init() throws { till = try Till() }

  /// A store on the journal at `path`.
  func open(_ path: String) throws -> DurableStore<Tea> {
    try DurableStore<Tea>.open(
      at: path, initial: Tea.State(), environment: Tea.Environment(cards: till.cards, clock: till.clock),
      clock: till.clock)
  }

  func files() throws -> [String] { try FileManager.default.contentsOfDirectory(atPath: till.folder.path("")) }

  @Test func aJournalWhoseNameLeavesNoRoomForTheNextPeriodsIndexIsRefusedBeforeAnythingIsWritten() throws {
    // 255 bytes a name, less `.next.checkpoints` (17): 238 fit, 239 do not.
    let path = till.folder.path(String(repeating: "n", count: 239))
    #expect(
      throws: DurableStoreError.nameWithoutRoom(
        path: path, whole: false, bytes: 239, longest: ".next.checkpoints", limit: 255)
    ) { _ = try open(path) }
    #expect(try files().isEmpty)
  }

  @Test func theLongestNameThatFitsTakesACheckpointAndClosesItsPeriod() async throws {
    let path = till.folder.path(String(repeating: "n", count: 238))
    var store: DurableStore<Tea>? = try open(path)
    try store?.send(.order("sencha"))
    await store?.finish()
    try store?.checkpoint()
    try store?.closePeriod(into: "p1")
    try store?.send(.order("bancha"))
    await store?.finish()
    store = nil
    let kept = try files()
    #expect(kept.contains("p1") && kept.contains("p1.checkpoints") && kept.contains(String(path.suffix(238))))
    #expect(!kept.contains { $0.hasSuffix(".next") })
    let reopened = try open(path)
    #expect(reopened.period == 1)
    #expect(reopened.state.ordered == ["sencha", "bancha"])
  }

  @Test func aJournalWhosePathLeavesNoRoomIsRefusedBeforeAnythingIsWritten() throws {
    // Folders of 250 bytes down to a path of 4,079: its index's would be 4,096, one over.
    var folder = till.folder.url.path + "/"
    while folder.utf8.count < 3_950 { folder += String(repeating: "d", count: 250) + "/" }
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    let path = folder + String(repeating: "j", count: 4_079 - folder.utf8.count)
    #expect(
      throws: DurableStoreError.nameWithoutRoom(
        path: path, whole: true, bytes: 4_079, longest: ".next.checkpoints", limit: 4_095)
    ) { _ = try open(path) }
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder).isEmpty)
    #expect(throws: Never.self) { _ = try open(String(path.dropLast())) }
  }

  @Test func anArchiveWhoseNameLeavesNoRoomForItsIndexIsRefusedAndThePeriodGoesOn() async throws {
    var store: DurableStore<Tea>? = try open(till.path)
    try store?.send(.order("matcha"))
    await store?.finish()
    // An archive of 244 bytes takes the journal's, but not its index's (`.checkpoints`, 12).
    let archive = String(repeating: "a", count: 244)
    #expect {
      try store?.closePeriod(into: archive)
    } throws: { error in
      guard case .archiveFailed(let path, let reason) = error as? DurableStoreError else { return false }
      return path == archive && reason.contains("244 bytes") && reason.contains("NAME.checkpoints")
    }
    #expect(try !files().contains(archive))
    try store?.send(.order("gyokuro"))
    await store?.finish()
    try store?.closePeriod(into: String(archive.dropLast()))
    store = nil
    #expect(try files().contains(String(archive.dropLast())))
    let reopened = try open(till.path)
    #expect(reopened.period == 1)
    #expect(reopened.state.ordered == ["matcha", "gyokuro"])
  }
}
