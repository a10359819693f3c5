import Foundation

// `kiosk`: run one command against the journal and exit with its status.
let status = MainActor.assumeIsolated { () -> ExitCode in
  do throws(KioskFailure) {
    return KioskProgram(arguments: try validatedArguments(), environment: ProcessInfo.processInfo.environment).run()
  } catch {
    printError("kiosk: \(error.message)")
    return error.code
  }
}
exit(status.rawValue)
