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

// `kiosk`: run one command against the journal and exit with its status. The
// top level is the main actor; a settle awaits its processor call, which runs
// off it (docs/cli.md).
let status: ExitCode
do throws(KioskFailure) {
  status = await KioskProgram(arguments: try validatedArguments(), environment: ProcessInfo.processInfo.environment)
    .run()
} catch {
  printError("kiosk: \(error.message)")
  status = error.code
}
exit(status.rawValue)
