import Foundation
import Testing

/// Runs the built `kiosk` executable, the way a user or a script does.
struct KioskBinary {
  let journal: String
  /// Keeps a temporary journal's folder alive as long as this value: a test
  /// that ignores the journal (`let (_, kiosk, _) = …`) must not lose its files.
  var owner: (any AnyObject & Sendable)? = nil

  /// The `kiosk` binary next to this test bundle.
  static let url: URL = {
    var folder = Bundle.main.bundleURL
    for _ in 0..<4 {
      let candidate = folder.appendingPathComponent("kiosk")
      if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
      folder.deleteLastPathComponent()
    }
    let beside = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent(
      "kiosk")
    return beside
  }()

  struct Run {
    var status: Int32
    var output: String
    var errors: String
    var lines: [String] { output.split(separator: "\n", omittingEmptySubsequences: false).map(String.init).dropLast() }
  }

  /// What every run here adds to the environment: a payment's whole deadline
  /// of 0.2 s, so that a processor told to fail or fall silent costs a test
  /// a fifth of a second of real time, not the production ten.
  static let testEnvironment = ["KIOSK_PAYMENT_DEADLINE": "0.2"]

  /// Runs `kiosk --journal <journal> arguments…`, feeding `input` to standard input.
  func callAsFunction(_ arguments: String..., input: String = "", environment: [String: String] = [:]) throws -> Run {
    try run(["--journal", journal] + arguments, input: input, environment: environment)
  }

  /// Starts `kiosk shell` on the journal and leaves it running; returns the
  /// process and the pipes to its standard input and output.
  func startShell(environment: [String: String] = [:]) throws -> (Process, input: Pipe, output: Pipe) {
    let process = Process()
    process.executableURL = Self.url
    process.arguments = ["--journal", journal, "shell"]
    process.environment = ProcessInfo.processInfo.environment.merging(Self.testEnvironment.merging(environment) { $1 })
    {
      $1
    }
    let input = Pipe()
    let output = Pipe()
    process.standardInput = input
    process.standardOutput = output
    process.standardError = Pipe()
    try process.run()
    return (process, input, output)
  }

  func run(
    executable: URL = KioskBinary.url, _ arguments: [String], input: String = "", environment: [String: String] = [:],
    directory: URL? = nil
  ) throws -> Run {
    let process = Process()
    process.executableURL = executable
    if let directory { process.currentDirectoryURL = directory }
    process.arguments = arguments
    process.environment = ProcessInfo.processInfo.environment.merging(Self.testEnvironment.merging(environment) { $1 })
    {
      $1
    }
    let stdin = Pipe()
    let stdout = Pipe()
    let stderr = Pipe()
    process.standardInput = stdin
    process.standardOutput = stdout
    process.standardError = stderr
    signal(SIGPIPE, SIG_IGN)  // a kiosk that exits without reading its input must not kill the tests
    try process.run()
    if !input.isEmpty { try? stdin.fileHandleForWriting.write(contentsOf: Data(input.utf8)) }
    try? stdin.fileHandleForWriting.close()
    let output = stdout.fileHandleForReading.readDataToEndOfFile()
    let errors = stderr.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return Run(
      status: process.terminationStatus, output: String(decoding: output, as: UTF8.self),
      errors: String(decoding: errors, as: UTF8.self))
  }
}

/// A journal path in a fresh folder, removed at the end of the test.
final class TemporaryJournal: Sendable {
  let folder = FileManager.default.temporaryDirectory.appendingPathComponent("kioskcli-\(UUID().uuidString)")
  var path: String { folder.appendingPathComponent("kiosk.journal").path }

  init() throws { try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true) }
  deinit { try? FileManager.default.removeItem(at: folder) }

  var bytes: Data { FileManager.default.contents(atPath: path) ?? Data() }
}
