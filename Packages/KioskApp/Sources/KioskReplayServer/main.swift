import Foundation
import KioskFeatures

// `kiosk-replay`: the replay protocol on stdio (docs/replay.md). One request
// per line in, one answer per line out, in order; a malformed request gets an
// error object and the server reads on. Its steps run in the scenario world
// (KioskFeatures): the request's slices, a recording mock of the processor, a
// frozen clock; it never opens a journal or calls a real processor.

if CommandLine.arguments.count > 1 {
  let usage = "usage: kiosk-replay < requests.jsonl  (one JSON request per line; docs/replay.md)"
  if ["-h", "--help"].contains(CommandLine.arguments[1]) {
    print(usage)
    exit(0)
  }
  FileHandle.standardError.write(Data("kiosk-replay: takes no arguments\n\(usage)\n".utf8))
  exit(2)
}

/// JSON's whitespace: a line of nothing else is skipped, not answered.
func isBlank(_ line: ArraySlice<UInt8>) -> Bool {
  line.allSatisfy { $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }
}

// Lines are read as bytes and handed over as they are: invalid UTF-8 is the
// parser's to refuse, never repaired. Each answer is written whole and at once,
// so a driver can wait for it before sending the next request.
let registry = KioskFeatures.registry
var pending: [UInt8] = []
var chunk = [UInt8](repeating: 0, count: 65_536)
while true {
  let count = read(0, &chunk, chunk.count)
  if count < 0, errno == EINTR { continue }
  if count > 0 { pending += chunk[..<count] }
  var start = pending.startIndex
  while let newline = pending[start...].firstIndex(of: 0x0A) {
    let line = pending[start..<newline]
    if !isBlank(line) {
      FileHandle.standardOutput.write(Data((registry.answer(toLine: line) + "\n").utf8))
    }
    start = newline + 1
  }
  pending.removeSubrange(..<start)
  if count <= 0 {
    if !isBlank(pending[...]) {
      FileHandle.standardOutput.write(Data((registry.answer(toLine: pending) + "\n").utf8))
    }
    break
  }
}
