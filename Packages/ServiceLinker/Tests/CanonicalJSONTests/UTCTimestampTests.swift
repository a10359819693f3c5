import CanonicalJSON
import Foundation
import Testing
import _ServiceLinkerTestSupport

/// `UTCTimestamp` against Foundation's `ISO8601FormatStyle`, which it replaces on the hot path.
@Suite struct UTCTimestampTests {
  /// Seconds since 1970 from 0001-01-01 to 9999-12-31 (the years before 1600 are Foundation's), with fractions and the edges of days, months and leap years.
  static let samples: [Double] = {
    var generator = SeededGenerator(seed: 1600)
    // The last two: Foundation writes 1500-02-29 and 1400-02-29 (Julian leap days) for them.
    let edges: [Double] = [
      0, -1, 1, 86_399, 86_400, -86_400, -86_401, 951_782_400, 951_868_799, 4_107_542_399, -2_203_891_200,
      -62_135_596_800, 253_402_300_799, 1_750_000_000.999, -0.5, 1_709_164_800, 1_709_251_199, -14_825_857_230,
      -17_981_654_400,
    ]
    let random = (0..<3_000).map { _ in
      Double(Int.random(in: -62_135_596_800...253_402_300_799, using: &generator))
        + Double(Int.random(in: 0..<1000, using: &generator)) / 1000
    }
    return edges + random
  }()

  @Test func writesWhatFoundationsISO8601FormatStyleWrites() {
    let style = Date.ISO8601FormatStyle()
    let mismatches = Self.samples.filter { seconds in
      let date = Date(timeIntervalSince1970: seconds)
      return UTCTimestamp.text(date) != style.format(date)
    }
    #expect(mismatches.isEmpty, "first differing dates: \(mismatches.prefix(5))")
  }

  @Test func readsBackEveryWholeSecondItWrites() {
    for seconds in Self.samples {
      let whole = Date(timeIntervalSince1970: seconds.rounded(.down))
      #expect(UTCTimestamp.date(UTCTimestamp.text(whole)) == whole, "\(seconds)")
    }
  }

  @Test func readsWhatFoundationReads() throws {
    let style = Date.ISO8601FormatStyle()
    for text in ["2025-06-15T15:06:40Z", "2000-02-29T23:59:59Z", "0001-01-01T00:00:00Z", "9999-12-31T23:59:59Z"] {
      #expect(UTCTimestamp.date(text) == (try style.parse(text)), "\(text)")
    }
  }

  @Test func refusesAnythingButTheOneForm() {
    let refused = [
      "2025-06-15T15:06:40.5Z", "2025-06-15T15:06:40", "2025-06-15 15:06:40Z", "2025-6-15T15:06:40Z",
      "2025-02-29T00:00:00Z", "1900-02-29T00:00:00Z", "2025-04-31T00:00:00Z", "2025-13-01T00:00:00Z",
      "2025-00-10T00:00:00Z", "2025-06-00T00:00:00Z", "2025-06-15T24:00:00Z", "2025-06-15T23:60:00Z",
      "2025-06-15T23:59:60Z", "0000-01-01T00:00:00Z", "+025-06-15T15:06:40Z", "2025-06-15T15:06:40+00:00",
      "２025-06-15T15:06:40Z", "",
    ]
    for text in refused { #expect(UTCTimestamp.date(text) == nil, "\(text)") }
  }

  @Test func leavesDatesBeyondYear9999AndBefore1600ToFoundation() {
    for seconds in [253_402_300_800, -11_676_096_001, -62_135_596_800] {
      let date = Date(timeIntervalSince1970: Double(seconds))
      #expect(UTCTimestamp.text(date) == Date.ISO8601FormatStyle().format(date), "\(seconds)")
    }
  }
}
