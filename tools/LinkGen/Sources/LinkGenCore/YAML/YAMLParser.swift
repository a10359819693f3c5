import CYaml

/// Reads YAML text into a `YAMLNode` tree with libyaml's event parser.
///
/// libyaml accepts duplicate mapping keys; this parser reports them, as it does
/// every construct a manifest has no use for (anchors, aliases, several documents).
public enum YAMLParser {
  /// The deepest nesting of mappings and sequences accepted.
  public static let maxDepth = 64

  /// Parses `text`. The root is nil for an empty document (no content at all).
  /// Structural problems that still leave a usable tree (a duplicate key, whose
  /// second occurrence is dropped; an anchor) come back as diagnostics; a syntax
  /// error throws `DiagnosticError` with everything found before it.
  public static func parse(_ text: String) throws(DiagnosticError) -> (root: YAMLNode?, diagnostics: [Diagnostic]) {
    let reader = EventReader(text: text)
    defer { reader.close() }
    var builder = TreeBuilder()
    var depth = 0
    while true {
      let event: Event
      do { event = try reader.next() } catch { throw DiagnosticError(builder.diagnostics + [error]) }
      if case .streamEnd = event.kind { break }
      switch event.kind {
      case .sequenceStart, .mappingStart:
        depth += 1
        // A manifest is a few levels deep; stopping here keeps parsing linear and the stack shallow.
        guard depth <= maxDepth else {
          throw DiagnosticError(
            builder.diagnostics + [
              Diagnostic("nesting deeper than \(maxDepth) levels; a manifest needs a few", at: event.start)
            ])
        }
      case .sequenceEnd, .mappingEnd: depth -= 1
      default: break
      }
      builder.accept(event)
    }
    return (builder.document, builder.diagnostics)
  }
}

/// One libyaml event, copied out of C memory.
struct Event {
  enum Kind {
    case streamStart, streamEnd, documentStart, documentEnd
    case alias
    case scalar(String, isPlain: Bool, hasAnchorOrTag: Bool)
    case sequenceStart(hasAnchorOrTag: Bool, isFlow: Bool)
    case sequenceEnd
    case mappingStart(hasAnchorOrTag: Bool, isFlow: Bool)
    case mappingEnd
  }
  var kind: Kind
  var start: SourceLocation
  /// Position just after the event's text.
  var end: SourceLocation
}

/// Owns a `yaml_parser_t` over a copy of the input bytes.
///
/// The parser lives on the heap: libyaml keeps a pointer to it inside itself,
/// so it must never move.
private struct EventReader {
  private let parser: UnsafeMutablePointer<yaml_parser_t>
  private let bytes: UnsafeMutableBufferPointer<UInt8>

  init(text: String) {
    let utf8 = Array(text.utf8)
    bytes = .allocate(capacity: max(utf8.count, 1))
    _ = bytes.initialize(from: utf8)
    parser = .allocate(capacity: 1)
    parser.initialize(to: yaml_parser_t())
    yaml_parser_initialize(parser)
    yaml_parser_set_input_string(parser, bytes.baseAddress, utf8.count)
  }

  func close() {
    yaml_parser_delete(parser)
    parser.deallocate()
    bytes.deallocate()
  }

  func next() throws(Diagnostic) -> Event {
    var raw = yaml_event_t()
    guard yaml_parser_parse(parser, &raw) == 1 else { throw problem() }
    defer { yaml_event_delete(&raw) }
    let start = location(raw.start_mark)
    let end = location(raw.end_mark)
    let kind: Event.Kind
    switch raw.type {
    case YAML_STREAM_START_EVENT: kind = .streamStart
    case YAML_STREAM_END_EVENT: kind = .streamEnd
    case YAML_DOCUMENT_START_EVENT: kind = .documentStart
    case YAML_DOCUMENT_END_EVENT: kind = .documentEnd
    case YAML_ALIAS_EVENT: kind = .alias
    case YAML_SCALAR_EVENT:
      let scalar = raw.data.scalar
      let text = String(decoding: UnsafeBufferPointer(start: scalar.value, count: scalar.length), as: UTF8.self)
      kind = .scalar(
        text,
        isPlain: scalar.style == YAML_PLAIN_SCALAR_STYLE,
        hasAnchorOrTag: scalar.anchor != nil
          || (scalar.tag != nil && scalar.plain_implicit == 0 && scalar.quoted_implicit == 0)
      )
    case YAML_SEQUENCE_START_EVENT:
      let sequence = raw.data.sequence_start
      kind = .sequenceStart(
        hasAnchorOrTag: sequence.anchor != nil || sequence.tag != nil,
        isFlow: sequence.style == YAML_FLOW_SEQUENCE_STYLE
      )
    case YAML_SEQUENCE_END_EVENT: kind = .sequenceEnd
    case YAML_MAPPING_START_EVENT:
      let mapping = raw.data.mapping_start
      kind = .mappingStart(
        hasAnchorOrTag: mapping.anchor != nil || mapping.tag != nil,
        isFlow: mapping.style == YAML_FLOW_MAPPING_STYLE
      )
    case YAML_MAPPING_END_EVENT: kind = .mappingEnd
    default: kind = .streamEnd
    }
    return Event(kind: kind, start: start, end: end)
  }

  private func location(_ mark: yaml_mark_t) -> SourceLocation {
    SourceLocation(line: Int(mark.line) + 1, column: Int(mark.column) + 1)
  }

  /// libyaml's own words, lowercased, pinned to its problem mark.
  private func problem() -> Diagnostic {
    let what = parser.pointee.problem.map { String(cString: $0) } ?? "malformed document"
    var message = "invalid YAML: \(what)"
    if let context = parser.pointee.context.map({ String(cString: $0) }) {
      message += " (\(context) at \(location(parser.pointee.context_mark)))"
    }
    return Diagnostic(message, at: location(parser.pointee.problem_mark))
  }
}

/// Folds events into nodes, checking the manifest-level rules libyaml does not.
private struct TreeBuilder {
  /// An open collection. Mutated in place through `stack[last]`, so adding a
  /// child never copies the children already read (a 10,000-domain manifest
  /// stays linear).
  private struct Frame {
    var isMapping: Bool
    var start: SourceLocation
    var lastLine: Int
    var entries: [YAMLEntry] = []
    var items: [YAMLNode] = []
    /// The key read, waiting for its value; `nil` key text drops the value.
    var pendingKey: (text: String?, location: SourceLocation)?
    var seen: [String: SourceLocation] = [:]
  }

  private var stack: [Frame] = []
  private(set) var document: YAMLNode?
  private(set) var diagnostics: [Diagnostic] = []
  private var documentCount = 0

  mutating func accept(_ event: Event) {
    switch event.kind {
    case .streamStart, .streamEnd, .documentEnd:
      break
    case .documentStart:
      documentCount += 1
      if documentCount == 2 {
        diagnostics.append(Diagnostic("the manifest must be a single YAML document", at: event.start))
      }
    case .alias:
      diagnostics.append(Diagnostic("aliases are not supported in the manifest", at: event.start))
      dropPendingValue()
    case .scalar(let text, let isPlain, let hasAnchorOrTag):
      if hasAnchorOrTag {
        diagnostics.append(Diagnostic("anchors and tags are not supported in the manifest", at: event.start))
      }
      push(.scalar(text, isPlain: isPlain, YAMLSpan(start: event.start, lastLine: lastContentLine(event))))
    case .sequenceStart(let hasAnchorOrTag, _), .mappingStart(let hasAnchorOrTag, _):
      if hasAnchorOrTag {
        diagnostics.append(Diagnostic("anchors and tags are not supported in the manifest", at: event.start))
      }
      var isMapping = false
      if case .mappingStart = event.kind { isMapping = true }
      stack.append(Frame(isMapping: isMapping, start: event.start, lastLine: event.start.line))
    case .sequenceEnd, .mappingEnd:
      guard let frame = stack.popLast() else { return }
      let span = YAMLSpan(start: frame.start, lastLine: max(frame.lastLine, flowEndLine(event)))
      push(frame.isMapping ? .mapping(frame.entries, span) : .sequence(frame.items, span))
    }
  }

  /// A block collection's end event sits on the next token's line; only a flow
  /// collection's closing bracket is content.
  private func flowEndLine(_ event: Event) -> Int {
    event.end.column > 1 && event.start.line == event.end.line ? event.end.line : 0
  }

  /// A block scalar (`|`) ends at column 1 of the line after its text.
  private func lastContentLine(_ event: Event) -> Int {
    event.end.column == 1 && event.end.line > event.start.line ? event.end.line - 1 : event.end.line
  }

  /// Leaves out the value being read (an alias), key and all, so that it causes
  /// no second error downstream.
  private mutating func dropPendingValue() {
    guard !stack.isEmpty, stack[stack.count - 1].pendingKey != nil else { return }
    stack[stack.count - 1].pendingKey = nil
  }

  private mutating func push(_ node: YAMLNode) {
    guard !stack.isEmpty else {
      document = node
      return
    }
    let top = stack.count - 1
    stack[top].lastLine = max(stack[top].lastLine, node.span.lastLine)
    guard stack[top].isMapping else {
      stack[top].items.append(node)
      return
    }
    if let (key, keyLocation) = stack[top].pendingKey {
      // A duplicate or non-text key was reported when it was read; its value is dropped.
      if let key { stack[top].entries.append(YAMLEntry(key: key, keyLocation: keyLocation, value: node)) }
      stack[top].pendingKey = nil
      return
    }
    guard case .scalar(let key, _, let span) = node else {
      diagnostics.append(Diagnostic("mapping keys must be plain text, not \(node.kindName)", at: node.location))
      stack[top].pendingKey = (nil, node.location)
      return
    }
    if let first = stack[top].seen[key] {
      diagnostics.append(Diagnostic("duplicate key '\(key)' (first defined at \(first))", at: span.start))
      stack[top].pendingKey = (nil, span.start)
    } else {
      stack[top].seen[key] = span.start
      stack[top].pendingKey = (key, span.start)
    }
  }
}
