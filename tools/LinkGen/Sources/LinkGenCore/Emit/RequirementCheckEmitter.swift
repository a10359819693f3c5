/// Emits, into the domain's own module, a compile-time check that every
/// requirement the manifest declares exists on the hand-written protocol with
/// that exact signature. (The generated mock and witness conforming to the
/// protocol checks the other direction: nothing the protocol requires is missing.)
enum RequirementCheckEmitter {

  static func file(for domain: Domain, service: Service) -> String {
    var out = SourceWriter()
    out.imports(["Foundation"])
    let conformer = "LinkgenConformer"
    out.line("/// Fails to compile when codegen.yaml's requirements for `\(service.protocolName)` and the")
    out.line("/// protocol disagree; never called.")
    out.block("enum \(service.protocolName)DeclaredRequirements") { out in
      let suppression = service.isNoncopyable ? " & ~Copyable" : ""
      out.block("static func check<\(conformer): \(service.protocolName)\(suppression)>(_: \(conformer).Type)") { out in
        for requirement in service.requirements {
          let parameters = requirement.parameters.map { "\($0.name): \($0.type)" }
          let signature = "(inout \(conformer)\(requirement.parameters.map { ", \($0.type)" }.joined()))"
          let closureParameters = (["linkgenConformer: inout \(conformer)"] + parameters).joined(separator: ", ")
          let returns = requirement.returns ?? "Void"
          out.line("let _: \(signature)\(requirement.effects) -> \(returns) = {")
          // The annotation above states the type, so names alone are the fallback.
          out.firstFitting(
            "  (\(closureParameters))\(requirement.effects) -> \(returns) in",
            "  \((["linkgenConformer"] + requirement.parameters.map(\.name)).joined(separator: ", ")) in")
          out.line("  \(requirement.callPrefix)\(requirement.call(on: "linkgenConformer"))")
          out.line("}")
        }
      }
    }
    return out.text
  }
}
