#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif
// `@preconcurrency`: the environment is read from C's `environ`, a global
// the C library declares mutable; nothing here writes it.
#if canImport(Glibc)
  @preconcurrency import Glibc
#elseif canImport(Musl)
  @preconcurrency import Musl
#elseif canImport(Darwin)
  @preconcurrency import Darwin
#endif

/// The process's `KIOSK_*` variables, the only ones the kiosk reads, walked
/// from C's `environ`: Foundation's `ProcessInfo.environment` builds a
/// dictionary of every variable, a measurable part of a command's start.
func kioskEnvironment() -> [String: String] {
  var variables: [String: String] = [:]
  var entry = environ
  while let variable = entry.pointee {
    if strncmp(variable, "KIOSK_", 6) == 0, let text = String(validatingCString: variable),
      let equals = text.firstIndex(of: "=")
    {
      variables[String(text[..<equals])] = String(text[text.index(after: equals)...])
    }
    entry += 1
  }
  return variables
}

// `kiosk`: run one command against the journal and exit with its status. The
// top level is the main actor; a settle awaits its processor call, which runs
// off it (docs/cli.md).
let status: ExitCode
do throws(KioskFailure) {
  status = await KioskProgram(arguments: try validatedArguments(), environment: kioskEnvironment())
    .run()
} catch {
  printError("kiosk: \(error.message)")
  status = error.code
}
exit(status.rawValue)
