import Foundation

/// A value with one canonical JSON form (docs/replay.md), written by
/// `canonical` and read back by `init(canonical:)`.
///
/// Written by hand rather than derived from `Codable`: the form is a
/// contract other implementations are checked against, so money is a string
/// of exact decimals, a date is UTC to the second, and a dictionary keyed by
/// numbers is an object keyed by their digits.
public protocol CanonicalCodable: CanonicalEncodable {
  /// Reads the value, refusing anything the canonical form does not allow.
  init(canonical: JSONCursor) throws(CanonicalError)
}

/// A value with a canonical JSON form that is only ever written (effects).
public protocol CanonicalEncodable {
  /// The canonical form.
  var canonical: JSONValue { get }
}

/// Money: the exact decimal, with two to four digits after the point
/// (`"4.50"`, `"0.125"`) and at most thirteen before it: far from where
/// `Decimal` would round a tab's total.
public enum CanonicalMoney {
  /// The canonical text of `amount`.
  public static func text(_ amount: Decimal) -> String {
    var text = amount.description
    let negative = text.hasPrefix("-")
    if negative { text.removeFirst() }
    var (whole, fraction) = (text, "")
    if let point = text.firstIndex(of: ".") {
      whole = String(text[..<point])
      fraction = String(text[text.index(after: point)...])
    }
    while fraction.count > 2, fraction.hasSuffix("0") { fraction.removeLast() }
    fraction += String(repeating: "0", count: max(0, 2 - fraction.count))
    return (negative && amount != 0 ? "-" : "") + whole + "." + fraction
  }

  /// The amount `cursor` holds.
  public static func read(_ cursor: JSONCursor) throws(CanonicalError) -> Decimal {
    let text = try cursor.string()
    guard text.wholeMatch(of: /-?(0|[1-9][0-9]{0,12})\.[0-9]{2,4}/) != nil,
      let amount = Decimal(string: text, locale: Locale(identifier: "en_US_POSIX")), Self.text(amount) == text
    else {
      throw cursor.fail(
        "expected money as a string such as \"4.50\" (2 to 4 decimals, under 10^13), found \"\(text)\"")
    }
    return amount
  }
}

/// Dates: UTC to the second, `"2025-06-15T15:06:40Z"`.
public enum CanonicalDate {
  /// The canonical text of `date`.
  public static func text(_ date: Date) -> String {
    Date.ISO8601FormatStyle().format(date)
  }

  /// The date `cursor` holds.
  public static func read(_ cursor: JSONCursor) throws(CanonicalError) -> Date {
    let text = try cursor.string()
    guard let date = try? Date.ISO8601FormatStyle().parse(text), Self.text(date) == text else {
      throw cursor.fail("expected a UTC date such as \"2025-06-15T15:06:40Z\", found \"\(text)\"")
    }
    return date
  }
}

extension JSONCursor {
  /// An id written as an object key (`"12"`), as the canonical form keys its dictionaries by ids.
  public static func idKey(_ key: String, at cursor: JSONCursor) throws(CanonicalError) -> Int {
    guard key.wholeMatch(of: /[1-9][0-9]{0,9}/) != nil, let number = Int(key), number <= 1_000_000_000 else {
      throw cursor.fail("expected an id from 1 to 1000000000 as the key, found '\(key)'")
    }
    return number
  }
}

extension Optional where Wrapped: CanonicalEncodable {
  /// The wrapped value's form, or `null`.
  public var canonical: JSONValue { self?.canonical ?? .null }
}
