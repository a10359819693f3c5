/// Emits `XMock`: a recording mock in mockolo's vocabulary (`fooCallCount`,
/// `fooArgValues`, `fooHandler`), plus one ordered log of every call
/// (`calls`) and `reset()`, into the domain's testing module.
enum MockEmitter {

  static func file(for domain: Domain, service: Service) -> String {
    var out = SourceWriter()
    // `Testing` only when a requirement can be called with no handler and no zero to answer.
    let recordsIssues = service.requirements.contains { $0.defaultValue == nil && $0.mockDefault != nil }
    out.imports(["Foundation", domain.name, "Synchronization"] + (recordsIssues ? ["Testing"] : []))
    let mock = service.mockType
    let equatable = service.requirements.allSatisfy(\.hasEquatableArguments)
    out.line("/// A recording mock of `\(service.protocolName)`: counts calls, keeps their arguments, logs")
    out.line("/// every call in order (`calls`), and answers with the handler a test sets (or the result")
    out.line("/// type's zero when none is set).")
    out.line("///")
    out.line("/// A class, so the world that stores it (`Link\("Recording")\(domain.name)`) and the test read one")
    out.line("/// record of the calls; its state sits behind a `Mutex`, so it is safely `Sendable`. Handlers")
    out.line("/// are `@Sendable`: to collect into a local in a synchronous test, declare it")
    out.line("/// `nonisolated(unsafe) var seen: [T] = []`: the test is the only thread that touches it.")
    out.block("public final class \(mock): \(service.protocolName), @unchecked Sendable") { out in
      for requirement in service.requirements where requirement.parameters.count > 1 {
        emitArguments(requirement, into: &out)
        out.line()
      }
      out.line("/// One call to the mock, with its arguments, as `calls` lists them.")
      out.block("public enum Call\(equatable ? ": Equatable" : "")") { out in
        for requirement in service.requirements {
          out.line("/// A call to `\(requirement.name)`\(requirement.overloadNote).")
          out.line(
            requirement.parameters.isEmpty
              ? "case \(requirement.key)" : "case \(requirement.key)(\(requirement.argumentValueType))")
        }
      }
      out.line()
      out.line("/// Everything the mock records.")
      out.block("private struct LinkgenState") { out in
        for requirement in service.requirements {
          out.line("var \(requirement.key)CallCount = 0")
          if !requirement.parameters.isEmpty {
            out.line("var \(requirement.key)ArgValues: [\(requirement.argumentValueType)] = []")
          }
          out.firstFitting(
            "var \(requirement.key)Handler: (\(requirement.closureType))?",
            "var \(requirement.key)Handler: (\(requirement.unlabeledClosureType))?")
        }
        out.line("var calls: [Call] = []")
      }
      out.line()
      out.line("private let linkgenState = Synchronization.Mutex(LinkgenState())")
      out.line()
      out.line("/// A mock with no handlers set.")
      out.line("public init() {}")
      out.line()
      out.line("/// Every call, oldest first, whichever requirement it was to.")
      out.line("public var calls: [Call] { linkgenState.withLock { $0.calls } }")
      out.line()
      out.line("/// Forgets every call (the counts, the arguments and `calls`); the handlers stay set.")
      out.block("public func reset()") { out in
        out.line("linkgenState.withLock { linkgenState in")
        for requirement in service.requirements {
          out.line("  linkgenState.\(requirement.key)CallCount = 0")
          if !requirement.parameters.isEmpty { out.line("  linkgenState.\(requirement.key)ArgValues = []") }
        }
        out.line("  linkgenState.calls = []")
        out.line("}")
      }
      for requirement in service.requirements {
        emit(requirement, mockName: mock, into: &out)
      }
    }
    return out.text
  }

  /// `ChargeArgs`: one call's arguments as a value, `Equatable` when they can be.
  private static func emitArguments(_ requirement: Requirement, into out: inout SourceWriter) {
    let conformance = requirement.hasEquatableArguments ? ": Equatable" : ""
    out.line("/// The arguments of one `\(requirement.name)` call.")
    out.block("public struct \(requirement.argumentsType)\(conformance)") { out in
      for parameter in requirement.parameters {
        out.line("/// `\(parameter.name)`.")
        out.line("public var \(parameter.name): \(parameter.type)")
      }
      out.line()
      out.line("/// The arguments of one call.")
      let parameters = requirement.parameters.map { "\($0.name): \($0.type)" }.joined(separator: ", ")
      out.block("public init(\(parameters))") { out in
        for parameter in requirement.parameters { out.line("self.\(parameter.name) = \(parameter.name)") }
      }
    }
  }

  private static func emit(_ requirement: Requirement, mockName: String, into out: inout SourceWriter) {
    let key = requirement.key
    out.line()
    out.line("/// How many times `\(requirement.name)`\(requirement.overloadNote) was called.")
    out.line("public var \(key)CallCount: Swift.Int { linkgenState.withLock { $0.\(key)CallCount } }")
    if !requirement.parameters.isEmpty {
      out.line()
      out.line("/// The arguments of each `\(key)` call, oldest first.")
      let declaration = "public var \(key)ArgValues: [\(requirement.argumentValueType)]"
      let getter = "linkgenState.withLock { $0.\(key)ArgValues }"
      if out.fits("\(declaration) { \(getter) }") {
        out.line("\(declaration) { \(getter) }")
      } else {
        out.block(declaration) { out in out.line(getter) }
      }
    }
    out.line()
    out.line("/// What `\(key)` does; unset, it returns the result type's zero.")
    let handler = "public var \(key)Handler: (\(requirement.closureType))?"
    let opening =
      out.fits("\(handler) {") ? handler : "public var \(key)Handler: (\(requirement.unlabeledClosureType))?"
    out.block(opening) { out in
      out.line("get { linkgenState.withLock { $0.\(key)Handler } }")
      out.line("set { linkgenState.withLock { $0.\(key)Handler = newValue } }")
    }
    out.line()
    out.line("/// Records the call, then runs `\(key)Handler`.")
    out.block("public func \(requirement.declaration)") { out in
      // Every local is `linkgen…`, so no parameter name can shadow one.
      out.line("let linkgenHandler = self.linkgenState.withLock { linkgenState in")
      out.line("  linkgenState.\(key)CallCount += 1")
      if !requirement.parameters.isEmpty {
        out.line("  linkgenState.\(key)ArgValues.append(\(requirement.argumentValue))")
      }
      out.line("  linkgenState.calls.append(\(requirement.callLogEntry))")
      out.line("  return linkgenState.\(key)Handler")
      out.line("}")
      let call = "\(requirement.callPrefix)linkgenHandler(\(requirement.argumentNames))"
      if requirement.returns == nil {
        out.line("if let linkgenHandler { \(call) }")
      } else {
        out.line("if let linkgenHandler { return \(call) }")
        if let zero = requirement.defaultValue {
          out.line("return \(zero)")
        } else if let answer = requirement.mockDefault {
          // A test that did not say what to answer fails, and goes on with the manifest's default.
          out.line("Testing.Issue.record(")
          out.line(
            "  \"\(mockName).\(key) was called with no \(key)Handler set; answering \(escaped(answer)) (its mockDefault)\""
          )
          out.line(")")
          out.line("return \(answer)")
        }
      }
    }
  }

  /// `text` inside a Swift string literal (`\\` and `"` escaped).
  private static func escaped(_ text: String) -> String {
    text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
  }
}
