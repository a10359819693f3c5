/// Emits `XWitness`: the service as a struct of closures, one `var` per
/// requirement, with `.unimplemented` and per-endpoint decorators.
enum WitnessEmitter {

  static func file(for domain: Domain, service: Service) -> String {
    var out = SourceWriter()
    out.imports(["Foundation", domain.name, "Testing"])
    let witness = service.witnessType
    out.line("/// `\(service.protocolName)` as a value: one closure per requirement, in `endpoints`. Replace")
    out.line("/// one endpoint by assigning it; wrap one with a decorator (`logging…`, `retrying…`), which")
    out.line("/// returns a new witness, so decorators compose as plain functions. `.unimplemented()` fails")
    out.line("/// the running test on any endpoint the test did not set.")
    out.block("public struct \(witness): \(service.protocolName), Sendable") { out in
      out.line("/// One closure per requirement. (A nested struct, so `now` the closure and `now()` the")
      out.line("/// requirement can share a name.)")
      out.block("public struct Endpoints: Sendable") { out in
        for requirement in service.requirements {
          out.line("/// The `\(requirement.key)` endpoint.")
          out.firstFitting(
            "public var \(requirement.key): \(requirement.closureType)",
            "public var \(requirement.key): \(requirement.unlabeledClosureType)")
        }
      }
      out.line()
      out.line("/// The closures the requirements call; assign one to replace it.")
      out.line("public var endpoints: Endpoints")
      out.line()
      out.line("/// A witness from one closure per endpoint.")
      out.line("public init(")
      for (index, requirement) in service.requirements.enumerated() {
        let comma = index == service.requirements.count - 1 ? "" : ","
        out.firstFitting(
          "  \(requirement.key): @escaping \(requirement.closureType)\(comma)",
          "  \(requirement.key): @escaping \(requirement.unlabeledClosureType)\(comma)")
      }
      out.block(")") { out in
        let arguments = service.requirements.map { "\($0.key): \($0.key)" }.joined(separator: ", ")
        out.line("endpoints = Endpoints(\(arguments))")
      }
      for requirement in service.requirements {
        out.line()
        out.line("/// Calls the `\(requirement.key)` endpoint.")
        let modifier = requirement.isMutating ? "mutating " : ""
        out.block("public \(modifier)func \(requirement.declaration)") { out in
          let call = "\(requirement.callPrefix)self.endpoints.\(requirement.key)(\(requirement.argumentNames))"
          out.line("\(requirement.returns == nil ? "" : "return ")\(call)")
        }
      }
      out.line()
      emitUnimplemented(service, witness: witness, into: &out)
      for requirement in service.requirements {
        out.line()
        emitLogging(requirement, into: &out)
        if requirement.throwing != .none {
          out.line()
          emitRetrying(requirement, into: &out)
        }
      }
    }
    return out.text
  }

  /// `{ (amount) throws(PaymentError) -> String in`.
  private static func closureHead(_ requirement: Requirement) -> String {
    "{ (\(requirement.argumentNames))\(requirement.effects) -> \(requirement.returns ?? "Void") in"
  }

  private static func emitUnimplemented(_ service: Service, witness: String, into out: inout SourceWriter) {
    out.line("/// A witness whose every endpoint records a test failure, pinned to the line that")
    out.line("/// created it, and returns the result type's zero. Assign the endpoints the test uses.")
    out.line("public static func unimplemented(")
    out.line("  fileID: Swift.String = #fileID, filePath: Swift.String = #filePath,")
    out.line("  line: Swift.Int = #line, column: Swift.Int = #column")
    out.block(") -> Self") { out in
      out.line("let linkgenLocation = Testing.SourceLocation(")
      out.line("  fileID: fileID, filePath: filePath, line: line, column: column)")
      out.line("return Self(")
      for (index, requirement) in service.requirements.enumerated() {
        let ignored = "(" + requirement.parameters.map { _ in "_" }.joined(separator: ", ") + ")"
        let head = "{ \(ignored)\(requirement.effects) -> \(requirement.returns ?? "Void") in"
        out.line("  \(requirement.key): \(head)")
        out.line("    Testing.Issue.record(")
        out.line(
          "      \"\(witness).\(requirement.key) is unimplemented: assign it in this test\", sourceLocation: linkgenLocation)"
        )
        if requirement.returns != nil, let answer = requirement.mockAnswer {
          out.line("    return \(answer)")
        }
        out.line("  }\(index == service.requirements.count - 1 ? "" : ",")")
      }
      out.line(")")
    }
  }

  private static func capitalized(_ name: String) -> String { name.prefix(1).uppercased() + name.dropFirst() }

  private static func emitLogging(_ requirement: Requirement, into out: inout SourceWriter) {
    let name = requirement.key
    // `String(describing:)`, not bare interpolation: an optional argument or result
    // would otherwise warn ("produces a debug description").
    let arguments = "\\(linkgenArguments)"
    // The type written out, so a `Void` result does not warn either.
    let result = "let linkgenResult: \(requirement.returns ?? "Swift.Void")"
    out.line("/// This witness with `\(name)` logging each call and its outcome to `log`.")
    out.block(
      "public func logging\(capitalized(name))(to linkgenLog: @escaping @Sendable (Swift.String) -> Swift.Void) -> Self"
    ) { out in
      out.line("var linkgenCopy = self")
      out.line("let linkgenOriginal = endpoints.\(name)")
      out.line("linkgenCopy.endpoints.\(name) = \(closureHead(requirement))")
      if requirement.parameters.isEmpty {
        out.line("  let linkgenArguments = \"\"")
      } else if requirement.parameters.count == 1 {
        out.line("  let linkgenArguments = Swift.String(describing: \(requirement.parameters[0].name))")
      } else {
        out.line("  let linkgenArguments = [")
        for parameter in requirement.parameters { out.line("    Swift.String(describing: \(parameter.name)),") }
        out.line("  ].joined(separator: \", \")")
      }
      let call = "\(requirement.callPrefix)linkgenOriginal(\(requirement.argumentNames))"
      if requirement.throwing == .none {
        out.line("  \(result) = \(call)")
        out.line("  linkgenLog(\"\(name)(\(arguments)) -> \\(Swift.String(describing: linkgenResult))\")")
        out.line("  return linkgenResult")
      } else {
        out.line("  do\(typedDo(requirement)) {")
        out.line("    \(result) = \(call)")
        out.line("    linkgenLog(\"\(name)(\(arguments)) -> \\(Swift.String(describing: linkgenResult))\")")
        out.line("    return linkgenResult")
        out.line("  } catch {")
        out.line("    linkgenLog(\"\(name)(\(arguments)) threw \\(error)\")")
        out.line("    throw error")
        out.line("  }")
      }
      out.line("}")
      out.line("return linkgenCopy")
    }
  }

  private static func emitRetrying(_ requirement: Requirement, into out: inout SourceWriter) {
    let name = requirement.key
    out.line("/// This witness with `\(name)` tried up to `attempts` times while it throws; the last")
    out.line("/// error is rethrown.")
    out.block("public func retrying\(capitalized(name))(attempts linkgenAttempts: Swift.Int) -> Self") { out in
      out.line("precondition(linkgenAttempts >= 1, \"retrying\(capitalized(name)) needs at least one attempt\")")
      out.line("var linkgenCopy = self")
      out.line("let linkgenOriginal = endpoints.\(name)")
      out.line("linkgenCopy.endpoints.\(name) = \(closureHead(requirement))")
      out.line("  var linkgenAttempt = 1")
      out.line("  while true {")
      out.line("    do\(typedDo(requirement)) {")
      out.line("      return \(requirement.callPrefix)linkgenOriginal(\(requirement.argumentNames))")
      out.line("    } catch {")
      out.line("      if linkgenAttempt >= linkgenAttempts { throw error }")
      out.line("      linkgenAttempt += 1")
      out.line("    }")
      out.line("  }")
      out.line("}")
      out.line("return linkgenCopy")
    }
  }

  /// ` throws(E)` after `do` for a typed-throws endpoint, so `error` keeps its type.
  private static func typedDo(_ requirement: Requirement) -> String {
    if case .typed(let type) = requirement.throwing { return " throws(\(type))" }
    return ""
  }
}
