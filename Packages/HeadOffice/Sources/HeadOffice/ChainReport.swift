#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// What the head office holds, summed across the chain: per till and day, and
/// per item, from the tables `ship` fills.
public struct ChainReport: Equatable, Sendable {
  /// One till's day.
  public struct TillLine: Equatable, Sendable {
    /// The till, by its name now.
    public var till: String
    /// The name the day was shipped under, when the till has been renamed since; nil otherwise.
    public var shippedAs: String?
    /// The day.
    public var day: Int
    /// Money charged.
    public var charged: Decimal
    /// Money refunded.
    public var refunded: Decimal
    /// Tabs settled.
    public var settledTabs: Int
    /// Records shipped.
    public var records: Int

    /// A till's day with these totals.
    public init(
      till: String, day: Int, charged: Decimal, refunded: Decimal, settledTabs: Int, records: Int,
      shippedAs: String? = nil
    ) {
      self.till = till
      self.shippedAs = shippedAs
      self.day = day
      self.charged = charged
      self.refunded = refunded
      self.settledTabs = settledTabs
      self.records = records
    }
  }

  /// One item, over every till (and, without a day, every day).
  public struct ItemLine: Equatable, Sendable {
    /// The item's number.
    public var item: Int
    /// Its name (the latest shipped).
    public var name: String
    /// How many were sold, net of refunds.
    public var count: Int
    /// What they brought in.
    public var total: Decimal

    /// An item's sales.
    public init(item: Int, name: String, count: Int, total: Decimal) {
      self.item = item
      self.name = name
      self.count = count
      self.total = total
    }
  }

  /// One ingredient's units across the chain, at the opening and the close of
  /// the same days: the day asked for, or, for every day, each till's latest day.
  public struct StockLine: Equatable, Sendable {
    /// The ingredient's name.
    public var ingredient: String
    /// Units at those days' openings, summed over the tills.
    public var opening: Int
    /// Units at those closes, summed over the tills.
    public var closing: Int

    /// An ingredient's units at opening and at close.
    public init(ingredient: String, opening: Int, closing: Int) {
      self.ingredient = ingredient
      self.opening = opening
      self.closing = closing
    }
  }

  /// Each till's days, by till then day.
  public var tills: [TillLine]
  /// Sales by item, by item number.
  public var items: [ItemLine]
  /// Stock by ingredient, by name.
  public var stock: [StockLine] = []

  /// A report of these lines.
  public init(tills: [TillLine], items: [ItemLine], stock: [StockLine] = []) {
    self.tills = tills
    self.items = items
    self.stock = stock
  }

  /// Money charged across the chain.
  public var charged: Decimal { tills.reduce(0) { $0 + $1.charged } }
  /// Money refunded across the chain.
  public var refunded: Decimal { tills.reduce(0) { $0 + $1.refunded } }
}

/// One way a shipped day disagrees with itself, found by recomputing it from its rows.
public struct DayMismatch: Equatable, Sendable, CustomStringConvertible {
  /// The till.
  public var till: String
  /// The day.
  public var day: Int
  /// What disagrees.
  public var problem: String

  public var description: String { "till '\(till)' day \(day): \(problem)" }
}

extension PostgresHeadOffice {
  /// `current(name, now)`: each name days were shipped under, and the name its
  /// till has now (`kiosk_till_names`; the same name when it was never renamed).
  static let currentNames = """
    WITH RECURSIVE chain(name, now) AS (
      SELECT DISTINCT till, till FROM kiosk_days
      UNION SELECT chain.name, n.renamed_to FROM chain JOIN kiosk_till_names n ON n.till = chain.now
    ), current AS (SELECT name, now FROM chain WHERE now NOT IN (SELECT till FROM kiosk_till_names))

    """

  /// The chain's report: every till's days, sales by item, and stock at opening
  /// and close, for day `day` or every day.
  public mutating func chainReport(day: Int? = nil) throws(HeadOfficeError) -> ChainReport {
    let filter = day.map { "WHERE day = \($0)" } ?? ""
    // A renamed till's days are listed under its name now, each with the name it was shipped under.
    let tills = try rows(
      Self.currentNames
        + "SELECT c.now, d.till, d.day, d.charged, d.refunded, d.settled_tabs, d.record_count FROM kiosk_days d "
        + "JOIN current c ON c.name = d.till \(day.map { "WHERE d.day = \($0)" } ?? "") "
        + "ORDER BY c.now COLLATE \"C\", d.day")
    let items = try rows(
      "SELECT item, (array_agg(name ORDER BY day DESC))[1], sum(count), sum(total) FROM kiosk_sales \(filter) "
        + "GROUP BY item ORDER BY item")
    // Each till's latest close, a renamed till counted once.
    let stockFilter =
      day.map { "WHERE day = \($0)" }
      ?? "WHERE (till, day) IN (SELECT d.till, d.day FROM kiosk_days d JOIN current c ON c.name = d.till "
      + "WHERE (c.now, d.day) IN (SELECT c2.now, max(d2.day) FROM kiosk_days d2 JOIN current c2 ON c2.name = d2.till "
      + "GROUP BY c2.now))"
    let stock = try rows(
      Self.currentNames
        + "SELECT ingredient, sum(opening), sum(closing) FROM kiosk_stock \(stockFilter) GROUP BY ingredient ORDER BY ingredient COLLATE \"C\""
    )
    return ChainReport(
      tills: tills.map { row in
        ChainReport.TillLine(
          till: row[0] ?? "", day: Int(row[2] ?? "") ?? 0, charged: Decimal(string: row[3] ?? "") ?? 0,
          refunded: Decimal(string: row[4] ?? "") ?? 0, settledTabs: Int(row[5] ?? "") ?? 0,
          records: Int(row[6] ?? "") ?? 0, shippedAs: row[1] == row[0] ? nil : row[1])
      },
      items: items.map { row in
        ChainReport.ItemLine(
          item: Int(row[0] ?? "") ?? 0, name: row[1] ?? "", count: Int(row[2] ?? "") ?? 0,
          total: Decimal(string: row[3] ?? "") ?? 0)
      },
      stock: stock.map { row in
        ChainReport.StockLine(
          ingredient: row[0] ?? "", opening: Int(row[1] ?? "") ?? 0, closing: Int(row[2] ?? "") ?? 0)
      })
  }

  /// Recomputes every shipped day from its rows, in SQL, and lists where it
  /// disagrees with what the till said: the records are numbered 1 to the
  /// count the till sent, with none missing; the money charged is the sum of
  /// the settles' totals; the sales, net of refunds, sum to the money kept.
  ///
  /// With `audit`, each day is then read back whole (`storedDay`) and handed
  /// to it; whatever it answers is a disagreement too. The till's side brings
  /// the audit, since only it can replay its records: the head office stores
  /// days, it does not know what a record means.
  public mutating func verify(audit: ((TillDay) -> [String])? = nil) throws(HeadOfficeError) -> [DayMismatch] {
    let checks = try rows(
      """
      SELECT d.till, d.day, d.record_count, count(r.sequence), coalesce(min(r.sequence), 0),
             coalesce(max(r.sequence), 0), d.charged, coalesce(sum(r.amount) FILTER (WHERE r.kind = 'settled'), 0),
             d.charged - d.refunded,
             (SELECT coalesce(sum(s.total), 0) FROM kiosk_sales s WHERE s.till = d.till AND s.day = d.day)
      FROM kiosk_days d LEFT JOIN kiosk_records r ON r.till = d.till AND r.day = d.day
      GROUP BY d.till, d.day, d.record_count, d.charged, d.refunded
      ORDER BY d.till, d.day
      """)
    var found: [DayMismatch] = []
    for row in checks {
      let till = row[0] ?? ""
      let day = Int(row[1] ?? "") ?? 0
      let declared = Int(row[2] ?? "") ?? -1
      let (count, first, last) = (Int(row[3] ?? "") ?? -1, Int(row[4] ?? "") ?? -1, Int(row[5] ?? "") ?? -1)
      if count != declared || (count > 0 && (first != 1 || last != count)) {
        found.append(
          DayMismatch(
            till: till, day: day,
            problem: "the till sent \(declared) records; the head office holds \(count), numbered \(first) to \(last)"))
      }
      let (charged, settled) = (Decimal(string: row[6] ?? "") ?? 0, Decimal(string: row[7] ?? "") ?? 0)
      if charged != settled {
        found.append(
          DayMismatch(
            till: till, day: day, problem: "charged \(charged) by the Z report, but its settles total \(settled)"))
      }
      let (kept, sold) = (Decimal(string: row[8] ?? "") ?? 0, Decimal(string: row[9] ?? "") ?? 0)
      if kept != sold {
        found.append(
          DayMismatch(
            till: till, day: day, problem: "kept \(kept) (charged less refunded), but its sales total \(sold)"))
      }
    }
    if let audit {
      for day in try rows("SELECT till, day FROM kiosk_days ORDER BY till, day") {
        let (till, number) = (day[0] ?? "", Int(day[1] ?? "") ?? 0)
        guard let stored = try storedDay(till: till, day: number) else { continue }
        found += audit(stored).map { DayMismatch(till: till, day: number, problem: $0) }
      }
    }
    // By till and day, each day's problems in the order they were checked.
    return found.enumerated().sorted {
      ($0.element.till, $0.element.day, $0.offset) < ($1.element.till, $1.element.day, $1.offset)
    }
    .map(\.element)
  }

  /// Day `day` of the till named `till` now, under whichever of its names it
  /// was shipped (`rename`); nil when the head office holds no such day.
  public mutating func storedDay(ofTill till: String, day: Int) throws(HeadOfficeError) -> TillDay? {
    let holder = try onLiveConnection { connection throws(PostgresConnection.Failure) in
      try connection.execute(
        HeadOfficeSchema.namesOfTill
          + "SELECT till FROM kiosk_days WHERE till IN (SELECT name FROM names) AND day = $2::integer",
        [till, String(day)]
      ).first?[0] ?? nil
    }
    guard let holder else { return nil }
    return try storedDay(till: holder, day: day)
  }

  /// The day `day` of `till` as the head office holds it, read back from
  /// every table (records in order, sales by item, stock by ingredient); nil
  /// when it holds no such day.
  public mutating func storedDay(till: String, day: Int) throws(HeadOfficeError) -> TillDay? {
    let key = [till, String(day)]
    return try onLiveConnection { connection throws(PostgresConnection.Failure) -> TillDay? in
      guard
        let row = try connection.execute(
          "SELECT digest, charged, refunded, settled_tabs, version, salt, file_crc FROM kiosk_days "
            + "WHERE till = $1 AND day = $2", key
        ).first
      else { return nil }
      let records = try connection.execute(
        "SELECT sequence, kind, tab, amount, body FROM kiosk_records WHERE till = $1 AND day = $2 ORDER BY sequence",
        key
      ).map { row in
        TillDay.Record(
          sequence: Int(row[0] ?? "") ?? 0, kind: row[1] ?? "", tab: row[2].flatMap { Int($0) },
          amount: row[3].flatMap { Decimal(string: $0) }, body: row[4] ?? "")
      }
      let sales = try connection.execute(
        "SELECT item, name, count, total FROM kiosk_sales WHERE till = $1 AND day = $2 ORDER BY item", key
      ).map { row in
        TillDay.Sale(
          item: Int(row[0] ?? "") ?? 0, name: row[1] ?? "", count: Int(row[2] ?? "") ?? 0,
          total: Decimal(string: row[3] ?? "") ?? 0)
      }
      let stock = try connection.execute(
        "SELECT ingredient, opening, closing FROM kiosk_stock WHERE till = $1 AND day = $2 ORDER BY ingredient COLLATE \"C\"",
        key
      ).map { row in
        TillDay.Stock(ingredient: row[0] ?? "", opening: Int(row[1] ?? "") ?? 0, closing: Int(row[2] ?? "") ?? 0)
      }
      var held = TillDay(
        till: till, day: day, digest: row[0] ?? "", records: records, sales: sales,
        charged: Decimal(string: row[1] ?? "") ?? 0, refunded: Decimal(string: row[2] ?? "") ?? 0,
        settledTabs: Int(row[3] ?? "") ?? 0, stock: stock)
      if let version = row[4].flatMap({ Int($0) }), let salt = row[5].flatMap({ UInt64($0, radix: 16) }),
        let crc = row[6].flatMap({ UInt32($0, radix: 16) })
      {
        held.file = TillDay.File(version: version, salt: salt, crc: crc)
      }
      return held
    }
  }

  /// Rows of a query on the head office's tables.
  private mutating func rows(_ sql: String) throws(HeadOfficeError) -> [[String?]] {
    try onLiveConnection { connection throws(PostgresConnection.Failure) in try connection.execute(sql) }
  }
}
