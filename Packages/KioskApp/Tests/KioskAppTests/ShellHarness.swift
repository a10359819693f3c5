import Clock
import ClockTesting
import FeatureTesting
import Foundation
import Journal
import KioskApp
import Menu
import Payment
import Tabs
import Testing
import VirtualTime
import _ServiceLinkerTestSupport

/// A shell on virtual time, in the spirit of seed 002's `Store`: a test
/// `send`s commands, states the effects they started (`expectEffects`) and
/// what each effect fed back (`receive`), moves the clock (`advance`), and
/// ends with `finish()` or `teardown()`. The exhaustive checks are the
/// framework's `EffectHarness`; this adds the kiosk's commands and outcomes.
@MainActor
final class ShellHarness {
  /// The clock every effect waits on.
  let clock = TestClock()
  /// The shell under test, on a journal and processor ledger in a temporary
  /// folder; nil after `close()`.
  private(set) var shell: KioskShell!
  let journal: TemporaryJournal
  private var effects: EffectHarness<KioskShell>!

  /// A command a test sends.
  enum Command {
    case open(String)
    case add(Item.ID, Tab.ID)
    case remove(Item.ID, Tab.ID)
    /// A settle whose processor call runs off the main actor.
    case settle(Tab.ID)
    /// An undo; a settle's refund runs off the main actor.
    case undo
  }

  /// What an effect fed back, with what varies from run to run (the charge's
  /// reference, the receipt's wall-clock time) left out.
  enum Received: Equatable, CustomStringConvertible {
    case settled(Tab.ID, total: Decimal)
    case undone(Tab.ID)
    case declined(Tab.ID, reason: String)
    case unresolved(Tab.ID, attempts: [Duration])
    case notJournaled(Tab.ID)

    init(_ outcome: EffectOutcome) {
      switch outcome {
      case .settled(let receipt): self = .settled(receipt.tab, total: receipt.total)
      case .undone(let tab, _, _): self = .undone(tab)
      case .declined(let tab, _, let reason): self = .declined(tab, reason: reason)
      case .unresolved(let tab, _, let attempts): self = .unresolved(tab, attempts: attempts)
      case .notJournaled(let tab, _, _), .declineNotJournaled(let tab, _, _): self = .notJournaled(tab)
      }
    }

    var description: String {
      switch self {
      case .settled(let tab, let total): "settled tab #\(tab.raw) for \(total)"
      case .undone(let tab): "undid the settle of tab #\(tab.raw), refunded"
      case .declined(let tab, let reason): "declined tab #\(tab.raw): \(reason)"
      case .unresolved(let tab, let attempts): "unresolved tab #\(tab.raw) after attempts at \(attempts)"
      case .notJournaled(let tab): "not journaled: tab #\(tab.raw)"
      }
    }
  }

  /// A shell on a fresh journal whose processor is reached over `network`.
  init(
    network: ProcessorNetwork = .direct, policy: PaymentRetryPolicy = .standard, jitter: [Double] = [0],
    fault: LocalProcessor.Fault? = nil
  ) throws {
    journal = try TemporaryJournal()
    let environment = EffectEnvironment(
      clock: VirtualClock(clock), jitter: .sequence(jitter), policy: policy, network: network)
    shell = try KioskShell(
      journal: try DurableJournal(path: journal.path),
      processor: try LocalProcessor(
        path: LocalProcessor.defaultPath(besideJournal: journal.path), fault: fault),
      effects: environment)
    effects = EffectHarness(shell, clock: clock)
  }

  /// Runs `command`; a settle (or an undo of one) starts its effect, which
  /// `expectEffects` must name. Returns once the effect has reached its first
  /// wait on the clock or has fed back, so effects wait in the order they were sent.
  @discardableResult
  func send(_ command: Command) async throws -> EffectID? {
    let id = try start(command)
    if let id { effects.didStart([id.name]) }
    await effects.settle()
    return id
  }

  private func start(_ command: Command) throws -> EffectID? {
    switch command {
    case .open(let customer): _ = try shell.openTab(for: customer)
    case .add(let item, let tab): try shell.add(item, to: tab)
    case .remove(let item, let tab): try shell.remove(item, from: tab)
    case .undo: return try shell.startUndo().effect
    case .settle(let tab): return try shell.startSettle(tab)
    }
    return nil
  }

  /// The effects started since the last call, in order, are exactly `expected`.
  func expectEffects(_ expected: [EffectID], sourceLocation: SourceLocation = #_sourceLocation) {
    effects.expectEffects(expected.map(\.name), sourceLocation: sourceLocation)
  }

  /// Lets in-flight work run, then expects the next outcome an effect fed
  /// back to be `expected`. Fails, naming what waits on the clock, when none came.
  func receive(_ expected: Received, sourceLocation: SourceLocation = #_sourceLocation) async {
    guard let next = await effects.nextFedBack(expecting: "\(expected)", sourceLocation: sourceLocation) else { return }
    #expect(Received(next) == expected, sourceLocation: sourceLocation)
  }

  /// Moves the clock on, running each effect woken to its next wait or its end.
  func advance(by duration: Duration) async {
    await effects.advance(by: duration)
  }

  /// Ends the test: fails for every effect not expected, outcome not
  /// received, effect still in flight, and task still waiting on the clock.
  func finish(sourceLocation: SourceLocation = #_sourceLocation) async {
    if shell == nil { Issue.record("finish() after close(): the shell is gone", sourceLocation: sourceLocation) }
    await effects.finish(sourceLocation: sourceLocation)
  }

  /// Tears the shell down (cancelling what is in flight), then checks as `finish` does.
  func teardown(sourceLocation: SourceLocation = #_sourceLocation) async {
    await effects.teardown(sourceLocation: sourceLocation)
  }

  /// Drops the shell, releasing the journal's lock, so a test can open the journal again.
  func close() { shell = nil }
}

/// The shell as the framework's harness drives it: its effects by task name, what they fed back.
extension KioskShell: EffectRunner {
  public var workInFlight: [String] { effectsInFlight.map(\.name) }
  public var workFedBack: [EffectOutcome] { fedBack }
  public func cancelWork() async { await teardown() }
}
