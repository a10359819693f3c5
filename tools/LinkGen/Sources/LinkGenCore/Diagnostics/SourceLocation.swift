/// A 1-based line and column in the manifest, as editors and compilers count them.
public struct SourceLocation: Hashable, Comparable, Sendable, CustomStringConvertible {
  /// 1-based line number.
  public var line: Int
  /// 1-based column number.
  public var column: Int

  /// Creates a location from 1-based coordinates.
  public init(line: Int, column: Int) {
    self.line = line
    self.column = column
  }

  /// `LINE:COLUMN`.
  public var description: String { "\(line):\(column)" }

  public static func < (lhs: SourceLocation, rhs: SourceLocation) -> Bool {
    (lhs.line, lhs.column) < (rhs.line, rhs.column)
  }
}
