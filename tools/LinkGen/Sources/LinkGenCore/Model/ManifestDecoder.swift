import Foundation

/// Turns `codegen.yaml` text into a validated `Manifest`, collecting every error.
public enum ManifestDecoder {

  /// Decodes and validates `text`; throws all diagnostics found, in source order.
  public static func decode(_ text: String) throws(DiagnosticError) -> Manifest {
    let (root, yamlDiagnostics) = try YAMLParser.parse(text)
    var reader = NodeReader(diagnostics: yamlDiagnostics)
    let parsed = reader.readManifest(root)
    var validator = ManifestValidator(diagnostics: reader.diagnostics, declaredDomains: reader.declaredDomains)
    if let parsed { validator.validate(parsed) }
    guard validator.diagnostics.isEmpty, let parsed else { throw DiagnosticError(validator.diagnostics) }
    return parsed.manifest
  }
}

/// A manifest with the source locations the cross-checks report against.
struct ParsedManifest {
  struct DomainSource {
    var domain: Domain
    var nameLocation: SourceLocation
    var propertyLocation: SourceLocation
    var linkLocations: [String: SourceLocation]
    var storesLocations: [String: SourceLocation]
    var demandLocations: [String: [String: SourceLocation]]
  }
  struct WorldSource {
    var world: World
    var nameLocation: SourceLocation
    /// Each composed domain with where it was named.
    var domainEntries: [(String, SourceLocation)]
    /// Each pick: service name, its location, link name, its location.
    var linkEntries: [(String, SourceLocation, String, SourceLocation)]
    /// Where `snapshot:` names the snapshot type, when it does.
    var snapshotLocation: SourceLocation?
  }
  struct FeatureSource {
    var feature: FeatureSpec
    /// Where `world:` names the world.
    var worldLocation: SourceLocation?
  }
  var domains: [DomainSource]
  var worlds: [WorldSource]
  var features: [FeatureSource] = []
  var featuresLocation: SourceLocation?

  var manifest: Manifest {
    Manifest(
      domains: domains.map(\.domain), worlds: worlds.map(\.world), features: features.map(\.feature),
      featuresLocation: featuresLocation)
  }
}

/// Reads the YAML tree into the model, reporting shape errors (types, keys, names).
struct NodeReader {
  var diagnostics: [Diagnostic]
  /// Every domain name the manifest declares, valid or not: a world that
  /// composes a domain with an error of its own is not told it is unknown.
  var declaredDomains: Set<String> = []

  init(diagnostics: [Diagnostic]) { self.diagnostics = diagnostics }

  static let domainKindKeys = ["state", "service", "resource"]
  static let domainKeys = [
    "access", "doc", "links", "mock", "noncopyable", "property", "requirements", "resource", "service", "state",
  ]
  static let keysByKind: [String: Set<String>] = [
    "state": ["doc", "property", "state"],
    "service": ["access", "doc", "links", "mock", "noncopyable", "property", "requirements", "service"],
    "resource": ["access", "doc", "property", "resource"],
  ]
  static let linkKeys = ["demands", "doc", "impl", "stores"]
  static let requirementKeys = [
    "async", "equatable", "mockDefault", "mutating", "name", "parameters", "returns", "throws",
  ]
  /// The links `mock: true` adds; a hand-written link may not take these names.
  static let testDoubleLinks = ["Recording", "Witness"]
  static let worldKeys = ["doc", "domains", "links", "module", "snapshot"]
  /// Members of the generated mock and witness a requirement may not shadow.
  static let reservedRequirementNames: Set<String> = ["endpoints", "calls", "reset"]
  /// Generated code names its own locals `linkgen…`, so no manifest name may start so.
  static let reservedPrefix = "linkgen"
  /// Type names generated code relies on meaning the toolchain's: a manifest
  /// type with one of these names would shadow them.
  static let reservedTypeNames: Set<String> = ["Swift", "Testing", "Synchronization", "Foundation", "Sendable"]

  mutating func readManifest(_ root: YAMLNode?) -> ParsedManifest? {
    guard let root, !root.isNull else {
      error("the manifest is empty; expected a mapping with 'domains' and 'worlds'", SourceLocation(line: 1, column: 1))
      return nil
    }
    guard let fields = fields(of: root, allowed: ["domains", "features", "worlds"], in: "the manifest") else {
      return nil
    }
    var domains: [ParsedManifest.DomainSource] = []
    if let entry = fields["domains"] {
      let entries = mapping(entry.value, what: "'domains'") ?? []
      if entries.isEmpty, case .mapping = entry.value {
        error("'domains' lists no domain; a manifest needs at least one", entry.value.location)
      }
      for domain in entries {
        declaredDomains.insert(domain.key)
        if let parsed = readDomain(domain) { domains.append(parsed) }
      }
    } else {
      error("missing required key 'domains' in the manifest", root.location)
    }
    var worlds: [ParsedManifest.WorldSource] = []
    if let entry = fields["worlds"] {
      for world in mapping(entry.value, what: "'worlds'") ?? [] {
        if let parsed = readWorld(world) { worlds.append(parsed) }
      }
    }
    var parsed = ParsedManifest(domains: domains, worlds: worlds)
    if let entry = fields["features"] {
      parsed.featuresLocation = entry.keyLocation
      var seen: Set<String> = []
      for feature in mapping(entry.value, what: "'features'") ?? [] {
        guard let source = readFeature(feature) else { continue }
        if !seen.insert(source.feature.name).inserted {
          error("feature '\(source.feature.name)' is listed twice", feature.keyLocation)
        }
        parsed.features.append(source)
      }
    }
    return parsed
  }

  // MARK: Features

  static let featureKeys = ["fixtures", "scenario", "world"]
  /// The keys every feature has; `world` is optional (a feature may run on a world of its own).
  static let requiredFeatureKeys = ["fixtures", "scenario"]

  /// A fixture's name: slugs joined by dots (`a-filled-tab.the-card-is-declined`).
  static func isFixtureName(_ text: String) -> Bool {
    text.wholeMatch(of: /[a-z0-9]+(-[a-z0-9]+)*(\.[a-z0-9]+(-[a-z0-9]+)*)*/) != nil
  }

  private mutating func readFeature(_ entry: YAMLEntry) -> ParsedManifest.FeatureSource? {
    let context = "feature '\(entry.key)'"
    var valid = true
    if entry.key.wholeMatch(of: /[a-z][a-z0-9]*(-[a-z0-9]+)*/) == nil {
      error(
        "feature name '\(entry.key)' must be lowercase letters, digits and dashes, starting with a letter",
        entry.keyLocation)
      valid = false
    }
    guard let fields = fields(of: entry.value, allowed: Self.featureKeys, in: context) else { return nil }
    for key in Self.requiredFeatureKeys where fields[key] == nil {
      error("missing required key '\(key)' in \(context)", entry.keyLocation)
      valid = false
    }
    let world = fields["world"].flatMap { identifier($0, in: context) }
    var scenario = fields["scenario"].flatMap { string($0, in: context) }
    if let path = scenario, let field = fields["scenario"] {
      if path.hasPrefix("/") || path.split(separator: "/").contains("..") || !path.hasSuffix(".swift") {
        error(
          "'scenario' of \(context) must be a .swift file inside the repository, given relative to it",
          field.value.location)
        scenario = nil
      }
    }
    var fixtures: [String] = []
    var fixtureLocations: [SourceLocation] = []
    if let field = fields["fixtures"] {
      if case .sequence(let items, _) = field.value {
        for item in items {
          guard case .scalar(let text, _, _) = item, !item.isNull else {
            error("each fixture of \(context) must be a name, not \(item.kindName)", item.location)
            valid = false
            continue
          }
          if !Self.isFixtureName(text) {
            error(
              "fixture '\(text)' of \(context) must be lowercase slugs joined by dots, as the scenario's labels give them",
              item.location)
            valid = false
          } else if fixtures.contains(text) {
            error("fixture '\(text)' is listed twice in \(context)", item.location)
            valid = false
          }
          fixtures.append(text)
          fixtureLocations.append(item.location)
        }
      } else {
        error(
          "'fixtures' of \(context) must be a sequence of recording names, not \(field.value.kindName)",
          field.value.location)
        valid = false
      }
    }
    guard valid, world != nil || fields["world"] == nil, let scenario, let scenarioField = fields["scenario"],
      let fixturesField = fields["fixtures"]
    else { return nil }
    let locations = FeatureSpec.Locations(
      name: entry.keyLocation, scenario: scenarioField.value.location, fixturesKey: fixturesField.keyLocation,
      fixtures: fixtureLocations)
    return ParsedManifest.FeatureSource(
      feature: FeatureSpec(name: entry.key, world: world, scenario: scenario, fixtures: fixtures, locations: locations),
      worldLocation: fields["world"]?.value.location)
  }

  // MARK: Domains

  private mutating func readDomain(_ entry: YAMLEntry) -> ParsedManifest.DomainSource? {
    let name = entry.key
    let context = "domain '\(name)'"
    var nameIsValid = checkIdentifier(name, at: entry.keyLocation)
    if nameIsValid, SwiftIdentifier.toolchainModules.contains(name) {
      error(
        "domain '\(name)' would be a module named like the toolchain's '\(name)'; choose another name",
        entry.keyLocation)
      nameIsValid = false
    } else if nameIsValid, name.hasSuffix("Tests") || name.hasSuffix("Testing") {
      error(
        "domain '\(name)' ends like a generated target ('…Tests' holds a domain's tests, '…Testing' its test doubles); "
          + "choose another name", entry.keyLocation)
      nameIsValid = false
    }
    guard let fields = fields(of: entry.value, allowed: Self.domainKeys, in: context) else { return nil }
    let kinds = Self.domainKindKeys.compactMap { fields[$0] }.sorted { $0.keyLocation < $1.keyLocation }
    guard let kindEntry = kinds.first else {
      error("\(context) needs one of 'state', 'service' or 'resource'", entry.keyLocation)
      return nil
    }
    for extra in kinds.dropFirst() {
      error("\(context) has both '\(kindEntry.key)' and '\(extra.key)'; a domain is one kind", extra.keyLocation)
    }
    let allowed = Self.keysByKind[kindEntry.key]!
    for field in fields.values.sorted(by: { $0.keyLocation < $1.keyLocation })
    where !allowed.contains(field.key) && !Self.domainKindKeys.contains(field.key) {
      error("'\(field.key)' does not apply to a \(kindEntry.key) domain (\(context))", field.keyLocation)
    }
    let doc = fields["doc"].flatMap { string($0, in: context) }
    var property = SwiftIdentifier.lowerCamel(name)
    var propertyLocation = entry.keyLocation
    if let field = fields["property"], let value = identifier(field, in: context) {
      property = value
      propertyLocation = field.value.location
    }
    if nameIsValid || fields["property"] != nil,
      SwiftIdentifier.keywords.contains(property) || SwiftIdentifier.reservedMemberNames.contains(property)
    {
      let fix = fields["property"] == nil ? "; set 'property:' to another name" : ""
      error("property '\(property)' of \(context) cannot name a Swift member\(fix)", propertyLocation)
      nameIsValid = false
    }
    guard let typeName = typeName(kindEntry, in: context) else { return nil }
    var source = ParsedManifest.DomainSource(
      domain: Domain(name: name, property: property, doc: doc, kind: .state(type: typeName)),
      nameLocation: entry.keyLocation, propertyLocation: propertyLocation,
      linkLocations: [:], storesLocations: [:], demandLocations: [:])
    switch kindEntry.key {
    case "service":
      var links: [Link] = []
      if let field = fields["links"] {
        let entries = mapping(field.value, what: "'links' of \(context)") ?? []
        if entries.isEmpty, case .mapping = field.value {
          error("service \(context) needs at least one link", field.value.location)
        }
        for linkEntry in entries {
          guard let link = readLink(linkEntry, domain: name, into: &source) else { continue }
          links.append(link)
        }
      } else {
        error("missing required key 'links' in \(context)", entry.keyLocation)
      }
      let isNoncopyable = fields["noncopyable"].flatMap { bool($0, in: context) } ?? false
      let access = fields["access"].flatMap { readAccess($0, in: context, allowed: Access.allCases) } ?? Access.mutate
      let isMocked = fields["mock"].flatMap { bool($0, in: context) } ?? false
      var requirements: [Requirement] = []
      var memberOwners: [String: String] = [:]
      if let field = fields["requirements"] {
        for entry in mapping(field.value, what: "'requirements' of \(context)") ?? [] {
          guard let requirement = readRequirement(entry, in: context, mocked: isMocked) else { continue }
          requirements.append(requirement)
          // An overload (`name:`) must differ from the methods it shares its name with.
          if let twin = requirements.dropLast().first(where: {
            $0.name == requirement.name
              && $0.parameters.map { [$0.label, $0.type] }
                == requirement.parameters.map { [$0.label, $0.type] }
          }) {
            error(
              "requirement '\(requirement.key)' of \(context) declares the same method as '\(twin.key)' "
                + "(\(requirement.name) with the same labels and types); change its parameters or its name",
              entry.keyLocation)
          }
          // The test doubles give each requirement members of its own (`fetchCallCount`,
          // `loggingFetch`, `FetchArgs`…); two requirements must not give the same one.
          guard isMocked else { continue }
          let key = requirement.key
          let capitalized = key.prefix(1).uppercased() + key.dropFirst()
          let members = [
            key, "\(key)CallCount", "\(key)ArgValues", "\(key)Handler", "logging\(capitalized)",
            "retrying\(capitalized)", "\(capitalized)Args",
          ]
          for member in members {
            if let owner = memberOwners[member], owner != key {
              error(
                "requirement '\(key)' of \(context) gives the test doubles a member '\(member)', "
                  + "which requirement '\(owner)' gives too; rename one of them", entry.keyLocation)
              break
            }
            memberOwners[member] = key
          }
        }
      }
      if isMocked, let mockField = fields["mock"] {
        if fields["requirements"] == nil {
          error(
            "missing required key 'requirements' in \(context): a mock is generated from the declared requirements",
            mockField.keyLocation)
        }
        for reserved in Self.testDoubleLinks {
          if let location = source.linkLocations[reserved] {
            error("link name '\(reserved)' is reserved for the generated test double of a mocked service", location)
          }
        }
        links.removeAll { Self.testDoubleLinks.contains($0.name) }
        links.append(Link(name: "Recording", impl: "\(typeName)Mock", stores: "\(property)Mock", isTestDouble: true))
        links.append(
          Link(name: "Witness", impl: "\(typeName)Witness", stores: "\(property)Witness", isTestDouble: true))
        source.storesLocations["Recording"] = mockField.keyLocation
        source.storesLocations["Witness"] = mockField.keyLocation
      }
      source.domain.kind = .service(
        Service(
          protocolName: typeName, isNoncopyable: isNoncopyable, access: access, links: links,
          requirements: requirements, isMocked: isMocked))
    case "resource":
      if let field = fields["access"] { _ = readAccess(field, in: context, allowed: [.mutate]) }
      source.domain.kind = .resource(type: typeName)
    default:
      break
    }
    return nameIsValid ? source : nil
  }

  private mutating func readLink(_ entry: YAMLEntry, domain: String, into source: inout ParsedManifest.DomainSource)
    -> Link?
  {
    let context = "link '\(entry.key)' of '\(domain)'"
    let nameIsValid = checkIdentifier(entry.key, at: entry.keyLocation)
    guard let fields = fields(of: entry.value, allowed: Self.linkKeys, in: context) else { return nil }
    source.linkLocations[entry.key] = entry.keyLocation
    var impl: String?
    if let field = fields["impl"] {
      impl = typeName(field, in: context)
    } else {
      error("missing required key 'impl' in \(context)", entry.keyLocation)
    }
    var stores: String?
    if let field = fields["stores"], let value = identifier(field, in: context) {
      stores = value
      source.storesLocations[entry.key] = field.value.location
    }
    var demands: [Demand] = []
    if let field = fields["demands"] {
      for demand in mapping(field.value, what: "'demands' of \(context)") ?? [] {
        let demandIsValid = checkIdentifier(demand.key, at: demand.keyLocation)
        guard let type = typeName(demand, in: context, opaqueAllowed: false), demandIsValid else { continue }
        demands.append(Demand(name: demand.key, type: type))
        source.demandLocations[entry.key, default: [:]][demand.key] = demand.keyLocation
      }
    }
    let doc = fields["doc"].flatMap { string($0, in: context) }
    guard let impl, nameIsValid else { return nil }
    return Link(name: entry.key, impl: impl, stores: stores, demands: demands, doc: doc)
  }

  // MARK: Requirements

  private mutating func readRequirement(_ entry: YAMLEntry, in domainContext: String, mocked: Bool) -> Requirement? {
    if entry.key.contains("<") {
      error(
        "requirement '\(entry.key)' of \(domainContext) is generic: linkgen cannot mock generic requirements; "
          + "declare one requirement per concrete type instead", entry.keyLocation)
      return nil
    }
    let context = "requirement '\(entry.key)' of \(domainContext)"
    var nameIsValid = checkIdentifier(entry.key, at: entry.keyLocation)
    if Self.reservedRequirementNames.contains(entry.key) || entry.key.lowercased().hasPrefix(Self.reservedPrefix) {
      error(
        "\(context) is named like a member of the generated test doubles ('endpoints' of the witness, 'calls' or "
          + "'reset' of the mock, or a name starting with 'linkgen'); rename it", entry.keyLocation)
      nameIsValid = false
    }
    let fields: [String: YAMLEntry]
    if entry.value.isNull {
      fields = [:]
    } else {
      guard let read = self.fields(of: entry.value, allowed: Self.requirementKeys, in: context) else { return nil }
      fields = read
    }
    var parameters: [Parameter] = []
    var parametersAreValid = true
    if let field = fields["parameters"] {
      if case .sequence(let items, _) = field.value {
        for item in items {
          guard case .scalar(let text, _, _) = item, let parameter = parameter(text, at: item.location, mocked: mocked)
          else {
            if case .scalar = item {
            } else {
              error(
                "each parameter of \(context) must be a string like '_ amount: Decimal', not \(item.kindName)",
                item.location)
            }
            parametersAreValid = false
            continue
          }
          parameters.append(parameter)
        }
      } else {
        error("'parameters' of \(context) must be a sequence of strings like '_ amount: Decimal'", field.value.location)
        parametersAreValid = false
      }
    }
    var seenNames: Set<String> = []
    for parameter in parameters where !seenNames.insert(parameter.name).inserted {
      error("\(context) has two parameters named '\(parameter.name)'", fields["parameters"]!.value.location)
      parametersAreValid = false
    }
    let returns = fields["returns"].flatMap { typeName($0, in: context, opaqueAllowed: false) }
    if let returns, returns.split(whereSeparator: { !$0.isLetter }).contains("Self"), let field = fields["returns"] {
      error(
        "\(context) returns 'Self': linkgen cannot mock a requirement whose type is the conformer", field.value.location
      )
      parametersAreValid = false
    }
    var throwing = Requirement.Throwing.none
    if let field = fields["throws"] {
      if case .scalar(let text, true, _) = field.value, let flag = YAMLNode.booleanValue(text) {
        throwing = flag ? .untyped : .none
      } else if let type = typeName(field, in: context, opaqueAllowed: false) {
        // `throws(Never)` does not throw: generated code must not `try` it.
        throwing = type == "Never" || type == "Swift.Never" ? .none : .typed(type)
      }
    }
    let isAsync = fields["async"].flatMap { bool($0, in: context) } ?? false
    let isMutating = fields["mutating"].flatMap { bool($0, in: context) } ?? false
    let equatable = fields["equatable"].flatMap { bool($0, in: context) }
    var methodName = entry.key
    if let field = fields["name"] {
      if case .scalar(let text, _, _) = field.value, checkIdentifier(text, at: field.value.location) {
        methodName = text
      } else {
        if case .scalar = field.value {
        } else {
          error("'name' of \(context) must be a method name, not \(field.value.kindName)", field.value.location)
        }
        nameIsValid = false
      }
    }
    var mockDefault: String?
    if let field = fields["mockDefault"] {
      if case .scalar(let text, _, _) = field.value, !text.trimmingCharacters(in: .whitespaces).isEmpty,
        !text.contains("\n")
      {
        mockDefault = text.trimmingCharacters(in: .whitespaces)
      } else {
        error(
          "'mockDefault' of \(context) must be a one-line Swift expression of its result type, like '.unknown'",
          field.value.location)
        parametersAreValid = false
      }
    }
    let requirement = Requirement(
      name: methodName, key: entry.key, parameters: parameters, returns: returns, throwing: throwing,
      isAsync: isAsync, isMutating: isMutating, mockDefault: mockDefault, equatableOverride: equatable)
    if mocked, let returns, requirement.defaultValue == nil, fields["mockDefault"] == nil {
      error(
        "\(context) returns '\(returns)', for which linkgen knows no value a mock can answer when a test set no "
          + "handler; add mockDefault: with one (a Swift expression, like '.unknown')", entry.keyLocation)
      parametersAreValid = false
    }
    guard nameIsValid, parametersAreValid else { return nil }
    return requirement
  }

  /// `_ amount: Decimal`, `amount: Decimal` or `for tab: Tab.ID`.
  private mutating func parameter(_ text: String, at location: SourceLocation, mocked: Bool) -> Parameter? {
    guard let colon = text.firstIndex(of: ":") else {
      error("parameter '\(text)' must read 'label name: Type' or 'name: Type'", location)
      return nil
    }
    let names = text[..<colon].split(separator: " ").map(String.init)
    let type = text[text.index(after: colon)...].trimmingCharacters(in: .whitespaces)
    guard (1...2).contains(names.count) else {
      error("parameter '\(text)' must read 'label name: Type' or 'name: Type'", location)
      return nil
    }
    if type.contains("->") || type.hasPrefix("@") || type.hasPrefix("inout") {
      error("parameter '\(text)' cannot be mocked: closure and inout parameters are not supported", location)
      return nil
    }
    if type.hasSuffix("...") {
      error("parameter '\(text)' cannot be mocked: variadic parameters are not supported; take an array", location)
      return nil
    }
    let label = names[0]
    let name = names.count == 2 ? names[1] : names[0]
    // Any keyword may be an argument label but these three (`for key: Int` is fine).
    let labelProblem =
      names.count == 2 && SwiftIdentifier.keywords.contains(label) && !["inout", "var", "let"].contains(label)
      ? nil : SwiftIdentifier.problem(with: label)
    if label != "_", let problem = labelProblem {
      error(problem, location)
      return nil
    }
    let words = Set(type.split(whereSeparator: { !($0.isLetter || $0.isNumber || $0 == "_") }).map(String.init))
    if words.contains("some") {
      error(
        "parameter '\(text)' cannot be mocked or checked: an opaque 'some' type; use a concrete or 'any' type", location
      )
      return nil
    }
    if mocked, !words.isDisjoint(with: ["borrowing", "consuming", "sending"]) {
      error("parameter '\(text)' cannot be mocked: the mock keeps its arguments, so no ownership modifier", location)
      return nil
    }
    if mocked, words.contains("Endpoints") {
      error("parameter '\(text)' names a type 'Endpoints', which the generated witness declares; rename it", location)
      return nil
    }
    if let problem = SwiftIdentifier.problem(with: name) ?? SwiftIdentifier.typeProblem(with: type, parameter: true) {
      error(problem, location)
      return nil
    }
    if name.lowercased().hasPrefix(Self.reservedPrefix) {
      error("parameter '\(text)' starts with 'linkgen', which generated code keeps for its own names", location)
      return nil
    }
    return Parameter(label: label, name: name, type: type)
  }

  // MARK: Worlds

  private mutating func readWorld(_ entry: YAMLEntry) -> ParsedManifest.WorldSource? {
    let context = "world '\(entry.key)'"
    let nameIsValid = checkIdentifier(entry.key, at: entry.keyLocation)
    guard let fields = fields(of: entry.value, allowed: Self.worldKeys, in: context) else { return nil }
    var module: String?
    if let field = fields["module"] {
      module = identifier(field, in: context)
    } else {
      error("missing required key 'module' in \(context)", entry.keyLocation)
    }
    var domainEntries: [(String, SourceLocation)] = []
    if let field = fields["domains"] {
      if case .sequence(let items, _) = field.value {
        if items.isEmpty {
          error("\(context) composes no domain; list at least one in 'domains'", field.value.location)
        }
        for item in items {
          if case .scalar(let text, _, _) = item, !item.isNull {
            domainEntries.append((text, item.location))
          } else {
            error("each entry of 'domains' of \(context) must be a domain name, not \(item.kindName)", item.location)
          }
        }
      } else {
        error(
          "'domains' of \(context) must be a sequence of domain names, not \(field.value.kindName)",
          field.value.location)
      }
    } else {
      error("missing required key 'domains' in \(context)", entry.keyLocation)
    }
    var linkEntries: [(String, SourceLocation, String, SourceLocation)] = []
    if let field = fields["links"] {
      for pick in mapping(field.value, what: "'links' of \(context)") ?? [] {
        guard let link = string(pick, in: context) else { continue }
        linkEntries.append((pick.key, pick.keyLocation, link, pick.value.location))
      }
    }
    let doc = fields["doc"].flatMap { string($0, in: context) }
    let snapshot = fields["snapshot"].flatMap { identifier($0, in: context) }
    guard let module, nameIsValid else { return nil }
    let world = World(
      name: entry.key, module: module, domains: domainEntries.map(\.0),
      links: Dictionary(linkEntries.map { ($0.0, $0.2) }, uniquingKeysWith: { first, _ in first }), doc: doc,
      snapshot: snapshot)
    return ParsedManifest.WorldSource(
      world: world, nameLocation: entry.keyLocation,
      domainEntries: domainEntries, linkEntries: linkEntries, snapshotLocation: fields["snapshot"]?.value.location)
  }

  // MARK: Typed values

  private mutating func error(_ message: String, _ location: SourceLocation) {
    diagnostics.append(Diagnostic(message, at: location))
  }

  private mutating func mapping(_ node: YAMLNode, what: String) -> [YAMLEntry]? {
    if case .mapping(let entries, _) = node { return entries }
    error("\(what) must be a mapping, not \(node.kindName)", node.location)
    return nil
  }

  /// The entries of a mapping by key; reports keys outside `allowed`.
  private mutating func fields(of node: YAMLNode, allowed: [String], in context: String) -> [String: YAMLEntry]? {
    guard let entries = mapping(node, what: context) else { return nil }
    var result: [String: YAMLEntry] = [:]
    for entry in entries {
      guard allowed.contains(entry.key) else {
        error(
          "unknown key '\(entry.key)' in \(context)\(Suggestion.hint(for: entry.key, in: allowed))", entry.keyLocation)
        continue
      }
      result[entry.key] = entry
    }
    return result
  }

  private mutating func string(_ entry: YAMLEntry, in context: String) -> String? {
    // A literal block (`doc: |`) ends with a line break that means nothing.
    if case .scalar(let text, _, _) = entry.value, !entry.value.isNull {
      return entry.key == "doc" ? String(text.reversed().drop(while: \.isNewline).reversed()) : text
    }
    error("'\(entry.key)' of \(context) must be a string, not \(entry.value.kindName)", entry.value.location)
    return nil
  }

  private mutating func identifier(_ entry: YAMLEntry, in context: String) -> String? {
    guard let text = string(entry, in: context) else { return nil }
    return checkIdentifier(text, at: entry.value.location) ? text : nil
  }

  private mutating func typeName(_ entry: YAMLEntry, in context: String, opaqueAllowed: Bool = true) -> String? {
    guard let text = string(entry, in: context) else { return nil }
    if let problem = SwiftIdentifier.typeProblem(with: text) {
      error(problem, entry.value.location)
      return nil
    }
    let words = Set(text.split(whereSeparator: { !($0.isLetter || $0.isNumber || $0 == "_") }).map(String.init))
    if !opaqueAllowed, words.contains("some") {
      error(
        "'\(text)' is an opaque 'some' type, which a protocol requirement cannot have; use 'any'", entry.value.location)
      return nil
    }
    if let reserved = words.intersection(Self.reservedTypeNames).sorted().first, text == reserved {
      error("a type named '\(reserved)' would shadow the one generated code uses; rename it", entry.value.location)
      return nil
    }
    return text
  }

  private mutating func bool(_ entry: YAMLEntry, in context: String) -> Bool? {
    if case .scalar(let text, true, _) = entry.value, let value = YAMLNode.booleanValue(text) { return value }
    error("'\(entry.key)' of \(context) must be true or false, not \(entry.value.kindName)", entry.value.location)
    return nil
  }

  private mutating func readAccess(_ entry: YAMLEntry, in context: String, allowed: [Access]) -> Access? {
    guard let text = string(entry, in: context) else { return nil }
    if let value = Access(rawValue: text), allowed.contains(value) { return value }
    let names = allowed.map { "'\($0.rawValue)'" }.joined(separator: " or ")
    error("'access' of \(context) must be \(names), not '\(text)'", entry.value.location)
    return nil
  }

  private mutating func checkIdentifier(_ name: String, at location: SourceLocation) -> Bool {
    guard let problem = SwiftIdentifier.problem(with: name) else { return true }
    error(problem, location)
    return false
  }
}
