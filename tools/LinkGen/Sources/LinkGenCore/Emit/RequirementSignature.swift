/// How a declared requirement is spelled in the generated code.
extension Requirement {
  /// `charge(_ amount: Decimal) throws(PaymentError) -> String`, without `func`.
  var declaration: String {
    let parameters = self.parameters.map { parameter in
      parameter.label == parameter.name
        ? "\(parameter.name): \(parameter.type)" : "\(parameter.label) \(parameter.name): \(parameter.type)"
    }
    return "\(name)(\(parameters.joined(separator: ", ")))\(effects)\(returnClause)"
  }

  /// ` async throws(E)`.
  var effects: String { (isAsync ? " async" : "") + throwing.clause }

  /// ` -> String`, or `` for Void.
  var returnClause: String { returns.map { " -> \($0)" } ?? "" }

  /// `(Decimal, String)`: the parameter types, for a closure type.
  var parameterTypes: String { "(" + parameters.map(\.type).joined(separator: ", ") + ")" }

  /// `@Sendable (_ amount: Decimal) throws(PaymentError) -> String`.
  var closureType: String {
    let parameters = self.parameters.map { "_ \($0.name): \($0.type)" }.joined(separator: ", ")
    return "@Sendable (\(parameters))\(effects) -> \(returns ?? "Void")"
  }

  /// `closureType` without the parameter names: the shorter spelling, for a
  /// line that would otherwise pass the line length (a closure type cannot wrap).
  var unlabeledClosureType: String {
    let parameters = self.parameters.map(\.type).joined(separator: ", ")
    return "@Sendable (\(parameters))\(effects) -> \(returns ?? "Void")"
  }

  /// `amount` or `reference, amount`: the parameters passed on.
  var argumentNames: String { parameters.map(\.name).joined(separator: ", ") }

  /// `charge(amount)` / `refund(reference, amount: amount)`: a call with labels.
  func call(on receiver: String) -> String {
    let arguments = parameters.map { $0.label == "_" ? $0.name : "\($0.label): \($0.name)" }
    return "\(receiver).\(name)(\(arguments.joined(separator: ", ")))"
  }

  /// `try await ` as needed before a call.
  var callPrefix: String {
    (throwing == .none ? "" : "try ") + (isAsync ? "await " : "")
  }

  /// What a mock or an unimplemented witness answers when nothing was set:
  /// the type's zero, or nil when the type has none linkgen knows.
  var defaultValue: String? {
    guard let returns else { return "()" }
    if returns.hasSuffix("?") { return "nil" }
    if returns.hasPrefix("[") { return returns.contains(":") ? "[:]" : "[]" }
    switch returns {
    case "String": return "\"\""
    case "Int", "Int64", "Int32", "UInt", "Double", "Float", "Decimal": return "0"
    case "Bool": return "false"
    case "Date": return "Date(timeIntervalSince1970: 0)"
    default: return nil
    }
  }

  /// ` (the overload `chargeCents`)` when the manifest's key differs from the method's name; empty otherwise.
  var overloadNote: String { key == name ? "" : " (the overload `\(key)`)" }

  /// What a mock answers when no handler is set: the type's zero, else the manifest's `mockDefault`.
  var mockAnswer: String? { defaultValue ?? mockDefault }

  /// `ChargeArgs`: the struct a mock records a call of several parameters as.
  var argumentsType: String { key.prefix(1).uppercased() + key.dropFirst() + "Args" }

  /// The element type of `…ArgValues`: the single parameter's type, or `argumentsType`.
  var argumentValueType: String { parameters.count == 1 ? parameters[0].type : argumentsType }

  /// The value appended to `…ArgValues`.
  var argumentValue: String {
    parameters.count == 1
      ? parameters[0].name
      : "\(argumentsType)(" + parameters.map { "\($0.name): \($0.name)" }.joined(separator: ", ") + ")"
  }

  /// `.charge(ChargeArgs(amount: amount, key: key))`: the mock's `calls` entry for this call.
  var callLogEntry: String { parameters.isEmpty ? ".\(key)" : ".\(key)(\(argumentValue))" }

  /// Whether the recorded arguments can be `Equatable`: `equatable:` when the
  /// manifest says, else whether every parameter type can be (not a tuple, a
  /// function or an existential; other types are taken to be `Equatable`).
  var hasEquatableArguments: Bool {
    equatableOverride ?? parameters.allSatisfy { Self.canBeEquatable($0.type) }
  }

  /// Whether a type, by its spelling, can conform to `Equatable`.
  static func canBeEquatable(_ type: String) -> Bool {
    let words = type.split(whereSeparator: { !($0.isLetter || $0.isNumber || $0 == "_") })
    return !type.contains("(") && !type.contains("->") && !words.contains("any") && !words.contains("some")
      && !words.contains("Any") && !words.contains("AnyObject")
  }
}
