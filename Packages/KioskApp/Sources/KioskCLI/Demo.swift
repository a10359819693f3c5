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

/// `kiosk demo`: a scripted session on a fresh temporary journal, showing every command.
@MainActor
struct Demo {
  let json: Bool

  static let script = [
    "menu", "stock", "open Ada", "add 1 latte", "add 1 Espresso", "open Grace", "add 2 oat latte", "board",
    "settle 1", "add 1 mocha", "settle 1", "restock oatMilk 6", "undo", "settle 2", "undo", "remove 2 oat latte",
    "board", "history", "verify", "reconcile",
  ]

  func run() async throws -> (any CommandOutput)? {
    let temporary = FileManager.default.temporaryDirectory
    let folder = temporary.appendingPathComponent("kiosk-demo-\(UUID().uuidString)")
    guard mkdir(folder.path, 0o700) == 0 else {
      throw KioskFailure(
        code: .journal,
        message:
          "the demo's journal cannot be made in '\(temporary.path)' ($TMPDIR): \(String(cString: strerror(errno)))")
    }
    defer { try? FileManager.default.removeItem(at: folder) }
    var options = GlobalOptions()
    options.journalPath = folder.appendingPathComponent("kiosk.journal").path
    options.json = json
    let context = CommandContext(options: options, processorFault: nil)
    _ = try await context.writer()
    for line in Self.script {
      if !json { print("$ kiosk \(line)") }
      do {
        let words = line.split(separator: " ").map(String.init)
        let spec = try CommandSpec.named(words[0])
        if let output = try await spec.run(context, try spec.checked(Array(words.dropFirst()))) {
          print(json ? jsonLine(output) : output.text.joined(separator: "\n"))
        }
      } catch {
        let failure = KioskFailure(error)
        print(
          json
            ? jsonLine(ErrorOutput(error: failure.message, exitCode: failure.code.rawValue))
            : "kiosk: \(failure.message)  (exit \(failure.code.rawValue))")
      }
      if !json { print() }
    }
    return nil
  }
}
