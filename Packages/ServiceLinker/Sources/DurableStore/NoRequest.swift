import CanonicalJSON
import FeatureKit

/// The request of a feature that asks no service outside the process: it
/// has no value, so no intent is ever opened. A feature whose `Request` is
/// `NoRequest` conforms to `DurableFeature` with no more code.
public enum NoRequest: CanonicalCodable, Equatable, Sendable {
  public var canonical: JSONValue {
    switch self {}
  }

  public init(canonical cursor: JSONCursor) throws(CanonicalError) {
    throw cursor.fail("this feature makes no outside requests")
  }
}

extension DurableFeature where Request == NoRequest {
  /// No requests: every step is whole once its record is synced.
  public static func requests(after action: Action, state: State, result: StepResult<Effect, Outcome>)
    -> [NoRequest]
  { [] }

  /// Never called: there is no request to perform.
  public static func perform(_ request: NoRequest, key: IntentKey, environment: Environment) async throws -> Action? {
    switch request {}
  }

  /// Never called: there is no request to ask about.
  public static func reconcile(_ request: NoRequest, key: IntentKey, environment: Environment) async throws
    -> Reconciliation<Action>
  { switch request {} }

  /// Never called: there is no request to give up.
  public static func abandoned(_ request: NoRequest, reason: String) -> Action? { switch request {} }
}
