/// A table printed in columns a reader's eye can follow: each column as wide
/// as its widest cell, two spaces between columns, text to the left and
/// numbers to the right, no space at the end of a line.
public struct TextTable: Sendable {
  /// How a column lines up its cells.
  public enum Alignment: Sendable {
    /// Text: padded on the right.
    case left
    /// Numbers: padded on the left, so their digits line up.
    case right
  }

  /// The column headings.
  public var headings: [String]
  /// Each column's alignment, heading included.
  public var alignments: [Alignment]
  /// The rows, each with one cell per column.
  public var rows: [[String]]

  /// A table with these headings, alignments and rows.
  public init(headings: [String], alignments: [Alignment], rows: [[String]]) {
    precondition(headings.count == alignments.count, "one alignment per column")
    self.headings = headings
    self.alignments = alignments
    self.rows = rows
  }

  /// The heading line, then one line per row.
  public var lines: [String] {
    let all = [headings] + rows
    let widths = headings.indices.map { column in all.map { $0[column].count }.max() ?? 0 }
    return all.map { cells in
      let padded = cells.indices.map { column -> String in
        let cell = cells[column]
        let padding = String(repeating: " ", count: widths[column] - cell.count)
        return alignments[column] == .left ? cell + padding : padding + cell
      }
      var line = padded.joined(separator: "  ")
      while line.last == " " { line.removeLast() }
      return line
    }
  }
}
