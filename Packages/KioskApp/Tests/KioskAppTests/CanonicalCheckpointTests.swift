import CanonicalJSON
import Foundation
import Journal
import KioskCommands
import Menu
import Payment
import Stock
import Tabs
import Testing
import _ServiceLinkerTestSupport

@testable import KioskApp

/// Every checkpoint of a random day in a journal of format 3 is the canonical
/// text of the checkpoint it reads back as (format 4), by hand and by the parser.
@MainActor
@Test(arguments: [UInt64(41), 42, 43])
func everyCheckpointInAFormat3JournalIsItsCanonicalText(seed: UInt64) async throws {
  let recovery = try await randomDayWithCheckpoints(
    seed: seed, customers: ["Ada \"the\" /Lovelace/", "Zoë \\ ☕️", "Grace"], version: JournalFormat.canonicalVersion)
  #expect(recovery.version == 3)
  var compared = 0
  for index in 0..<recovery.count where recovery.isCheckpoint(index) {
    let payload = recovery.payload(index)
    let text = String(decoding: payload, as: UTF8.self)
    #expect(text.hasPrefix(#"{"day":1,"format":4,"#), "\(text.prefix(40))")
    let read = try KioskCheckpoint.decoded(from: payload, version: 3, decoder: JSONDecoder())
    #expect(read.format == KioskCheckpoint.canonicalFormat)
    #expect(read.canonical?.compactText == text, "seed \(seed), record \(index)")
    #expect(try KioskCheckpoint(canonical: JSONCursor(JSONValue.parse(payload))) == read)
    // Written again, the same bytes.
    #expect(try JournalJSONWriter.bytes(of: read, version: 3) == Array(payload))
    // The undo history is read by hand, not by the parser: a checkpoint's longest part after the tabs.
    let undoKey = Array(#""undo":["#.utf8)
    let undoAt = try #require(payload.indices.first { payload[$0...].starts(with: undoKey) })
    var reader = JournalJSONReader(payload, at: undoAt + 7)
    #expect(reader.canonicalUndoEntries() == read.undo, "seed \(seed), record \(index)")
    // An undo history in another spelling (a space in a step) is the parser's, to the same value.
    let spacedStep = text.replacingOccurrences(of: #""step":{"#, with: #""step": {"#)
    #expect(try KioskCheckpoint.decoded(from: Array(spacedStep.utf8)[...], version: 3, decoder: JSONDecoder()) == read)
    // Bytes in another spelling (a space in the tabs) are the parser's, to the same value.
    let spaced = text.replacingOccurrences(of: #""open":{"#, with: #""open": {"#)
    #expect(try KioskCheckpoint.decoded(from: Array(spaced.utf8)[...], version: 3, decoder: JSONDecoder()) == read)
    compared += 1
  }
  #expect(compared > 0)
}

/// A checkpoint of the tabs `ids` (each with one line), one settled, one intent and one undo entry.
private func checkpoint(tabs ids: [Int], price: Decimal = 4.5) -> KioskCheckpoint {
  let open = Dictionary(
    uniqueKeysWithValues: ids.map { (Tab.ID(raw: $0), Tab(customer: "Guest \($0)", lines: [Item.ID(raw: 1)])) })
  let key = IdempotencyKey(journalSalt: 7, sequence: 3, tab: ids.first ?? 1)
  let receipt = Receipt(
    tab: Tab.ID(raw: 999), total: 4.5, chargedAt: Date(timeIntervalSince1970: 1_750_000_000), reference: "ch/1",
    key: key)
  return KioskCheckpoint(
    day: 2,
    state: KioskSnapshot(
      menu: MenuState(items: [Item.ID(raw: 1): Item(name: "Latte", price: price, recipe: [.milk: 2])]),
      stock: StockState(units: [.milk: 10]),
      tabs: TabsState(
        open: open, nextID: (ids.max() ?? 0) + 2, settled: SettledTabs(count: 1, total: Decimal(string: "12.25")!))),
    undo: [
      UndoHistory.Entry(
        record: .settled(receipt),
        step: .reopen(
          Tab.ID(raw: 999), tab: Tab(customer: "Di", lines: [Item.ID(raw: 1)]), total: 4.5, needs: [.milk: 2]))
    ],
    openIntents: [PaymentIntent(kind: .charge, key: key, tab: Tab.ID(raw: ids.first ?? 1), amount: 4.5)],
    paymentsJournaled: true,
    previousDay: ClosedDay(day: 1, archive: "kiosk.journal.day-0001", lastSequence: 40, carriedDigest: "crc32c:0"),
    ledgerNumbersUsed: 12, settledTabs: DerivedLog.Mark(end: 20, entries: 0, digest: nil),
    ledgerStart: JournalAnchor(offset: 20, sequence: 5, salt: UInt64.max))
}

@Test func tabsAreWrittenInTheOrderOfTheirIdsDigits() throws {
  // Dense ids walk the id table; spread ones are sorted. Both in the order of their digits.
  for ids in [[1, 2, 9, 10, 11, 19, 20, 99, 100, 101], [5, 30, 1_000_000, 999_999_990, 42], [], [7]] {
    let written = checkpoint(tabs: ids)
    let bytes = try JournalJSONWriter.bytes(of: written, version: 3)
    #expect(String(decoding: bytes, as: UTF8.self) == written.canonical?.compactText)
    var read = try KioskCheckpoint.decoded(from: bytes[...], version: 3, decoder: JSONDecoder())
    #expect(read.format == 4)
    read.format = written.format
    #expect(read == written)
  }
  let dense = String(
    decoding: try JournalJSONWriter.bytes(of: checkpoint(tabs: [1, 2, 10]), version: 3), as: UTF8.self)
  let one = try #require(dense.range(of: #""1":"#)?.lowerBound)
  let ten = try #require(dense.range(of: #""10":"#)?.lowerBound)
  let two = try #require(dense.range(of: #""2":"#)?.lowerBound)
  #expect(one < ten && ten < two)
}

@Test func aCheckpointTheCanonicalFormCannotHoldIsWrittenInFormat3() throws {
  let written = checkpoint(tabs: [1, 2], price: Decimal(string: "4.505")!)
  #expect(written.canonical == nil)
  let bytes = try JournalJSONWriter.bytes(of: written, version: 3)
  #expect(String(decoding: bytes, as: UTF8.self).hasPrefix(#"{"day":2,"format":3,"#))
  #expect(try KioskCheckpoint.decoded(from: bytes[...], version: 3, decoder: JSONDecoder()) == written)
}

/// Damages `copies` copies of the checkpoint `original`, each one byte
/// changed, inserted or removed at a place drawn from `at(count)`, and
/// expects the checkpoint's reader to read each as the strict parser does
/// (the bytes from the first place `at` allows, `shown` of them, name a
/// failure); returns how many were read at all.
private func damagedCopiesReadAsTheParserReadsThem(
  _ original: [UInt8], at places: (Int) -> Range<Int>, copies: Int, shown: Int, random: inout SeededGenerator
) -> Int {
  let replacements = Array("0-19\"\\/,:{}[]n ".utf8) + [0x01, 0xC3]
  var taken = 0
  for _ in 0..<copies {
    var bytes = original
    let range = places(bytes.count)
    let at = Int.random(in: range, using: &random)
    switch Int.random(in: 0..<3, using: &random) {
    case 0: bytes[at] = replacements.randomElement(using: &random)!
    case 1: bytes.insert(replacements.randomElement(using: &random)!, at: at)
    default: bytes.remove(at: at)
    }
    let strict = try? KioskCheckpoint(canonical: JSONCursor(JSONValue.parse(bytes)))
    let read = try? KioskCheckpoint.decoded(from: bytes[...], version: 3, decoder: JSONDecoder())
    #expect(read == strict, "\(String(decoding: bytes[range.lowerBound...].prefix(shown), as: UTF8.self))")
    if read != nil { taken += 1 }
  }
  return taken
}

/// Damaged bytes after the checkpoint's format: what the hand reader of the
/// tabs takes, the parser takes too, as the same checkpoint.
@Test func theCheckpointsHandReaderTakesNothingTheParserRefuses() throws {
  var random = SeededGenerator(seed: 44)
  let original = try JournalJSONWriter.bytes(of: checkpoint(tabs: Array(1...6)), version: 3)
  let tabsAt = try #require(String(decoding: original, as: UTF8.self).range(of: #""tabs":"#)).lowerBound.utf16Offset(
    in: String(decoding: original, as: UTF8.self))
  let taken = damagedCopiesReadAsTheParserReadsThem(
    original, at: { tabsAt..<min($0, tabsAt + 200) }, copies: 5_000, shown: 120, random: &random)
  #expect(taken > 50)
}

/// Damaged bytes in the undo history (an entry of every kind): what the
/// hand reader of the undo history takes, the parser takes too, as the same checkpoint.
@Test func theUndoHistorysHandReaderTakesNothingTheParserRefuses() throws {
  var random = SeededGenerator(seed: 45)
  var given = checkpoint(tabs: [1, 2])
  given.undo += [
    UndoHistory.Entry(
      record: .opened(tab: Tab.ID(raw: 2), customer: "Bo"), step: .closeTab(Tab.ID(raw: 2), previousNextID: 2)),
    UndoHistory.Entry(record: .added(item: Item.ID(raw: 1), tab: Tab.ID(raw: 2)), step: .dropLastLine(Tab.ID(raw: 2))),
    UndoHistory.Entry(
      record: .removed(item: Item.ID(raw: 1), tab: Tab.ID(raw: 1)),
      step: .insertLine(Item.ID(raw: 1), at: 0, tab: Tab.ID(raw: 1))),
    UndoHistory.Entry(record: .restocked(ingredient: .milk, count: 3), step: .unrestock(.milk, count: 3)),
  ]
  let original = try JournalJSONWriter.bytes(of: given, version: 3)
  let undoKey = Array(#""undo":["#.utf8)
  let undoAt = try #require(original.indices.first { original[$0...].starts(with: undoKey) })
  var reader = JournalJSONReader(original[...], at: undoAt + 7)
  #expect(reader.canonicalUndoEntries() == given.undo, "every kind of entry is read by hand")
  let taken = damagedCopiesReadAsTheParserReadsThem(
    original, at: { (undoAt + 7)..<($0 - 1) }, copies: 3_000, shown: 160, random: &random)
  #expect(taken > 50)
}

@Test func aDamagedCanonicalCheckpointFailsWithThePathOfWhatIsWrong() throws {
  let text = String(decoding: try JournalJSONWriter.bytes(of: checkpoint(tabs: [1]), version: 3), as: UTF8.self)
  let damaged = text.replacingOccurrences(of: #""paymentsJournaled":true"#, with: #""paymentsJournaled":1"#)
  #expect(damaged != text)
  do {
    _ = try KioskCheckpoint.decoded(from: Array(damaged.utf8)[...], version: 3, decoder: JSONDecoder())
    Issue.record("a damaged checkpoint was read")
  } catch {
    #expect("\(error)".contains("paymentsJournaled"), "\(error)")
  }
}

/// What reading `text` as a checkpoint of a journal of `version` says: "read", or its error.
private func reading(_ text: String, version: UInt16) -> String {
  do {
    _ = try KioskCheckpoint.decoded(from: Array(text.utf8)[...], version: version, decoder: JSONDecoder())
    return "read"
  } catch {
    return "\(error)"
  }
}

/// A checkpoint is read as the format its `format` field names, however it is
/// spelled, when its journal's version holds that format; format 4 in a
/// journal of version 2, format 2 (no `format`) in one of version 3 and a
/// format no kiosk wrote are refused, saying so, never read as another format.
@Test func aCheckpointIsReadAsTheFormatItNamesWhereItsJournalHoldsIt() throws {
  let written = checkpoint(tabs: [1, 2])
  let text = String(decoding: try JournalJSONWriter.bytes(of: written, version: 3), as: UTF8.self)
  for spelling in [
    text.replacingOccurrences(of: #""format":4,"#, with: #""format": 4,"#),
    text.replacingOccurrences(of: #"{"day":2,"format":4,"#, with: #"{"format":4,"day":2,"#),
  ] {
    #expect(spelling != text)
    let read = try KioskCheckpoint.decoded(from: Array(spelling.utf8)[...], version: 3, decoder: JSONDecoder())
    #expect(read.canonical?.compactText == text)
  }
  #expect(
    reading(text, version: 2)
      == "a checkpoint of format 4 in a journal of version 2, which holds checkpoints of formats 2 and 3")
  #expect(
    reading(text.replacingOccurrences(of: #""format":4,"#, with: #""format":9,"#), version: 3)
      == "a checkpoint of format 9: this kiosk reads checkpoint formats 2 to 4")
  let format3 = String(decoding: try JournalJSONWriter.bytes(of: written, version: 2), as: UTF8.self)
  #expect(format3.hasPrefix(#"{"day":2,"format":3,"#))
  #expect(reading(format3, version: 3) == "read" && reading(format3, version: 2) == "read")
  #expect(
    reading(format3.replacingOccurrences(of: #""format":3,"#, with: ""), version: 3)
      == "a checkpoint of format 2 (no 'format' field) in a journal of version 3, which holds checkpoints of "
      + "formats 3 and 4")
}

/// The checkpoint decoded last is kept with its bytes: decoding the same bytes
/// again gives what decoding them afresh gives, and other bytes, or the same
/// bytes in a journal of another version, are decoded afresh.
@MainActor @Test func aCheckpointDecodedAgainIsWhatItsBytesSayAndNoOtherBytesGetIt() async throws {
  var payloads: [ArraySlice<UInt8>] = []
  for seed in [UInt64(44), 45, 46] {
    let recovery = try await randomDayWithCheckpoints(
      seed: seed, customers: ["Ada", "Grace"], version: JournalFormat.canonicalVersion)
    payloads += (0..<recovery.count).filter(recovery.isCheckpoint).map { recovery.payload($0) }
  }
  try #require(payloads.count >= 3)
  #expect(Set(payloads.map(Array.init)).count == payloads.count, "every checkpoint's bytes differ")
  for payload in payloads + payloads.reversed() + [payloads[0], payloads[0]] {
    let afresh = try KioskCheckpoint.decodedAfresh(from: payload, version: 3, decoder: JSONDecoder())
    #expect(try KioskCheckpoint.decoded(from: payload, version: 3, decoder: JSONDecoder()) == afresh)
  }
  // A checkpoint of format 4 in a journal of version 2 is refused, kept or not.
  _ = try KioskCheckpoint.decoded(from: payloads[0], version: 3, decoder: JSONDecoder())
  #expect(throws: (any Error).self) {
    try KioskCheckpoint.decoded(from: payloads[0], version: 2, decoder: JSONDecoder())
  }
}
