import Foundation
import KioskFeatures
import ScenarioTesting
import Testing

#if canImport(LinkGenCore)
  import LinkGenCore
#endif

/// The repository's root, from this file's path.
let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
  .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

/// `Tests/Recordings`: one canonical JSON file per leaf.
let recordings = RecordingStore(root: repositoryRoot.appendingPathComponent("Tests/Recordings"))

/// Every leaf replayed against its recording: `make test` compares, `make record` writes.
@Suite struct ScenarioRecordingTests {
  @Test("each leaf matches its recording", arguments: allLeaves)
  @MainActor func leafMatchesItsRecording(_ leaf: ScenarioLeaf<KioskModel>) async {
    await recordings.check(leaf)
  }

  @Test func everyRecordingHasALeafAndEveryLeafItsOwnRecording() throws {
    let leaves = allLeaves.map { "\($0.feature.name)/\($0.fixture)" }
    let duplicates = Dictionary(grouping: leaves, by: { $0 }).filter { $0.value.count > 1 }.keys.sorted()
    #expect(duplicates.isEmpty, "two leaves would share a recording: \(duplicates)")
    let stale = Set(recordings.recordingsOnDisk()).subtracting(leaves).sorted()
    if recordings.isRecording {
      for name in stale {
        try FileManager.default.removeItem(at: recordings.root.appendingPathComponent(name + ".json"))
      }
    } else {
      #expect(stale.isEmpty, "recordings with no leaf (renamed or removed?): \(stale); run `make record`")
    }
  }

  #if canImport(LinkGenCore)
    // In the umbrella build only: a package built alone does not have linkgen.
    @Test func theManifestListsEachFeatureWithItsScenarioFileAndFixtures() throws {
      let text = try String(contentsOf: repositoryRoot.appendingPathComponent("codegen.yaml"), encoding: .utf8)
      let manifest = try ManifestDecoder.decode(text)
      #expect(manifest.features.map(\.name).sorted() == KioskFeatures.all.map(\.name).sorted())
      for feature in manifest.features {
        let leaves = allLeaves.filter { $0.feature.name == feature.name }
        let listed = Set(feature.fixtures)
        let fixtures = Set(leaves.map(\.fixture))
        #expect(
          listed == fixtures,
          """
          codegen.yaml's fixtures of '\(feature.name)' are not its leaves: \
          add \(fixtures.subtracting(listed).sorted()), remove \(listed.subtracting(fixtures).sorted())
          """)
        let files = Set(leaves.map { ($0.location.fileID as NSString).lastPathComponent })
        #expect(
          files == [(feature.scenario as NSString).lastPathComponent], "'\(feature.name)' scenarios live in \(files)")
      }
    }
  #endif

  @Test func thereAreAtLeastTwentyFiveLeaves() {
    #expect(allLeaves.count >= 25)
  }
}
