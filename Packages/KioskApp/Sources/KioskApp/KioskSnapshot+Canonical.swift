import HeadOffice
import Journal

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

// `KioskSnapshot` itself (its slices, `snapshot`, `restore(_:)` and
// `canonicalJSON()`) is generated from codegen.yaml, in
// `Generated/KioskApp/KioskSnapshot.swift`: a slice added to the world is in it.

extension KioskSnapshot {
  /// A short fingerprint of `canonicalJSON()`: `crc32c:` and eight hex digits.
  public var digest: String {
    let crc = CRC32C.checksum(canonicalJSONWrittenByHand())
    return "crc32c:" + Hex.lowercase(UInt64(crc), digits: 8)
  }

  /// `canonicalJSON()`'s bytes, for a fraction of its cost: the tabs, which
  /// are nearly all of a day's state, are written by hand as a checkpoint
  /// writes them (without escaping `/`, as the canonical encoder does), and
  /// the encoder writes the rest around a placeholder. When the placeholder
  /// is not found exactly once, the encoder writes it all.
  /// `canonicalJSONByHandIsTheEncodersBytes` compares the two over random states.
  public func canonicalJSONWrittenByHand() -> [UInt8] {
    var light = self
    light.tabs = KioskCheckpoint.placeholder
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    guard let bytes = try? Array(encoder.encode(light)) else { return canonicalJSON() }
    return KioskCheckpoint.replacingPlaceholder(in: bytes, with: tabs, escapingSlashes: false) ?? canonicalJSON()
  }
}
