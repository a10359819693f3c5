import Foundation

/// A program run to its end, for tests that drive a built binary or a nested build.
public enum Subprocess {
  /// Runs `arguments` (the program found on the PATH, then its arguments) in
  /// `folder` with `environment` added to this process's; returns its status
  /// and its output and errors together.
  public static func run(
    _ arguments: [String], in folder: URL? = nil, environment: [String: String] = [:]
  ) throws -> (status: Int32, output: String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = arguments
    if let folder { process.currentDirectoryURL = folder }
    process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = pipe
    try process.run()
    let output = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: output, as: UTF8.self))
  }
}
