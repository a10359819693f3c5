import Foundation
import Journal
import KioskApp
import Menu
import Tabs

// A scripted session on a fresh temporary journal: the kiosk, end to end.
@MainActor
func runDemo() throws {
  let folder = FileManager.default.temporaryDirectory.appendingPathComponent("kiosk-demo-\(getpid())")
  try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
  defer { try? FileManager.default.removeItem(at: folder) }
  let path = folder.appendingPathComponent("kiosk.journal").path
  let shell = KioskShell(
    world: KioskWorld(menu: KioskDefaults.menu, stock: KioskDefaults.stock, journal: try WriteAheadLog(path: path)))

  print("menu:")
  for (id, item) in KioskDefaults.menu.items.sorted(by: { $0.key < $1.key }) {
    print("  \(id.raw)  \(item.name.padding(toLength: 11, withPad: " ", startingAt: 0)) \(item.price)")
  }
  let ada = shell.openTab(for: "Ada")
  try shell.add(Item.ID(raw: 1), to: ada)
  try shell.add(Item.ID(raw: 4), to: ada)
  let grace = shell.openTab(for: "Grace")
  try shell.add(Item.ID(raw: 3), to: grace)
  print("\nboard:\n\(shell.board)")
  let receipt = try shell.settle(ada)
  print("\nsettled #\(receipt.tab.raw): \(receipt.total) charged, reference \(receipt.reference)")
  do {
    try shell.add(Item.ID(raw: 99), to: grace)
  } catch {
    print("refused: item 99 (\(error)); world unchanged")
  }
  shell.undo()
  print("\nafter undo of the last command:\n\(shell.board)")
}

let arguments = CommandLine.arguments.dropFirst()
switch arguments.first ?? "help" {
case "demo":
  do { try MainActor.assumeIsolated { try runDemo() } } catch {
    FileHandle.standardError.write(Data("kiosk: \(error)\n".utf8))
    exit(1)
  }
case "help", "--help", "-h":
  print("usage: kiosk demo    run a scripted session on a temporary journal")
default:
  FileHandle.standardError.write(Data("kiosk: unknown command '\(arguments.first!)'; try 'kiosk help'\n".utf8))
  exit(2)
}
