import Foundation

// `kiosk`: recover the world from the journal, run one command, journal it, print it.
let status = MainActor.assumeIsolated { () -> ExitCode in
  do {
    return try KioskProgram(
      arguments: Array(CommandLine.arguments.dropFirst()), environment: ProcessInfo.processInfo.environment
    ).run()
  } catch {
    let failure = KioskFailure(error)
    warn("kiosk: \(failure.message)")
    return failure.code
  }
}
exit(status.rawValue)
