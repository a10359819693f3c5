import Foundation
import LinkGenCore

/// A seeded generator, so a failing property run can be replayed (`LINKGEN_PROPERTY_SEED`).
struct SeededRandom: RandomNumberGenerator {
  var state: UInt64
  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}

/// Random manifests drawn from a grammar of names, kinds, links, worlds and
/// requirements, including names and texts that have broken linkgen before;
/// and, for one that linkgen accepts, the hand-written Swift a repository would
/// hold beside the generated code (slices, protocols, implementations, worlds).
struct RandomManifest {
  var random: SeededRandom
  private var used: Set<String> = []

  init(seed: UInt64) { random = SeededRandom(state: seed) }

  static let nameParts = [
    "Menu", "Stock", "Tab", "Clock", "Pay", "Store", "Key", "Loyal", "Default", "Mutable", "Ünï", "Url", "X",
  ]
  static let types = [
    "Int", "String", "Bool", "Double", "[String]", "[String: Int]", "Int?", "Set<String>", "(Int, Int)",
    "[Int]?", "Result<Int, any Error>", "any Sendable",
  ]
  /// What a mock answers for the types above that have no zero linkgen knows.
  static let mockDefaults = [
    "Set<String>": "[]", "(Int, Int)": "(0, 0)", "Result<Int, any Error>": ".success(0)", "any Sendable": "0",
  ]
  static let docs = [
    "A plain doc.", "Two\nlines.", "x\rpublic func injected() -> Int { 42 }", "tab\there", "end */ of comment",
    "line\u{2028}separator", "escape \u{1B}[2J", "quote \" and backslash \\",
  ]
  /// Names that once shadowed the generated code's own (`attempt`, `arguments`, `conformer`, `endpoints`…).
  static let parameterNames = [
    "amount", "key", "reference", "value", "count", "item", "_x", "attempt", "attempts", "arguments", "conformer",
    "endpoints", "state", "handler", "log", "original", "result", "copy", "location", "error", "fileID", "line",
  ]
  /// Labels, keywords among them: `for key: Int` is legal Swift.
  static let labels = ["_ ", "with ", "for ", "in ", "default ", ""]

  private mutating func pick<T>(_ items: [T]) -> T { items.randomElement(using: &random)! }
  private mutating func chance(_ percent: Int) -> Bool { Int.random(in: 0..<100, using: &random) < percent }

  private mutating func freshName() -> String {
    while true {
      let name =
        pick(Self.nameParts) + (chance(50) ? pick(Self.nameParts) : "")
        + (chance(30) ? "\(Int.random(in: 1...9, using: &random))" : "")
      if used.insert(name).inserted { return name }
    }
  }

  private func quoted(_ text: String) -> String {
    "\""
      + text.unicodeScalars.map { scalar -> String in
        switch scalar {
        case "\"": return "\\\""
        case "\\": return "\\\\"
        case "\n": return "\\n"
        case "\r": return "\\r"
        case "\t": return "\\t"
        case _ where scalar.value < 0x20 || scalar.value == 0x2028: return String(format: "\\u%04X", scalar.value)
        default: return String(scalar)
        }
      }.joined() + "\""
  }

  /// A manifest's text.
  mutating func text() -> String {
    var domains: [(name: String, isService: Bool, links: [String])] = []
    var lines = ["domains:"]
    for _ in 0..<Int.random(in: 1...5, using: &random) {
      let name = freshName()
      lines.append("  \(name):")
      if chance(25) { lines.append("    doc: \(quoted(pick(Self.docs)))") }
      switch Int.random(in: 0..<10, using: &random) {
      case 0..<4:
        lines.append("    state: \(name)State")
        domains.append((name, false, []))
      case 4:
        lines.append("    resource: \(name)Handle")
        domains.append((name, false, []))
      default:
        lines.append("    service: \(name)Service")
        if chance(30) { lines.append("    noncopyable: true") }
        if chance(30) { lines.append("    access: read") }
        lines.append("    links:")
        var linkNames: [String] = []
        for index in 0..<Int.random(in: 1...3, using: &random) {
          let link = ["Live", "Fake", "File", "Key", "Test"][index]
          linkNames.append(link)
          var fields = ["impl: \(link)\(name)"]
          if chance(40) { fields.append("stores: \(link.lowercased())\(name)") }
          if chance(30) {
            fields.append("demands: { \(link.lowercased())Setting\(name): \(quoted(pick(Self.types))) }")
          }
          if chance(20) { fields.append("doc: \(quoted(pick(Self.docs)))") }
          lines.append("      \(link): { \(fields.joined(separator: ", ")) }")
        }
        let mocked = chance(60)
        if mocked {
          lines.append("    mock: true")
          linkNames += ["Recording", "Witness"]
        }
        if mocked || chance(30) {
          lines.append("    requirements:")
          for requirement in ["fetch", "send", "check", "apply"].prefix(Int.random(in: 1...3, using: &random)) {
            var fields: [String] = []
            var names = Set<String>()
            var parameters: [String] = []
            for _ in 0..<Int.random(in: 0...3, using: &random) {
              let parameterName = pick(Self.parameterNames)
              guard names.insert(parameterName).inserted else { continue }
              let label = pick(Self.labels)
              parameters.append(quoted("\(label)\(parameterName): \(pick(Self.types))"))
            }
            if !parameters.isEmpty { fields.append("parameters: [\(parameters.joined(separator: ", "))]") }
            if chance(60) {
              let returns = pick(Self.types)
              fields.append("returns: \(quoted(returns))")
              // A type with no zero linkgen knows needs one from the manifest.
              if let answer = Self.mockDefaults[returns] { fields.append("mockDefault: \(quoted(answer))") }
            }
            if chance(30) { fields.append("throws: \(chance(50) ? "true" : "\(name)Failure")") }
            if chance(30) { fields.append("async: true") }
            if chance(40) { fields.append("mutating: true") }
            lines.append("      \(requirement): { \(fields.joined(separator: ", ")) }")
          }
        }
        domains.append((name, true, linkNames))
      }
    }
    lines.append("worlds:")
    for index in 0..<Int.random(in: 1...3, using: &random) {
      let composed = domains.filter { _ in chance(70) }
      let chosen = composed.isEmpty ? [domains[0]] : composed
      let links = chosen.filter(\.isService).map { "\($0.name): \(pick($0.links))" }
      lines.append(
        "  World\(index): { module: App\(index % 2), domains: [\(chosen.map(\.name).joined(separator: ", "))]"
          + (links.isEmpty ? "" : ", links: { \(links.joined(separator: ", ")) }") + " }")
    }
    return lines.joined(separator: "\n") + "\n"
  }

  /// The Swift a repository holds for an accepted `manifest`: the types it names.
  static func handWritten(for manifest: Manifest) -> String {
    var out = ["import Foundation", ""]
    var failures: Set<String> = []
    for domain in manifest.domains {
      switch domain.kind {
      case .state(let type): out.append("public struct \(type): Sendable { public init() {} }")
      case .resource(let type): out.append("public struct \(type): ~Copyable { public init() {} }")
      case .service(let service):
        let declarations = service.requirements.map { requirement -> String in
          if case .typed(let error) = requirement.throwing { failures.insert(error) }
          return declaration(requirement)
        }
        let suppression = service.isNoncopyable ? ": ~Copyable" : ""
        out.append("public protocol \(service.protocolName)\(suppression) {")
        out += declarations.map { "  \($0)" }
        out.append("}")
        for link in service.links where !link.isTestDouble {
          let copyable = service.isNoncopyable && link.stores != nil ? ", ~Copyable" : ""
          let initParameters = link.demands.map { "\($0.name): \($0.type)" }.joined(separator: ", ")
          out.append("public struct \(link.impl): \(service.protocolName)\(copyable) {")
          out.append("  public init(\(initParameters)) {}")
          out += declarations.map { "  public \($0) { fatalError() }" }
          out.append("}")
        }
      }
    }
    for failure in failures.sorted() { out.append("public struct \(failure): Error {}") }
    for world in manifest.worlds {
      out.append("public struct \(world.name): ~Copyable {")
      for name in world.domains {
        guard let domain = manifest.domain(named: name) else { continue }
        switch domain.kind {
        case .state(let type), .resource(let type): out.append("  public var \(domain.property): \(type)")
        case .service(let service):
          guard let link = service.links.first(where: { $0.name == world.links[name] }) else { continue }
          if let stores = link.stores { out.append("  public var \(stores): \(link.impl)") }
          for demand in link.demands { out.append("  public var \(demand.name): \(demand.type)") }
        }
      }
      out.append("}")
    }
    return out.joined(separator: "\n") + "\n"
  }

  private static func declaration(_ requirement: Requirement) -> String {
    let parameters = requirement.parameters.map {
      $0.label == $0.name ? "\($0.name): \($0.type)" : "\($0.label) \($0.name): \($0.type)"
    }.joined(separator: ", ")
    var effects = requirement.isAsync ? " async" : ""
    switch requirement.throwing {
    case .none: break
    case .untyped: effects += " throws"
    case .typed(let error): effects += " throws(\(error))"
    }
    let returns = requirement.returns.map { " -> \($0)" } ?? ""
    return "\(requirement.isMutating ? "mutating " : "")func \(requirement.name)(\(parameters))\(effects)\(returns)"
  }
}
