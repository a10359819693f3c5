import CLibPQ
import Foundation

/// One connection to a PostgreSQL server through libpq: statements with text
/// parameters, rows of text back. Small on purpose; the head office needs no more.
public final class PostgresConnection {
  /// A statement or connection that failed, with the server's words.
  public struct Failure: Error, Equatable, Sendable, CustomStringConvertible {
    /// What libpq or the server said, on one line.
    public var message: String
    /// The SQLSTATE code, when the server sent one (`23505`: a unique key taken).
    public var state: String?

    public var description: String { message }
  }

  private let handle: OpaquePointer

  /// Connects with a libpq connection string (`host=/tmp/pg dbname=hq user=kiosk`).
  public init(_ conninfo: String) throws(Failure) {
    guard let handle = PQconnectdb(conninfo) else { throw Failure(message: "out of memory", state: nil) }
    guard PQstatus(handle) == CONNECTION_OK else {
      let message = Self.oneLine(String(cString: PQerrorMessage(handle)))
      PQfinish(handle)
      throw Failure(message: message, state: nil)
    }
    self.handle = handle
  }

  deinit { PQfinish(handle) }

  /// Whether the connection still stands (a dropped one does not come back).
  public var isOpen: Bool { PQstatus(handle) == CONNECTION_OK }

  /// Runs `sql` with `parameters` (`$1`, `$2`, … as text; nil is SQL's NULL) and
  /// returns its rows, each a list of column values as text (nil for NULL).
  @discardableResult
  public func execute(_ sql: String, _ parameters: [String?] = []) throws(Failure) -> [[String?]] {
    let values = parameters.map { $0.map { strdup($0) } ?? nil }
    defer { for value in values { free(value) } }
    let result = values.map { UnsafePointer($0) }.withUnsafeBufferPointer { pointers in
      PQexecParams(handle, sql, Int32(pointers.count), nil, pointers.baseAddress, nil, nil, 0)
    }
    guard let result else { throw Failure(message: Self.oneLine(String(cString: PQerrorMessage(handle))), state: nil) }
    defer { PQclear(result) }
    switch PQresultStatus(result) {
    case PGRES_COMMAND_OK: return []
    case PGRES_TUPLES_OK:
      let rows = PQntuples(result)
      let columns = PQnfields(result)
      return (0..<rows).map { row in
        (0..<columns).map { column in
          PQgetisnull(result, row, column) == 1 ? nil : String(cString: PQgetvalue(result, row, column))
        }
      }
    default:
      let state = PQresultErrorField(result, Int32(UInt8(ascii: "C"))).map { String(cString: $0) }
      throw Failure(message: Self.oneLine(String(cString: PQresultErrorMessage(result))), state: state)
    }
  }

  /// libpq's messages end with a newline and may span lines: one line for ours.
  private static func oneLine(_ message: String) -> String {
    message.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ")
  }
}
