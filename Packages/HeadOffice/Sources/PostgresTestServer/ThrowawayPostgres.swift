import Foundation
import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

/// A real PostgreSQL server for tests: `initdb` into a fresh temporary folder,
/// started on a Unix socket in that folder (no TCP port, so tests never
/// collide), stopped and removed by `stop()` or at exit. `make setup` installs
/// the server; nothing stands in for it.
///
/// PostgreSQL refuses to run as root, so as root the server runs as `nobody`
/// (`setpriv`), in a folder that user owns.
public final class ThrowawayPostgres: @unchecked Sendable {
  /// What went wrong starting or stopping the server, with its own output.
  public struct Failure: Error, Sendable, CustomStringConvertible {
    /// What failed and what the server said.
    public var description: String
  }

  /// The folder holding the data, the socket and the log.
  public let folder: String
  /// The server's binaries (`initdb`, `pg_ctl`, `postgres`).
  public let binaries: String
  /// The user the server runs as.
  public let user = "kiosk"

  /// A libpq connection string for `database`.
  public func conninfo(database: String = "postgres") -> String {
    "host=\(folder) port=5432 user=\(user) dbname=\(database) connect_timeout=5"
  }

  /// Creates and starts a server; throws when PostgreSQL is not installed (`make setup`) or will not start.
  public init() throws {
    guard let binaries = Self.serverBinaries() else {
      throw Failure(description: "no PostgreSQL server under /usr/lib/postgresql/*/bin: run 'make setup'")
    }
    self.binaries = binaries
    folder = "/tmp/kiosk-pg-\(UUID().uuidString.prefix(8).lowercased())"
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
    if getuid() == 0 { chown(folder, 65534, 65534) }
    Self.started.withLock { $0.insert(folder) }
    try run(
      "initdb", ["-D", "\(folder)/data", "-A", "trust", "-U", user, "--no-sync", "-E", "UTF8", "--locale=C"])
    try start()
  }

  /// Starts the server (again, after `stop` or `kill`). After a kill the old
  /// server's processes may hold its shared memory a moment longer: retried.
  public func start() throws {
    var attempt = 0
    while true {
      do {
        try run(
          "pg_ctl",
          [
            "-D", "\(folder)/data", "-l", "\(folder)/log", "-w", "-t", "30", "-o",
            "-k \(folder) -c listen_addresses= -c fsync=off -c full_page_writes=off", "start",
          ])
        return
      } catch {
        attempt += 1
        guard attempt < 10 else { throw error }
        usleep(300_000)
      }
    }
  }

  /// Stops the server, letting it finish cleanly (`pg_ctl stop -m fast`).
  public func stop() throws {
    try run("pg_ctl", ["-D", "\(folder)/data", "-m", "fast", "-w", "stop"])
  }

  /// Kills the server at once, as a crash would (SIGKILL to the postmaster); `start` brings it back.
  public func kill() throws {
    guard let pid = Self.postmaster(in: folder) else { throw Failure(description: "no running server in \(folder)") }
    Glibc.kill(pid, SIGKILL)
    // The postmaster's children notice it is gone and exit; wait for the pid to go.
    for _ in 0..<200 where Glibc.kill(pid, 0) == 0 { usleep(10_000) }
    // A killed postmaster leaves its pid file; the next start replaces it once the old children are gone.
    usleep(200_000)
  }

  /// Creates a database and returns its name: one per test, so tests sharing a server never meet.
  public func freshDatabase() throws -> String {
    let name = "t_\(UUID().uuidString.prefix(12).lowercased().replacingOccurrences(of: "-", with: ""))"
    try run(
      "psql", ["-h", folder, "-U", user, "-d", "postgres", "-q", "-c", "CREATE DATABASE \(name)"], asServer: false)
    return name
  }

  /// Runs SQL with psql and returns its output, unaligned, tuples only.
  public func query(_ sql: String, database: String) throws -> String {
    try run("psql", ["-h", folder, "-U", user, "-d", database, "-At", "-c", sql], asServer: false)
  }

  /// Stops the server and removes its folder.
  public func remove() {
    try? stop()
    try? FileManager.default.removeItem(atPath: folder)
    Self.started.withLock { _ = $0.remove(folder) }
  }

  deinit { remove() }

  /// One server for a test process: started on first use, removed at exit.
  public static let shared: Result<ThrowawayPostgres, Failure> = {
    atexit {
      for folder in ThrowawayPostgres.started.withLock({ $0 }) {
        // pg_ctl may be gone with the process's tear-down; kill by pid file, then remove.
        if let pid = ThrowawayPostgres.postmaster(in: folder) {
          Glibc.kill(pid, SIGTERM)
          for _ in 0..<300 where Glibc.kill(pid, 0) == 0 { usleep(10_000) }
        }
        try? FileManager.default.removeItem(atPath: folder)
      }
    }
    return Result { try ThrowawayPostgres() }.mapError { Failure(description: "\($0)") }
  }()

  /// Every server folder not yet removed, so that the process's exit removes them.
  private static let started = Mutex<Set<String>>([])

  /// Runs a PostgreSQL tool and returns its output; throws with that output
  /// and the server's log when it fails. Spawned with `posix_spawn` and reaped
  /// with `waitpid`: Foundation's `Process` can miss the exit of a child that
  /// leaves a daemon behind (`pg_ctl start`), and wait forever.
  @discardableResult
  private func run(_ tool: String, _ arguments: [String], asServer: Bool = true) throws -> String {
    let executable = tool == "psql" ? "/usr/bin/psql" : "\(binaries)/\(tool)"
    let command =
      asServer && getuid() == 0
      ? ["/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", executable] + arguments
      : [executable] + arguments
    let outputPath = "\(folder).\(tool).\(UUID().uuidString.prefix(8)).out"
    defer { unlink(outputPath) }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 1, outputPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    posix_spawn_file_actions_adddup2(&actions, 1, 2)
    Self.closeInheritedDescriptors(&actions)
    let argv = command.map { strdup($0) } + [nil]
    defer { for argument in argv { free(argument) } }
    var pid: pid_t = 0
    let spawned = posix_spawn(&pid, command[0], &actions, nil, argv, environ)
    guard spawned == 0 else {
      throw Failure(description: "cannot run \(command[0]): \(String(cString: strerror(spawned)))")
    }
    var status: Int32 = 0
    while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
    let text = (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? ""
    // Exited normally with status 0: the low 7 bits are the signal (none), the next 8 the status.
    guard status & 0x7F == 0, (status >> 8) & 0xFF == 0 else {
      let log = (try? String(contentsOfFile: "\(folder)/log", encoding: .utf8)) ?? ""
      throw Failure(description: "\(tool) \(arguments.joined(separator: " ")) failed: \(text)\(log.suffix(2_000))")
    }
    return text
  }

  /// The child keeps only its standard input, output and error. Foundation's
  /// `Process` learns that a child it started has exited when a socket that
  /// child holds closes; a server started here (a daemon that outlives us)
  /// would otherwise inherit that socket of any process another test starts at
  /// the same moment, and that test would wait for its child forever.
  private static func closeInheritedDescriptors(_ actions: inout posix_spawn_file_actions_t) {
    typealias CloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
    // glibc 2.34 and later; not in the Swift overlay, so looked up by name.
    if let symbol = dlsym(nil, "posix_spawn_file_actions_addclosefrom_np") {
      _ = unsafeBitCast(symbol, to: CloseFrom.self)(&actions, 3)
      return
    }
    guard let directory = opendir("/proc/self/fd") else { return }
    defer { closedir(directory) }
    let own = dirfd(directory)
    while let entry = readdir(directory) {
      let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
      if let descriptor = Int32(name), descriptor > 2, descriptor != own {
        posix_spawn_file_actions_addclose(&actions, descriptor)
      }
    }
  }

  /// The pid of the server running in `folder`, from its `postmaster.pid`.
  private static func postmaster(in folder: String) -> Int32? {
    guard let text = try? String(contentsOfFile: "\(folder)/data/postmaster.pid", encoding: .utf8) else { return nil }
    return Int32(text.split(separator: "\n").first ?? "")
  }

  private static func serverBinaries() -> String? {
    let base = "/usr/lib/postgresql"
    let versions = ((try? FileManager.default.contentsOfDirectory(atPath: base)) ?? []).compactMap(Int.init).sorted()
    return versions.reversed().map { "\(base)/\($0)/bin" }.first {
      FileManager.default.isExecutableFile(atPath: "\($0)/initdb")
    }
  }
}
