#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// A JSON value and where it sits in its document: what the decoders read, so
/// every error names the path of the value that is wrong.
public struct JSONCursor: Sendable {
  /// The value.
  public let value: JSONValue
  /// Its path from the root.
  public let path: String

  /// A cursor at the root of `value`, or at `path`.
  public init(_ value: JSONValue, path: String = "") {
    self.value = value
    self.path = path
  }

  /// Fails with `reason` at this value.
  public func fail(_ reason: String) -> CanonicalError { CanonicalError(path: path, reason: reason) }

  private func child(_ key: String) -> String { path.isEmpty ? key : "\(path).\(key)" }

  /// The members of an object whose keys are all in `allowed` (every key, when nil).
  public func object(keys allowed: Set<String>? = nil) throws(CanonicalError) -> [String: JSONCursor] {
    guard case .object(let members) = value else { throw fail("expected an object, found \(value.kind)") }
    if let allowed, let extra = members.keys.sorted().first(where: { !allowed.contains($0) }) {
      throw fail("unknown key '\(extra)'; expected \(allowed.sorted().map { "'\($0)'" }.joined(separator: ", "))")
    }
    return members.reduce(into: [:]) { $0[$1.key] = JSONCursor($1.value, path: child($1.key)) }
  }

  /// The member `key` of an object, which must be there.
  public func field(_ key: String) throws(CanonicalError) -> JSONCursor {
    guard case .object(let members) = value else { throw fail("expected an object, found \(value.kind)") }
    guard let member = members[key] else { throw fail("missing key '\(key)'") }
    return JSONCursor(member, path: child(key))
  }

  /// The member `key`, or nil when it is missing or `null`.
  public func optionalField(_ key: String) throws(CanonicalError) -> JSONCursor? {
    guard case .object(let members) = value else { throw fail("expected an object, found \(value.kind)") }
    guard let member = members[key], member != .null else { return nil }
    return JSONCursor(member, path: child(key))
  }

  /// The elements of an array.
  public func array() throws(CanonicalError) -> [JSONCursor] {
    guard case .array(let elements) = value else { throw fail("expected an array, found \(value.kind)") }
    return elements.enumerated().map { JSONCursor($1, path: "\(path)[\($0)]") }
  }

  /// A whole number.
  public func integer() throws(CanonicalError) -> Int {
    guard case .integer(let number) = value else { throw fail("expected a whole number, found \(value.kind)") }
    return number
  }

  /// A whole number within `range`: the canonical form bounds every count, so
  /// no request can make a step overflow.
  public func integer(in range: ClosedRange<Int>) throws(CanonicalError) -> Int {
    let number = try integer()
    guard range.contains(number) else {
      throw fail("expected a whole number from \(range.lowerBound) to \(range.upperBound), found \(number)")
    }
    return number
  }

  /// An id: a whole number from 1 to a billion.
  public func id() throws(CanonicalError) -> Int { try integer(in: 1...1_000_000_000) }

  /// A string.
  public func string() throws(CanonicalError) -> String {
    guard case .string(let text) = value else { throw fail("expected a string, found \(value.kind)") }
    return text
  }

  /// `true` or `false`.
  public func bool() throws(CanonicalError) -> Bool {
    guard case .bool(let flag) = value else { throw fail("expected true or false, found \(value.kind)") }
    return flag
  }

  /// A sum: an object of exactly one key, the case's name, whose value is the
  /// case's fields (an object, empty for a case without any).
  public func sum(cases: Set<String>) throws(CanonicalError) -> (name: String, fields: JSONCursor) {
    let members = try object()
    guard members.count == 1, let (name, fields) = members.first else {
      throw fail("expected an object with exactly one key, the case: one of \(cases.sorted().joined(separator: ", "))")
    }
    guard cases.contains(name) else {
      throw fail("unknown case '\(name)'; expected one of \(cases.sorted().joined(separator: ", "))")
    }
    return (name, fields)
  }
}

extension JSONValue {
  /// What kind of value this is, for error messages.
  public var kind: String {
    switch self {
    case .null: "null"
    case .bool: "a boolean"
    case .integer: "a number"
    case .string: "a string"
    case .array: "an array"
    case .object: "an object"
    }
  }

  /// A sum's canonical form: `{"<name>": {fields}}`.
  public static func sum(_ name: String, _ fields: [String: JSONValue] = [:]) -> JSONValue {
    .object([name: .object(fields)])
  }
}
