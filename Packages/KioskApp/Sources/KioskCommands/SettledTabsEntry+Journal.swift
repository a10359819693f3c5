import Journal
import Tabs

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// An entry of the settled-tabs file writes and reads its own bytes, the
/// ones `JSONEncoder` (sorted keys) writes for its synthesized `Codable`:
/// `{"settled":{"_0":receipt,"tab":tab}}` or `{"reopened":{"_0":{"raw":N}}}`.
/// A listing of a long day reads hundreds of thousands of them. A receipt
/// whose time the writer cannot vouch for is left to the encoder, and bytes
/// in any other form to `JSONDecoder` (`SettledTabsFileTests` compares both).
extension SettledTabsEntry: JournalEncodable, JournalDecodable {
  public func writeJournal(to writer: inout JournalJSONWriter) -> Bool {
    if case .settled(let receipt, _) = self,
      !JournalJSONWriter.writes(receipt.chargedAt.timeIntervalSinceReferenceDate)
    {
      return false
    }
    writer.beginObject()
    switch self {
    case .settled(let receipt, let tab):
      writer.key("settled")
      writer.beginObject()
      writer.key("_0")
      writer.receipt(receipt)
      writer.key("tab")
      writer.tab(tab)
      writer.endObject()
    case .reopened(let id):
      writer.key("reopened")
      writer.beginObject()
      writer.rawID("_0", id.raw)
      writer.endObject()
    }
    writer.endObject()
    return true
  }

  public static func readJournal(_ bytes: ArraySlice<UInt8>) -> SettledTabsEntry? {
    var reader = JournalJSONReader(bytes)
    guard reader.literal("{") else { return nil }
    let entry: SettledTabsEntry
    if reader.key("settled") {
      guard reader.literal("{"), reader.key("_0"), let receipt = reader.receipt(), reader.nextKey("tab"),
        let tab = reader.tab(), reader.literal("}")
      else { return nil }
      entry = .settled(receipt, tab: tab)
    } else if reader.key("reopened") {
      guard reader.literal("{"), reader.key("_0"), let id = reader.rawID(), reader.literal("}") else { return nil }
      entry = .reopened(Tab.ID(raw: id))
    } else {
      return nil
    }
    guard reader.literal("}"), reader.isAtEnd else { return nil }
    return entry
  }
}
