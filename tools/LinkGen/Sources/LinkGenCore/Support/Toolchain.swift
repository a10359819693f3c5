import Foundation

/// Runs the toolchain's tools (`swift`, `swiftc`, `swift symbolgraph-extract`).
public enum Toolchain {
  /// Runs `tool` from the PATH with `arguments`; returns its status and its combined output.
  public static func run(_ tool: String, _ arguments: [String]) throws -> (Int32, String) {
    try run(tool, arguments, environment: [:], deadline: nil)
  }

  /// Runs `tool` with `environment` added to this process's, no standard input,
  /// and, with a `deadline`, stopped (SIGTERM) when it runs past it: then the
  /// status is 124 and the output ends with a line saying so.
  public static func run(_ tool: String, _ arguments: [String], environment: [String: String], deadline: Duration?)
    throws -> (Int32, String)
  {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = [tool] + arguments
    if !environment.isEmpty {
      process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
    }
    process.standardInput = FileHandle.nullDevice
    let output = Pipe()
    process.standardOutput = output
    process.standardError = output
    try process.run()
    let expired = LockedFlag()
    if let deadline {
      let pid = process.processIdentifier
      DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(Int(deadline / .milliseconds(1)))) {
        guard process.isRunning else { return }
        expired.set()
        kill(pid, SIGTERM)
      }
    }
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    let text = String(decoding: data, as: UTF8.self)
    if expired.isSet, let deadline {
      return (124, text + "\nfatal: no answer within \(Int(deadline / .seconds(1))) s")
    }
    return (process.terminationStatus, text)
  }

  /// A flag one thread sets and another reads.
  private final class LockedFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false
    func set() { lock.withLock { value = true } }
    var isSet: Bool { lock.withLock { value } }
  }

  /// Runs `tool` from the PATH with `arguments`; returns its status and its
  /// standard output alone (its standard error is dropped): for tools whose
  /// output is data (`swift package dump-package`, `pkg-config`).
  public static func runForOutput(_ tool: String, _ arguments: [String]) throws -> (Int32, String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = [tool] + arguments
    let output = Pipe()
    process.standardOutput = output
    process.standardError = FileHandle.nullDevice
    try process.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: data, as: UTF8.self))
  }
}
