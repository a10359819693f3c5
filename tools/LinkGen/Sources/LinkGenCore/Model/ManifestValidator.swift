/// Cross-checks between domains, links and worlds that no single node shows.
struct ManifestValidator {
  var diagnostics: [Diagnostic]
  /// Every declared domain, valid or not (see `NodeReader.declaredDomains`).
  var declaredDomains: Set<String> = []
  /// "Did you mean" answers, computed once per unknown name: linear in the
  /// number of unknown names, however often each is repeated.
  private var hints: [String: String] = [:]

  /// `declaredDomains`, sorted once.
  private let sortedDomains: [String]

  init(diagnostics: [Diagnostic], declaredDomains: Set<String>) {
    self.diagnostics = diagnostics
    self.declaredDomains = declaredDomains
    sortedDomains = declaredDomains.sorted()
  }

  private mutating func domainHint(_ name: String) -> String {
    if let known = hints[name] { return known }
    // Suggestions for the first 32 distinct unknown names: enough for any typo,
    // and the cost stays linear when a manifest is wrong everywhere.
    guard hints.count < 32 else { return "" }
    let hint = Suggestion.hint(for: name, in: sortedDomains)
    hints[name] = hint
    return hint
  }

  mutating func validate(_ parsed: ParsedManifest) {
    checkWorldFacingNames(parsed.domains)
    checkGeneratedNames(parsed.domains)
    let domains = Dictionary(
      parsed.domains.map { ($0.domain.name, $0.domain) }, uniquingKeysWith: { first, _ in first })
    for world in parsed.worlds { check(world, domains: domains) }
    checkSnapshots(parsed.worlds, domains: domains)
    let worlds = Set(parsed.worlds.map(\.world.name))
    for source in parsed.features {
      guard let world = source.feature.world, let location = source.worldLocation, !worlds.contains(world) else {
        continue
      }
      error(
        "feature '\(source.feature.name)' runs in world '\(world)', which 'worlds' does not declare"
          + Suggestion.hint(for: world, in: worlds.sorted()), location)
    }
  }

  /// A snapshot type covers every state slice of each world that names it: worlds
  /// that share one must sit in one module and compose the same state domains,
  /// and its name must not be taken by a world or a declared type.
  private mutating func checkSnapshots(_ worlds: [ParsedManifest.WorldSource], domains: [String: Domain]) {
    var first: [String: ParsedManifest.WorldSource] = [:]
    let taken = Set(worlds.map(\.world.name)).union(
      domains.values.flatMap { domain -> [String] in
        switch domain.kind {
        case .state(let type), .resource(let type): return [type, domain.readCapability]
        case .service(let service): return [service.protocolName, domain.readCapability]
        }
      })
    func states(_ world: World) -> [String] {
      world.domains.filter { if case .state = domains[$0]?.kind { true } else { false } }
    }
    for source in worlds.sorted(by: { $0.nameLocation < $1.nameLocation }) {
      guard let snapshot = source.world.snapshot, let location = source.snapshotLocation else { continue }
      if taken.contains(snapshot) {
        error(
          "snapshot '\(snapshot)' of world '\(source.world.name)' is already the name of a world or a domain's type",
          location)
        continue
      }
      if states(source.world).isEmpty {
        error("world '\(source.world.name)' names snapshot '\(snapshot)' but composes no state domain", location)
        continue
      }
      guard let earlier = first[snapshot] else {
        first[snapshot] = source
        continue
      }
      if earlier.world.module != source.world.module {
        error(
          "snapshot '\(snapshot)' of world '\(source.world.name)' (module \(source.world.module)) is generated in "
            + "module \(earlier.world.module) for world '\(earlier.world.name)'; worlds share a snapshot within one module",
          location)
      } else if states(earlier.world) != states(source.world) {
        error(
          "world '\(source.world.name)' composes the state domains [\(states(source.world).joined(separator: ", "))], "
            + "world '\(earlier.world.name)' [\(states(earlier.world).joined(separator: ", "))]: they cannot share "
            + "snapshot '\(snapshot)'", location)
      }
    }
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
        // One type spelled two ways (`[String:Int]`, `[String: Int]`) is one type.
        if earlierType.filter({ !$0.isWhitespace }) != type.filter({ !$0.isWhitespace }) {
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

  /// Every name linkgen declares at the top level (capabilities, links, test
  /// doubles, their modules) must be declared once: `Menu` and `MutableMenu`
  /// would both give `HasMutableMenu`.
  private mutating func checkGeneratedNames(_ domains: [ParsedManifest.DomainSource]) {
    var owners: [String: String] = [:]
    for source in domains.sorted(by: { $0.nameLocation < $1.nameLocation }) {
      let domain = source.domain
      var names = [domain.readCapability]
      switch domain.kind {
      case .state: names.append(domain.writeCapability)
      case .service(let service):
        names += service.links.filter { !$0.isTestDouble }.map { LinkEmitter.protocolName($0, of: domain) }
        if service.isMocked {
          names += service.links.filter(\.isTestDouble).map { LinkEmitter.protocolName($0, of: domain) }
          names += ["\(service.protocolName)Mock", "\(service.protocolName)Witness", "\(domain.name)Testing"]
        }
      case .resource: break
      }
      for name in names {
        if let owner = owners[name], owner != domain.name {
          error(
            "domain '\(domain.name)' generates '\(name)', which domain '\(owner)' generates too; rename one of them",
            source.nameLocation)
        } else {
          owners[name] = domain.name
        }
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
        // A declared domain with errors of its own was reported where it stands.
        if !declaredDomains.contains(name) {
          error("\(context) composes unknown domain '\(name)'\(domainHint(name))", location)
        }
        continue
      }
      if !composed.insert(name).inserted {
        error("\(context) composes domain '\(name)' twice", location)
      }
    }
    var picked: Set<String> = []
    for (serviceName, serviceLocation, linkName, linkLocation) in source.linkEntries {
      guard let domain = domains[serviceName] else {
        if !declaredDomains.contains(serviceName) {
          error(
            "\(context) picks a link for unknown domain '\(serviceName)'\(domainHint(serviceName))", serviceLocation)
        }
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
