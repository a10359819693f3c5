/// The head office's tables. Created when missing, under a lock, so tills that
/// connect at once for the first time do not race each other.
enum HeadOfficeSchema {
  /// The advisory lock every till takes while it creates the tables.
  static let lock = "SELECT pg_advisory_xact_lock(7254311)"

  /// The statements, in order; each creates only what is missing. Money is
  /// `numeric(19, 4)`: exact, and as many decimals as a price may have.
  static let statements = [
    """
    CREATE TABLE IF NOT EXISTS kiosk_days (
      till text NOT NULL,
      day integer NOT NULL CHECK (day >= 1),
      digest text NOT NULL,
      record_count integer NOT NULL,
      charged numeric(19, 4) NOT NULL,
      refunded numeric(19, 4) NOT NULL,
      settled_tabs integer NOT NULL,
      shipped_at timestamptz NOT NULL DEFAULT now(),
      version smallint,
      salt text,
      file_crc text,
      PRIMARY KEY (till, day)
    )
    """,
    // The journal file a day's records are the bytes of (its version, salt and
    // CRC-32C); NULL for a day shipped before they were kept. Added to a head
    // office created before them.
    """
    ALTER TABLE kiosk_days ADD COLUMN IF NOT EXISTS version smallint, ADD COLUMN IF NOT EXISTS salt text,
      ADD COLUMN IF NOT EXISTS file_crc text
    """,
    """
    CREATE TABLE IF NOT EXISTS kiosk_records (
      till text NOT NULL,
      day integer NOT NULL,
      sequence bigint NOT NULL,
      kind text NOT NULL,
      tab bigint,
      amount numeric(19, 4),
      body text NOT NULL,
      PRIMARY KEY (till, day, sequence)
    )
    """,
    """
    CREATE TABLE IF NOT EXISTS kiosk_sales (
      till text NOT NULL,
      day integer NOT NULL,
      item bigint NOT NULL,
      name text NOT NULL,
      count integer NOT NULL,
      total numeric(19, 4) NOT NULL,
      PRIMARY KEY (till, day, item)
    )
    """,
    """
    CREATE TABLE IF NOT EXISTS kiosk_stock (
      till text NOT NULL,
      day integer NOT NULL,
      ingredient text NOT NULL,
      opening bigint NOT NULL,
      closing bigint NOT NULL,
      PRIMARY KEY (till, day, ingredient)
    )
    """,
    // A till renamed (`kiosk rename-till`): its days stay under the name they
    // were shipped with, and count as its own under the new one.
    """
    CREATE TABLE IF NOT EXISTS kiosk_till_names (
      till text PRIMARY KEY,
      renamed_to text NOT NULL UNIQUE,
      renamed_at timestamptz NOT NULL DEFAULT now()
    )
    """,
  ]

  /// `names(name)`: the till named `$1` and every name it had before.
  static let namesOfTill = """
    WITH RECURSIVE names(name) AS (
      SELECT $1::text UNION SELECT n.till FROM kiosk_till_names n JOIN names ON n.renamed_to = names.name
    )
    """

  /// Creates what is missing, in one transaction; nothing when every table is
  /// there, so a role that may only read and insert can ship.
  static func create(on connection: PostgresConnection) throws(PostgresConnection.Failure) {
    let present = try connection.execute(
      "SELECT to_regclass('kiosk_days') IS NOT NULL AND to_regclass('kiosk_records') IS NOT NULL "
        + "AND to_regclass('kiosk_sales') IS NOT NULL AND to_regclass('kiosk_stock') IS NOT NULL "
        + "AND to_regclass('kiosk_till_names') IS NOT NULL AND EXISTS (SELECT 1 FROM pg_attribute "
        + "WHERE attrelid = to_regclass('kiosk_days') AND attname = 'file_crc' AND NOT attisdropped)")
    if present.first?.first == "t" { return }
    try connection.execute("BEGIN")
    do {
      try connection.execute(lock)
      for statement in statements { try connection.execute(statement) }
      try connection.execute("COMMIT")
    } catch {
      _ = try? connection.execute("ROLLBACK")
      throw error
    }
  }
}
