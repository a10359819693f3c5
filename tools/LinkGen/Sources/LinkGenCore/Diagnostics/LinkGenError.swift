/// A one-line reason linkgen stopped before changing anything.
public struct LinkGenError: Error, Sendable, CustomStringConvertible {
  /// The reason, lowercase, names in 'quotes'.
  public var description: String

  /// Creates the error.
  public init(_ description: String) { self.description = description }
}
