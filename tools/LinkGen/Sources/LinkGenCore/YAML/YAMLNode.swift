/// A YAML document as a tree, every node remembering where it starts and ends.
///
/// Only what a manifest needs: scalars, mappings (keys kept in order, duplicates
/// rejected by the parser) and sequences. Anchors, aliases and tags are refused.
public indirect enum YAMLNode: Sendable {
  /// A scalar; `isPlain` is false for quoted or block scalars, which are never
  /// read as booleans or null.
  case scalar(String, isPlain: Bool, YAMLSpan)
  /// A mapping whose keys are scalars, in document order.
  case mapping([YAMLEntry], YAMLSpan)
  /// A sequence, in document order.
  case sequence([YAMLNode], YAMLSpan)

  /// Where the node starts and ends.
  public var span: YAMLSpan {
    switch self {
    case .scalar(_, _, let span), .mapping(_, let span), .sequence(_, let span): span
    }
  }

  /// Where the node starts.
  public var location: SourceLocation { span.start }

  /// True for an empty plain scalar, `~` or `null`.
  public var isNull: Bool {
    if case .scalar(let text, true, _) = self { return ["", "~", "null", "Null", "NULL"].contains(text) }
    return false
  }

  /// What a diagnostic calls this node's type.
  public var kindName: String {
    switch self {
    case .scalar(let text, let isPlain, _):
      if isNull { return "null" }
      if isPlain, YAMLNode.booleanValue(text) != nil { return "a boolean" }
      return "a string"
    case .mapping: return "a mapping"
    case .sequence: return "a sequence"
    }
  }

  /// `true`/`false` in their YAML 1.2 core spellings.
  static func booleanValue(_ text: String) -> Bool? {
    switch text {
    case "true", "True", "TRUE": true
    case "false", "False", "FALSE": false
    default: nil
    }
  }
}

/// One key and its value in a mapping.
public struct YAMLEntry: Sendable {
  /// The key text.
  public var key: String
  /// Where the key starts.
  public var keyLocation: SourceLocation
  /// The value.
  public var value: YAMLNode
}

/// The extent of a node: its first character and the line its last content ends on.
public struct YAMLSpan: Sendable {
  /// Where the node starts.
  public var start: SourceLocation
  /// The 1-based line of the node's last content (not trailing blank lines).
  public var lastLine: Int
}
