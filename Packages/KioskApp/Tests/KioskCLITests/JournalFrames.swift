import Foundation

/// One record of a journal or ledger file as framed on disk (docs/journal.md,
/// "File format": a 20-byte header, then frames of a 17-byte head and a
/// payload): where it starts, its type (1 a record, 2 a checkpoint, 3 a
/// number lost to damage), its number and where its payload lies.
typealias JournalFrame = (offset: Int, type: UInt8, sequence: UInt64, payload: Range<Int>)

/// Every whole frame of a journal or ledger file's bytes, in order.
func frames(of data: Data) -> [JournalFrame] {
  let bytes = [UInt8](data)
  var found: [JournalFrame] = []
  var offset = 20
  while offset + 17 <= bytes.count {
    let length = bytes[offset..<offset + 4].reversed().reduce(0) { $0 << 8 | Int($1) }
    guard offset + 17 + length <= bytes.count else { break }
    let sequence = bytes[offset + 9..<offset + 17].reversed().reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
    found.append((offset, bytes[offset + 8], sequence, offset + 17..<offset + 17 + length))
    offset += 17 + length
  }
  return found
}
