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
StandardStreams.openClosedOnes()
var status: ExitCode
do throws(KioskFailure) {
  status = await KioskProgram(arguments: try validatedArguments(), environment: try validatedEnvironment())
    .run()
} catch {
  printError("kiosk: \(error.message)")
  status = error.code
}
if let lost = StandardStreams.flushOutput(), status == .success {
  printError("kiosk: \(lost.message)")
  status = lost.code
}
exit(status.rawValue)
