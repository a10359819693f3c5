#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// The head office in a PostgreSQL database, through libpq. Kept in the world's
/// storage: it connects on first use, creates its tables when missing, and
/// connects again after a connection drops.
///
/// A day is shipped in one transaction, serialised per (till, day) by an
/// advisory lock: either every row of the day is stored, with the day's own row
/// last, or none is. So a till killed mid-ship, a dropped connection or a
/// server restarted mid-transaction leaves nothing half stored, and the next
/// attempt ships the day whole, once.
public struct PostgresHeadOffice: HeadOfficeService {
  /// The libpq connection string; nil when no head office is configured.
  public let conninfo: String?
  /// Seconds a statement, or a wait for a lock, may take before the server gives it up.
  static let statementTimeoutSeconds = 120
  /// Rows per `INSERT`: libpq takes at most 65,535 parameters in a statement.
  static let rowsPerInsert = 1_000
  /// How long each statement may go unanswered before it is cancelled and the request fails.
  public let deadlines: PostgresConnection.Deadlines
  private var connection: PostgresConnection?

  /// A head office reached with `conninfo` (nil: none is configured, and every request says so),
  /// each statement bounded by `deadlines`.
  public init(conninfo: String?, deadlines: PostgresConnection.Deadlines = .standard) {
    self.conninfo = conninfo
    self.deadlines = deadlines
  }

  /// Stores `day` once; see `HeadOfficeService`.
  public mutating func ship(_ day: TillDay) throws(HeadOfficeError) -> Shipment {
    try onLiveConnection { connection throws(PostgresConnection.Failure) in
      let stored = Result { () throws(PostgresConnection.Failure) in try Self.store(day, on: connection) }
      if case .failure = stored { _ = try? connection.execute("ROLLBACK") }
      return try stored.get()
    }.get()
  }

  /// The days held for `till`, with their digests.
  public mutating func heldDays(of till: String) throws(HeadOfficeError) -> [Int: String] {
    try onLiveConnection { connection throws(PostgresConnection.Failure) in
      let rows = try connection.execute(
        HeadOfficeSchema.namesOfTill + "SELECT day, digest FROM kiosk_days WHERE till IN (SELECT name FROM names)",
        [till])
      return Dictionary(
        rows.compactMap { row in row[0].flatMap { Int($0) }.map { ($0, row[1] ?? "") } }, uniquingKeysWith: { $1 })
    }
  }

  /// Renames `till` to `name`; see `HeadOfficeService`. One transaction, under
  /// the lock every renaming takes, so two tills cannot take one name at once.
  public mutating func rename(till: String, to name: String) throws(HeadOfficeError) -> Renaming {
    try onLiveConnection { connection throws(PostgresConnection.Failure) in
      let renamed = Result { () throws(PostgresConnection.Failure) in try Self.rename(till, to: name, on: connection) }
      if case .failure = renamed { _ = try? connection.execute("ROLLBACK") }
      return try renamed.get()
    }.get()
  }

  /// The renaming, or a refusal decided inside the transaction; a thrown
  /// failure means the database did not finish it.
  private static func rename(_ till: String, to name: String, on connection: PostgresConnection)
    throws(PostgresConnection.Failure) -> Result<Renaming, HeadOfficeError>
  {
    try connection.execute("BEGIN")
    try connection.execute("SELECT pg_advisory_xact_lock(7254312)")
    if let taken = try connection.execute("SELECT renamed_to FROM kiosk_till_names WHERE till = $1", [till])
      .first?[0] ?? nil
    {
      try connection.execute("ROLLBACK")
      guard taken == name else {
        return .failure(.nameTaken(name: name, reason: "till '\(till)' was renamed '\(taken)' before"))
      }
      return .success(.alreadyRenamed)
    }
    let used = try connection.execute(
      "SELECT EXISTS (SELECT 1 FROM kiosk_days WHERE till = $1) "
        + "OR EXISTS (SELECT 1 FROM kiosk_till_names WHERE till = $1 OR renamed_to = $1)", [name])
    if used.first?[0] == "t" {
      try connection.execute("ROLLBACK")
      return .failure(.nameTaken(name: name, reason: "another till holds days under it, or held it before"))
    }
    try connection.execute("INSERT INTO kiosk_till_names (till, renamed_to) VALUES ($1, $2)", [till, name])
    try connection.execute("COMMIT")
    return .success(.renamed)
  }

  /// Runs `body` on the connection, opening one when there is none. A
  /// connection kept from an earlier request may have died with its server (a
  /// restart): libpq learns it only when it is used. Then `body` runs once more
  /// on a fresh connection; every request is a transaction the server checks
  /// (a day it holds is answered `alreadyHeld`), so running one again is safe.
  mutating func onLiveConnection<Value>(
    _ body: (PostgresConnection) throws(PostgresConnection.Failure) -> Value
  ) throws(HeadOfficeError) -> Value {
    let reused = connection?.isOpen == true
    let first = try connected()
    do {
      return try body(first)
    } catch {
      let failed = failure(error, on: first)
      // A deadline that expired is not tried again: the till must not wait twice as long.
      guard reused, !error.timedOut, case .unreachable = failed else { throw failed }
    }
    let fresh = try connected()
    do {
      return try body(fresh)
    } catch {
      throw failure(error, on: fresh)
    }
  }

  /// The stored outcome, or a refusal decided inside the transaction (a conflict);
  /// a thrown failure means the database did not finish the transaction.
  private static func store(_ day: TillDay, on connection: PostgresConnection) throws(PostgresConnection.Failure)
    -> Result<Shipment, HeadOfficeError>
  {
    let key = [day.till, String(day.day)]
    try connection.execute("BEGIN")
    try connection.execute("SELECT pg_advisory_xact_lock(hashtext($1), $2::integer)", key)
    // Under this name or one the till had before: a renamed till's days are its own.
    if let held = try connection.execute(
      HeadOfficeSchema.namesOfTill
        + "SELECT digest FROM kiosk_days WHERE till IN (SELECT name FROM names) AND day = $2::integer", key
    ).first?[0] ?? nil {
      try connection.execute("ROLLBACK")
      guard held == day.digest else {
        return .failure(.conflict(till: day.till, day: day.day, held: held, shipped: day.digest))
      }
      return .success(.alreadyHeld)
    }
    // The records, the bulk of a day, through COPY: PostgreSQL's own bulk path. A day's
    // amounts are a few prices over and over: each is turned into text once.
    var amounts: [Decimal: String] = [:]
    let dayText = String(day.day)
    try connection.copy(
      into: "kiosk_records (till, day, sequence, kind, tab, amount, body)",
      rows: day.records.lazy.map { record in
        let amount = record.amount.map { amount in
          if let text = amounts[amount] { return text }
          let text = "\(amount)"
          amounts[amount] = text
          return text
        }
        return [
          day.till, dayText, String(record.sequence), record.kind, record.tab.map(String.init), amount, record.body,
        ]
      })
    for start in stride(from: 0, to: day.sales.count, by: Self.rowsPerInsert) {
      let batch = day.sales[start..<min(start + Self.rowsPerInsert, day.sales.count)]
      try connection.execute(
        Self.insert(into: "kiosk_sales (till, day, item, name, count, total)", rows: batch.count, columns: 6),
        batch.flatMap { sale in
          [day.till, String(day.day), String(sale.item), sale.name, String(sale.count), "\(sale.total)"]
        })
    }
    if !day.stock.isEmpty {
      try connection.execute(
        Self.insert(into: "kiosk_stock (till, day, ingredient, opening, closing)", rows: day.stock.count, columns: 5),
        day.stock.flatMap { line in
          [day.till, String(day.day), line.ingredient, String(line.opening), String(line.closing)]
        })
    }
    try connection.execute(
      Self.insert(
        into: "kiosk_days (till, day, digest, record_count, charged, refunded, settled_tabs, version, salt, file_crc)",
        rows: 1, columns: 10),
      [
        day.till, String(day.day), day.digest, String(day.records.count), "\(day.charged)", "\(day.refunded)",
        String(day.settledTabs), day.file.map { String($0.version) },
        day.file.map { Hex.lowercase($0.salt, digits: 16) },
        day.file.map { Hex.lowercase(UInt64($0.crc), digits: 8) },
      ])
    try connection.execute("COMMIT")
    return .success(.stored(records: day.records.count))
  }

  /// `INSERT INTO <table> VALUES ($1, …), (…)`: `rows` rows of `columns` parameters.
  static func insert(into table: String, rows: Int, columns: Int) -> String {
    let tuples = (0..<rows).map { row in
      "(" + (1...columns).map { "$\(row * columns + $0)" }.joined(separator: ", ") + ")"
    }
    return "INSERT INTO \(table) VALUES " + tuples.joined(separator: ", ")
  }

  /// The connection, opened (and the tables created) when there is none or it dropped.
  mutating func connected() throws(HeadOfficeError) -> PostgresConnection {
    if let connection, connection.isOpen { return connection }
    connection = nil
    guard let conninfo else { throw .notConfigured }
    // A head office that does not answer must not hold the till: the connection
    // waits `PostgresConnection.Deadlines.connectionDefaults`' connect_timeout
    // unless the connection string says otherwise, and each statement `deadlines`.
    let opened: PostgresConnection
    do {
      opened = try PostgresConnection(conninfo, deadlines: deadlines)
    } catch {
      throw error.misconfigured ? .misconfigured(error.message) : .unreachable(error.message)
    }
    do {
      // Text is UTF-8 whatever the server's default (a server that cannot hold it refuses rather than garbles);
      // the server's notices are not the till's business; a statement or a lock that takes too long gives up.
      try opened.execute("SET client_encoding TO 'UTF8'")
      try opened.execute("SET client_min_messages TO warning")
      try opened.execute("SET statement_timeout TO '\(Self.statementTimeoutSeconds)s'")
      try opened.execute("SET lock_timeout TO '\(Self.statementTimeoutSeconds)s'")
      try HeadOfficeSchema.create(on: opened)
    } catch {
      throw opened.isOpen ? .refused(error.message) : .unreachable(error.message)
    }
    connection = opened
    return opened
  }

  /// What a database failure means to a till: a connection that dropped is the
  /// head office being unreachable (try again); anything else is a refusal.
  mutating func failure(_ error: PostgresConnection.Failure, on connection: PostgresConnection)
    -> HeadOfficeError
  {
    guard connection.isOpen else {
      self.connection = nil
      return .unreachable(error.message)
    }
    return .refused(error.message)
  }
}
