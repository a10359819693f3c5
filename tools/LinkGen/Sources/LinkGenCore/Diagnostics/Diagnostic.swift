/// One problem found in the manifest, pinned to where it was found.
public struct Diagnostic: Error, Hashable, Sendable, CustomStringConvertible {
  /// Where the problem is.
  public var location: SourceLocation
  /// Lowercase text, names in 'quotes', no trailing period.
  public var message: String

  /// Creates a diagnostic.
  public init(_ message: String, at location: SourceLocation) {
    self.message = message
    self.location = location
  }

  /// `LINE:COLUMN: error: message`; prefix the file name to print it.
  public var description: String { "\(location): error: \(message)" }

  /// The compiler-style line for `file`: `file:LINE:COLUMN: error: message`.
  public func rendered(file: String) -> String { "\(file):\(self)" }
}

/// Every error found in one run, in source order; thrown when there is at least one.
public struct DiagnosticError: Error, Sendable, CustomStringConvertible {
  /// The diagnostics, sorted by location.
  public var diagnostics: [Diagnostic]

  /// Creates the error from unsorted diagnostics.
  public init(_ diagnostics: [Diagnostic]) {
    self.diagnostics = diagnostics.sorted { ($0.location, $0.message) < ($1.location, $1.message) }
  }

  /// One rendered line per diagnostic.
  public func rendered(file: String) -> String {
    diagnostics.map { $0.rendered(file: file) }.joined(separator: "\n")
  }

  public var description: String { rendered(file: "codegen.yaml") }
}
