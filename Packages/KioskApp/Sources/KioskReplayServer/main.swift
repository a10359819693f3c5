import Foundation
import KioskFeatures

// `kiosk-replay`: the replay protocol on stdio (docs/replay.md). One request
// per line in, one answer per line out, in order; a malformed request gets
// an error object and the server reads on. It links no journal, no real clock
// and no real gateway: only the scenario world.

if CommandLine.arguments.count > 1 {
  let usage = "usage: kiosk-replay < requests.jsonl  (one JSON request per line; docs/replay.md)"
  if ["-h", "--help"].contains(CommandLine.arguments[1]) {
    print(usage)
    exit(0)
  }
  FileHandle.standardError.write(Data("kiosk-replay: takes no arguments\n\(usage)\n".utf8))
  exit(2)
}

// Each answer is written whole and at once (not buffered), so a driver can
// wait for it before sending the next request.
let registry = KioskFeatures.registry
while let line = readLine(strippingNewline: true) {
  if line.allSatisfy(\.isWhitespace) { continue }
  FileHandle.standardOutput.write(Data((registry.answer(toLine: Array(line.utf8)) + "\n").utf8))
}
