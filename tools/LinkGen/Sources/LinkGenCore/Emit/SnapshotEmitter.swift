/// Emits a world's snapshot type: one stored property per state slice the
/// world composes, `snapshot` / `restore(_:)` over all of them, and their
/// canonical encoding. No slice list is kept by hand, so a slice added to the
/// world is in its snapshots, its checkpoints and its digest from the next
/// `make generate` on.
enum SnapshotEmitter {

  static func file(named snapshot: String, for worlds: [World], in manifest: Manifest) -> String {
    var out = SourceWriter()
    let slices = worlds[0].domains.compactMap { name -> (domain: Domain, type: String)? in
      guard let domain = manifest.domain(named: name), case .state(let type) = domain.kind else { return nil }
      return (domain, type)
    }
    out.imports(["Foundation"] + slices.map(\.domain.name))
    let names = worlds.map { "`\($0.name)`" }.joined(separator: " and ")
    out.line("/// The state of \(names): every state slice, and nothing else. Copying it is O(1)")
    out.line("/// (the slices are copy-on-write values); `restore(_:)` puts every slice back.")
    out.block("public struct \(snapshot): Codable, Equatable, Sendable") { out in
      for (domain, type) in slices {
        out.line("/// The `\(domain.name)` slice.")
        out.line("public var \(domain.property): \(type)")
      }
      out.line()
      out.line("/// A snapshot of literal slices (the \"given\" of a test); a slice not named is empty.")
      // Each slice defaults to its empty value: a "given" names only the slices it sets,
      // and a slice added later does not break it.
      let parameters = slices.map { "\($0.domain.property): \($0.type) = \($0.type)()" }
      var opening = "public init(\(parameters.joined(separator: ", ")))"
      if !out.fits(opening + " {") {
        // As `swift format` wraps a long parameter list: as many per line as fit, then `) {`.
        var wrapped: [String] = []
        for parameter in parameters {
          if let last = wrapped.last, 4 + last.count + 2 + parameter.count + 1 <= 120 {
            wrapped[wrapped.count - 1] = last + ", " + parameter
          } else {
            wrapped.append(parameter)
          }
        }
        let body = wrapped.enumerated().map { $0.element + ($0.offset < wrapped.count - 1 ? "," : "") }
        opening = "public init(\n" + body.map { "    " + $0 }.joined(separator: "\n") + "\n  )"
      }
      out.block(opening) { out in
        for (domain, _) in slices { out.line("self.\(domain.property) = \(domain.property)") }
      }
      out.line()
      out.line("/// Reads every slice; one the bytes do not hold is empty, so that a checkpoint written")
      out.line("/// before a slice was added to the world still opens.")
      out.block("public init(from decoder: any Decoder) throws") { out in
        out.line("let container = try decoder.container(keyedBy: CodingKeys.self)")
        for (domain, type) in slices {
          let read = "try container.decodeIfPresent(\(type).self, forKey: .\(domain.property)) ?? \(type)()"
          let assignment = "\(domain.property) = \(read)"
          if out.fits(assignment) {
            out.line(assignment)
          } else {
            // As `swift format` breaks a long assignment: after `=`, the value indented once more.
            out.line("\(domain.property) =")
            out.line("  " + read)
          }
        }
      }
      out.line()
      out.line("/// Bytes that depend only on the value: keys sorted, and each slice encodes its")
      out.line("/// collections in a fixed order. Two equal snapshots give the same bytes in any process.")
      out.block("public func canonicalJSON() -> [UInt8]") { out in
        out.line("let encoder = JSONEncoder()")
        out.line("encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]")
        out.line("// Plain values: encoding them cannot fail.")
        out.line("return Array(try! encoder.encode(self))")
      }
    }
    out.line()
    let capabilities = slices.map(\.domain.writeCapability)
    out.line("/// Every capability `\(snapshot)` reads and restores. Constrain code that works on any world")
    out.line("/// with these slices to it (`World: \(snapshot)Slices & ~Copyable`): a slice added to the worlds")
    out.line("/// is then required there too, not forgotten.")
    out.line("public typealias \(snapshot)Slices = \(capabilities.joined(separator: " & "))")
    out.line()
    let constraint = (capabilities.dropFirst() + ["~Copyable"]).joined(separator: " & ")
    out.block("extension \(capabilities[0]) where Self: \(constraint)") { out in
      out.line("/// Every state slice, copied by assignment.")
      let arguments = slices.map { "\($0.domain.property): \($0.domain.property)" }.joined(separator: ", ")
      let oneLine = "public var snapshot: \(snapshot) { \(snapshot)(\(arguments)) }"
      if out.fits(oneLine) {
        out.line(oneLine)
      } else {
        out.block("public var snapshot: \(snapshot)") { out in out.line("\(snapshot)(\(arguments))") }
      }
      out.line()
      out.line("/// Puts every state slice back as it was in `snapshot`.")
      out.block("public mutating func restore(_ snapshot: \(snapshot))") { out in
        for (domain, _) in slices { out.line("\(domain.property) = snapshot.\(domain.property)") }
      }
    }
    return out.text
  }
}
