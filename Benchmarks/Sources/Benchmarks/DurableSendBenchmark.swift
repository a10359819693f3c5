import CanonicalJSON
import DurableStore
import FeatureKit
import Foundation

/// The cost of one durable `send`: a feature shaped like the Reminders
/// example's `set` (a reminder appended, its timer started) run on a
/// `DurableStore`, so callgrind can count the instructions inside `send`
/// against the kiosk's `openTab`.
enum DurableSendBenchmark {
  /// Opens a store in a temporary folder and sends `sends` reminders, each with an hour's timer.
  @MainActor static func sendCost(sends: Int) throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("durable-bench-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let store = try DurableStore<BenchReminders>.open(
      at: folder.appendingPathComponent("reminders.journal").path, initial: BenchReminders.State(),
      environment: ContinuousClock())
    for index in 0..<sends {
      let action = BenchReminders.Action.set(title: "reminder \(index)", seconds: 3_600)
      if index == 0 {
        var written: [UInt8] = []
        action.writeCanonical(to: &written)
        precondition(written == action.canonical.compactBytes, "the hand writer is not the canonical text")
      }
      try store.send(action)
    }
  }
}

/// Reminders' `set` and its timer, as the benchmark sends it.
enum BenchReminders: DurableFeature {
  struct State: Codable, Equatable, Sendable, CanonicalCodable {
    var pending: [String] = []
  }

  enum Action: Codable, Equatable, Sendable, CanonicalCodable {
    case set(title: String, seconds: Int)
    case ring(title: String)

    /// Whether `writeCanonical` writes by hand (as `Reminders.Action` does) or through `Codable`.
    nonisolated(unsafe) static var handWritten = true

    /// The canonical text by hand, as the Reminders example writes its actions.
    func writeCanonical(to out: inout [UInt8]) {
      guard Self.handWritten else { return canonical.writeCompact(to: &out) }
      switch self {
      case .set(let title, let seconds):
        JSONValue.writeLiteral(#"{"set":{"seconds":"#, to: &out)
        JSONValue.writeInteger(seconds, to: &out)
        JSONValue.writeLiteral(#","title":"#, to: &out)
        JSONValue.writeString(title, to: &out)
        JSONValue.writeLiteral("}}", to: &out)
      case .ring(let title):
        JSONValue.writeLiteral(#"{"ring":{"title":"#, to: &out)
        JSONValue.writeString(title, to: &out)
        JSONValue.writeLiteral("}}", to: &out)
      }
    }
  }

  struct Effect: Codable, Equatable, Sendable, CanonicalEncodable {}
  struct Outcome: Codable, Equatable, Sendable, CanonicalEncodable {}
  typealias Request = NoRequest
  typealias Environment = ContinuousClock

  static func name(of action: Action) -> String {
    switch action {
    case .set: "set"
    case .ring: "ring"
    }
  }

  static func step(_ state: inout State, _ action: Action) -> StepResult<Effect, Outcome> {
    switch action {
    case .set(let title, _): state.pending.append(title)
    case .ring(let title): state.pending.removeAll { $0 == title }
    }
    return StepResult(effects: [], outcome: Outcome())
  }

  static func tasks(after action: Action, state: State, result: StepResult<Effect, Outcome>, environment: Environment)
    -> [EffectTask<Action>]
  {
    guard case .set(let title, let seconds) = action else { return [] }
    return [.after(.seconds(seconds), on: environment, id: title, send: .ring(title: title))]
  }
}
