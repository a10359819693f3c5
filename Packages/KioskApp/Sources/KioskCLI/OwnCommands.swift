import Foundation
import Journal

/// The commands that run on their own: help and repair (demo and shell have files of their own).
enum OwnCommands {

  struct HelpOutput: CommandOutput {
    struct Entry: Encodable {
      var name: String
      var usage: String
      var summary: String
    }
    var command = "help"
    var usage: String
    var commands: [Entry]
    var text: [String] { [usage] }
  }

  /// The whole usage, or one command's.
  static func help(_ name: String?) throws(KioskFailure) -> HelpOutput {
    let specs = try name.map { name throws(KioskFailure) in [try CommandSpec.named(name)] } ?? CommandSpec.all
    let usage = name == nil ? CommandSpec.usageText : "usage: kiosk \(specs[0].usage)\n\n\(specs[0].summary)"
    return HelpOutput(
      usage: usage, commands: specs.map { HelpOutput.Entry(name: $0.name, usage: $0.usage, summary: $0.summary) })
  }

  struct RepairOutput: CommandOutput {
    var command = "repair"
    var keptRecords: Int
    var cutBytes: Int
    var backup: String?
    var text: [String] {
      backup.map { ["repaired: kept \(keptRecords) records, cut \(cutBytes) bytes; the original is at \($0)"] }
        ?? ["nothing to repair: \(keptRecords) records, all valid"]
    }
  }

  /// Backs up and truncates a journal with mid-log corruption; never creates one.
  static func repair(_ options: GlobalOptions) throws -> RepairOutput {
    let name = (options.journalPath as NSString).lastPathComponent
    if let range = name.range(of: ".day-", options: .backwards),
      name[range.upperBound...].count >= 4, name[range.upperBound...].allSatisfy({ $0.isASCII && $0.isNumber })
    {
      throw KioskFailure(
        code: .usage,
        message: "'\(options.journalPath)' is a closed day's archive; archives are never repaired in place "
          + "(repair a copy)")
    }
    let report = try DurableJournal.repair(path: options.journalPath, lockWait: options.lockWait)
    return RepairOutput(keptRecords: report.keptRecords, cutBytes: report.droppedBytes, backup: report.backupPath)
  }
}
