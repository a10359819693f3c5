import Journal
import KioskApp
import Payment

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

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
    /// The processor ledger's repair, when it needed one.
    var ledger: LedgerRepair?
    /// The ledger's entries lost to damage and written back from the journal's
    /// record of the processor's answers; nil when the ledger lost none.
    var restored: [String]?

    struct LedgerRepair: Encodable {
      var path: String
      var backup: String
      /// The numbers of the entries lost to damage: retired, never given to another movement.
      var lostEntries: [UInt64]
      var cutBytes: Int
    }

    var text: [String] {
      var lines = lost.map { "salvaged around \($0): lost to damage; the records after it are kept" }
      if let backup {
        lines.append("repaired: kept \(keptRecords) records, cut \(cutBytes) bytes; the original is at \(backup)")
        if cutBytes > 0 {
          // A cut record may have been acknowledged: its money is not lost, and the operator must hear where it is.
          lines.append(
            "the records cut cannot be replayed without the damaged one; any money they moved stays in the processor "
              + "ledger: 'kiosk reconcile' names it, and a settle of the same tab and amount adopts its charge")
        }
      } else {
        lines.append("nothing to repair: \(keptRecords) records, all valid")
      }
      if let ledger {
        lines.append(
          "repaired the processor ledger '\(ledger.path)': "
            + (ledger.lostEntries.isEmpty
              ? ""
              : "entries \(ledger.lostEntries.map(String.init).joined(separator: ", ")) lost to damage (never reused), ")
            + "cut \(ledger.cutBytes) bytes; the original is at \(ledger.backup); "
            + "'kiosk reconcile' names any movement the journal records that the ledger lost")
      }
      for entry in restored ?? [] {
        lines.append("wrote back the processor ledger's \(entry): the journal holds the processor's answer")
      }
      return lines
    }
  }

  /// Backs up a damaged journal, salvages the records after the damage that
  /// can be replayed and cuts the rest (`WriteAheadLog.repair`); then the
  /// processor ledger beside it, whose entries stand alone, so every valid
  /// entry after damage is kept. Never creates either file.
  static func repair(_ options: GlobalOptions) throws -> RepairOutput {
    let name = PathNames.lastComponent(of: options.journalPath)
    if let range = name.ranges(of: ".day-").last,
      name[range.upperBound...].count >= 4, name[range.upperBound...].allSatisfy({ $0.isASCII && $0.isNumber })
    {
      throw KioskFailure(
        code: .usage,
        message: "'\(options.journalPath)' is a closed day's archive; archives are never repaired in place "
          + "(repair a copy)")
    }
    let report = try DurableJournal.repair(path: options.journalPath, lockWait: options.lockWait)
    // A later day's opening checkpoint is restated only by a checkpoint after it.
    let restated =
      report.lost.contains { $0.sequence == 1 && $0.record == .checkpoint }
      && (try? DurableJournal.read(path: options.journalPath))?.lastCheckpoint != nil
    var ledger: RepairOutput.LedgerRepair?
    var restored: [String]?
    if FileManager.default.fileExists(atPath: options.ledgerPath) {
      let repaired: JournalRepair
      do {
        repaired = try DurableJournal.repair(
          path: options.ledgerPath, lockWait: options.lockWait, recordsStandAlone: true)
      } catch {
        throw KioskFailure(code: .journal, message: "processor ledger: \(error)")
      }
      if repaired.droppedBytes > 0 {
        // The cut tail may have held an entry whose reference was given out: retire its number.
        var file = try DurableJournal(path: options.ledgerPath, lockWait: options.lockWait)
        try file.appendLost(1)
      }
      ledger = repaired.backupPath.map {
        RepairOutput.LedgerRepair(
          path: options.ledgerPath, backup: $0, lostEntries: repaired.lost.map(\.sequence),
          cutBytes: repaired.droppedBytes)
      }
      restored = try writeBackLostLedgerEntries(options)
    }
    return RepairOutput(
      keptRecords: report.keptRecords, cutBytes: report.droppedBytes, backup: report.backupPath,
      lost: report.lost.map { lost in
        switch lost.record {
        case .checkpoint where lost.sequence == 1 && restated:
          "record 1 (the day's opening checkpoint; a checkpoint after it holds the state, but the link to the day "
            + "before is gone: 'kiosk verify --all' reports it)"
        case .checkpoint where lost.sequence == 1:
          "record 1 (the day's opening checkpoint, which nothing before it restates; restore the journal from a "
            + "backup)"
        case .checkpoint: "record \(lost.sequence) (a checkpoint; the records around it hold the same state)"
        case .command: "record \(lost.sequence) (a command; the next checkpoint holds the state)"
        case .unknown: "record \(lost.sequence) (of unknown type; the next checkpoint holds the state)"
        }
      }, ledger: ledger, restored: restored)
  }

  /// Writes back every ledger entry lost to damage that the journal knows
  /// again (`LostLedgerEntries`); nil when none was lost. Each written back is
  /// described as "entry N: charge ch_… of 4.50 under k_…".
  static func writeBackLostLedgerEntries(_ options: GlobalOptions) throws -> [String]? {
    let records = try KioskJournalReader.paymentRecords(of: options.journalPath)
    let ledger: ProcessorLedger
    do {
      // The ledger as a writer opens it; numbers the journal names past its end
      // (a ledger restored from an older copy) are retired, so they can be
      // written back too. Its lock is let go before the file is rewritten.
      var processor = try LocalProcessor(path: options.ledgerPath, lockWait: options.lockWait)
      _ = try processor.retire(through: LostLedgerEntries.highestNumber(namedBy: records, in: processor.ledger))
      ledger = processor.ledger
    } catch {
      throw KioskFailure(code: .journal, message: "processor ledger: \(error)")
    }
    guard !ledger.lostNumbers.isEmpty else { return nil }
    let known = LostLedgerEntries.known(in: ledger, records: records)
    let written: [UInt64]
    do {
      written = try DurableJournal.restoreLost(path: options.ledgerPath, lockWait: options.lockWait, entries: known)
    } catch {
      throw KioskFailure(code: .journal, message: "processor ledger: \(error)")
    }
    return written.compactMap { number in
      known[number].map {
        "entry \(number): \($0.kind.rawValue) \($0.reference) of \(money($0.amount)) under \($0.key)"
      }
    }
  }
}
