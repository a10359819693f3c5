import CanonicalJSON
import Foundation
import Testing

/// The canonical form of docs/replay.md, pinned value by value.
@Suite struct CanonicalJSONTests {
  @Test func compactTextSortsKeysByScalarsAndHasNoSpace() {
    let value = JSONValue.object([
      "b": .array([.integer(-3), .bool(true), .null]), "a": .string("x"), "B": .object([:]), "é": .array([]),
    ])
    #expect(value.compactText == #"{"B":{},"a":"x","b":[-3,true,null],"é":[]}"#)
  }

  @Test func prettyTextIndentsByTwoAndEndsWithANewline() {
    let value = JSONValue.object(["a": .array([.integer(1)]), "b": .object([:])])
    #expect(value.prettyText == "{\n  \"a\": [\n    1\n  ],\n  \"b\": {}\n}\n")
  }

  @Test func stringsEscapeOnlyWhatJSONRequires() {
    let value = JSONValue.string("q\"b\\n\nt\tc\u{01}/é☕")
    #expect(value.compactText == #""q\"b\\n\nt\tc\u0001/é☕""#)
  }

  @Test(arguments: [0, 7, 9, 10, 42, 100, 3_600, -1, -10, -987_654_321, Int.max, Int.min])
  func integersAreWrittenAsTheirDecimalText(value: Int) {
    var out: [UInt8] = Array("[".utf8)
    JSONValue.writeInteger(value, to: &out)
    // What was in the buffer stays; the digits follow it.
    #expect(String(decoding: out, as: UTF8.self) == "[\(value)")
    #expect(JSONValue.integer(value).compactText == String(value))
  }

  @Test func literalsAreWrittenByteForByte() {
    var out: [UInt8] = []
    JSONValue.writeLiteral(#"{"set":{"é":"#, to: &out)
    JSONValue.writeLiteral("", to: &out)
    #expect(out == Array(#"{"set":{"é":"#.utf8))
  }

  @Test func parsingRoundTrips() throws {
    let text = #"{"a":[1,"two",false,null,{"b":-4}],"c":"\u00e9\ud83d\ude00\n"}"#
    #expect(try JSONValue.parse(Array(text.utf8)).compactText == #"{"a":[1,"two",false,null,{"b":-4}],"c":"é😀\n"}"#)
  }

  @Test(arguments: [
    (#"{"a":4.5}"#, "a", "numbers are whole"), (#"{"a":10.0}"#, "a", "numbers are whole"),
    (#"{"a":5e0}"#, "a", "numbers are whole"), (#"{"a":[1,1E0]}"#, "a[1]", "numbers are whole"),
    (#"{"a":-0}"#, "a", "zero is written 0"), (#"{"a":1,"a":2}"#, "a", "the key appears twice"),
    (#"{"é":1}"#, "é", "keys are printable ASCII"), (#"{"a":99999999999999999999}"#, "a", "too large"),
    (#"{"a":"\ud800"}"#, "", "a lone surrogate"), ("{\"a\":\"\u{01}\"}", "", "must be escaped"),
    (#"{"a":01}"#, "", "starts with 0"), ("{", "", "not JSON"), (#"{"a":1} x"#, "", "more after the value"),
    (
      String(repeating: "[", count: 65) + String(repeating: "]", count: 65), String(repeating: "[0]", count: 64),
      "nested deeper"
    ),
  ])
  func theParserRefusesWhatTheCanonicalFormDoesNotAllowWithItsPath(text: String, path: String, reason: String) {
    do {
      _ = try JSONValue.parse(Array(text.utf8))
      Issue.record("accepted \(text)")
    } catch {
      #expect(error.path == path)
      #expect(error.reason.contains(reason), "\(error.reason)")
    }
  }

  @Test func invalidUTF8IsRefusedNotRepaired() {
    #expect(throws: CanonicalError.self) { try JSONValue.parse([0x22, 0x41, 0xFF, 0x22]) }
    #expect(throws: CanonicalError.self) { try JSONValue.parse([0xEF, 0xBB, 0xBF, 0x31]) }
  }

  @Test func aDeepAndWideLineIsAnsweredAtOnceWithAnError() {
    // 500 levels around 5,000 strings: Foundation's untyped decoding took 19 s on this.
    let line =
      String(repeating: "[", count: 500) + Array(repeating: #""a""#, count: 5_000).joined(separator: ",")
      + String(repeating: "]", count: 500)
    do {
      _ = try JSONValue.parse(Array(line.utf8))
      Issue.record("a line 500 deep was parsed")
    } catch {
      #expect(error.path.hasPrefix("[0]"))
    }
  }

  @Test(arguments: [
    (Decimal(string: "4.5")!, 450), (Decimal(0), 0), (Decimal(1200), 120_000), (Decimal(string: "-3.1")!, -310),
    (Decimal(string: "9999999999999.99")!, 999_999_999_999_999), (Decimal(string: "0.01")!, 1),
  ])
  func moneyIsAWholeNumberOfMinorUnits(amount: Decimal, units: Int) throws {
    #expect(CanonicalMoney.value(amount) == .integer(units))
    #expect(try CanonicalMoney.read(JSONCursor(.integer(units))) == amount)
    #expect(CanonicalMoney.minorUnits(of: amount) == units)
  }

  @Test func anAmountWithAFractionOfAMinorUnitOrTooLargeHasNoCanonicalForm() {
    for amount in [Decimal(string: "0.125")!, Decimal(string: "10000000000000")!, Decimal.nan] {
      #expect(CanonicalMoney.minorUnits(of: amount) == nil, "\(amount)")
    }
  }

  @Test(arguments: [
    (JSONValue.string("4.50"), "found a string"), (.integer(1_000_000_000_000_000), "below 10^15"),
    (.integer(-1_000_000_000_000_000), "below 10^15"), (.null, "found null"),
  ])
  func moneyInAnyOtherFormIsRefusedAtItsPath(value: JSONValue, reason: String) {
    do {
      _ = try CanonicalMoney.read(JSONCursor(value, path: "price"))
      Issue.record("read \(value)")
    } catch {
      #expect(error.path == "price")
      #expect(error.reason.contains(reason), "\(error.reason)")
    }
  }

  @Test func datesAreUTCToTheSecond() throws {
    #expect(CanonicalDate.text(Date(timeIntervalSince1970: 1_750_000_000)) == "2025-06-15T15:06:40Z")
    #expect(
      try CanonicalDate.read(JSONCursor(.string("2025-06-15T15:06:40Z"))) == Date(timeIntervalSince1970: 1_750_000_000))
    #expect(throws: CanonicalError.self) { try CanonicalDate.read(JSONCursor(.string("2025-06-15T15:06:40.5Z"))) }
  }

  /// A state an adopter declares with Codable alone.
  struct Shelf: Codable, Equatable, CanonicalCodable {
    var books: [String: Int]
    var opened: Date
    var note: String?
    var loans: [Loan]
  }

  struct Loan: Codable, Equatable {
    var title: String
    var days: Int
  }

  @Test func aCodableValueGetsItsCanonicalFormFromItsCodingKeys() throws {
    let shelf = Shelf(
      books: ["b": 2, "a": 1], opened: Date(timeIntervalSince1970: 1_750_000_000), note: nil,
      loans: [Loan(title: "Emma", days: 14)])
    #expect(
      shelf.canonical.compactText
        == #"{"books":{"a":1,"b":2},"loans":[{"days":14,"title":"Emma"}],"opened":"2025-06-15T15:06:40Z"}"#)
    #expect(try Shelf(canonical: JSONCursor(shelf.canonical)) == shelf)
  }

  @Test func aCodableValueThatDoesNotDecodeNamesThePathOfTheValue() throws {
    let text = #"{"books":{},"loans":[{"days":"long","title":"Emma"}],"opened":"2025-06-15T15:06:40Z"}"#
    #expect(throws: CanonicalError(path: "state.loans[0].days", reason: "expected Int")) {
      try Shelf(canonical: JSONCursor(JSONValue.parse(Array(text.utf8)), path: "state"))
    }
    let missing = #"{"books":{},"loans":[]}"#
    #expect(throws: CanonicalError(path: "opened", reason: "missing key 'opened'")) {
      try Shelf(canonical: JSONCursor(JSONValue.parse(Array(missing.utf8))))
    }
  }
}

/// `canonical` of a `Codable` value is built without text (`JSONValueEncoder`);
/// these pin it to what `JSONEncoder` writes and the strict parser reads.
@Suite struct CodableBridgeTests {
  enum Move: Codable, Equatable {
    case set(title: String, seconds: Int)
    case ring(String)
    case quiet
  }

  struct Everything: Codable, Equatable, CanonicalCodable {
    var moves: [Move]
    var byID: [Int: String]
    var byName: [String: [Int8]]
    var maybe: String?
    var present: UInt64?
    var optionals: [Bool?]
    var when: Date
    var blob: Data
    var link: URL
    var amount: Decimal
    var whole: Double
    var small: UInt8
    var nested: [[String: Move]]
    var empty: Empty
  }

  struct Empty: Codable, Equatable {}

  /// What the bridge gave before it built values: the encoder's text, parsed strictly.
  static func throughText(_ value: some Encodable) throws -> JSONValue {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    encoder.dateEncodingStrategy = .iso8601
    return try JSONValue.parse(try encoder.encode(value))
  }

  @Test func aCodableValueIsWhatTheEncodersTextParsesTo() throws {
    let value = Everything(
      moves: [.set(title: "tea \"hot\"/\n", seconds: -3), .ring("é☕"), .quiet], byID: [12: "a", 3: "b"],
      byName: ["z": [-1, 2], "B": []], maybe: nil, present: 7, optionals: [true, nil, false],
      when: Date(timeIntervalSince1970: 1_750_000_000.75), blob: Data([0, 1, 254]),
      link: URL(string: "https://example.com/a?b=c")!, amount: Decimal(450), whole: 10, small: 255,
      nested: [["k": .quiet], [:]], empty: Empty())
    #expect(value.canonical == (try Self.throughText(value)))
    // A date keeps its whole seconds only, so the value reads back once its fraction is gone.
    var whole = value
    whole.when = Date(timeIntervalSince1970: 1_750_000_000)
    #expect(try Everything(canonical: JSONCursor(value.canonical)) == whole)
  }

  @Test func randomValuesEncodeAsTheEncodersTextParsesTo() throws {
    var generator = SystemRandomNumberGenerator()
    for _ in 0..<300 {
      let moves = (0..<Int.random(in: 0...4, using: &generator)).map { _ -> Move in
        switch Int.random(in: 0..<3, using: &generator) {
        case 0: .set(title: Self.randomText(&generator), seconds: Int.random(in: -9_999...9_999, using: &generator))
        case 1: .ring(Self.randomText(&generator))
        default: .quiet
        }
      }
      let byID = Dictionary(
        uniqueKeysWithValues: (0..<Int.random(in: 0...3, using: &generator)).map {
          ($0 * 7 + 1, Self.randomText(&generator))
        })
      #expect(moves.canonical == (try Self.throughText(moves)))
      #expect(byID.canonical == (try Self.throughText(byID)))
    }
  }

  /// A value the old path (text, then the parser) refuses is refused at the same path; one it takes is the same value.
  static func expectSameAsText(
    _ value: some Encodable, _ comment: Comment, sourceLocation: SourceLocation = #_sourceLocation
  ) {
    let built = Result { () throws(CanonicalError) in try JSONValue(encoding: value) }
    let parsed = Result { try throughText(value) }
    switch (built, parsed) {
    case (.success(let mine), .success(let theirs)): #expect(mine == theirs, comment, sourceLocation: sourceLocation)
    case (.failure(let mine), .failure(let theirs as CanonicalError)):
      #expect(mine.path == theirs.path, "\(comment): \(mine) against \(theirs)", sourceLocation: sourceLocation)
    default: Issue.record("\(comment): \(built) against \(parsed)", sourceLocation: sourceLocation)
    }
  }

  struct Twice: Encodable {
    enum Keys: CodingKey { case x, a, b }
    func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: Keys.self)
      var first = container.nestedContainer(keyedBy: Keys.self, forKey: .x)
      try first.encode(1, forKey: .a)
      var second = container.nestedContainer(keyedBy: Keys.self, forKey: .x)
      try second.encode(2, forKey: .b)
    }
  }

  indirect enum Deep: Encodable {
    case leaf
    case inner(Deep)
    static func of(_ depth: Int) -> Deep { depth == 0 ? .leaf : .inner(of(depth - 1)) }
  }

  @Test func whatTheParserRefusesIsRefusedAndTheEdgesAreTheEncodersOwn() throws {
    Self.expectSameAsText(["café": 1], "a key outside printable ASCII")
    Self.expectSameAsText(["ok": -0.0], "negative zero")
    Self.expectSameAsText([9_007_199_254_740_992.0, -9_007_199_254_740_992.0], "2^53 in plain digits")
    Self.expectSameAsText([18_014_398_509_481_984.0], "2^54, written with an exponent")
    Self.expectSameAsText([Float(16_777_216)], "2^24 as a Float")
    Self.expectSameAsText([Float(20_000_000)], "a Float written with an exponent")
    Self.expectSameAsText([Int128(5), Int128(-7)], "Int128")
    Self.expectSameAsText([UInt128(UInt64.max)], "a UInt128 beyond Int")
    Self.expectSameAsText(Twice(), "a nested container asked for twice under one key")
    // Each level is two objects (`{"inner":{"_0":…}}`), the leaf two more: 31 levels are 64, the deepest the parser reads.
    Self.expectSameAsText(Deep.of(31), "64 nested objects")
    #expect(throws: Never.self) { try JSONValue(encoding: Deep.of(31)) }
    Self.expectSameAsText(Deep.of(32), "66 nested objects")
    #expect(throws: CanonicalError.self) { try JSONValue(encoding: Deep.of(32)) }
    #expect(throws: CanonicalError.self) { try JSONValue(encoding: ["ok": -0.0]) }
    #expect(try JSONValue(encoding: Twice()) == .object(["x": .object(["a": .integer(1), "b": .integer(2)])]))
  }

  @Test func compactBytesAreThePrettyTextWithoutItsLayout() throws {
    var generator = SystemRandomNumberGenerator()
    for _ in 0..<300 {
      let value = Self.randomValue(depth: 3, &generator)
      let compact = value.compactBytes
      #expect(try JSONValue.parse(compact) == value)
      let pretty = value.prettyText.replacing(/\n */, with: "").replacing("\": ", with: "\":")
      #expect(String(decoding: compact, as: UTF8.self) == pretty)
    }
  }

  static func randomText(_ generator: inout SystemRandomNumberGenerator) -> String {
    let alphabet: [Character] = ["a", "Z", "\"", "\\", "\t", "\u{01}", "é", "☕", "/", " ", "😀"]
    return String(
      (0..<Int.random(in: 0...6, using: &generator)).map { _ in alphabet.randomElement(using: &generator)! })
  }

  static func randomValue(depth: Int, _ generator: inout SystemRandomNumberGenerator) -> JSONValue {
    switch Int.random(in: 0..<(depth > 0 ? 6 : 4), using: &generator) {
    case 0: return .null
    case 1: return .bool(Bool.random(using: &generator))
    case 2: return .integer(Int.random(in: Int.min...Int.max, using: &generator))
    case 3: return .string(randomText(&generator))
    case 4:
      return .array(
        (0..<Int.random(in: 0...3, using: &generator)).map { _ in randomValue(depth: depth - 1, &generator) })
    default:
      var members: [String: JSONValue] = [:]
      for _ in 0..<Int.random(in: 0...3, using: &generator) {
        // The canonical form's keys are printable ASCII.
        let key = String(
          (0..<Int.random(in: 0...3, using: &generator)).map { _ in "aZb_ ".randomElement(using: &generator)! })
        members[key] = randomValue(depth: depth - 1, &generator)
      }
      return .object(members)
    }
  }
}

extension Array: CanonicalEncodable where Element == CodableBridgeTests.Move {}
extension Dictionary: CanonicalEncodable where Key == Int, Value == String {}
