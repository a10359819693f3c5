import HeadOffice
import KioskApp

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// `kiosk heal DAY`: gives the till back its archive of a closed day from the
/// head office's copy, byte for byte, checked against the till's chain and the
/// head office's digest (docs/head-office.md, "Healing a day from the head office").
enum HealCommand {
  struct Output: CommandOutput {
    var command = "heal"
    var till: String
    var day: Int
    var archive: String
    /// `restored`, or `alreadyWhole` when the archive was already the file.
    var outcome: String
    /// Where the damaged file that stood in the archive's place was kept.
    var damagedKeptAs: String?
    var text: [String] {
      guard outcome == "restored" else {
        return ["day \(day): '\(archive)' is already the file the head office holds; nothing was written"]
      }
      return [
        "day \(day): '\(archive)' restored from the head office's copy of till '\(till)', byte for byte"
          + (damagedKeptAs.map { "; the damaged file is kept as '\($0)'" } ?? "")
      ]
    }
  }

  @MainActor static func run(_ context: CommandContext, day text: String) throws -> Output {
    let options = context.options
    guard let day = Int(text), day >= 1, text.allSatisfy({ $0.isASCII && $0.isNumber }) else {
      throw KioskFailure.usage("heal takes a closed day's number, not \(text.debugDescription)")
    }
    guard FileManager.default.fileExists(atPath: options.journalPath) else {
      throw KioskFailure(code: .journal, message: "there is no live journal at '\(options.journalPath)'")
    }
    guard let live = try KioskJournalReader.opening(path: options.journalPath)?.day, day < live else {
      throw KioskFailure.usage("day \(day) is not a closed day of this till")
    }
    let kept = try HeadOfficeSync.keptName(journal: options.journalPath)
    guard let till = options.till ?? kept, HeadOfficeSync.isTillName(till) else {
      throw KioskFailure.usage("heal needs the till's name in $KIOSK_TILL (this till keeps none yet)")
    }
    if let kept, kept != till { throw TillNameCommand.notThisTill(kept: kept, asked: till) }
    var world = try options.headOfficeWorld(missing: "heal reads the head office's copy: set $KIOSK_HEAD_OFFICE")
    let held: TillDay
    do {
      guard let found = try world.headOfficeDatabase.storedDay(ofTill: till, day: day) else {
        throw KioskFailure.domain("the head office holds no day \(day) of till '\(till)'; nothing was written")
      }
      held = found
    } catch let error as HeadOfficeError {
      throw KioskFailure(
        code: error.isConfiguration ? .usage : .headOfficeUnavailable, message: "\(error); nothing was written")
    }
    let healing: HeadOfficeSync.Healing
    do {
      healing = try HeadOfficeSync.heal(journal: options.journalPath, held: held)
    } catch let refusal as HeadOfficeSync.HealRefusal {
      throw KioskFailure.domain("\(refusal); nothing was written")
    }
    let archive = KioskSegments.archivePath(of: options.journalPath, day: day)
    switch healing {
    case .alreadyWhole: return Output(till: till, day: day, archive: archive, outcome: "alreadyWhole")
    case .restored(let kept):
      return Output(till: till, day: day, archive: archive, outcome: "restored", damagedKeptAs: kept)
    }
  }
}
