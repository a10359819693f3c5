/// Emits `XMock`: a recording mock in mockolo's vocabulary (`fooCallCount`,
/// `fooArgValues`, `fooHandler`), into the domain's testing module.
enum MockEmitter {

  static func file(for domain: Domain, service: Service) -> String {
    var out = SourceWriter()
    out.imports(["Foundation", domain.name, "Synchronization"])
    let mock = service.mockType
    out.line("/// A recording mock of `\(service.protocolName)`: counts calls, keeps their arguments, and")
    out.line("/// answers with the handler a test sets (or the result type's zero when none is set).")
    out.line("///")
    out.line("/// A class, so the world that stores it (`Link\("Recording")\(domain.name)`) and the test read one")
    out.line("/// record of the calls; its state sits behind a `Mutex`, so it is safely `Sendable`.")
    out.block("public final class \(mock): \(service.protocolName), @unchecked Sendable") { out in
      out.line("/// Everything the mock records.")
      out.block("private struct LinkgenState") { out in
        for requirement in service.requirements {
          out.line("var \(requirement.name)CallCount = 0")
          if !requirement.parameters.isEmpty {
            out.line("var \(requirement.name)ArgValues: [\(requirement.argumentValueType)] = []")
          }
          out.firstFitting(
            "var \(requirement.name)Handler: (\(requirement.closureType))?",
            "var \(requirement.name)Handler: (\(requirement.unlabeledClosureType))?")
        }
      }
      out.line()
      out.line("private let linkgenState = Synchronization.Mutex(LinkgenState())")
      out.line()
      out.line("/// A mock with no handlers set.")
      out.line("public init() {}")
      for requirement in service.requirements {
        emit(requirement, mockName: mock, into: &out)
      }
    }
    return out.text
  }

  private static func emit(_ requirement: Requirement, mockName: String, into out: inout SourceWriter) {
    let name = requirement.name
    out.line()
    out.line("/// How many times `\(name)` was called.")
    out.line("public var \(name)CallCount: Swift.Int { linkgenState.withLock { $0.\(name)CallCount } }")
    if !requirement.parameters.isEmpty {
      out.line()
      out.line("/// The arguments of each `\(name)` call, oldest first.")
      let declaration = "public var \(name)ArgValues: [\(requirement.argumentValueType)]"
      let getter = "linkgenState.withLock { $0.\(name)ArgValues }"
      if out.fits("\(declaration) { \(getter) }") {
        out.line("\(declaration) { \(getter) }")
      } else {
        out.block(declaration) { out in out.line(getter) }
      }
    }
    out.line()
    out.line("/// What `\(name)` does; unset, it returns the result type's zero.")
    let handler = "public var \(name)Handler: (\(requirement.closureType))?"
    let opening =
      out.fits("\(handler) {") ? handler : "public var \(name)Handler: (\(requirement.unlabeledClosureType))?"
    out.block(opening) { out in
      out.line("get { linkgenState.withLock { $0.\(name)Handler } }")
      out.line("set { linkgenState.withLock { $0.\(name)Handler = newValue } }")
    }
    out.line()
    out.line("/// Records the call, then runs `\(name)Handler`.")
    out.block("public func \(requirement.declaration)") { out in
      // Every local is `linkgen…`, so no parameter name can shadow one.
      out.line("let linkgenHandler = self.linkgenState.withLock { linkgenState in")
      out.line("  linkgenState.\(name)CallCount += 1")
      if !requirement.parameters.isEmpty {
        out.line("  linkgenState.\(name)ArgValues.append(\(requirement.argumentValue))")
      }
      out.line("  return linkgenState.\(name)Handler")
      out.line("}")
      let call = "\(requirement.callPrefix)linkgenHandler(\(requirement.argumentNames))"
      if requirement.returns == nil {
        out.line("if let linkgenHandler { \(call) }")
      } else {
        out.line("if let linkgenHandler { return \(call) }")
        if let zero = requirement.defaultValue {
          out.line("return \(zero)")
        } else {
          out.line(
            "fatalError(\"\(mockName).\(name) needs \(name)Handler: '\(requirement.returns!)' has no default value\")")
        }
      }
    }
  }
}
