/// Emits a world's conformance list: the whole link map, in one readable file.
enum WorldEmitter {

  static func file(for world: World, in manifest: Manifest) -> String {
    var out = SourceWriter()
    // A lookup per composed domain, not a table of every domain per world: a
    // manifest of many worlds stays linear.
    let domains = world.domains.compactMap { manifest.domain(named: $0) }
    var modules = domains.map(\.name)
    for domain in domains {
      if case .service(let service) = domain.kind,
        service.links.contains(where: { $0.name == world.links[domain.name] && $0.isTestDouble })
      {
        modules.append(domain.testingModule)
      }
    }
    out.imports(modules)
    out.doc(world.doc)
    if world.doc != nil { out.line("///") }
    out.line("/// The link map of `\(world.name)`: every capability it grants and every implementation it picks.")
    for domain in domains { out.line("/// - \(domain.name): \(summary(of: domain, in: world))") }
    out.line("extension \(world.name):")
    let conformances = domains.map { conformance(of: $0, in: world) }
    for (index, name) in conformances.enumerated() {
      out.line("  \(name)\(index == conformances.count - 1 ? "" : ",")")
    }
    out.line("{}")
    return out.text
  }

  private static func conformance(of domain: Domain, in world: World) -> String {
    switch domain.kind {
    case .state: return domain.writeCapability
    case .resource: return domain.readCapability
    case .service(let service):
      let link = service.links.first { $0.name == world.links[domain.name] }!
      return LinkEmitter.protocolName(link, of: domain)
    }
  }

  private static func summary(of domain: Domain, in world: World) -> String {
    switch domain.kind {
    case .state(let type): return "state `\(type)` in `\(domain.property)`, read and write"
    case .resource(let type): return "resource `\(type)` in `\(domain.property)`"
    case .service(let service):
      let link = service.links.first { $0.name == world.links[domain.name] }!
      let storage = link.stores.map { ", stored in `\($0)`" } ?? ""
      return "`\(link.impl)` as `\(service.protocolName)`\(storage)"
    }
  }
}
