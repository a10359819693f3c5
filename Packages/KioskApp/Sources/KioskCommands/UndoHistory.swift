/// The commands `undo` can revert, newest last, each with its inverse.
///
/// Bounded to `depth` entries, live and in replay alike, so both agree on what
/// an `undone` record reverts. A ring: pushing past the bound overwrites the
/// oldest entry in place, so a push costs the same whatever the depth.
public struct UndoHistory: Sendable {
  /// How many commands back `undo` can go.
  public static let depth = 100

  /// One undoable command.
  public struct Entry: Codable, Sendable, Equatable {
    /// The command as journaled.
    public var record: KioskRecord
    /// What puts the world back as it was before the command.
    public var step: UndoStep

    /// Creates an entry.
    public init(record: KioskRecord, step: UndoStep) {
      self.record = record
      self.step = step
    }
  }

  private var ring: [Entry] = []
  /// Where the oldest entry is, once the ring is full.
  private var start = 0

  /// An empty history.
  public init() { ring.reserveCapacity(Self.depth) }

  /// A history holding `entries`, oldest first (the newest `depth` of them).
  public init(entries: [Entry]) {
    self.init()
    for entry in entries { push(entry) }
  }

  /// The entries, oldest first.
  public var entries: [Entry] { Array(ring[start...] + ring[..<start]) }

  /// How many entries there are.
  public var count: Int { ring.count }

  /// The newest entry.
  public var last: Entry? { ring.isEmpty ? nil : ring[(start + ring.count - 1) % ring.count] }

  package mutating func push(_ entry: Entry) {
    if ring.count < Self.depth {
      ring.append(entry)
    } else {
      ring[start] = entry
      start = (start + 1) % Self.depth
    }
  }

  /// Takes the entries out, leaving this history empty and holding no
  /// storage, so whoever changes the one taken does it in place.
  package mutating func take() -> UndoHistory {
    let taken = self
    ring = []
    start = 0
    return taken
  }

  package mutating func pop() -> Entry? {
    guard !ring.isEmpty else { return nil }
    // Rotate so the newest is at the end, then drop it: O(depth) only when the ring has wrapped.
    if start != 0 {
      ring = Array(ring[start...] + ring[..<start])
      start = 0
    }
    return ring.popLast()
  }
}

extension UndoHistory: Equatable {
  /// Two histories are equal when they hold the same entries in the same order, wherever their ring starts.
  public static func == (lhs: UndoHistory, rhs: UndoHistory) -> Bool {
    lhs.count == rhs.count && lhs.entries == rhs.entries
  }
}
