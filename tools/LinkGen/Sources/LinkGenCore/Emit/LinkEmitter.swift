/// Emits one `Link<Name><Domain>` protocol and the extension that witnesses the service.
enum LinkEmitter {

  /// `LinkStripePayment`.
  static func protocolName(_ link: Link, of domain: Domain) -> String { "Link\(link.name)\(domain.name)" }

  static func file(for link: Link, of domain: Domain, service: Service) -> String {
    var out = SourceWriter()
    // A test double's link lives in the testing module, which imports the domain.
    out.imports((link.demands.isEmpty ? [] : ["Foundation"]) + (link.isTestDouble ? [domain.name] : []))
    let name = protocolName(link, of: domain)
    let implType = CapabilityEmitter.implType(domain)
    out.doc(link.doc)
    if link.doc != nil { out.line("///") }
    if let stores = link.stores {
      out.line("/// Links `\(link.impl)` as the \(domain.name) service. Stateful: the world stores it in")
      out.line("/// `\(stores)` and the link projects that storage in place.")
    } else {
      out.line("/// Links `\(link.impl)` as the \(domain.name) service. Stateless: constructed on each access.")
    }
    out.block("public protocol \(name): \(domain.readCapability), ~Copyable where \(implType) == \(link.impl)") { out in
      if let stores = link.stores {
        out.line("/// Storage for the linked `\(link.impl)`; its state lives in the world.")
        out.line("var \(stores): \(link.impl) { \(CapabilityEmitter.accessors(service.access)) }")
      }
      for demand in link.demands {
        out.line("/// Demanded by `\(name)`: passed to `\(link.impl)`'s initializer.")
        out.line("var \(demand.name): \(demand.type) { get }")
      }
    }
    out.line()
    out.block("extension \(name) where Self: ~Copyable") { out in
      if let stores = link.stores {
        out.line("/// The stored `\(link.impl)`, projected without a copy.")
        out.block("@inlinable public var \(domain.property): \(link.impl)") { out in
          out.line("_read { yield \(stores) }")
          if service.access == .mutate { out.line("_modify { yield &\(stores) }") }
        }
      } else {
        let arguments = link.demands.map { "\($0.name): \($0.name)" }.joined(separator: ", ")
        out.line("/// A fresh `\(link.impl)`\(link.demands.isEmpty ? "" : " built from the demanded values").")
        if service.access == .read {
          out.line("@inlinable public var \(domain.property): \(link.impl) { \(link.impl)(\(arguments)) }")
        } else {
          out.block("@inlinable public var \(domain.property): \(link.impl)") { out in
            out.line("get { \(link.impl)(\(arguments)) }")
            out.line("// Stateless: a mutation changes a temporary and is dropped.")
            out.line("nonmutating set {}")
          }
        }
      }
    }
    return out.text
  }
}
