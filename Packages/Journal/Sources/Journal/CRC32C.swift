import CRC32CHardware

/// CRC-32C (Castagnoli), the checksum LevelDB, RocksDB and ext4 use for records.
///
/// With the processor's CRC-32C instruction when it has one (SSE 4.2,
/// `CRC32CHardware`), eight bytes per instruction; otherwise slicing-by-8 over
/// one table of 8 × 256 entries built once. Both give the same checksums
/// (`theInstructionAndTheTableGiveTheSameChecksums`).
public enum CRC32C {
  /// Whether `update` uses the processor's instruction, asked once.
  public static let usesHardware = crc32c_hardware_available() != 0

  /// Reflected Castagnoli polynomial.
  static let polynomial: UInt32 = 0x82F6_3B78

  /// Entry `k * 256 + b`: the CRC of byte `b` followed by `k` zero bytes.
  static let table: [UInt32] = {
    var table = [UInt32](repeating: 0, count: 8 * 256)
    for byte in 0..<256 {
      var crc = UInt32(byte)
      for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ polynomial : crc >> 1 }
      table[byte] = crc
    }
    for k in 1..<8 {
      for byte in 0..<256 {
        let previous = table[(k - 1) * 256 + byte]
        table[k * 256 + byte] = (previous >> 8) ^ table[Int(previous & 0xFF)]
      }
    }
    return table
  }()

  /// The running CRC after `bytes`, continuing from `crc` (0 to start).
  public static func update(_ crc: UInt32, _ bytes: UnsafeRawBufferPointer) -> UInt32 {
    guard usesHardware, let start = bytes.baseAddress else { return tableUpdate(crc, bytes) }
    return crc32c_hardware_update(crc, start, bytes.count)
  }

  /// `update` by the table alone, on any processor.
  public static func tableUpdate(_ crc: UInt32, _ bytes: UnsafeRawBufferPointer) -> UInt32 {
    table.withUnsafeBufferPointer { table in
      var state = ~crc
      var index = 0
      let count = bytes.count
      while count - index >= 8 {
        let low = state ^ UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: index, as: UInt32.self))
        let high = UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: index + 4, as: UInt32.self))
        state =
          table[7 * 256 + Int(low & 0xFF)] ^ table[6 * 256 + Int((low >> 8) & 0xFF)]
          ^ table[5 * 256 + Int((low >> 16) & 0xFF)] ^ table[4 * 256 + Int(low >> 24)]
          ^ table[3 * 256 + Int(high & 0xFF)] ^ table[2 * 256 + Int((high >> 8) & 0xFF)]
          ^ table[1 * 256 + Int((high >> 16) & 0xFF)] ^ table[Int(high >> 24)]
        index += 8
      }
      while index < count {
        state = (state >> 8) ^ table[Int((state ^ UInt32(bytes[index])) & 0xFF)]
        index += 1
      }
      return ~state
    }
  }

  /// The CRC of `bytes`, continuing from `seed`.
  public static func checksum(_ bytes: [UInt8], seed: UInt32 = 0) -> UInt32 {
    bytes.withUnsafeBytes { update(seed, $0) }
  }
}
