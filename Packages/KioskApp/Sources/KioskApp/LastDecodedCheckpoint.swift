import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The checkpoint this process decoded last, with its bytes. Opening the till
/// reads the journal twice, for the checks made before anything is written
/// and then in the store, and the same checkpoint (a full undo history, the
/// open tabs) cost some 1.6 million instructions each time. Decoding is a
/// function of the bytes and the version alone, so the same bytes give the
/// same checkpoint.
enum LastDecodedCheckpoint {
  private struct Kept: Sendable {
    var bytes: [UInt8]
    var version: UInt16
    var checkpoint: KioskCheckpoint
  }

  private static let last = Mutex<Kept?>(nil)

  /// The checkpoint decoded from exactly `bytes` in `version`, when they were the last decoded.
  static func checkpoint(for bytes: ArraySlice<UInt8>, version: UInt16) -> KioskCheckpoint? {
    last.withLock { kept -> KioskCheckpoint? in
      guard let kept, kept.version == version, kept.bytes.count == bytes.count, !bytes.isEmpty else { return nil }
      let same = kept.bytes.withUnsafeBytes { keptBytes in
        bytes.withUnsafeBytes { memcmp(keptBytes.baseAddress!, $0.baseAddress!, bytes.count) == 0 }
      }
      return same ? kept.checkpoint : nil
    }
  }

  /// Keeps `checkpoint`, decoded from `bytes` in `version`, as the last.
  static func keep(_ checkpoint: KioskCheckpoint, decodedFrom bytes: ArraySlice<UInt8>, version: UInt16) {
    let kept = Kept(bytes: Array(bytes), version: version, checkpoint: checkpoint)
    last.withLock { $0 = kept }
  }
}
