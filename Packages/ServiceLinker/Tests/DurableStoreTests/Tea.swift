import CanonicalJSON
import DurableStore
import FeatureKit
import Synchronization

/// A feature with an outside effect, for the store's tests: ordering a tea
/// charges for it at a card service, which feeds `charged` back.
enum Tea: TeaVariant {
  struct State: Codable, Equatable, Sendable, CanonicalCodable {
    var ordered: [String] = []
    var charged: [String] = []
    var refunded: [String] = []
  }

  enum Action: Codable, Equatable, Sendable, CanonicalCodable {
    case order(String)
    case cancel(String)
    case charged(String)
    case chargeFailed(String)
    case brew(String, seconds: Int)
  }

  struct Effect: Codable, Equatable, Sendable, CanonicalEncodable {}

  struct Outcome: Codable, Equatable, Sendable, CanonicalEncodable {
    var refused: String?
  }

  struct Request: Codable, Equatable, Sendable, CanonicalCodable {
    var charge: String
  }

  struct Environment: Sendable {
    var cards: CardService
    var clock: any Clock<Duration>
  }

  static func name(of action: Action) -> String { "\(action)" }

  static func step(_ state: inout State, _ action: Action) -> StepResult<Effect, Outcome> {
    switch action {
    case .order(let name):
      guard !state.ordered.contains(name) else { return StepResult(effects: [], outcome: Outcome(refused: "twice")) }
      state.ordered.append(name)
    case .cancel(let name):
      guard let index = state.ordered.firstIndex(of: name) else {
        return StepResult(effects: [], outcome: Outcome(refused: "none"))
      }
      state.ordered.remove(at: index)
    case .charged(let name): state.charged.append(name)
    case .chargeFailed(let name): state.refunded.append(name)
    case .brew: break
    }
    return StepResult(effects: [], outcome: Outcome())
  }

  /// An order twice, or a cancel of none, changes nothing and is not journaled.
  static func isRefusal(_ outcome: Outcome) -> Bool { outcome.refused != nil }

  static func requests(after action: Action, state: State, result: StepResult<Effect, Outcome>) -> [Request] {
    guard case .order(let name) = action, result.outcome.refused == nil else { return [] }
    return [Request(charge: name)]
  }

  static func tasks(
    after action: Action, state: State, result: StepResult<Effect, Outcome>, environment: Environment
  ) -> [EffectTask<Action>] {
    guard case .brew(let name, let seconds) = action else { return [] }
    let clock = environment.clock
    return [
      EffectTask(id: "brew \(name)") {
        do { try await clock.sleep(for: .seconds(seconds)) } catch { return nil }
        return .order(name)
      }
    ]
  }

  static func perform(_ request: Request, key: IntentKey, environment: Environment) async throws -> Action? {
    try await environment.cards.charge(request.charge, key: key)
    return .charged(request.charge)
  }

  static func reconcile(_ request: Request, key: IntentKey, environment: Environment) async throws
    -> Reconciliation<Action>
  {
    environment.cards.wasCharged(key) ? .completed(feedBack: .charged(request.charge)) : .notPerformed
  }

  static func abandoned(_ request: Request, reason: String) -> Action? { .chargeFailed(request.charge) }

  static func inverse(of action: Action, before: State) -> Action? {
    switch action {
    case .order(let name) where !before.ordered.contains(name): .cancel(name)
    case .cancel(let name) where before.ordered.contains(name): .order(name)
    default: nil
    }
  }

  static var effectPolicy: EffectPolicy { EffectPolicy(attempts: 3, deadline: .seconds(5), backoff: .seconds(1)) }
}

/// A card service outside the process, as the tests play it: it keeps every
/// charge it took with its key, and can be told to fail, to hang, or to hold
/// its calls deaf to cancellation.
final class CardService: Sendable {
  /// What a call held deaf to cancellation does once the hold ends.
  enum Release: Sendable {
    /// It is declined.
    case declined
    /// It goes through, long after its caller stopped waiting.
    case taken
  }

  private let state = Mutex(
    (
      charges: [(key: IntentKey, name: String)](), failuresLeft: 0, hangs: false, losesAnswers: false,
      holding: Release?.none, held: [CheckedContinuation<Release?, Never>](), attempts: 0, questions: 0,
      unreachable: false
    ))

  /// Every charge taken, in order.
  var charges: [String] { state.withLock { $0.charges.map(\.name) } }

  /// How many times a charge was asked for, taken or not.
  var attempts: Int { state.withLock { $0.attempts } }

  /// How many times the service was asked what became of a charge.
  var questions: Int { state.withLock { $0.questions } }

  /// Makes the next `count` charges fail.
  func failNext(_ count: Int) { state.withLock { $0.failuresLeft = count } }

  /// Makes every charge hang until it is cancelled.
  func hang(_ hangs: Bool) { state.withLock { $0.hangs = hangs } }

  /// Makes every charge hang, deaf to cancellation, until `deaf(false)`; then it is declined.
  func deaf(_ deaf: Bool) { hold(deaf ? .declined : nil) }

  /// Makes every charge wait, deaf to cancellation, until `late(false)`;
  /// then it goes through, long after its caller stopped waiting.
  func late(_ late: Bool) { hold(late ? .taken : nil) }

  /// Holds every charge from now on until it is called with nil, when the
  /// calls held end as `release` said.
  private func hold(_ release: Release?) {
    let (waiting, ending) = state.withLock { state in
      defer {
        state.holding = release
        if release == nil { state.held = [] }
      }
      return (release == nil ? state.held : [], state.holding)
    }
    for call in waiting { call.resume(returning: ending) }
  }

  /// Makes the service unreachable: every charge and every question hangs until cancelled.
  func unreachable(_ unreachable: Bool) { state.withLock { $0.unreachable = unreachable } }

  /// Whether the service is unreachable.
  var isUnreachable: Bool { state.withLock { $0.unreachable } }

  /// Makes every charge go through and then hang, as if its answer were lost.
  func loseAnswers(_ loses: Bool) { state.withLock { $0.losesAnswers = loses } }

  func charge(_ name: String, key: IntentKey) async throws {
    let (fails, hangs, losesAnswer) = state.withLock { state -> (Bool, Bool, Bool) in
      state.attempts += 1
      if state.failuresLeft > 0 {
        state.failuresLeft -= 1
        return (true, false, false)
      }
      return (false, state.hangs || state.unreachable, state.losesAnswers)
    }
    if fails { throw CardDeclined() }
    // A held call cancellation does not reach: it ends only when the hold does.
    let released = await withCheckedContinuation { (call: CheckedContinuation<Release?, Never>) in
      let holds = state.withLock { state in
        if state.holding != nil { state.held.append(call) }
        return state.holding != nil
      }
      if !holds { call.resume(returning: nil) }
    }
    if released == .declined { throw CardDeclined() }
    if hangs { try await Task.sleep(for: .seconds(3600)) }
    state.withLock { $0.charges.append((key, name)) }
    if losesAnswer { try await Task.sleep(for: .seconds(3600)) }
  }

  func wasCharged(_ key: IntentKey) -> Bool {
    state.withLock { state in
      state.questions += 1
      return state.charges.contains { $0.key == key }
    }
  }
}

struct CardDeclined: Error {}
