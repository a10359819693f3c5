import CanonicalJSON
import KioskCommands
import Menu
import Stock
import Tabs

/// Everything a kiosk step reads and writes: the state slices, the undo
/// history and the processor's session. A request's `state` and a
/// recording's `given` are this, in canonical form.
public struct TillState: Equatable, Sendable {
  /// The menu slice.
  public var menu: MenuState
  /// The stock slice.
  public var stock: StockState
  /// The tabs slice.
  public var tabs: TabsState
  /// What `undo` can revert, oldest first.
  public var undo: [UndoHistory.Entry]
  /// The processor's session.
  public var processor: ProcessorState

  /// Literal state, the "given" of a scenario; a part not named is empty.
  public init(
    menu: MenuState = MenuState(), stock: StockState = StockState(), tabs: TabsState = TabsState(),
    undo: [UndoHistory.Entry] = [], processor: ProcessorState = ProcessorState()
  ) {
    self.menu = menu
    self.stock = stock
    self.tabs = tabs
    self.undo = undo
    self.processor = processor
  }
}

extension TillState: CanonicalCodable {
  /// `{"menu", "processor", "stock", "tabs", "undo"}`.
  public var canonical: JSONValue {
    .object([
      "menu": menu.canonical, "processor": processor.canonical, "stock": stock.canonical, "tabs": tabs.canonical,
      "undo": .array(undo.map(\.canonical)),
    ])
  }

  public init(canonical cursor: JSONCursor) throws(CanonicalError) {
    _ = try cursor.object(keys: ["menu", "processor", "stock", "tabs", "undo"])
    var undo: [UndoHistory.Entry] = []
    for entry in try cursor.field("undo").array() { undo.append(try UndoHistory.Entry(canonical: entry)) }
    guard undo.count <= UndoHistory.depth else {
      throw try cursor.field("undo").fail("the undo history holds at most \(UndoHistory.depth) entries")
    }
    let menu = try MenuState(canonical: cursor.field("menu"))
    let tabs = try TabsState(canonical: cursor.field("tabs"))
    // A line the menu does not have would be charged as nothing.
    for (id, tab) in tabs.open.sorted(by: { $0.key < $1.key }) {
      if let line = tab.lines.firstIndex(where: { menu.items[$0] == nil }) {
        throw try cursor.field("tabs").field("open").field(String(id.raw)).field("lines").array()[line]
          .fail("item \(tab.lines[line].raw) is not on the menu")
      }
    }
    self.init(
      menu: menu, stock: try StockState(canonical: cursor.field("stock")), tabs: tabs, undo: undo,
      processor: try ProcessorState(canonical: cursor.field("processor")))
  }
}
