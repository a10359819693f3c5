/// Adds a domain to `codegen.yaml` as text, so comments, order and layout survive.
public enum ManifestEditor {

  /// `text` with `entry` (a domain's YAML lines, without indentation) appended
  /// to the `domains` mapping, indented like its siblings.
  public static func addingDomain(named name: String, entry: [String], to text: String) throws(DiagnosticError)
    -> String
  {
    let (root, _) = try YAMLParser.parse(text)
    guard case .mapping(let top, _)? = root, let domains = top.first(where: { $0.key == "domains" }) else {
      throw DiagnosticError([
        Diagnostic("the manifest has no 'domains' mapping to add to", at: SourceLocation(line: 1, column: 1))
      ])
    }
    guard case .mapping(let entries, let span) = domains.value else {
      throw DiagnosticError([
        Diagnostic("'domains' must be a mapping, not \(domains.value.kindName)", at: domains.value.location)
      ])
    }
    if let existing = entries.first(where: { $0.key == name }) {
      throw DiagnosticError([Diagnostic("domain '\(name)' already exists", at: existing.keyLocation)])
    }
    // "\r\n" is one Character in Swift: split and join on the file's own line ending.
    let newline = text.contains("\r\n") ? "\r\n" : "\n"
    var lines = text.components(separatedBy: newline)
    let indent: Int
    let insertAt: Int
    if let last = entries.last {
      guard last.keyLocation.line > domains.keyLocation.line else {
        throw DiagnosticError([
          Diagnostic("cannot add to a flow-style 'domains' mapping; write it in block style", at: span.start)
        ])
      }
      indent = last.keyLocation.column - 1
      insertAt = max(last.value.span.lastLine, last.keyLocation.line)
    } else {
      throw DiagnosticError([
        Diagnostic("cannot add to an empty 'domains' mapping; write the first domain by hand", at: span.start)
      ])
    }
    let pad = String(repeating: " ", count: indent)
    let block = entry.map { $0.isEmpty ? "" : pad + $0 }
    lines.insert(contentsOf: block, at: min(insertAt, lines.count))
    return lines.joined(separator: newline)
  }
}
