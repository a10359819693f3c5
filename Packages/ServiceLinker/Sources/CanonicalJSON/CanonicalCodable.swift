#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif
#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

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

  /// Writes the compact canonical text into `out`: `canonical`'s, unless the
  /// type writes its bytes by hand. A durable store writes an action's on
  /// every step, and a hand writer costs a fraction of building the value
  /// (test it against `canonical.compactBytes`).
  func writeCanonical(to out: inout [UInt8])
}

extension CanonicalEncodable {
  /// The compact text of `canonical`.
  public func writeCanonical(to out: inout [UInt8]) { canonical.writeCompact(to: &out) }
}

/// Money: a whole number of minor units (`450` for 4.50 in a currency of
/// cents), under 10^15 in magnitude: exact, and one spelling per amount, so
/// another implementation never parses a decimal. The value in memory stays a
/// `Decimal` in major units; an amount that is not a whole number of minor
/// units has no canonical form.
public enum CanonicalMoney {
  /// How many minor units make one major unit.
  public static let minorUnitsPerUnit = 100
  /// The magnitude every canonical amount is below: far from where `Decimal`
  /// would round a sum of them.
  public static let limit = 1_000_000_000_000_000

  /// `amount` in minor units, when it is a whole number of them under `limit`; nil otherwise.
  public static func minorUnits(of amount: Decimal) -> Int? {
    guard amount.isFinite else { return nil }
    guard let units = Int(wholeDecimal: amount * Decimal(minorUnitsPerUnit)), units > -limit, units < limit else {
      return nil
    }
    return units
  }

  /// The amount that is `units` minor units.
  public static func amount(minorUnits units: Int) -> Decimal {
    Decimal(sign: units < 0 ? .minus : .plus, exponent: -2, significand: Decimal(units.magnitude))
  }

  /// The canonical form of `amount`. An amount with no canonical form (a
  /// fraction of a minor unit) is a programming error: every amount the
  /// canonical form reads is whole, and so are their sums.
  public static func value(_ amount: Decimal) -> JSONValue {
    guard let units = minorUnits(of: amount) else {
      preconditionFailure("\(amount) is not a whole number of minor units under \(limit)")
    }
    return .integer(units)
  }

  /// The amount `cursor` holds.
  public static func read(_ cursor: JSONCursor) throws(CanonicalError) -> Decimal {
    switch cursor.value {
    case .integer(let units) where units.magnitude < limit: return amount(minorUnits: units)
    case .integer(let units): throw cursor.fail("expected money below 10^15 minor units, found \(units)")
    case let other:
      throw cursor.fail("expected money as a whole number of minor units (450 for 4.50), found \(other.kind)")
    }
  }
}

/// Dates: UTC to the second, `"2025-06-15T15:06:40Z"`.
public enum CanonicalDate {
  /// The canonical text of `date`.
  public static func text(_ date: Date) -> String {
    UTCTimestamp.text(date)
  }

  /// The date `cursor` holds.
  public static func read(_ cursor: JSONCursor) throws(CanonicalError) -> Date {
    let text = try cursor.string()
    guard let date = UTCTimestamp.date(text), Self.text(date) == text else {
      throw cursor.fail("expected a UTC date such as \"2025-06-15T15:06:40Z\", found \"\(text)\"")
    }
    return date
  }
}

extension JSONCursor {
  /// An id written as an object key (`"12"`), as the canonical form keys its dictionaries by ids.
  public static func idKey(_ key: String, at cursor: JSONCursor) throws(CanonicalError) -> Int {
    guard let number = idKey(key) else {
      throw cursor.fail("expected an id from 1 to 1000000000 as the key, found '\(key)'")
    }
    return number
  }

  /// The id an object key writes (`"12"`), as `idKey(_:at:)` reads it; nil
  /// when it is none: what a reader by hand checks before taking one.
  public static func idKey(_ key: String) -> Int? {
    // `[1-9][0-9]{0,9}`, byte by byte: a regex literal is compiled on every call, and
    // this runs once for every item and open tab a checkpoint holds.
    let bytes = key.utf8
    guard (1...10).contains(bytes.count), bytes.first != UInt8(ascii: "0"),
      bytes.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }), let number = Int(key),
      number <= 1_000_000_000
    else { return nil }
    return number
  }
}

extension Optional where Wrapped: CanonicalEncodable {
  /// The wrapped value's form, or `null`.
  public var canonical: JSONValue { self?.canonical ?? .null }
}
