import HeadOffice
import KioskApp

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// The till's name in its chain, kept in its own journal (docs/head-office.md,
/// "A till's name"): its first `sync` keeps the name it ships under, a later
/// one under another name is refused, and `kiosk rename-till` renames it, once
/// the head office has accepted the new name.
enum TillNameCommand {
  /// What `rename-till` did.
  struct RenameOutput: CommandOutput {
    var command = "rename-till"
    var from: String
    var to: String
    /// `renamed`, or `alreadyRenamed` when the head office had it from an earlier try.
    var headOffice: String
    var text: [String] {
      [
        "till '\(from)' is now '\(to)': the head office holds its days shipped as '\(from)' as its own; "
          + "set KIOSK_TILL=\(to) (or leave it unset) for the next sync"
      ]
    }
  }

  /// The refusal of a sync under another name than the one the till keeps.
  static func notThisTill(kept: String, asked: String) -> KioskFailure {
    KioskFailure(
      code: .domain,
      message: "this till is named '\(kept)' in its journal, not '\(asked)' ($KIOSK_TILL): nothing was shipped; "
        + "set KIOSK_TILL=\(kept) or leave it unset, or rename the till with 'kiosk rename-till \(asked)'")
  }

  /// Keeps `name` in the live journal, holding its lock for that one record only.
  @MainActor static func keep(_ name: String, context: CommandContext) async throws {
    defer { context.releaseWriter() }
    try await context.writer().nameTill(name)
  }

  /// `kiosk rename-till NAME`: the head office records the renaming first (a
  /// refusal changes nothing), then the till keeps the new name. Cut short
  /// between the two, it is run again: the head office answers that it has the
  /// renaming already, and the till keeps the name then.
  @MainActor static func rename(_ context: CommandContext, to name: String) async throws -> RenameOutput {
    let options = context.options
    guard HeadOfficeSync.isTillName(name) else {
      throw KioskFailure.usage("a till's name is 1 to 64 of A-Z a-z 0-9 . _ -, not \(name.debugDescription)")
    }
    try context.requireJournal()
    guard let kept = try HeadOfficeSync.keptName(journal: options.journalPath) else {
      throw KioskFailure.usage("this till has no name yet: its first 'kiosk sync' names it ($KIOSK_TILL)")
    }
    guard kept != name else { throw KioskFailure.usage("this till is named '\(name)' already") }
    var world = try options.headOfficeWorld(missing: "rename-till asks the head office first: set $KIOSK_HEAD_OFFICE")
    let renaming: Renaming
    do {
      renaming = try world.renameAtHeadOffice(till: kept, to: name)
    } catch {
      switch error {
      case .nameTaken: throw KioskFailure(code: .domain, message: "\(error); the till is still '\(kept)'")
      case .notConfigured: throw KioskFailure.usage("\(error)")
      case .misconfigured: throw KioskFailure.usage("\(error); the till is still '\(kept)'")
      default:
        throw KioskFailure(
          code: .headOfficeUnavailable, message: "\(error); the till is still '\(kept)' (run 'kiosk rename-till' again)"
        )
      }
    }
    try await keep(name, context: context)
    return RenameOutput(from: kept, to: name, headOffice: renaming == .renamed ? "renamed" : "alreadyRenamed")
  }
}
