import HeadOffice
import KioskApp

extension GlobalOptions {
  /// The world of a command that asks the head office: its connection string
  /// ($KIOSK_HEAD_OFFICE) and each statement's deadline
  /// ($KIOSK_HEAD_OFFICE_DEADLINE); a usage error saying which is missing or
  /// wrong, `missing` when no head office is configured.
  func headOfficeWorld(missing: String) throws(KioskFailure) -> HeadOfficeWorld {
    guard let conninfo = headOffice else { throw .usage(missing) }
    guard let deadlines = PostgresConnection.Deadlines.environment(headOfficeDeadline) else {
      throw .usage(
        "KIOSK_HEAD_OFFICE_DEADLINE is the seconds a statement may take, from 0.1 to 3600, not "
          + (headOfficeDeadline ?? "").debugDescription)
    }
    return HeadOfficeWorld(conninfo: conninfo, deadlines: deadlines)
  }
}
