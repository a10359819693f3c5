/// Cross-checks between domains, links and worlds that no single node shows.
struct ManifestValidator {
  var diagnostics: [Diagnostic]

  mutating func validate(_ parsed: ParsedManifest) {
    checkWorldFacingNames(parsed.domains)
    let domains = Dictionary(
      parsed.domains.map { ($0.domain.name, $0.domain) }, uniquingKeysWith: { first, _ in first })
    for world in parsed.worlds { check(world, domains: domains) }
  }

  /// A name a world must provide: a domain's property, a link's storage or a demand.
  private struct Claim {
    enum Role {
      case property, stores
      case demand(type: String)
    }
    var name: String
    var role: Role
    var owner: String
    var location: SourceLocation
  }

  /// Every name a world stores or projects must mean one thing. Demands may be
  /// shared between links (same name, same type, same instance); nothing else may.
  private mutating func checkWorldFacingNames(_ domains: [ParsedManifest.DomainSource]) {
    var claims: [Claim] = []
    for source in domains {
      claims.append(
        Claim(
          name: source.domain.property, role: .property, owner: "domain '\(source.domain.name)'",
          location: source.propertyLocation))
      guard case .service(let service) = source.domain.kind else { continue }
      for link in service.links {
        let owner = "link '\(link.name)' of '\(source.domain.name)'"
        if let stores = link.stores {
          claims.append(Claim(name: stores, role: .stores, owner: owner, location: source.storesLocations[link.name]!))
        }
        for demand in link.demands {
          claims.append(
            Claim(
              name: demand.name, role: .demand(type: demand.type), owner: owner,
              location: source.demandLocations[link.name]![demand.name]!))
        }
      }
    }
    claims.sort { $0.location < $1.location }
    var first: [String: Claim] = [:]
    for claim in claims {
      guard let earlier = first[claim.name] else {
        first[claim.name] = claim
        continue
      }
      switch (earlier.role, claim.role) {
      case (.demand(let earlierType), .demand(let type)):
        if earlierType != type {
          error(
            "demand '\(claim.name)' of \(claim.owner) has type '\(type)', but \(earlier.owner) demands it as '\(earlierType)'",
            claim.location)
        }
      case (.property, .property):
        error("property '\(claim.name)' of \(claim.owner) is already claimed by \(earlier.owner)", claim.location)
      default:
        error(
          "\(noun(claim.role)) '\(claim.name)' of \(claim.owner) collides with the \(noun(earlier.role)) of \(earlier.owner)",
          claim.location)
      }
    }
  }

  private func noun(_ role: Claim.Role) -> String {
    switch role {
    case .property: "property"
    case .stores: "stored property"
    case .demand: "demand"
    }
  }

  private mutating func check(_ source: ParsedManifest.WorldSource, domains: [String: Domain]) {
    let world = source.world
    let context = "world '\(world.name)'"
    var composed: Set<String> = []
    for (name, location) in source.domainEntries {
      guard domains[name] != nil else {
        error(
          "\(context) composes unknown domain '\(name)'\(Suggestion.hint(for: name, in: domains.keys.sorted()))",
          location)
        continue
      }
      if !composed.insert(name).inserted {
        error("\(context) composes domain '\(name)' twice", location)
      }
    }
    var picked: Set<String> = []
    for (serviceName, serviceLocation, linkName, linkLocation) in source.linkEntries {
      guard let domain = domains[serviceName] else {
        error(
          "\(context) picks a link for unknown domain '\(serviceName)'\(Suggestion.hint(for: serviceName, in: domains.keys.sorted()))",
          serviceLocation)
        continue
      }
      guard case .service(let service) = domain.kind else {
        error("\(context) picks a link for '\(serviceName)', which is not a service domain", serviceLocation)
        continue
      }
      picked.insert(serviceName)
      if !composed.contains(serviceName) {
        error(
          "\(context) picks a link for '\(serviceName)' but does not compose it; add it to 'domains'", serviceLocation)
      }
      let linkNames = service.links.map(\.name)
      if !linkNames.contains(linkName) {
        error(
          "service '\(serviceName)' has no link '\(linkName)'\(Suggestion.hint(for: linkName, in: linkNames))",
          linkLocation)
      }
    }
    for name in composed.sorted() {
      guard case .service(let service) = domains[name]?.kind, !picked.contains(name) else { continue }
      let choices = service.links.map { "'\($0.name)'" }.joined(separator: ", ")
      error("\(context) does not pick a link for service '\(name)' (one of \(choices))", source.nameLocation)
    }
  }

  private mutating func error(_ message: String, _ location: SourceLocation) {
    diagnostics.append(Diagnostic(message, at: location))
  }
}
