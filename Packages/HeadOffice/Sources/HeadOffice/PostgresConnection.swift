import CLibPQ
import Dispatch

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif
#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// One connection to a PostgreSQL server through libpq: statements with text
/// parameters, rows of text back. Small on purpose; the head office needs no more.
public final class PostgresConnection {
  /// A statement or connection that failed, with the server's words.
  public struct Failure: Error, Equatable, Sendable, CustomStringConvertible {
    /// What libpq or the server said, on one line.
    public var message: String
    /// The SQLSTATE code, when the server sent one (`23505`: a unique key taken).
    public var state: String?
    /// Whether the server did not answer within the deadline: the request was
    /// cancelled and the connection given up, and it is not tried again at once.
    public var timedOut = false
    /// Whether the connection string is at fault, found before connecting:
    /// one libpq cannot read, or one that would wait without end.
    public var misconfigured = false

    /// A failure with libpq's or the server's message.
    public init(message: String, state: String?, timedOut: Bool = false, misconfigured: Bool = false) {
      self.message = message
      self.state = state
      self.timedOut = timedOut
      self.misconfigured = misconfigured
    }

    public var description: String { message }
  }

  /// What a connection waits for, unless the connection string or the environment says otherwise.
  public struct Deadlines: Equatable, Sendable {
    /// libpq's parameters set before the connection string's own, which override
    /// them: a connect deadline, and TCP keepalives and a user timeout, so a
    /// peer that vanished without a reset is noticed (libpq ignores these on a Unix socket).
    public static let connectionDefaults: [(String, String)] = [
      ("connect_timeout", "10"), ("keepalives", "1"), ("keepalives_idle", "10"), ("keepalives_interval", "5"),
      ("keepalives_count", "3"), ("tcp_user_timeout", "30000"), ("application_name", "kiosk"),
    ]
    /// How long one statement, or one step of a COPY, may go unanswered.
    public var statement: Duration

    /// A statement deadline of `statement`.
    public init(statement: Duration) { self.statement = statement }

    /// The default: 30 seconds a statement.
    public static let standard = Deadlines(statement: .seconds(30))

    /// The deadlines `$KIOSK_HEAD_OFFICE_DEADLINE` sets (seconds a statement, from
    /// 0.1 to 3600, as a decimal): `standard` when it is unset or empty, nil when it is not such a number.
    public static func environment(_ text: String?) -> Deadlines? {
      guard let text, !text.isEmpty else { return .standard }
      guard text.wholeMatch(of: /[0-9]{1,4}(\.[0-9]{1,3})?/) != nil, let seconds = Double(text),
        seconds >= 0.1, seconds <= 3_600
      else { return nil }
      return Deadlines(statement: .milliseconds(Int64((seconds * 1_000).rounded())))
    }
  }

  private let handle: OpaquePointer
  /// libpq, loaded by the first connection of the process.
  private let pq: LibPQ
  /// How long a statement may go unanswered.
  public let deadlines: Deadlines
  /// Set when a deadline expired: the connection is given up, whatever libpq thinks of it.
  private var abandoned = false
  /// What the server said aside (`NOTICE`, `WARNING`), kept rather than
  /// printed: libpq's own processor writes it to standard error, into the
  /// middle of a command's output and its JSON.
  private let noticesKept = Notices()

  /// The server's notices since the connection opened, oldest first, each on one line.
  public var notices: [String] { noticesKept.lines }

  /// Connects with a libpq connection string (`host=/tmp/pg dbname=hq user=kiosk`, or a
  /// `postgresql://` URI), loading libpq first if this is the process's first connection.
  /// `Deadlines.connectionDefaults` come first; the string's own parameters override them.
  public init(_ conninfo: String, deadlines: Deadlines = .standard) throws(Failure) {
    let pq = try LibPQ.shared.get()
    try Self.checkConfiguration(conninfo, pq: pq)
    let parameters = Deadlines.connectionDefaults + [("dbname", conninfo)]
    let keywords = parameters.map { strdup($0.0) }
    let values = parameters.map { strdup($0.1) }
    defer { for pointer in keywords + values { free(pointer) } }
    let opened = (keywords.map { UnsafePointer($0) } + [nil]).withUnsafeBufferPointer { names in
      (values.map { UnsafePointer($0) } + [nil]).withUnsafeBufferPointer { settings in
        pq.connectdbParams(names.baseAddress, settings.baseAddress, 1)
      }
    }
    guard let handle = opened else { throw Failure(message: "out of memory", state: nil) }
    guard pq.status(handle) == CONNECTION_OK, pq.setnonblocking(handle, 1) == 0 else {
      let message = Self.oneLine(Self.text(pq.errorMessage(handle)))
      pq.finish(handle)
      throw Failure(message: message, state: nil)
    }
    self.handle = handle
    self.pq = pq
    self.deadlines = deadlines
    _ = pq.setNoticeProcessor(
      handle,
      { box, message in
        guard let box, let message else { return }
        Unmanaged<Notices>.fromOpaque(box).takeUnretainedValue().lines.append(
          PostgresConnection.oneLine(String(cString: message)))
      }, Unmanaged.passUnretained(noticesKept).toOpaque())
  }

  /// Refuses, before connecting, a connection string libpq cannot read, and
  /// one whose `connect_timeout` is not 1 to 3600 seconds: libpq waits
  /// without end for 0, a negative or an empty one, and a head office that
  /// does not answer must not hold the till.
  private static func checkConfiguration(_ conninfo: String, pq: LibPQ) throws(Failure) {
    // libpq takes a string with no `=` that is no URI as a database's name
    // alone (`hq`), which sets no connect_timeout: the default's stands.
    let uri = conninfo.hasPrefix("postgresql://") || conninfo.hasPrefix("postgres://")
    // Bytes, not `contains("=")`: a String's `contains` of a string is Foundation's, and links all of it.
    guard uri || conninfo.utf8.contains(UInt8(ascii: "=")) else { return }
    var error: UnsafeMutablePointer<CChar>?
    guard let options = pq.conninfoParse(conninfo, &error) else {
      let reason = error.map { oneLine(String(cString: $0)) } ?? "out of memory"
      if let error { pq.freemem(error) }
      throw Failure(message: "the connection string cannot be read: \(reason)", state: nil, misconfigured: true)
    }
    defer { pq.conninfoFree(options) }
    var option = options
    while let keyword = option.pointee.keyword {
      if String(cString: keyword) == "connect_timeout", let value = option.pointee.val {
        let text = String(cString: value)
        // libpq reads the number past spaces around it (C's `isspace`), byte by byte.
        let isSpace = { (byte: UInt8) in byte == 0x20 || (0x09...0x0D).contains(byte) }
        let digits = text.utf8.drop(while: isSpace).reversed().drop(while: isSpace).reversed()
        let seconds = Int(String(decoding: digits, as: UTF8.self))
        guard let seconds, (1...3_600).contains(seconds) else {
          let fault =
            switch seconds {
            case nil: "is no number of seconds"
            case let seconds? where seconds <= 0: "would wait for the head office without end"
            default: "would wait for the head office too long"
            }
          throw Failure(
            message: "connect_timeout=\(text) in the connection string \(fault): give it 1 to 3600 seconds, "
              + "or leave it out (10)", state: nil, misconfigured: true)
        }
      }
      option += 1
    }
  }

  deinit { pq.finish(handle) }

  /// Whether this process has loaded libpq: only a connection loads it, so a
  /// command that never connects never pays for it.
  public static var libraryIsLoaded: Bool { LibPQ.isLoaded }

  /// Whether the connection still stands (a dropped one does not come back, nor
  /// one given up at a deadline).
  public var isOpen: Bool { !abandoned && pq.status(handle) == CONNECTION_OK }

  /// Runs `sql` with `parameters` (`$1`, `$2`, … as text; nil is SQL's NULL) and
  /// returns its rows, each a list of column values as text (nil for NULL).
  /// Waits at most the statement deadline for the server; then cancels the
  /// statement, gives the connection up and throws a failure that says so.
  @discardableResult
  public func execute(_ sql: String, _ parameters: [String?] = []) throws(Failure) -> [[String?]] {
    let deadline = ContinuousClock.now + deadlines.statement
    let values = parameters.map { $0.map { strdup($0) } ?? nil }
    defer { for value in values { free(value) } }
    let sent = values.map { UnsafePointer($0) }.withUnsafeBufferPointer { pointers in
      pq.sendQueryParams(handle, sql, Int32(pointers.count), nil, pointers.baseAddress, nil, nil, 0)
    }
    guard sent == 1 else { throw lastError() }
    try flush(until: deadline, doing: sql)
    var rows: [[String?]] = []
    var failure: Failure?
    while let result = try nextResult(until: deadline, doing: sql) {
      defer { pq.clear(result) }
      switch pq.resultStatus(result) {
      case PGRES_COMMAND_OK: break
      case PGRES_TUPLES_OK:
        let count = pq.ntuples(result)
        let columns = pq.nfields(result)
        rows = (0..<count).map { row in
          (0..<columns).map { column in
            pq.getisnull(result, row, column) == 1 ? nil : Self.text(pq.getvalue(result, row, column))
          }
        }
      default:
        if failure == nil { failure = resultError(result) }
      }
    }
    if let failure { throw failure }
    return rows
  }

  /// Loads `rows` into `table` (`kiosk_records (till, day, …)`) with `COPY … FROM STDIN`,
  /// PostgreSQL's bulk path, in the text format: each value escaped, nil as `\N`.
  /// Sent in chunks of about a megabyte; one statement, so inside a transaction
  /// it is all or nothing like any other. Each step (the start, each chunk, the
  /// end) waits at most the statement deadline.
  public func copy(into table: String, rows: some Sequence<[String?]>) throws(Failure) {
    let statement = "COPY \(table) FROM STDIN"
    var deadline = ContinuousClock.now + deadlines.statement
    guard pq.sendQueryParams(handle, statement, 0, nil, nil, nil, nil, 0) == 1 else { throw lastError() }
    try flush(until: deadline, doing: statement)
    guard let started = try nextResult(until: deadline, doing: statement) else { throw lastError() }
    let status = pq.resultStatus(started)
    let refusal = status == PGRES_COPY_IN ? nil : resultError(started)
    pq.clear(started)
    if let refusal {
      while let rest = try nextResult(until: deadline, doing: statement) { pq.clear(rest) }
      throw refusal
    }
    var buffer: [UInt8] = []
    buffer.reserveCapacity(1 << 20)
    var sendFailure: Failure?
    func send() throws(Failure) {
      guard !buffer.isEmpty, sendFailure == nil else { return }
      deadline = ContinuousClock.now + deadlines.statement
      while true {
        let queued = buffer.withUnsafeBufferPointer { bytes in
          bytes.withMemoryRebound(to: CChar.self) { pq.putCopyData(handle, $0.baseAddress, Int32($0.count)) }
        }
        if queued == 1 { break }
        if queued < 0 {
          sendFailure = lastError()
          break
        }
        try wait(for: Int16(POLLOUT), until: deadline, doing: statement)
      }
      buffer.removeAll(keepingCapacity: true)
      try flush(until: deadline, doing: statement)
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
      if buffer.count >= 1 << 20 { try send() }
    }
    try send()
    deadline = ContinuousClock.now + deadlines.statement
    while true {
      let ended = pq.putCopyEnd(handle, sendFailure == nil ? nil : "the client could not send every row")
      if ended == 1 { break }
      if ended < 0 { throw lastError() }
      try wait(for: Int16(POLLOUT), until: deadline, doing: statement)
    }
    try flush(until: deadline, doing: statement)
    var failure: Failure?
    while let result = try nextResult(until: deadline, doing: statement) {
      if pq.resultStatus(result) != PGRES_COMMAND_OK, failure == nil { failure = resultError(result) }
      pq.clear(result)
    }
    if let failure { throw failure }
    if let sendFailure { throw sendFailure }
  }

  /// Sends what libpq has buffered, waiting for the socket as long as the deadline allows.
  private func flush(until deadline: ContinuousClock.Instant, doing what: String) throws(Failure) {
    while true {
      let left = pq.flush(handle)
      if left == 0 { return }
      if left < 0 { throw lastError() }
      // The server may be sending while we write (a notice, an error): read it so neither side waits on the other.
      try wait(for: Int16(POLLOUT | POLLIN), until: deadline, doing: what)
      guard pq.consumeInput(handle) == 1 else { throw lastError() }
    }
  }

  /// The next result of the statement sent, nil when there is none left; waits
  /// for the server as long as the deadline allows.
  private func nextResult(until deadline: ContinuousClock.Instant, doing what: String) throws(Failure) -> OpaquePointer?
  {
    while pq.isBusy(handle) == 1 {
      try wait(for: Int16(POLLIN), until: deadline, doing: what)
      guard pq.consumeInput(handle) == 1 else { throw lastError() }
    }
    return pq.getResult(handle)
  }

  /// Waits until the socket is ready for `events`, or throws at the deadline:
  /// the statement is cancelled on the server and the connection given up.
  private func wait(for events: Int16, until deadline: ContinuousClock.Instant, doing what: String) throws(Failure) {
    let descriptor = pq.socket(handle)
    guard descriptor >= 0 else { throw lastError() }
    while true {
      let left = deadline - ContinuousClock.now
      let milliseconds = left <= .zero ? 0 : Int32(min(left / .milliseconds(1), 86_400_000).rounded(.up))
      var entry = pollfd(fd: descriptor, events: events, revents: 0)
      let ready = poll(&entry, 1, milliseconds)
      if ready > 0 { return }
      if ready < 0 && errno == EINTR { continue }
      if ready < 0 { throw Failure(message: "poll failed: \(String(cString: strerror(errno)))", state: nil) }
      if ContinuousClock.now >= deadline { break }
    }
    cancelAndAbandon()
    let verb = what.split(separator: " ").prefix(2).joined(separator: " ")
    throw Failure(
      message: "no answer within \(Self.seconds(deadlines.statement)) (\(verb)); the request was cancelled",
      state: nil, timedOut: true)
  }

  /// Asks the server to cancel what this connection is running (a separate
  /// connection to the postmaster, bounded in time on a thread of its own,
  /// since a server that does not answer may not answer that either), and gives
  /// the connection up: its transaction, if any, is rolled back by the server
  /// when it notices.
  private func cancelAndAbandon() {
    abandoned = true
    guard let cancel = pq.getCancel(handle) else { return }
    let pq = self.pq
    let token = CancelToken(cancel)
    let done = DispatchSemaphore(value: 0)
    // A dispatch thread: Foundation's `Thread` is not loaded on the command path.
    DispatchQueue.global().async {
      var reason = [CChar](repeating: 0, count: 256)
      _ = pq.cancel(token.cancel, &reason, Int32(reason.count))
      pq.freeCancel(token.cancel)
      done.signal()
    }
    _ = done.wait(timeout: .now() + .seconds(2))
  }

  /// libpq's cancel object, handed to the thread that sends the request (and frees it).
  private final class CancelToken: @unchecked Sendable {
    let cancel: OpaquePointer
    init(_ cancel: OpaquePointer) { self.cancel = cancel }
  }

  /// The connection's last error as a failure.
  private func lastError() -> Failure { Failure(message: Self.oneLine(Self.text(pq.errorMessage(handle))), state: nil) }

  /// A result's error as a failure, with its SQLSTATE.
  private func resultError(_ result: OpaquePointer) -> Failure {
    let state = pq.resultErrorField(result, Int32(UInt8(ascii: "C"))).map { String(cString: $0) }
    return Failure(message: Self.oneLine(Self.text(pq.resultErrorMessage(result))), state: state)
  }

  /// `30 s`, `1.5 s`: a deadline as the message says it.
  static func seconds(_ duration: Duration) -> String {
    let milliseconds = duration / .milliseconds(1)
    return milliseconds.truncatingRemainder(dividingBy: 1_000) == 0
      ? "\(Int(milliseconds / 1_000)) s" : "\(milliseconds / 1_000) s"
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
  fileprivate static func oneLine(_ message: String) -> String {
    message.split(whereSeparator: \.isNewline).map { line in
      String(line.drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed())
    }.joined(separator: " ")
  }
}

/// The notices a connection's server sent, kept by libpq's notice processor.
private final class Notices {
  var lines: [String] = []
}
