/// Why the head office could not take or answer a request.
public enum HeadOfficeError: Error, Equatable, Sendable, CustomStringConvertible {
  /// No head office is configured where one was asked for.
  case notConfigured
  /// The connection string is wrong (`reason`): one libpq cannot read, or
  /// one that would wait without end. Found before connecting.
  case misconfigured(String)
  /// The head office did not answer (down, unreachable, the connection dropped):
  /// nothing was stored, so the request may be sent again.
  case unreachable(String)
  /// The head office holds this day of this till with another digest: the two
  /// tills' records differ, and neither is overwritten.
  case conflict(till: String, day: Int, held: String, shipped: String)
  /// A till may not take the name `name`: another till holds days under it,
  /// or it was a till's name before; `reason` says which.
  case nameTaken(name: String, reason: String)
  /// The head office refused the request for another reason.
  case refused(String)

  /// Whether the fault is the configuration's (no connection string, or a
  /// wrong one), found before any connection: a usage error, not a head
  /// office that did not answer.
  public var isConfiguration: Bool {
    switch self {
    case .notConfigured, .misconfigured: true
    default: false
    }
  }

  public var description: String {
    switch self {
    case .notConfigured: "no head office is configured"
    case .misconfigured(let reason): "the head office's connection string is wrong: \(reason)"
    case .unreachable(let reason): "the head office is unreachable: \(reason)"
    case .conflict(let till, let day, let held, let shipped):
      "the head office holds day \(day) of till '\(till)' with digest \(held), not \(shipped): "
        + "two different days under one name; nothing was changed"
    case .nameTaken(let name, let reason): "the head office refused the name '\(name)': \(reason)"
    case .refused(let reason): "the head office refused: \(reason)"
    }
  }
}
