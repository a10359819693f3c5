#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// `2025-06-15T15:06:40Z`: a date in UTC to the second, written and read by
/// integer arithmetic on the days since 1970 (the civil calendar's own
/// algorithm), not by a Foundation formatter: the form is written once per
/// receipt on the command line and once per date in every canonical answer,
/// and `Date.ISO8601FormatStyle` costs tens of thousands of instructions a
/// call. The same text `ISO8601FormatStyle()` writes for years 1600 through
/// 9999 (tests compare the two); a date outside them is left to it (before
/// the Gregorian reform, Foundation counts days by the Julian calendar).
public enum UTCTimestamp {
  /// The text of `date`, to the second; a fraction of a second is dropped
  /// (rounded towards the past, as `ISO8601FormatStyle` rounds it).
  public static func text(_ date: Date) -> String {
    let seconds = date.timeIntervalSince1970.rounded(.down)
    guard seconds >= earliest, seconds <= latest else { return Date.ISO8601FormatStyle().format(date) }
    let total = Int(seconds)
    let (days, secondOfDay) = floorDivision(total, 86_400)
    let (year, month, day) = civil(fromDays: days)
    var bytes = [UInt8](repeating: 0, count: 20)
    write(year, digits: 4, into: &bytes, at: 0)
    bytes[4] = UInt8(ascii: "-")
    write(month, digits: 2, into: &bytes, at: 5)
    bytes[7] = UInt8(ascii: "-")
    write(day, digits: 2, into: &bytes, at: 8)
    bytes[10] = UInt8(ascii: "T")
    write(secondOfDay / 3600, digits: 2, into: &bytes, at: 11)
    bytes[13] = UInt8(ascii: ":")
    write(secondOfDay / 60 % 60, digits: 2, into: &bytes, at: 14)
    bytes[16] = UInt8(ascii: ":")
    write(secondOfDay % 60, digits: 2, into: &bytes, at: 17)
    bytes[19] = UInt8(ascii: "Z")
    return String(decoding: bytes, as: UTF8.self)
  }

  /// The date `text` names, when it is exactly the form `text(_:)` writes
  /// (`YYYY-MM-DDTHH:MM:SSZ`, a real day of a year from 1 to 9999); nil
  /// otherwise. Years before 1600 are read by `ISO8601FormatStyle`.
  public static func date(_ text: String) -> Date? {
    let bytes = Array(text.utf8)
    guard bytes.count == 20, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"),
      bytes[10] == UInt8(ascii: "T"), bytes[13] == UInt8(ascii: ":"), bytes[16] == UInt8(ascii: ":"),
      bytes[19] == UInt8(ascii: "Z"),
      let year = number(bytes, 0, 4), let month = number(bytes, 5, 2), let day = number(bytes, 8, 2),
      let hour = number(bytes, 11, 2), let minute = number(bytes, 14, 2), let second = number(bytes, 17, 2),
      year >= 1, (1...12).contains(month), day >= 1, hour < 24, minute < 60, second < 60
    else { return nil }
    // Before 1600 the days are Foundation's, counted by the Julian calendar,
    // whose leap years differ (it writes 1500-02-29): it reads them, and the
    // date must be written back as the same text, so nothing it rolls over passes.
    guard year >= 1600 else {
      let style = Date.ISO8601FormatStyle()
      guard let date = try? style.parse(text), style.format(date) == text else { return nil }
      return date
    }
    guard day <= daysIn(month: month, year: year) else { return nil }
    let days = self.days(fromCivil: year, month, day)
    return Date(timeIntervalSince1970: Double(days * 86_400 + hour * 3600 + minute * 60 + second))
  }

  /// 1600-01-01T00:00:00Z and 9999-12-31T23:59:59Z, in seconds since 1970.
  private static let earliest = Double(days(fromCivil: 1600, 1, 1) * 86_400)
  private static let latest = Double(days(fromCivil: 9999, 12, 31) * 86_400 + 86_399)

  /// Quotient and remainder, the remainder never negative.
  private static func floorDivision(_ value: Int, _ divisor: Int) -> (Int, Int) {
    let remainder = value % divisor
    return remainder < 0 ? (value / divisor - 1, remainder + divisor) : (value / divisor, remainder)
  }

  /// The proleptic Gregorian date `days` after 1970-01-01 (Howard Hinnant's `civil_from_days`).
  static func civil(fromDays days: Int) -> (year: Int, month: Int, day: Int) {
    let shifted = days + 719_468
    let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
    let dayOfEra = shifted - era * 146_097
    let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
    let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
    let monthIndex = (5 * dayOfYear + 2) / 153
    let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
    let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
    return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
  }

  /// The days from 1970-01-01 to a proleptic Gregorian date (`days_from_civil`).
  static func days(fromCivil year: Int, _ month: Int, _ day: Int) -> Int {
    let year = month <= 2 ? year - 1 : year
    let era = (year >= 0 ? year : year - 399) / 400
    let yearOfEra = year - era * 400
    let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
    let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
    return era * 146_097 + dayOfEra - 719_468
  }

  private static func daysIn(month: Int, year: Int) -> Int {
    switch month {
    case 2: year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
    case 4, 6, 9, 11: 30
    default: 31
    }
  }

  private static func write(_ value: Int, digits: Int, into bytes: inout [UInt8], at start: Int) {
    var rest = value
    for position in stride(from: start + digits - 1, through: start, by: -1) {
      bytes[position] = UInt8(ascii: "0") + UInt8(rest % 10)
      rest /= 10
    }
  }

  private static func number(_ bytes: [UInt8], _ start: Int, _ count: Int) -> Int? {
    var value = 0
    for byte in bytes[start..<start + count] {
      guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
      value = value * 10 + Int(byte - UInt8(ascii: "0"))
    }
    return value
  }
}
