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

/// The processor behind the mock: a `StripeGateway` session rebuilt from the
/// state, which the mock's handlers call, and the fault they act out first.
final class ProcessorSession: Sendable {
  private let gateway: Mutex<StripeGateway>
  private let session: ProcessorState

  init(_ session: ProcessorState) {
    self.session = session
    gateway = Mutex(StripeGateway(sessionToken: session.session, nonce: session.nonce, outcomes: session.outcomes))
  }

  /// The session as it stands.
  var state: ProcessorState {
    gateway.withLock { gateway in
      ProcessorState(
        session: session.session, nonce: gateway.nonce, outcomes: gateway.outcomesByKey, fault: session.fault)
    }
  }

  /// The fault, thrown where the processor would act it out.
  private func actOutFault() throws(PaymentError) {
    switch session.fault {
    case .decline?: throw .declined(reason: "the processor declines every payment (fault)")
    case .timeout?: throw .timedOut
    case nil: break
    }
  }

  /// A recording mock whose handlers are this session.
  func mock() -> PaymentGatewayMock {
    let mock = PaymentGatewayMock()
    mock.chargeHandler = { amount, key throws(PaymentError) in
      try self.actOutFault()
      return try self.gateway.withLock { gateway throws(PaymentError) in try gateway.charge(amount, key: key) }
    }
    mock.refundHandler = { reference, amount, key throws(PaymentError) in
      try self.actOutFault()
      return try self.gateway.withLock { gateway throws(PaymentError) in
        try gateway.refund(reference, amount: amount, key: key)
      }
    }
    mock.statusHandler = { key throws(PaymentError) in
      try self.gateway.withLock { gateway throws(PaymentError) in try gateway.status(of: key) }
    }
    mock.authorizeHandler = { amount throws(PaymentError) in
      try self.actOutFault()
      return amount >= 0 && amount <= ProcessorRules.chargeLimit
    }
    return mock
  }
}
