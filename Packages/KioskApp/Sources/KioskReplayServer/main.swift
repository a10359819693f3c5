import FeatureKit
import Foundation
import KioskFeatures

// `kiosk-replay`: the replay protocol on stdio (docs/replay.md), served by the
// framework's `ReplayServer`. Its steps run in the scenario world
// (KioskFeatures): the request's slices, the processor's ledger behind a
// recording mock, a frozen clock; it never opens a journal or a file.

if CommandLine.arguments.count > 1 {
  let usage = "usage: kiosk-replay < requests.jsonl  (one JSON request per line; docs/replay.md)"
  if ["-h", "--help"].contains(CommandLine.arguments[1]) {
    print(usage)
    exit(0)
  }
  FileHandle.standardError.write(Data("kiosk-replay: takes no arguments\n\(usage)\n".utf8))
  exit(2)
}

ReplayServer(registry: KioskFeatures.registry).run()
