import Foundation
import Journal

// `KioskSnapshot` itself (its slices, `snapshot`, `restore(_:)` and
// `canonicalJSON()`) is generated from codegen.yaml, in
// `Generated/KioskApp/KioskSnapshot.swift`: a slice added to the world is in it.

extension KioskSnapshot {
  /// A short fingerprint of `canonicalJSON()`: `crc32c:` and eight hex digits.
  public var digest: String {
    let crc = CRC32C.checksum(canonicalJSON())
    return "crc32c:" + String(format: "%08x", crc)
  }
}
