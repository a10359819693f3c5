import Foundation
import Journal
import KioskApp

/// `kiosk demo`: a scripted session on a fresh temporary journal, showing every command.
@MainActor
struct Demo {
  let json: Bool

  static let script = [
    "menu", "stock", "open Ada", "add 1 latte", "add 1 Espresso", "open Grace", "add 2 oat latte", "board",
    "settle 1", "add 1 mocha", "settle 1", "restock oatMilk 6", "undo", "settle 2", "undo", "board", "history",
    "verify",
  ]

  func run() throws -> ExitCode {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("kiosk-demo-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let path = folder.appendingPathComponent("kiosk.journal").path
    var program = try KioskProgram(arguments: [], environment: [:])
    program.journalPath = path
    let runner = CommandRunner(shell: try program.openKiosk())
    for line in Self.script {
      if !json { print("$ kiosk \(line)") }
      do {
        let output = try runner.run(try KioskCommand(words: line.split(separator: " ").map(String.init)))
        print(json ? output.jsonLine : output.lines.joined(separator: "\n"))
      } catch {
        let failure = KioskFailure(error)
        print(
          json ? failure.jsonLine : "kiosk: \(failure.message)  (exit \(failure.code.rawValue))")
      }
      if !json { print() }
    }
    return .success
  }
}
