/// Emits a domain's capability protocols: `HasX`, and `HasMutableX` for a state slice.
enum CapabilityEmitter {

  static func file(for domain: Domain) -> String {
    var out = SourceWriter()
    switch domain.kind {
    case .state(let type):
      out.doc(domain.doc)
      if domain.doc != nil { out.line("///") }
      out.line(
        "/// Read capability: generic code constrained on `\(domain.readCapability)` may read `\(domain.property)`.")
      out.block("public protocol \(domain.readCapability): ~Copyable") { out in
        out.line("/// The \(domain.name) slice, read in place.")
        out.line("var \(domain.property): \(type) { get }")
      }
      out.line()
      out.doc(domain.doc)
      if domain.doc != nil { out.line("///") }
      out.line(
        "/// Write capability: a `where` clause naming `\(domain.writeCapability)` declares a writer of `\(domain.property)`."
      )
      out.block("public protocol \(domain.writeCapability): \(domain.readCapability), ~Copyable") { out in
        out.line("/// The \(domain.name) slice, read and written in place.")
        out.line("var \(domain.property): \(type) { get set }")
      }
    case .service(let service):
      let suppression = service.isNoncopyable ? " & ~Copyable" : ""
      out.doc(domain.doc)
      if domain.doc != nil { out.line("///") }
      out.line("/// Service capability: the world picks the implementation with one `Link…\(domain.name)` conformance.")
      out.block("public protocol \(domain.readCapability): ~Copyable") { out in
        out.line("/// The implementation of `\(service.protocolName)` the world links.")
        out.line("associatedtype \(implType(domain)): \(service.protocolName)\(suppression)")
        out.line()
        out.line("/// The linked \(domain.name) service.")
        out.line("var \(domain.property): \(implType(domain)) { \(accessors(service.access)) }")
      }
    case .resource(let type):
      out.doc(domain.doc)
      if domain.doc != nil { out.line("///") }
      out.line(
        "/// Resource capability: a unique handle, reached by mutation (`\(domain.property)` is `~Copyable`-friendly).")
      out.block("public protocol \(domain.readCapability): ~Copyable") { out in
        out.line("/// The \(domain.name) resource, borrowed or mutated in place; never copied.")
        out.line("var \(domain.property): \(type) { get set }")
      }
    }
    return out.text
  }

  /// `PaymentImpl`: the associated type a service capability declares.
  static func implType(_ domain: Domain) -> String { "\(domain.name)Impl" }

  /// The requirement's accessors. Stable Swift spellings: a world witnesses them
  /// with a stored property, or with `_read` / `_modify` where the value lives
  /// elsewhere; either reads and writes in place. Only a computed `get`/`set`
  /// witness would copy.
  static func accessors(_ access: Access) -> String {
    switch access {
    case .read: "get"
    case .mutate: "get set"
    }
  }
}
