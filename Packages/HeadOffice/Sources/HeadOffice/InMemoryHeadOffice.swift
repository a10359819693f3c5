/// The head office in memory: the same rules as the database, for tests and
/// worlds without one. Kept in the world's storage.
public struct InMemoryHeadOffice: HeadOfficeService, Sendable {
  /// Every day held, by till, then by day number.
  public private(set) var days: [String: [Int: TillDay]] = [:]
  /// When set, every request fails with it: a head office that is down.
  public var failure: HeadOfficeError?

  /// An empty head office.
  public init() {}

  /// Stores `day` once; see `HeadOfficeService`.
  public mutating func ship(_ day: TillDay) throws(HeadOfficeError) -> Shipment {
    if let failure { throw failure }
    if let held = days[day.till]?[day.day] {
      guard held.digest == day.digest else {
        throw .conflict(till: day.till, day: day.day, held: held.digest, shipped: day.digest)
      }
      return .alreadyHeld
    }
    days[day.till, default: [:]][day.day] = day
    return .stored(records: day.records.count)
  }

  /// The days held for `till`, with their digests.
  public mutating func heldDays(of till: String) throws(HeadOfficeError) -> [Int: String] {
    if let failure { throw failure }
    return (days[till] ?? [:]).mapValues(\.digest)
  }
}
