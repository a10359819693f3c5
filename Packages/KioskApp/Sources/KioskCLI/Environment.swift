#if canImport(Glibc)
  @preconcurrency import Glibc
#elseif canImport(Musl)
  @preconcurrency import Musl
#elseif canImport(Darwin)
  @preconcurrency import Darwin
#endif

// `@preconcurrency`: C's `environ` is a global the C library declares
// mutable; nothing here writes it.

/// The process's `KIOSK_*` variables, the only ones the kiosk reads, walked
/// from C's `environ`: Foundation's `ProcessInfo.environment` builds a
/// dictionary of every variable, a measurable part of a command's start. A
/// value that is not UTF-8 is a usage error, refused rather than repaired or
/// skipped, as an argument is; a name given twice means its first value, as
/// `getenv` reads it.
func validatedEnvironment() throws(KioskFailure) -> [String: String] {
  var variables: [String: String] = [:]
  var entry = environ
  while let variable = entry.pointee {
    entry += 1
    guard strncmp(variable, "KIOSK_", 6) == 0 else { continue }
    guard let text = String(validatingCString: variable) else {
      let name = UnsafeRawBufferPointer(start: variable, count: strcspn(variable, "="))
      throw .usage("$\(String(decoding: name, as: UTF8.self)) is not valid UTF-8")
    }
    guard let equals = text.firstIndex(of: "=") else { continue }
    let name = String(text[..<equals])
    if variables[name] == nil { variables[name] = String(text[text.index(after: equals)...]) }
  }
  return variables
}
