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

extension HeadOfficeSync {
  /// How the last `sync` of a till went, kept beside the journal
  /// (`<journal>.sync-status`, JSON) so that `kiosk sync --check` can say how
  /// far behind the till is, and why, without asking the head office.
  /// Written whole and renamed into place: a reader sees one attempt or the
  /// next, never half of one. Only a report: nothing is decided from it.
  public struct Attempt: Codable, Equatable, Sendable {
    /// Where an attempt stands.
    public enum Outcome: String, Codable, Sendable {
      /// Started, not ended (or ended without a word: killed).
      case running
      /// Every closed day it could ship is at the head office.
      case done
      /// It stopped; `reason` says why.
      case stopped
    }

    /// The till's name it shipped as.
    public var till: String
    /// The process that ran it.
    public var pid: Int32
    /// When it started and, once it has, ended (ISO 8601, UTC).
    public var started: String
    /// When it ended, once it has.
    public var ended: String?
    /// Where it stands.
    public var outcome: Outcome
    /// The days it shipped (the head office stored them).
    public var shipped: [Int] = []
    /// Why it stopped, as `sync` printed it.
    public var reason: String?

    /// A new attempt by this process, started now.
    public init(till: String, now: Date = Date()) {
      self.till = till
      pid = getpid()
      started = Self.timestamp(now)
      outcome = .running
    }

    /// This attempt, ended now with `outcome`.
    public func ended(_ outcome: Outcome, shipped: [Int], reason: String? = nil, now: Date = Date()) -> Attempt {
      var attempt = self
      attempt.ended = Self.timestamp(now)
      attempt.outcome = outcome
      attempt.shipped = shipped
      attempt.reason = reason
      return attempt
    }

    /// Whether the process that ran it is still there (a running attempt whose
    /// process is gone was killed before it could say how it ended).
    public var processIsAlive: Bool { kill(pid, 0) == 0 || errno == EPERM }

    /// Where the attempts of the till whose live journal is `journal` are kept.
    public static func path(journal: String) -> String { journal + ".sync-status" }

    /// The last attempt noted for `journal`, or nil when none was (or the note does not read).
    public static func last(journal: String) -> Attempt? {
      guard let bytes = FileManager.default.contents(atPath: path(journal: journal)) else { return nil }
      return try? JSONDecoder().decode(Attempt.self, from: bytes)
    }

    /// Notes this attempt as the last of `journal`'s; throws a one-line reason when it cannot.
    public func note(journal: String) throws {
      let encoder = JSONEncoder()
      encoder.outputFormatting = [.sortedKeys]
      try TillFiles.replace(Self.path(journal: journal), with: Array(try encoder.encode(self)) + [0x0A])
    }

    private static func timestamp(_ date: Date) -> String {
      date.formatted(
        .iso8601.year().month().day().time(includingFractionalSeconds: false).timeZone(separator: .omitted))
    }
  }

  /// What the till knows of its head office without asking it.
  public struct Standing: Equatable, Sendable {
    /// The till's closed days (archives), set-aside ones included.
    public var closedDays: [Int]
    /// Closed days set aside as damaged: never shipped.
    public var setAside: [Int]
    /// Closed days this till has no note of the head office holding (from this very archive).
    public var behind: [Int]
  }

  /// How far behind the head office the till whose live journal is `journal`
  /// is as far as it knows: its closed days, less those set aside, less those
  /// it noted the head office acknowledging for `till` (`run`'s notes).
  public static func standing(journal: String, till: String) -> Standing {
    let archives = KioskSegments.archives(of: journal)
    let notes = Acknowledgements(path: journal + ".head-office")
    let behind = archives.filter { !$0.setAside && !notes.acknowledged($0, till: till) }
    return Standing(
      closedDays: archives.compactMap(\.day), setAside: archives.filter(\.setAside).compactMap(\.day),
      behind: behind.compactMap(\.day))
  }
}
