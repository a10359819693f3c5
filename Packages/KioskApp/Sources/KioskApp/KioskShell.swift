import Menu
import Observation
import Stock
import Tabs

/// The one owner of the world: runs each command with a checkpoint, rolls back
/// on any error, keeps an undo stack, and tells observers when state changed.
///
/// The world never leaves the main actor, so it needs no locks and no
/// `Sendable` conformance. Observation tracks `revision`; the world itself is
/// `~Copyable` and ignored by the macro.
@MainActor @Observable
public final class KioskShell {
  @ObservationIgnored private var world: KioskWorld
  @ObservationIgnored private var undoStack: [KioskSnapshot] = []

  /// Bumped after every change to the world; observe it to redraw.
  public private(set) var revision = 0

  /// Takes ownership of `world`.
  public init(world: consuming KioskWorld) {
    self.world = world
  }

  /// Runs `command` against the world. On success the prior state goes on the
  /// undo stack; on any thrown error the world is restored and the error rethrown.
  @discardableResult
  public func perform<Result>(_ command: (inout KioskWorld) throws -> Result) throws -> Result {
    let checkpoint = world.snapshot
    do {
      let result = try command(&world)
      undoStack.append(checkpoint)
      revision += 1
      return result
    } catch {
      world.restore(checkpoint)
      throw error
    }
  }

  /// Opens a tab.
  public func openTab(for customer: String) -> Tab.ID {
    try! perform { $0.openTab(for: customer) }
  }

  /// Adds an item to a tab.
  public func add(_ item: Item.ID, to tab: Tab.ID) throws {
    try perform { try $0.add(item, to: tab) }
  }

  /// Settles a tab and returns its receipt.
  public func settle(_ tab: Tab.ID) throws -> Receipt {
    try perform { try $0.settle(tab) }
  }

  /// Adds stock.
  public func restock(_ ingredient: Ingredient, count: Int) throws {
    try perform { try $0.restock(ingredient, count: count) }
  }

  /// Restores the state before the last successful command; false when there is none.
  ///
  /// Undoing a settle puts the tab back open and the stock back; the charge
  /// stays with the processor (the gateway is outside snapshots) and is
  /// refunded there.
  @discardableResult
  public func undo() -> Bool {
    guard let previous = undoStack.popLast() else { return false }
    world.restore(previous)
    revision += 1
    return true
  }

  /// How many commands `undo` can revert.
  public var undoDepth: Int { undoStack.count }

  /// The current state.
  public var snapshot: KioskSnapshot {
    _ = revision
    return world.snapshot
  }

  /// The board of tabs, as the view layer shows it: read-only by type.
  public var board: String {
    _ = revision
    return renderBoard(world)
  }

  /// Reads the world without being able to change it.
  public func read<Result>(_ body: (borrowing KioskWorld) -> Result) -> Result {
    _ = revision
    return body(world)
  }
}
