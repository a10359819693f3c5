import CanonicalJSON

/// The replay server's features, one typed entry each, and the one function
/// it runs per line: a request in, an answer or an error object out
/// (docs/replay.md).
public struct ReplayRegistry: Sendable {
  /// One feature, erased to what the protocol needs: the canonical answer to a state and an action.
  public struct Entry: Sendable {
    /// The feature's name.
    public let name: String
    let answer: @Sendable (JSONCursor, JSONCursor) throws(CanonicalError) -> JSONValue

    /// The entry of `feature`: decodes the state and the action, runs the step, encodes the answer.
    public static func feature<Model>(_ feature: Feature<Model>) -> Entry {
      Entry(name: feature.name) { stateCursor, actionCursor throws(CanonicalError) in
        var state = try Model.State(canonical: stateCursor)
        let action = try Model.Action(canonical: actionCursor)
        let (result, canonicalState) = try feature.step(&state, action)
        return .object(Feature<Model>.answer(canonicalState: canonicalState, result: result))
      }
    }
  }

  private let entries: [String: Entry]

  /// The names of the features, sorted.
  public var featureNames: [String] { entries.keys.sorted() }

  /// A registry of `entries`; two entries may not share a name.
  public init(_ entries: [Entry]) {
    self.entries = Dictionary(entries.map { ($0.name, $0) }) { first, _ in
      preconditionFailure("two replay entries are named '\(first.name)'")
    }
  }

  /// The answer to one request line, as one line of canonical JSON (no newline).
  /// Never throws: a malformed request is answered with
  /// `{"error": {"path": ..., "reason": ...}}`, and the server goes on.
  public func answer(toLine line: some Sequence<UInt8>) -> String {
    do {
      return try answer(to: JSONCursor(JSONValue.parse(line))).compactText
    } catch {
      return JSONValue.object(["error": .object(["path": .string(error.path), "reason": .string(error.reason)])])
        .compactText
    }
  }

  /// The answer to a request `{"action": ..., "feature": ..., "state": ...}`.
  public func answer(to request: JSONCursor) throws(CanonicalError) -> JSONValue {
    _ = try request.object(keys: ["action", "feature", "state"])
    let featureField = try request.field("feature")
    let name = try featureField.string()
    guard let entry = entries[name] else {
      throw featureField.fail("unknown feature '\(name)'; expected one of \(featureNames.joined(separator: ", "))")
    }
    return try entry.answer(request.field("state"), request.field("action"))
  }
}
