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

extension ManifestEditor {
  /// `text` without domain `name`: its entry under `domains`, and its name in
  /// every world's `domains` list and `links` mapping, as text, so comments,
  /// order and layout elsewhere survive.
  public static func removingDomain(named name: String, from text: String) throws(DiagnosticError) -> String {
    let (root, _) = try YAMLParser.parse(text)
    guard case .mapping(let top, _)? = root, let domains = top.first(where: { $0.key == "domains" }),
      case .mapping(let entries, _) = domains.value
    else {
      throw DiagnosticError([
        Diagnostic("the manifest has no 'domains' mapping", at: SourceLocation(line: 1, column: 1))
      ])
    }
    guard let entry = entries.first(where: { $0.key == name }) else {
      throw DiagnosticError([Diagnostic("no domain '\(name)'", at: domains.keyLocation)])
    }
    guard entry.keyLocation.line > domains.keyLocation.line else {
      throw DiagnosticError([
        Diagnostic("cannot remove from a flow-style 'domains' mapping; write it in block style", at: entry.keyLocation)
      ])
    }
    let newline = text.contains("\r\n") ? "\r\n" : "\n"
    var lines = text.components(separatedBy: newline)
    // Two kinds of edit: whole lines (a block entry or item) go; an item
    // leaves a one-line flow collection (`[A, B]`, `{ A: B }`).
    enum Edit {
      case lines(ClosedRange<Int>)
      case flow(item: String, YAMLSpan)
    }
    var edits: [Edit] = [.lines(blockLines(of: entry.keyLocation, in: lines))]
    if let worlds = top.first(where: { $0.key == "worlds" }), case .mapping(let worldEntries, _) = worlds.value {
      for world in worldEntries {
        guard case .mapping(let fields, _) = world.value else { continue }
        for field in fields where field.key == "domains" || field.key == "links" {
          switch field.value {
          case .sequence(let items, let span):
            guard let item = items.first(where: { if case .scalar(name, _, _) = $0 { true } else { false } }) else {
              continue
            }
            let isBlock = item.location.line > field.keyLocation.line
            edits.append(isBlock ? .lines(item.location.line...item.location.line) : .flow(item: name, span))
          case .mapping(let picks, let span):
            guard let pick = picks.first(where: { $0.key == name }) else { continue }
            if picks.count == 1 {
              // Its only pick: the field goes (new-domain wrote it whole for a world that had none).
              let isBlock = field.keyLocation.line > world.keyLocation.line
              edits.append(
                isBlock
                  ? .lines(blockLines(of: field.keyLocation, in: lines)) : .flow(item: field.key, world.value.span))
            } else {
              let isBlock = pick.keyLocation.line > field.keyLocation.line
              edits.append(isBlock ? .lines(blockLines(of: pick.keyLocation, in: lines)) : .flow(item: name, span))
            }
          case .scalar: continue
          }
        }
      }
    }
    // From the bottom up, and right to left on one line, so earlier places stay right.
    func place(_ edit: Edit) -> (Int, Int) {
      switch edit {
      case .lines(let range): (range.lowerBound, 0)
      case .flow(_, let span): (span.start.line, span.start.column)
      }
    }
    for edit in edits.sorted(by: { place($0) > place($1) }) {
      switch edit {
      case .lines(let range): lines.removeSubrange((range.lowerBound - 1)..<range.upperBound)
      case .flow(let item, let span): try removeInFlow(item, span, &lines)
      }
    }
    return lines.joined(separator: newline)
  }

  /// The lines (1-based) of the block entry whose key is at `key`: its own
  /// line and every line after it indented deeper, up to its last non-blank one.
  /// (A block mapping's span ends where the next token starts, so it is not used.)
  static func blockLines(of key: SourceLocation, in lines: [String]) -> ClosedRange<Int> {
    var last = key.line
    var index = key.line  // 0-based index of the line after the key's
    while index < lines.count {
      let line = lines[index]
      let content = line.drop { $0 == " " }
      if content.isEmpty || content.hasPrefix("\r") {
        index += 1
        continue
      }
      guard line.count - content.count > key.column - 1 else { break }
      index += 1
      last = index
    }
    return key.line...last
  }

  /// Removes the item `name` (or the pick `name: …`) from the one-line flow
  /// collection that starts at `span`; items are split at its own commas, not
  /// at those of collections nested in it.
  private static func removeInFlow(_ name: String, _ span: YAMLSpan, _ lines: inout [String]) throws(DiagnosticError) {
    let number = span.start.line
    var line = Array(lines[number - 1])
    let open = span.start.column - 1
    let pairs: [Character: Character] = ["[": "]", "{": "}"]
    var close: Int?
    var items: [String] = []
    var item = ""
    var depth = 0
    if span.lastLine == number, open < line.count, pairs[line[open]] != nil {
      for index in (open + 1)..<line.count {
        let character = line[index]
        if pairs[character] != nil { depth += 1 }
        if character == "]" || character == "}" {
          if depth == 0 {
            close = index
            break
          }
          depth -= 1
        }
        if character == ",", depth == 0 {
          items.append(item)
          item = ""
        } else {
          item.append(character)
        }
      }
    }
    guard let close else {
      throw DiagnosticError([
        Diagnostic("cannot remove '\(name)' here: write the collection on one line", at: span.start)
      ])
    }
    items.append(item)
    let content = String(line[(open + 1)..<close])
    let kept = items.map { $0.trimmingCharacters(in: .whitespaces) }.filter { item in
      let key = item.split(separator: ":", maxSplits: 1).first.map { $0.trimmingCharacters(in: .whitespaces) } ?? item
      return key != name
    }
    let pad = line[open] == "{" && content.hasPrefix(" ") ? " " : ""
    let rebuilt = kept.isEmpty ? "" : pad + kept.joined(separator: ", ") + pad
    line.replaceSubrange((open + 1)..<close, with: Array(rebuilt))
    lines[number - 1] = String(line)
  }
}
