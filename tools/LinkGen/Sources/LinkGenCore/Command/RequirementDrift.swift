import Foundation

/// Holds each mocked service's `requirements:` to its hand-written protocol, so
/// that drift is reported in `codegen.yaml`, at the requirement, rather than as
/// a compile error inside a generated file. It compares what a caller sees:
/// each method's selector (`charge(_:key:)`), `mutating`, `async` and whether it
/// throws. Types are left to the compiler (the generated
/// `<Protocol>+Requirements.swift` check), which knows that `Int` and
/// `Swift.Int` are one type. A property or subscript in the protocol is
/// reported too: the generated mock and witness implement methods only. The
/// protocol is looked for as `protocol <Name>` in
/// the domain's own sources (`Packages/<Domain>/Sources/<Domain>`); a service
/// whose protocol is not found there is not checked.
struct RequirementDrift {
  let root: URL
  let manifest: Manifest
  let manifestText: String
  /// A walk of the tree made just before, or nil to walk the domain's sources here.
  var scan: RepositoryScan? = nil

  /// What a caller sees of one method.
  struct Shape: Equatable {
    var selector: String
    var isMutating: Bool
    var isAsync: Bool
    var throwsErrors: Bool

    /// `mutating func charge(_:key:) async throws`, as a message shows it.
    var description: String {
      (isMutating ? "mutating " : "") + "func \(selector)" + (isAsync ? " async" : "") + (throwsErrors ? " throws" : "")
    }
  }

  /// One method declared by a protocol, and where.
  struct Declared {
    var shape: Shape
    var name: String
    var place: String
  }

  /// What a protocol declares that linkgen compares: its methods, and the
  /// properties and subscripts a mock cannot implement.
  struct Declarations {
    var methods: [Declared]
    /// `property 'name'` or `a subscript`, each with its place.
    var others: [(what: String, place: String)]
  }

  /// Every drift, located in the manifest.
  func diagnostics() -> [Diagnostic] {
    // The manifest is parsed again only to locate requirements: skipped when no service lists any.
    let listsRequirements = manifest.domains.contains { domain in
      guard case .service(let service) = domain.kind else { return false }
      return !service.requirements.isEmpty
    }
    guard listsRequirements, let parsed = try? YAMLParser.parse(manifestText), case .mapping(let top, _)? = parsed.root,
      let domainsEntry = top.first(where: { $0.key == "domains" }),
      case .mapping(let domainEntries, _) = domainsEntry.value
    else { return [] }
    var found: [Diagnostic] = []
    for domain in manifest.domains {
      guard case .service(let service) = domain.kind, !service.requirements.isEmpty,
        let entry = domainEntries.first(where: { $0.key == domain.name }), case .mapping(let fields, _) = entry.value,
        let requirementsEntry = fields.first(where: { $0.key == "requirements" }),
        case .mapping(let requirementEntries, _) = requirementsEntry.value,
        let declarations = declarations(of: service.protocolName, in: domain.name)
      else { continue }
      let declared = declarations.methods
      for other in declarations.others {
        found.append(
          Diagnostic(
            "protocol \(service.protocolName) declares \(other.what) at \(other.place); service '\(domain.name)' "
              + "is mocked (mock: true), and its mock and witness implement only the methods under 'requirements'",
            at: requirementsEntry.keyLocation))
      }
      var unmatched = declared
      var reported: Set<String> = []
      for requirement in service.requirements {
        let shape = Self.shape(of: requirement)
        let location =
          requirementEntries.first(where: { $0.key == requirement.key })?.keyLocation
          ?? requirementsEntry.keyLocation
        if let index = unmatched.firstIndex(where: { $0.shape == shape }) {
          unmatched.remove(at: index)
          continue
        }
        let sameName = declared.filter { $0.name == requirement.name }
        if sameName.isEmpty {
          found.append(
            Diagnostic(
              "requirement '\(requirement.key)' of service '\(domain.name)' (\(shape.description)) is not declared by "
                + "protocol \(service.protocolName); remove it here, or add it to the protocol",
              at: location))
        } else {
          reported.formUnion(sameName.map(\.place))
          let listed = sameName.map { "\($0.shape.description) at \($0.place)" }.joined(separator: "; ")
          found.append(
            Diagnostic(
              "requirement '\(requirement.key)' of service '\(domain.name)' says \(shape.description), but protocol "
                + "\(service.protocolName) declares \(listed); make the two agree",
              at: location))
        }
      }
      for method in unmatched where !reported.contains(method.place) {
        found.append(
          Diagnostic(
            "protocol \(service.protocolName) declares \(method.shape.description) at \(method.place), which "
              + "'requirements' of service '\(domain.name)' does not list; add it here, or remove it from the protocol",
            at: requirementsEntry.keyLocation))
      }
    }
    return found
  }

  /// The shape the manifest gives a requirement.
  static func shape(of requirement: Requirement) -> Shape {
    Shape(
      selector: "\(requirement.name)(\(requirement.parameters.map { "\($0.label):" }.joined()))",
      isMutating: requirement.isMutating, isAsync: requirement.isAsync, throwsErrors: requirement.throwing != .none)
  }

  /// What `protocol <name>` in the domain's sources declares, or nil when no file declares it.
  func declarations(of name: String, in domain: String) -> Declarations? {
    let folder = "Packages/\(domain)/Sources/\(domain)"
    let files =
      scan.map { scan in scan.swiftFiles.filter { $0.hasPrefix(folder + "/") }.map { root.appendingPathComponent($0) } }
      ?? SwiftFiles.under(root.appendingPathComponent(folder))
    for url in files where !url.path.contains("/Generated/") {
      guard let text = try? String(contentsOf: url, encoding: .utf8) else { continue }
      let code = SwiftTokens.code(of: text)
      guard let pattern = try? Regex("\\bprotocol\\s+\(name)\\b"), let declaration = code.firstMatch(of: pattern),
        let open = code[declaration.range.upperBound...].firstIndex(of: "{")
      else { continue }
      let close = SourceText.closing(of: open, in: code)
      let relative = String(url.standardizedFileURL.path.dropFirst(root.standardizedFileURL.path.count + 1))
      let methods = Self.methods(in: code, from: open, to: close).map { method in
        Declared(shape: method.shape, name: method.name, place: "\(relative):\(method.line):\(method.column)")
      }
      let others = code[open..<close].matches(of: /\b(?:var\s+(\w+)|subscript\b)/).map { match in
        let (line, column) = SourceText.position(of: match.range.lowerBound, in: code)
        return (match.output.1.map { "property '\($0)'" } ?? "a subscript", "\(relative):\(line):\(column)")
      }
      return Declarations(methods: methods, others: others)
    }
    return nil
  }

  /// Each `func` between `start` and `end` of `code`, with its shape and position.
  static func methods(in code: String, from start: String.Index, to end: String.Index) -> [(
    name: String, shape: Shape, line: Int, column: Int
  )] {
    var methods: [(name: String, shape: Shape, line: Int, column: Int)] = []
    let body = code[start..<end]
    for match in body.matches(of: /(?<mutating>\bmutating\s+)?\bfunc\s+(?<name>\w+)\s*(?:<[^>]*>)?\s*\(/) {
      let open = body.index(before: match.range.upperBound)
      let close = SourceText.closing(of: open, in: code)
      guard close < code.endIndex else { continue }
      let labels = topLevelParts(of: code[code.index(after: open)..<close]).map { parameter -> String in
        let words = parameter.prefix { $0 != ":" }.split(whereSeparator: \.isWhitespace)
        return "\(words.first.map(String.init) ?? "_"):"
      }
      // The effects sit between the parameters and the result or the end of the line.
      let rest = code[code.index(after: close)...]
      let effects = rest.prefix { $0 != "\n" && $0 != "-" && $0 != "{" && $0 != "}" }
      let name = String(match.output.name)
      let shape = Shape(
        selector: "\(name)(\(labels.joined()))", isMutating: match.output.mutating != nil,
        isAsync: effects.contains(/\basync\b/), throwsErrors: effects.contains(/\b(throws|rethrows)\b/))
      let (line, column) = SourceText.position(of: match.range.lowerBound, in: code)
      methods.append((name, shape, line, column))
    }
    return methods
  }

  /// The parts of a parameter list split at commas outside brackets.
  static func topLevelParts(of text: Substring) -> [Substring] {
    var parts: [Substring] = []
    var depth = 0
    var start = text.startIndex
    var previous: Character = " "
    for index in text.indices {
      defer { previous = text[index] }
      switch text[index] {
      case "(", "[", "<": depth += 1
      case ">" where previous == "-": break  // an arrow, not a closing bracket
      case ")", "]",
        ">" where depth > 0:
        depth -= 1
      case "," where depth == 0:
        parts.append(text[start..<index])
        start = text.index(after: index)
      default: break
      }
    }
    let last = text[start...]
    if !last.allSatisfy(\.isWhitespace) { parts.append(last) }
    return parts
  }
}
