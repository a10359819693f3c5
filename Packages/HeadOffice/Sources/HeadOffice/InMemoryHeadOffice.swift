/// The head office in memory: the same rules as the database, for tests and
/// worlds without one. Kept in the world's storage.
public struct InMemoryHeadOffice: HeadOfficeService, Sendable {
  /// Every day held, by till, then by day number.
  public private(set) var days: [String: [Int: TillDay]] = [:]
  /// Each renamed till's old name, and the name it took.
  public private(set) var renamed: [String: String] = [:]
  /// When set, every request fails with it: a head office that is down.
  public var failure: HeadOfficeError?

  /// An empty head office.
  public init() {}

  /// Stores `day` once; see `HeadOfficeService`.
  public mutating func ship(_ day: TillDay) throws(HeadOfficeError) -> Shipment {
    if let failure { throw failure }
    let days = self.days
    if let held = names(of: day.till).compactMap({ days[$0]?[day.day] }).first {
      guard held.digest == day.digest else {
        throw .conflict(till: day.till, day: day.day, held: held.digest, shipped: day.digest)
      }
      return .alreadyHeld
    }
    self.days[day.till, default: [:]][day.day] = day
    return .stored(records: day.records.count)
  }

  /// The days held for `till`, with their digests.
  public mutating func heldDays(of till: String) throws(HeadOfficeError) -> [Int: String] {
    if let failure { throw failure }
    return names(of: till).reduce(into: [:]) { held, name in
      for (number, day) in days[name] ?? [:] { held[number] = day.digest }
    }
  }

  /// Renames `till` to `name`; see `HeadOfficeService`.
  public mutating func rename(till: String, to name: String) throws(HeadOfficeError) -> Renaming {
    if let failure { throw failure }
    if let taken = renamed[till] {
      guard taken == name else { throw .nameTaken(name: name, reason: "till '\(till)' was renamed '\(taken)' before") }
      return .alreadyRenamed
    }
    if days[name] != nil || renamed[name] != nil || renamed.values.contains(name) {
      throw .nameTaken(name: name, reason: "another till holds days under it, or held it before")
    }
    renamed[till] = name
    return .renamed
  }

  /// `till` and every name it had before, newest first.
  private func names(of till: String) -> [String] {
    var names = [till]
    while let before = renamed.first(where: { $0.value == names.last! })?.key, !names.contains(before) {
      names.append(before)
    }
    return names
  }
}
