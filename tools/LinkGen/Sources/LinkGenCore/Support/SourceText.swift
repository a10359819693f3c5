/// Small readings of source text that the checks share: where a bracket closes,
/// and the line and column of an index. (Comments and strings are told from
/// code by `SwiftTokens.code(of:)`.)
enum SourceText {
  /// The index of the bracket that closes the one at `open` (`(`, `[` or `{`), or
  /// the end of the text when it is never closed.
  static func closing(of open: String.Index, in text: String) -> String.Index {
    let opening = text[open]
    let closing: Character =
      switch opening {
      case "(": ")"
      case "[": "]"
      default: "}"
      }
    var depth = 0
    var index = open
    while index < text.endIndex {
      if text[index] == opening { depth += 1 }
      if text[index] == closing {
        depth -= 1
        if depth == 0 { return index }
      }
      index = text.index(after: index)
    }
    return text.endIndex
  }

  /// The 1-based line and column of `index` in `text`.
  static func position(of index: String.Index, in text: String) -> (line: Int, column: Int) {
    let prefix = text[..<index]
    let line = prefix.reduce(1) { $1 == "\n" ? $0 + 1 : $0 }
    let start = prefix.lastIndex(of: "\n").map { prefix.index(after: $0) } ?? prefix.startIndex
    return (line, prefix.distance(from: start, to: prefix.endIndex) + 1)
  }
}
