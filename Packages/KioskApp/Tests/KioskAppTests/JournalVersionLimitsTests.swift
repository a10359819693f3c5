import DurableStore
import Foundation
import Journal
import KioskApp
import KioskCommands
import Menu
import Stock
import Tabs
import Testing

// What each journal version can hold: a journal of version 3 holds money in
// whole cents below `CanonicalMoney.limit`, one of version 2 any amount.

/// A journal of `version` at `journal.path` whose first record sets the menu
/// with the latte at `lattePrice`.
private func journalWithLatte(at lattePrice: Decimal, version: UInt16, in journal: TemporaryJournal) throws {
  var menu = KioskDefaults.menu
  menu.items[latte]?.price = lattePrice
  var file = try DurableJournal(path: journal.path, newFileVersion: version)
  try file.append(KioskRecord.initialized(menu: menu, stock: KioskDefaults.stock))
}

/// The version in the header of the journal at `path`.
private func version(ofJournalAt path: String) -> UInt16 {
  let bytes = Array(FileManager.default.contents(atPath: path) ?? Data())
  return bytes.count < 6 ? 0 : UInt16(bytes[4]) | UInt16(bytes[5]) << 8
}

/// A day begun in version 2 with a price in fractions of a cent: its next day
/// stays in version 2, so tabs holding that item still settle after the close.
@MainActor
@Test func aMenuInFractionsOfACentKeepsTheNextDayInVersion2() async throws {
  let journal = try TemporaryJournal()
  try journalWithLatte(at: Decimal(string: "4.555")!, version: JournalFormat.encoderVersion, in: journal)
  let shell = try await journal.openTill()
  let ada = try await shell.openTab(for: "Ada")
  try await shell.add(latte, to: ada)
  _ = try await shell.settle(ada)
  _ = try await shell.closeDay()
  #expect(version(ofJournalAt: journal.path) == JournalFormat.encoderVersion)
  let bob = try await shell.openTab(for: "Bob")
  try await shell.add(latte, to: bob)
  let receipt = try await shell.settle(bob)
  #expect(receipt.total == Decimal(string: "4.555")!)
  #expect(try shell.paymentAudit().agrees)
}

/// A menu of whole cents: the next day is of version 3, as every new day.
@MainActor
@Test func aMenuInWholeCentsStartsTheNextDayInVersion3() async throws {
  let journal = try TemporaryJournal()
  try journalWithLatte(at: Decimal(string: "4.55")!, version: JournalFormat.encoderVersion, in: journal)
  let shell = try await journal.openTill()
  _ = try await shell.closeDay()
  #expect(version(ofJournalAt: journal.path) == JournalFormat.canonicalVersion)
}

/// A tab summed past what version 3 holds is refused at settle with the amount
/// and the reason, before anything is written; the tab settles once it is back
/// under the limit.
@MainActor
@Test func aTotalPastWhatVersion3HoldsIsRefusedBeforeAnythingIsWritten() async throws {
  let journal = try TemporaryJournal()
  let price = Decimal(string: "9999999999999.99")!
  try journalWithLatte(at: price, version: JournalFormat.canonicalVersion, in: journal)
  let shell = try await journal.openTill()
  let ada = try await shell.openTab(for: "Ada")
  try await shell.add(latte, to: ada)
  try await shell.add(latte, to: ada)
  let before = journal.bytes
  let refused = await #expect(throws: TillRefusal.self) { _ = try await shell.settle(ada) }
  #expect(journal.bytes == before)
  #expect(
    refused?.description
      == "the amount 19999999999999.98 cannot be journaled: the till holds money below 10000000000000.00; "
      + "nothing was written")
  try await shell.remove(latte, from: ada)
  try await shell.add(espresso, to: ada)
  try await shell.remove(latte, from: ada)
  let receipt = try await shell.settle(ada)
  #expect(receipt.total == KioskDefaults.menu.items[espresso]?.price)
  #expect(try shell.paymentAudit().agrees)
}

/// A new journal is canonical: a menu priced in fractions of a cent cannot
/// begin it, and the refusal says why; nothing is written.
@MainActor
@Test func aNewJournalRefusesAMenuInFractionsOfACentSayingWhy() async throws {
  let journal = try TemporaryJournal()
  var menu = KioskDefaults.menu
  menu.items[latte]?.price = Decimal(string: "4.555")!
  let store = try journal.openStore()
  let before = journal.bytes
  let outcome = try store.send(.initialize(menu: menu, stock: KioskDefaults.stock)).outcome
  #expect(outcome.record == nil)
  #expect(
    outcome.reason
      == "the amount 4.555 cannot be journaled: a new journal (version 3) holds money in whole cents; nothing was "
      + "written")
  #expect(journal.bytes == before)
}
