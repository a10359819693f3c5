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
    /// The damaged records replaced in place, each as "record N (a command)".
    var lost: [String]
    var text: [String] {
      guard let backup else { return ["nothing to repair: \(keptRecords) records, all valid"] }
      return lost.map {
        "salvaged around \($0): lost to damage; the records after it are kept"
          + ($0.hasSuffix("(a checkpoint)")
            ? " (the records around it hold the same state)" : " (the next checkpoint holds the state)")
      } + ["repaired: kept \(keptRecords) records, cut \(cutBytes) bytes; the original is at \(backup)"]
    }
  }

  /// Backs up a damaged journal, salvages the records after the damage that
  /// can be replayed and cuts the rest (`WriteAheadLog.repair`); never creates one.
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
    return RepairOutput(
      keptRecords: report.keptRecords, cutBytes: report.droppedBytes, backup: report.backupPath,
      lost: report.lost.map { lost in
        "record \(lost.sequence) (\(lost.record == .unknown ? "a record of unknown type" : "a \(lost.record)"))"
      })
  }
}
