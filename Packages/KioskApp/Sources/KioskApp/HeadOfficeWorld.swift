import HeadOffice

/// What `kiosk sync` runs in: the head office's database alone. The till's
/// files are only read (the closed days' archives), so no journal is opened.
///
/// Its link is generated from codegen.yaml into `Generated/KioskApp/HeadOfficeWorld+Links.swift`.
public struct HeadOfficeWorld: ~Copyable {
  /// The head office's database link, kept in the world (it holds the connection).
  public var headOfficeDatabase: PostgresHeadOffice

  /// A world reaching the head office with the libpq connection string `conninfo`,
  /// each statement bounded by `deadlines`.
  public init(conninfo: String?, deadlines: PostgresConnection.Deadlines = .standard) {
    headOfficeDatabase = PostgresHeadOffice(conninfo: conninfo, deadlines: deadlines)
  }
}
