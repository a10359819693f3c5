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
