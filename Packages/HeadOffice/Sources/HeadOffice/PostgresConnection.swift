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
  /// libpq, loaded by the first connection of the process.
  private let pq: LibPQ

  /// Connects with a libpq connection string (`host=/tmp/pg dbname=hq user=kiosk`),
  /// loading libpq first if this is the process's first connection.
  public init(_ conninfo: String) throws(Failure) {
    let pq = try LibPQ.shared.get()
    guard let handle = pq.connectdb(conninfo) else { throw Failure(message: "out of memory", state: nil) }
    guard pq.status(handle) == CONNECTION_OK else {
      let message = Self.oneLine(Self.text(pq.errorMessage(handle)))
      pq.finish(handle)
      throw Failure(message: message, state: nil)
    }
    self.handle = handle
    self.pq = pq
  }

  deinit { pq.finish(handle) }

  /// Whether this process has loaded libpq: only a connection loads it, so a
  /// command that never connects never pays for it.
  public static var libraryIsLoaded: Bool { LibPQ.isLoaded }

  /// Whether the connection still stands (a dropped one does not come back).
  public var isOpen: Bool { pq.status(handle) == CONNECTION_OK }

  /// Runs `sql` with `parameters` (`$1`, `$2`, … as text; nil is SQL's NULL) and
  /// returns its rows, each a list of column values as text (nil for NULL).
  @discardableResult
  public func execute(_ sql: String, _ parameters: [String?] = []) throws(Failure) -> [[String?]] {
    let values = parameters.map { $0.map { strdup($0) } ?? nil }
    defer { for value in values { free(value) } }
    let result = values.map { UnsafePointer($0) }.withUnsafeBufferPointer { pointers in
      pq.execParams(handle, sql, Int32(pointers.count), nil, pointers.baseAddress, nil, nil, 0)
    }
    guard let result else { throw Failure(message: Self.oneLine(Self.text(pq.errorMessage(handle))), state: nil) }
    defer { pq.clear(result) }
    switch pq.resultStatus(result) {
    case PGRES_COMMAND_OK: return []
    case PGRES_TUPLES_OK:
      let rows = pq.ntuples(result)
      let columns = pq.nfields(result)
      return (0..<rows).map { row in
        (0..<columns).map { column in
          pq.getisnull(result, row, column) == 1 ? nil : Self.text(pq.getvalue(result, row, column))
        }
      }
    default:
      let state = pq.resultErrorField(result, Int32(UInt8(ascii: "C"))).map { String(cString: $0) }
      throw Failure(message: Self.oneLine(Self.text(pq.resultErrorMessage(result))), state: state)
    }
  }

  /// Loads `rows` into `table` (`kiosk_records (till, day, …)`) with `COPY … FROM STDIN`,
  /// PostgreSQL's bulk path, in the text format: each value escaped, nil as `\N`.
  /// Sent in chunks of about a megabyte; one statement, so inside a transaction
  /// it is all or nothing like any other.
  public func copy(into table: String, rows: some Sequence<[String?]>) throws(Failure) {
    guard let started = pq.exec(handle, "COPY \(table) FROM STDIN") else {
      throw Failure(message: Self.oneLine(Self.text(pq.errorMessage(handle))), state: nil)
    }
    let status = pq.resultStatus(started)
    pq.clear(started)
    guard status == PGRES_COPY_IN else {
      throw Failure(message: Self.oneLine(Self.text(pq.errorMessage(handle))), state: nil)
    }
    var buffer: [UInt8] = []
    buffer.reserveCapacity(1 << 20)
    var sent = true
    func flush() {
      guard !buffer.isEmpty else { return }
      sent =
        sent
        && buffer.withUnsafeBufferPointer { bytes in
          bytes.withMemoryRebound(to: CChar.self) { pq.putCopyData(handle, $0.baseAddress, Int32($0.count)) == 1 }
        }
      buffer.removeAll(keepingCapacity: true)
    }
    for row in rows {
      for (index, value) in row.enumerated() {
        if index > 0 { buffer.append(0x09) }
        guard let value else {
          buffer.append(contentsOf: [0x5C, 0x4E])  // \N
          continue
        }
        var text = value
        text.withUTF8 { bytes in Self.appendEscaped(bytes, to: &buffer) }
      }
      buffer.append(0x0A)
      if buffer.count >= 1 << 20 { flush() }
    }
    flush()
    let ended = pq.putCopyEnd(handle, sent ? nil : "the client could not send every row") == 1
    var failure: Failure?
    while let result = pq.getResult(handle) {
      if pq.resultStatus(result) != PGRES_COMMAND_OK, failure == nil {
        let state = pq.resultErrorField(result, Int32(UInt8(ascii: "C"))).map { String(cString: $0) }
        failure = Failure(message: Self.oneLine(Self.text(pq.resultErrorMessage(result))), state: state)
      }
      pq.clear(result)
    }
    if let failure { throw failure }
    guard ended, sent else { throw Failure(message: Self.oneLine(Self.text(pq.errorMessage(handle))), state: nil) }
  }

  /// Appends `bytes` as a value of COPY's text form: a backslash, tab, newline
  /// or carriage return escaped. Most values hold none of them, and go in one copy.
  private static func appendEscaped(_ bytes: UnsafeBufferPointer<UInt8>, to buffer: inout [UInt8]) {
    var plain = 0
    for (index, byte) in bytes.enumerated() {
      let escape: UInt8
      switch byte {
      case 0x5C: escape = 0x5C
      case 0x09: escape = 0x74
      case 0x0A: escape = 0x6E
      case 0x0D: escape = 0x72
      default: continue
      }
      buffer.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[plain..<index]))
      buffer.append(0x5C)
      buffer.append(escape)
      plain = index + 1
    }
    buffer.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[plain...]))
  }

  /// A C string libpq returned, or "" for none.
  private static func text(_ characters: UnsafePointer<CChar>?) -> String {
    characters.map { String(cString: $0) } ?? ""
  }

  /// libpq's messages end with a newline and may span lines: one line for ours.
  private static func oneLine(_ message: String) -> String {
    message.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ")
  }
}
