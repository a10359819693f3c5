#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Encodes an `Encodable` value straight into its `JSONValue`: what
/// `JSONEncoder` (sorted keys, dates as ISO 8601) followed by `JSONValue.parse`
/// gives, without writing and reading text. `CanonicalEncodable`'s bridge for
/// `Codable` types uses it, because a durable store encodes one on every step.
///
/// As there, a value the canonical form has no room for (a floating-point
/// number with a fraction, or one its text writes with an exponent or as
/// `-0`; a `Decimal` with a fraction; an integer beyond `Int`; a key outside
/// printable ASCII; containers nested deeper than the parser reads) is an
/// error naming the value's path, never a value the parser would refuse.
enum JSONValueEncoder {
  /// The canonical value of `value`.
  static func encode(_ value: some Encodable) throws(CanonicalError) -> JSONValue {
    let encoded: JSONValue
    do {
      encoded = try EncodingNode.value(of: value, at: [])
    } catch let error as CanonicalError {
      throw error
    } catch {
      throw CanonicalError(path: "", reason: "\(error)")
    }
    if let refusal = firstRefusal(in: encoded, depth: 0) {
      // The path is spelled only for a refusal: building it for every member cost more than the walk.
      let path = refusal.path.reversed().enumerated().map { position, piece in
        switch piece {
        case .key(let key): position == 0 ? key : "." + key
        case .index(let index): "[\(index)]"
        }
      }.joined()
      throw CanonicalError(path: path, reason: refusal.reason)
    }
    return encoded
  }

  /// One step of a path into a value: a member's key or an element's index.
  private enum PathPiece {
    case key(String)
    case index(Int)
  }

  /// The first of what `JSONParser` refuses of a value's shape (a key outside
  /// printable ASCII, a container nested deeper than `JSONParser.maxDepth`),
  /// with its path innermost piece first; nil when there is none.
  private static func firstRefusal(in value: JSONValue, depth: Int) -> (path: [PathPiece], reason: String)? {
    switch value {
    case .null, .bool, .integer, .string: return nil
    case .object, .array:
      guard depth < JSONParser.maxDepth else { return ([], JSONParser.deeperThanMax) }
    }
    if case .object(let members) = value {
      for (key, member) in members {
        guard key.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) else {
          return ([.key(key)], JSONParser.keysArePrintable)
        }
        if var refusal = firstRefusal(in: member, depth: depth + 1) {
          refusal.path.append(.key(key))
          return refusal
        }
      }
    } else if case .array(let elements) = value {
      for (index, element) in elements.enumerated() {
        if var refusal = firstRefusal(in: element, depth: depth + 1) {
          refusal.path.append(.index(index))
          return refusal
        }
      }
    }
    return nil
  }
}

/// A value being encoded: one slot an encoder or container writes into. A
/// class, because containers are values that must write into their parent.
final class EncodingNode {
  /// What the slot holds so far.
  enum Content {
    case unset
    case value(JSONValue)
    /// Members in the order they were written (a key written again wins): a
    /// list, as most objects have a few members and the value sorts them anyway.
    case object([(key: String, member: Member)])
    case array([EncodingNode])
  }

  /// A member of an object: a value written whole, or a slot a nested container writes into.
  enum Member {
    case value(JSONValue)
    case node(EncodingNode)

    var value: JSONValue {
      switch self {
      case .value(let value): value
      case .node(let node): node.value
      }
    }
  }

  var content: Content = .unset

  init(_ content: Content = .unset) { self.content = content }

  /// The finished value: an encoder that wrote nothing made an empty object, as `JSONEncoder` writes.
  var value: JSONValue {
    switch content {
    case .unset: .object([:])
    case .value(let value): value
    case .object(let members):
      .object(Dictionary(members.lazy.map { ($0.key, $0.member.value) }, uniquingKeysWith: { $1 }))
    case .array(let elements): .array(elements.map(\.value))
    }
  }

  /// The canonical value of `value` at `path`; the types `JSONEncoder` writes
  /// in its own way (dates, data, URLs, decimals) are written that way.
  static func value(of value: some Encodable, at path: [any CodingKey]) throws -> JSONValue {
    switch value {
    case let date as Date: return .string(UTCTimestamp.text(date))
    case let data as Data: return .string(data.base64EncodedString())
    case let url as URL: return .string(url.absoluteString)
    case let decimal as Decimal: return try whole(decimal, at: path)
    default:
      let node = EncodingNode()
      try value.encode(to: NodeEncoder(node: node, codingPath: path))
      return node.value
    }
  }

  /// A whole number, or the canonical form's refusal at `path`.
  static func whole(_ decimal: Decimal, at path: [any CodingKey]) throws(CanonicalError) -> JSONValue {
    guard let number = Int(wholeDecimal: decimal) else {
      throw refusal(at: path, JSONParser.numbersAreWhole)
    }
    return .integer(number)
  }

  /// A floating-point number as `JSONEncoder` then the parser take it: a
  /// whole one its text writes in plain digits (up to 2^53 for a `Double`,
  /// 2^24 for a `Float`; beyond, the text has an exponent) is an integer;
  /// a fraction, an exponent or `-0` is refused, as the parser refuses it.
  static func whole(_ number: Double, plainUpTo limit: Double = 9_007_199_254_740_992, at path: [any CodingKey])
    throws(CanonicalError) -> JSONValue
  {
    guard number.isFinite, number.rounded() == number, abs(number) <= limit else {
      throw refusal(at: path, JSONParser.numbersAreWhole)
    }
    guard !(number == 0 && number.sign == .minus) else { throw refusal(at: path, JSONParser.zeroIsZero) }
    return .integer(Int(number))
  }

  /// A `Float`, whose text has an exponent above 2^24.
  static func whole(_ number: Float, at path: [any CodingKey]) throws(CanonicalError) -> JSONValue {
    try whole(Double(number), plainUpTo: 16_777_216, at: path)
  }

  /// An integer of any width, when `Int` holds it.
  static func integer(_ number: some BinaryInteger, at path: [any CodingKey]) throws(CanonicalError) -> JSONValue {
    guard let value = Int(exactly: number) else { throw refusal(at: path, "the number \(number) is too large") }
    return .integer(value)
  }

  /// The canonical form's error at `path`, written as the parser writes paths (`a.b[0]`).
  static func refusal(at path: [any CodingKey], _ reason: String) -> CanonicalError {
    var text = ""
    for key in path {
      if let index = key.intValue, key.stringValue == "Index \(index)" {
        text += "[\(index)]"
      } else {
        text += text.isEmpty ? key.stringValue : ".\(key.stringValue)"
      }
    }
    return CanonicalError(path: text, reason: reason)
  }

  /// The member `key` of this object slot, made an object when it was unset.
  func member(_ key: String) -> EncodingNode {
    // A container asked for again under the same key goes on writing into
    // what is there, as `JSONEncoder` does, not into a fresh one.
    if case .object(var members) = content, let at = members.lastIndex(where: { $0.key == key }) {
      let reopened: EncodingNode? =
        switch members[at].member {
        case .node(let node): node
        case .value(.object(let inner)): EncodingNode(.object(inner.map { ($0.key, .value($0.value)) }))
        case .value(.array(let elements)): EncodingNode(.array(elements.map { EncodingNode(.value($0)) }))
        case .value: nil
        }
      if let reopened {
        content = .unset
        members[at].member = .node(reopened)
        content = .object(members)
        return reopened
      }
    }
    let node = EncodingNode()
    add(key, .node(node))
    return node
  }

  /// Sets the member `key` of this object slot to `value`.
  func set(_ key: String, _ value: JSONValue) {
    add(key, .value(value))
  }

  private func add(_ key: String, _ member: Member) {
    if case .object(var members) = content {
      content = .unset  // Lets the object be added to in place.
      members.append((key, member))
      content = .object(members)
    } else {
      content = .object([(key, member)])
    }
  }

  /// A new element at the end of this array slot.
  func appendElement() -> EncodingNode {
    let node = EncodingNode()
    if case .array(var elements) = content {
      content = .unset  // Lets the array be appended to in place.
      elements.append(node)
      content = .array(elements)
    } else {
      content = .array([node])
    }
    return node
  }

  /// How many elements this array slot holds.
  var count: Int {
    if case .array(let elements) = content { return elements.count }
    return 0
  }
}

/// The key `superEncoder()` writes under.
struct SuperKey: CodingKey {
  var stringValue: String { "super" }
  var intValue: Int? { nil }
  init() {}
  init?(stringValue: String) { nil }
  init?(intValue: Int) { nil }
}

/// An index in an unkeyed container, as `JSONEncoder` names one in a path.
struct IndexKey: CodingKey {
  var intValue: Int?
  var stringValue: String { "Index \(intValue ?? 0)" }
  init(_ index: Int) { intValue = index }
  init?(intValue: Int) { self.intValue = intValue }
  init?(stringValue: String) { nil }
}

/// The `Encoder` a value encodes itself to.
struct NodeEncoder: Encoder {
  let node: EncodingNode
  let codingPath: [any CodingKey]
  var userInfo: [CodingUserInfoKey: Any] { [:] }

  func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
    if case .object = node.content {} else { node.content = .object([]) }
    return KeyedEncodingContainer(KeyedNodeContainer<Key>(node: node, codingPath: codingPath))
  }

  func unkeyedContainer() -> any UnkeyedEncodingContainer {
    if case .array = node.content {} else { node.content = .array([]) }
    return UnkeyedNodeContainer(node: node, codingPath: codingPath)
  }

  func singleValueContainer() -> any SingleValueEncodingContainer {
    SingleNodeContainer(node: node, codingPath: codingPath)
  }
}

/// An object being encoded.
struct KeyedNodeContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
  let node: EncodingNode
  let codingPath: [any CodingKey]

  mutating func encodeNil(forKey key: Key) throws { node.set(key.stringValue, .null) }
  mutating func encode(_ value: Bool, forKey key: Key) throws { node.set(key.stringValue, .bool(value)) }
  mutating func encode(_ value: String, forKey key: Key) throws { node.set(key.stringValue, .string(value)) }
  mutating func encode(_ value: Double, forKey key: Key) throws {
    node.set(key.stringValue, try EncodingNode.whole(value, at: codingPath + [key]))
  }
  mutating func encode(_ value: Float, forKey key: Key) throws {
    node.set(key.stringValue, try EncodingNode.whole(value, at: codingPath + [key]))
  }
  mutating func encode(_ value: Int, forKey key: Key) throws { node.set(key.stringValue, .integer(value)) }
  mutating func encode(_ value: Int8, forKey key: Key) throws { node.set(key.stringValue, .integer(Int(value))) }
  mutating func encode(_ value: Int16, forKey key: Key) throws { node.set(key.stringValue, .integer(Int(value))) }
  mutating func encode(_ value: Int32, forKey key: Key) throws { node.set(key.stringValue, .integer(Int(value))) }
  mutating func encode(_ value: Int64, forKey key: Key) throws { node.set(key.stringValue, .integer(Int(value))) }
  mutating func encode(_ value: UInt, forKey key: Key) throws {
    node.set(key.stringValue, try EncodingNode.integer(value, at: codingPath + [key]))
  }
  mutating func encode(_ value: UInt8, forKey key: Key) throws { node.set(key.stringValue, .integer(Int(value))) }
  mutating func encode(_ value: UInt16, forKey key: Key) throws { node.set(key.stringValue, .integer(Int(value))) }
  mutating func encode(_ value: UInt32, forKey key: Key) throws { node.set(key.stringValue, .integer(Int(value))) }
  mutating func encode(_ value: UInt64, forKey key: Key) throws {
    node.set(key.stringValue, try EncodingNode.integer(value, at: codingPath + [key]))
  }
  mutating func encode(_ value: Int128, forKey key: Key) throws {
    node.set(key.stringValue, try EncodingNode.integer(value, at: codingPath + [key]))
  }
  mutating func encode(_ value: UInt128, forKey key: Key) throws {
    node.set(key.stringValue, try EncodingNode.integer(value, at: codingPath + [key]))
  }
  mutating func encode(_ value: some Encodable, forKey key: Key) throws {
    node.set(key.stringValue, try EncodingNode.value(of: value, at: codingPath + [key]))
  }

  mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key)
    -> KeyedEncodingContainer<NestedKey>
  {
    NodeEncoder(node: node.member(key.stringValue), codingPath: codingPath + [key]).container(keyedBy: keyType)
  }

  mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
    NodeEncoder(node: node.member(key.stringValue), codingPath: codingPath + [key]).unkeyedContainer()
  }

  mutating func superEncoder() -> any Encoder {
    NodeEncoder(node: node.member("super"), codingPath: codingPath + [SuperKey()])
  }

  mutating func superEncoder(forKey key: Key) -> any Encoder {
    NodeEncoder(node: node.member(key.stringValue), codingPath: codingPath + [key])
  }
}

/// An array being encoded.
struct UnkeyedNodeContainer: UnkeyedEncodingContainer {
  let node: EncodingNode
  let codingPath: [any CodingKey]
  var count: Int { node.count }

  private func next() -> (node: EncodingNode, path: [any CodingKey]) {
    let path = codingPath + [IndexKey(node.count)]
    return (node.appendElement(), path)
  }

  /// The next element, as a single value: an element is written as one is.
  private func element() -> SingleNodeContainer {
    let (slot, path) = next()
    return SingleNodeContainer(node: slot, codingPath: path)
  }

  mutating func encodeNil() throws {
    var slot = element()
    try slot.encodeNil()
  }
  mutating func encode(_ value: Bool) throws { try encodeElement(value) }
  mutating func encode(_ value: String) throws { try encodeElement(value) }
  mutating func encode(_ value: Double) throws { try encodeElement(value) }
  mutating func encode(_ value: Float) throws { try encodeElement(value) }
  mutating func encode(_ value: Int) throws { try encodeElement(value) }
  mutating func encode(_ value: Int8) throws { try encodeElement(value) }
  mutating func encode(_ value: Int16) throws { try encodeElement(value) }
  mutating func encode(_ value: Int32) throws { try encodeElement(value) }
  mutating func encode(_ value: Int64) throws { try encodeElement(value) }
  mutating func encode(_ value: UInt) throws { try encodeElement(value) }
  mutating func encode(_ value: UInt8) throws { try encodeElement(value) }
  mutating func encode(_ value: UInt16) throws { try encodeElement(value) }
  mutating func encode(_ value: UInt32) throws { try encodeElement(value) }
  mutating func encode(_ value: UInt64) throws { try encodeElement(value) }
  mutating func encode(_ value: Int128) throws { try encodeElement(value) }
  mutating func encode(_ value: UInt128) throws { try encodeElement(value) }
  mutating func encode(_ value: some Encodable) throws { try encodeElement(value) }

  /// Writes `value` as the next element. A standard type writes itself into
  /// that element's single-value container, whose overloads check numbers.
  private func encodeElement(_ value: some Encodable) throws {
    var slot = element()
    try slot.encode(value)
  }

  mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type)
    -> KeyedEncodingContainer<NestedKey>
  {
    let (slot, path) = next()
    return NodeEncoder(node: slot, codingPath: path).container(keyedBy: keyType)
  }

  mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
    let (slot, path) = next()
    return NodeEncoder(node: slot, codingPath: path).unkeyedContainer()
  }

  mutating func superEncoder() -> any Encoder {
    let (slot, path) = next()
    return NodeEncoder(node: slot, codingPath: path)
  }
}

/// A single value being encoded.
struct SingleNodeContainer: SingleValueEncodingContainer {
  let node: EncodingNode
  let codingPath: [any CodingKey]

  mutating func encodeNil() throws { node.content = .value(.null) }
  mutating func encode(_ value: Bool) throws { node.content = .value(.bool(value)) }
  mutating func encode(_ value: String) throws { node.content = .value(.string(value)) }
  mutating func encode(_ value: Double) throws { node.content = .value(try EncodingNode.whole(value, at: codingPath)) }
  mutating func encode(_ value: Float) throws { node.content = .value(try EncodingNode.whole(value, at: codingPath)) }
  mutating func encode(_ value: Int) throws { node.content = .value(.integer(value)) }
  mutating func encode(_ value: Int8) throws { try encode(Int(value)) }
  mutating func encode(_ value: Int16) throws { try encode(Int(value)) }
  mutating func encode(_ value: Int32) throws { try encode(Int(value)) }
  mutating func encode(_ value: Int64) throws { try encode(Int(value)) }
  mutating func encode(_ value: UInt) throws { node.content = .value(try EncodingNode.integer(value, at: codingPath)) }
  mutating func encode(_ value: UInt8) throws { try encode(Int(value)) }
  mutating func encode(_ value: UInt16) throws { try encode(Int(value)) }
  mutating func encode(_ value: UInt32) throws { try encode(Int(value)) }
  mutating func encode(_ value: UInt64) throws {
    node.content = .value(try EncodingNode.integer(value, at: codingPath))
  }
  mutating func encode(_ value: Int128) throws {
    node.content = .value(try EncodingNode.integer(value, at: codingPath))
  }
  mutating func encode(_ value: UInt128) throws {
    node.content = .value(try EncodingNode.integer(value, at: codingPath))
  }
  mutating func encode(_ value: some Encodable) throws {
    node.content = .value(try EncodingNode.value(of: value, at: codingPath))
  }
}
