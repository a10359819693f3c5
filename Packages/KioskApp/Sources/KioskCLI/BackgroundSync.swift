import Dispatch
import KioskApp

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

/// The sync `close-day` starts when a head office is configured
/// ($KIOSK_HEAD_OFFICE and $KIOSK_TILL): this same executable running
/// `sync` in a process of its own, which the close never waits for and which
/// cannot make it fail. It is bounded by the head office's deadlines, takes no
/// journal lock, and notes how it went in `<journal>.sync-status`
/// (`kiosk sync --check`).
enum BackgroundSync {
  /// Starts the sync after day `day` was closed, and says what became of it in
  /// one line for the close's report; nil when no head office is configured.
  /// An unnamed till is named here first, by `shell`, which holds the
  /// journal's lock the sync would otherwise wait for (a `kiosk shell` session
  /// holds it until it ends).
  @MainActor static func start(after day: Int, options: GlobalOptions, shell: TillShell) async -> String? {
    guard options.headOffice != nil else { return nil }
    guard let till = options.till ?? shell.tillName, HeadOfficeSync.isTillName(till) else {
      return "no sync started: the head office is configured but $KIOSK_TILL is not a till's name "
        + "(1 to 64 of A-Z a-z 0-9 . _ -)"
    }
    if let kept = shell.tillName, kept != till {
      return "no sync started: " + TillNameCommand.notThisTill(kept: kept, asked: till).message
    }
    do {
      try await shell.nameTill(till)
    } catch {
      return "no sync started: the till's name could not be kept (\(KioskFailure(error).message)); run 'kiosk sync'"
    }
    switch spawn(["--journal", options.journalPath, "sync"]) {
    case .success(let pid):
      return "sync of day \(day) as till '\(till)' started in the background (pid \(pid)); "
        + "'kiosk sync --check' says how it went"
    case .failure(let reason):
      return "no sync started (\(reason)); run 'kiosk sync'"
    }
  }

  /// A one-line reason a sync could not be started.
  struct Refusal: Error {
    var reason: String
  }

  /// Runs this executable with `arguments`, detached: standard input, output
  /// and error on /dev/null, no other descriptor inherited (the journal's lock
  /// among them), a process group of its own (a Ctrl-C at the till's terminal
  /// does not reach it), no signal blocked. A thread reaps it, so a long
  /// `kiosk shell` leaves no zombie.
  private static func spawn(_ arguments: [String]) -> Result<pid_t, Refusal> {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
    posix_spawn_file_actions_adddup2(&actions, 1, 2)
    closeInheritedDescriptors(&actions)
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    var none = sigset_t()
    sigemptyset(&none)
    var defaults = sigset_t()
    sigemptyset(&defaults)
    for signal in [SIGINT, SIGTERM, SIGHUP, SIGPIPE] { sigaddset(&defaults, signal) }
    posix_spawnattr_setsigmask(&attributes, &none)
    posix_spawnattr_setsigdefault(&attributes, &defaults)
    posix_spawnattr_setpgroup(&attributes, 0)
    posix_spawnattr_setflags(
      &attributes, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
    let executable = "/proc/self/exe"
    let argv = ([executable] + arguments).map { strdup($0) } + [nil]
    defer { for argument in argv { free(argument) } }
    var pid: pid_t = 0
    let spawned = posix_spawn(&pid, executable, &actions, &attributes, argv, environ)
    guard spawned == 0 else { return .failure(Refusal(reason: String(cString: strerror(spawned)))) }
    let child = pid
    // A dispatch thread: Foundation's `Thread` is not loaded on the command path.
    DispatchQueue.global().async {
      var status: Int32 = 0
      while waitpid(child, &status, 0) < 0 && errno == EINTR {}
    }
    return .success(pid)
  }

  /// Closes every descriptor from 3 up in the child (glibc 2.34 and later; not
  /// in the Swift overlay, so looked up by name). Without it the kiosk's own
  /// descriptors are closed on exec anyway: each is opened close-on-exec.
  private static func closeInheritedDescriptors(_ actions: inout posix_spawn_file_actions_t) {
    typealias CloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
    if let symbol = dlsym(nil, "posix_spawn_file_actions_addclosefrom_np") {
      _ = unsafeBitCast(symbol, to: CloseFrom.self)(&actions, 3)
    }
  }
}
