/// The starter's one feature on the Service Linker framework: `Counting`, in
/// `Packages/App/Sources/AppFeatures`, which runs the Counter domain's command
/// through its capability and adds later through timed work; its replay
/// server, its tests (a `TestStore` on virtual time and a recorded scenario),
/// and the scenario's recording, so `make test` and `make replay` pass out of the box.
enum StarterFeatureTemplates {
  /// The scenario's one leaf, and so its recording's name.
  static let fixture = "counting-visits.one-now-two-later"

  static let feature = #"""
    import CanonicalJSON
    import Counter
    import FeatureKit

    /// What the Counting feature reads and writes: the Counter slice, as plain data.
    public struct CountingState: Codable, Equatable, Sendable, CanonicalCodable {
      /// The Counter domain's slice.
      public var counter: CounterState

      /// A state holding `counter`.
      public init(counter: CounterState = CounterState()) { self.counter = counter }
    }

    /// The smallest world that runs Counter's commands: the one slice they write.
    struct CountingWorld: HasMutableCounter {
      var counter: CounterState
    }

    /// Counting visits: now, or after a delay, through timed work on the clock
    /// the app injects (`ContinuousClock` in production, a `TestClock` in tests).
    public enum Counting: FeatureModel {
      public typealias State = CountingState

      /// What the app asks; `add` is also what the timed work feeds back.
      public enum Action: Codable, Equatable, Sendable, CanonicalCodable {
        /// Adds `amount` to `key` now.
        case add(key: String, amount: Int)
        /// Adds `amount` to `key` after `seconds`.
        case addLater(key: String, amount: Int, seconds: Int)
      }

      /// What a step told the world outside.
      public struct Effect: Codable, Equatable, Sendable, CanonicalEncodable {
        /// What was scheduled.
        public var scheduled: String

        /// An effect saying `scheduled`.
        public init(scheduled: String) { self.scheduled = scheduled }
      }

      /// Why an action was refused, if it was.
      public struct Outcome: Codable, Equatable, Sendable, CanonicalEncodable {
        /// The reason; nil when the action went through.
        public var refused: String?

        /// An outcome, refused for `refused` when it is given.
        public init(refused: String? = nil) { self.refused = refused }
      }

      /// What timed work waits on.
      public struct Environment: Sendable {
        /// The clock the timers wait on.
        public var clock: any Clock<Duration>

        /// Work on `clock`.
        public init(clock: any Clock<Duration>) { self.clock = clock }
      }

      /// The feature scenarios pin and `app-replay` serves.
      public static let feature = Feature<Counting>(name: "counting", actions: ["add", "addLater"])

      public static func name(of action: Action) -> String {
        switch action {
        case .add: "add"
        case .addLater: "addLater"
        }
      }

      public static func step(_ state: inout State, _ action: Action) -> StepResult<Effect, Outcome> {
        switch action {
        case .add(let key, let amount):
          guard amount > 0 else { return StepResult(effects: [], outcome: Outcome(refused: "add a positive amount")) }
          var world = CountingWorld(counter: state.counter)
          world.addCounter(amount, for: key)
          state.counter = world.counter
          return StepResult(effects: [], outcome: Outcome())
        case .addLater(let key, let amount, let seconds):
          guard amount > 0, seconds > 0 else {
            return StepResult(effects: [], outcome: Outcome(refused: "add a positive amount after a positive delay"))
          }
          return StepResult(effects: [Effect(scheduled: "\(amount) for \(key) in \(seconds) s")], outcome: Outcome())
        }
      }

      public static func tasks(
        after action: Action, state: State, result: StepResult<Effect, Outcome>, environment: Environment
      ) -> [EffectTask<Action>] {
        guard case .addLater(let key, let amount, let seconds) = action, result.outcome.refused == nil else { return [] }
        // A timer: a store keeps all its timers on one clock in one waiting task.
        return [
          .after(.seconds(seconds), on: environment.clock, id: "add later \(key)", send: .add(key: key, amount: amount))
        ]
      }
    }

    """#

  static let durable = """
    import DurableStore

    /// Counting on a `DurableStore` (docs/durable-store.md in the Service Linker
    /// repository): each step is journaled and synced before `send` returns, and
    /// opening the store replays the journal. A refused step is answered and
    /// not journaled. Counting asks no service outside the process, so there is
    /// nothing more to write; a feature that does names its `Request` and says
    /// how to perform and reconcile one. An `addLater` still waiting when the
    /// process ends is not started again: a feature whose timers must outlive
    /// it keeps them in its state and names them in `resumedTasks`, as the
    /// Reminders example does.
    extension Counting: DurableFeature {
      public typealias Request = NoRequest

      public static func isRefusal(_ outcome: Outcome) -> Bool { outcome.refused != nil }
    }

    """

  static let replayServer = """
    import AppFeatures
    import FeatureKit

    // The replay lane's server (`make replay`): one request per line in, one answer per line out.
    ReplayServer(registry: ReplayRegistry([.feature(Counting.feature)])).run()

    """

  static let tests = #"""
    import AppFeatures
    import Counter
    import DurableStore
    import FeatureKit
    import FeatureTesting
    import Foundation
    import ScenarioTesting
    import Testing
    import VirtualTime

    /// `Tests/Recordings/<feature>/<fixture>.json` at the repository's root, where
    /// `linkgen check` looks for them: `make test` compares each leaf with its
    /// file, `make record` rewrites them.
    let recordings = RecordingStore(
      root: URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Tests/Recordings"))

    /// Counting's behaviour as a tree: each leaf is a test case and a recording.
    let countingScenarios = [
      Scenario(
        Counting.feature, "counting visits", description: "One visit now, two more a minute later.",
        environment: Counting.Environment.init(clock:)
      ) {
        Given(CountingState())
        When("Ada visits", .add(key: "ada", amount: 1))
        Then("she counts one") { $0.counter.counts == ["ada": 1] }
        Branch("one now, two later") {
          When("two more in a minute", .addLater(key: "ada", amount: 2, seconds: 60))
          ThenEffects("it is scheduled") { $0 == [Counting.Effect(scheduled: "2 for ada in 60 s")] }
          Advance("a minute", by: .seconds(60))
          Then("she counts three") { $0.counter.counts == ["ada": 3] }
        }
      }
    ]

    @MainActor @Suite struct CountingTests {
      @Test func anAddLaterArrivesWhenItsTimeComesOnVirtualTime() async {
        let clock = TestClock()
        let store = TestStore(Counting.self, state: .init(), environment: .init(clock: clock), clock: clock)
        await store.send(.addLater(key: "ada", amount: 2, seconds: 60))
        store.expectEffects(["add later ada"])
        await store.advance(by: .seconds(60))
        await store.receive(.add(key: "ada", amount: 2)) { $0.counter.counts = ["ada": 2] }
        await store.finish()
      }

      @Test func countsKeptOnADurableStoreAreThereWhenItOpensAgain() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("counting-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let journal = folder.appendingPathComponent("counting.journal").path
        let clock = TestClock()
        var store: DurableStore<Counting>? = try DurableStore<Counting>.open(
          at: journal, initial: CountingState(), environment: .init(clock: clock), clock: clock)
        try store?.send(.add(key: "ada", amount: 2))
        store = nil
        let reopened = try DurableStore<Counting>.open(
          at: journal, initial: CountingState(), environment: .init(clock: clock), clock: clock)
        #expect(reopened.state.counter.counts == ["ada": 2])
      }

      @Test("each leaf matches its recording", arguments: countingScenarios.flatMap(\.leaves))
      func leafMatchesItsRecording(_ leaf: ScenarioLeaf<Counting>) async {
        await recordings.check(leaf)
      }
    }

    """#

  /// What `make record` writes for the one leaf: the starter ships it, so its tests pass out of the box.
  static let recording = #"""
    {
      "description": "One visit now, two more a minute later.",
      "feature": "counting",
      "given": {
        "counter": {
          "counts": {}
        }
      },
      "leaf": "counting visits › one now, two later",
      "steps": [
        {
          "action": {
            "add": {
              "amount": 1,
              "key": "ada"
            }
          },
          "effects": [],
          "label": "Ada visits",
          "line": 24,
          "outcome": {},
          "received": false,
          "state": {
            "counter": {
              "counts": {
                "ada": 1
              }
            }
          }
        },
        {
          "action": {
            "addLater": {
              "amount": 2,
              "key": "ada",
              "seconds": 60
            }
          },
          "effects": [
            {
              "scheduled": "2 for ada in 60 s"
            }
          ],
          "label": "two more in a minute",
          "line": 27,
          "outcome": {},
          "received": false,
          "state": {
            "counter": {
              "counts": {
                "ada": 1
              }
            }
          }
        },
        {
          "action": {
            "add": {
              "amount": 2,
              "key": "ada"
            }
          },
          "effects": [],
          "label": "fed back: add (after 'a minute')",
          "line": 29,
          "outcome": {},
          "received": true,
          "state": {
            "counter": {
              "counts": {
                "ada": 3
              }
            }
          }
        }
      ]
    }

    """#
}
