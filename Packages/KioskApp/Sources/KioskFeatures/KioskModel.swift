import CanonicalJSON
import FeatureKit
import Foundation
import KioskCommands
import Payment
import PaymentTesting
import Synchronization

/// The kiosk's commands as a feature model: a step restores the state into a
/// `ScenarioWorld`, runs the action through `perform(_:history:)` (the code
/// the shell runs, without its journal), and reads the state back. Its
/// effects are the processor mock's `calls`.
public enum KioskModel: FeatureModel {
  public static func name(of action: KioskAction) -> String { action.name }

  public static func step(_ state: inout TillState, _ action: KioskAction)
    -> StepResult<PaymentGatewayMock.Call, ActionOutcome>
  {
    let session = ProcessorSession(state.processor)
    var world = ScenarioWorld(menu: state.menu, stock: state.stock, tabs: state.tabs, paymentMock: session.mock())
    var history = UndoHistory(entries: state.undo)
    let outcome = world.perform(action, history: &history)
    state.menu = world.menu
    state.stock = world.stock
    state.tabs = world.tabs
    state.undo = history.entries
    state.processor = session.state
    return StepResult(effects: world.paymentMock.calls, outcome: outcome)
  }
}

/// The processor behind the mock: the state's ledger, which the mock's
/// handlers call under the same rules as the till's `LocalProcessor`, with its fault.
final class ProcessorSession: Sendable {
  private let ledger: Mutex<ProcessorLedger>
  private let fault: ProcessorFault?

  init(_ state: ProcessorState) {
    ledger = Mutex(state.ledger)
    fault = state.fault
  }

  /// The processor as it stands.
  var state: ProcessorState {
    ProcessorState(session: ledger.withLock(\.prefix), entries: ledger.withLock(\.entries), fault: fault)
  }

  /// A recording mock whose handlers are this session.
  func mock() -> PaymentGatewayMock {
    let mock = PaymentGatewayMock()
    let fault = fault
    mock.chargeHandler = { amount, key throws(PaymentError) in
      try self.ledger.withLock { ledger throws(PaymentError) in try ledger.charge(amount, key: key, fault: fault) }
    }
    mock.refundHandler = { reference, amount, key throws(PaymentError) in
      try self.ledger.withLock { ledger throws(PaymentError) in
        try ledger.refund(reference, amount: amount, key: key, fault: fault)
      }
    }
    mock.statusHandler = { key in self.ledger.withLock { $0.status(of: key) } }
    mock.authorizeHandler = { amount in self.ledger.withLock { $0.authorizes(amount, fault: fault) } }
    return mock
  }
}
