/// The commands `undo` can revert, newest last, each with the state before it.
///
/// Bounded to `depth` entries, live and in replay alike, so both agree on what
/// an `undone` record reverts.
public struct UndoHistory: Sendable {
  /// How many commands back `undo` can go.
  public static let depth = 100

  /// One undoable command.
  public struct Entry: Sendable {
    /// The command as journaled.
    public var record: KioskRecord
    /// The slices before it; nil only for replayed entries no undo will reach.
    public var before: KioskSnapshot?
  }

  /// The entries, oldest first.
  public private(set) var entries: [Entry] = []

  /// An empty history.
  public init() {}

  mutating func push(_ entry: Entry) {
    entries.append(entry)
    if entries.count > Self.depth { entries.removeFirst() }
  }

  mutating func pop() -> Entry? { entries.popLast() }

  /// For each record, whether replay must snapshot before it: the ones a later
  /// `undone` reverts, and the ones still on the stack at the end (live undo
  /// may reach them). Replay copies no slice for any other record.
  static func snapshotPlan(for records: [KioskRecord]) -> [Bool] {
    var needed = [Bool](repeating: false, count: records.count)
    var stack: [Int] = []
    for (index, record) in records.enumerated() {
      switch record {
      case .initialized: stack.removeAll()
      case .undone: if let reverted = stack.popLast() { needed[reverted] = true }
      case .paymentIntent, .paymentAbandoned: break
      default:
        stack.append(index)
        if stack.count > depth { stack.removeFirst() }
      }
    }
    for index in stack { needed[index] = true }
    return needed
  }
}
