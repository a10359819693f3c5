import CanonicalJSON
import FeatureKit
import Foundation
import Testing

/// The recordings on disk, `<root>/<feature>/<fixture>.json`, one per leaf:
/// what `make test` compares every leaf with, and what `make record` writes.
public struct RecordingStore: Sendable {
  /// The folder of recordings (`Tests/Recordings`).
  public let root: URL
  /// True under `make record` (`RECORD_SCENARIOS=1`): leaves write their recordings instead of comparing.
  public let isRecording: Bool

  /// The store at `root`.
  public init(root: URL, isRecording: Bool = ProcessInfo.processInfo.environment["RECORD_SCENARIOS"] == "1") {
    self.root = root
    self.isRecording = isRecording
  }

  /// The file of `fixture` of `feature`.
  public func url(feature: String, fixture: String) -> URL {
    root.appendingPathComponent(feature).appendingPathComponent(fixture + ".json")
  }

  /// The path of a recording as the messages show it: relative to the store's parent's parent (the repository).
  func shown(_ url: URL) -> String {
    let base = root.deletingLastPathComponent().deletingLastPathComponent().path + "/"
    return url.path.hasPrefix(base) ? String(url.path.dropFirst(base.count)) : url.path
  }

  /// Every recording on disk, as `feature/fixture`, sorted.
  public func recordingsOnDisk() -> [String] {
    let manager = FileManager.default
    var found: [String] = []
    for feature in (try? manager.contentsOfDirectory(atPath: root.path)) ?? [] {
      for file in (try? manager.contentsOfDirectory(atPath: root.appendingPathComponent(feature).path)) ?? []
      where file.hasSuffix(".json") {
        found.append("\(feature)/\(file.dropLast(5))")
      }
    }
    return found.sorted()
  }

  /// Runs `leaf` and compares its recording with the file, or writes the file when recording.
  @MainActor
  public func check<Model>(_ leaf: ScenarioLeaf<Model>) async {
    guard let fresh = await leaf.run() else { return }
    let url = url(feature: leaf.feature.name, fixture: leaf.fixture)
    let bytes = Data(fresh.prettyText.utf8)
    let existing = try? Data(contentsOf: url)
    if isRecording {
      guard existing != bytes else { return }
      do {
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try bytes.write(to: url, options: .atomic)
      } catch {
        Issue.record("cannot write \(shown(url)): \(error)", sourceLocation: leaf.location)
      }
      return
    }
    guard let existing else {
      Issue.record(
        Comment(rawValue: "\(leaf.testDescription) has no recording at \(shown(url)); run `make record`"),
        sourceLocation: leaf.location)
      return
    }
    let recorded: JSONValue
    do { recorded = try JSONValue.parse(existing) } catch {
      Issue.record(
        Comment(rawValue: "\(shown(url)) is not a recording (\(error)); run `make record`"),
        sourceLocation: leaf.location)
      return
    }
    // The bytes themselves are the contract: a file that parses to the same
    // value but is laid out otherwise is not a recording.
    guard existing == Data(recorded.prettyText.utf8) else {
      Issue.record(
        Comment(rawValue: "\(shown(url)) is not in canonical form (docs/replay.md); run `make record`"),
        sourceLocation: leaf.location)
      return
    }
    // Source lines are kept for the reader, not compared: an edit above a scenario moves them.
    guard let drift = JSONDifference.first(between: recorded.withoutStepLines, and: fresh.withoutStepLines) else {
      return
    }
    Issue.record(
      Comment(
        rawValue: "\(leaf.testDescription) drifted from \(shown(url)) at \(drift.path): "
          + "recorded \(drift.recorded), now \(drift.now). If the change is intended, run `make record` "
          + "and review the diff."),
      sourceLocation: leaf.location(ofRecordingPath: drift.path, in: fresh))
  }
}

/// The first place two JSON values differ, in key order.
public struct JSONDifference: Equatable, Sendable {
  /// Where, from the root.
  public var path: String
  /// The first value's canonical text there ("nothing" when it has none).
  public var recorded: String
  /// The second value's.
  public var now: String

  /// The first difference between `recorded` and `now`, or nil when they are equal.
  public static func first(between recorded: JSONValue, and now: JSONValue, at path: String = "") -> JSONDifference? {
    switch (recorded, now) {
    case (.object(let old), .object(let new)):
      for key in Set(old.keys).union(new.keys).sorted() {
        let inner = path.isEmpty ? key : "\(path).\(key)"
        switch (old[key], new[key]) {
        case (let left?, let right?):
          if let difference = first(between: left, and: right, at: inner) { return difference }
        case (let left?, nil): return JSONDifference(path: inner, recorded: left.compactText, now: "nothing")
        case (nil, let right?): return JSONDifference(path: inner, recorded: "nothing", now: right.compactText)
        case (nil, nil): continue
        }
      }
      return nil
    case (.array(let old), .array(let new)):
      for index in 0..<min(old.count, new.count) {
        if let difference = first(between: old[index], and: new[index], at: "\(path)[\(index)]") { return difference }
      }
      guard old.count != new.count else { return nil }
      return JSONDifference(path: path, recorded: "\(old.count) elements", now: "\(new.count) elements")
    default:
      return recorded == now ? nil : JSONDifference(path: path, recorded: recorded.compactText, now: now.compactText)
    }
  }
}

extension JSONValue {
  /// The recording without each step's `line`.
  var withoutStepLines: JSONValue {
    guard case .object(var members) = self, case .array(let steps)? = members["steps"] else { return self }
    members["steps"] = .array(
      steps.map { step in
        guard case .object(var fields) = step else { return step }
        fields["line"] = nil
        return .object(fields)
      })
    return .object(members)
  }
}
