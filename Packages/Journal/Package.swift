// swift-tools-version: 6.2
// The Journal domain. Builds alone: `make build PKG=Journal`.
import PackageDescription

let package = Package(
  name: "Journal",
  platforms: [.macOS(.v15)],
  products: [
    .library(name: "Journal", targets: ["Journal"]),
    .library(name: "JournalIO", targets: ["JournalIO"]),
  ],
  targets: [
    // The journal's system calls, a service domain linked by the journal's environment.
    .target(name: "JournalIO"),
    // CRC-32C with the processor's instruction (C: Swift has no SSE 4.2 intrinsics).
    .target(name: "CRC32CHardware"),
    .target(name: "Journal", dependencies: ["JournalIO", "CRC32CHardware"]),
    .testTarget(name: "JournalTests", dependencies: ["Journal", "JournalIO"]),
  ],
  swiftLanguageModes: [.v6]
)
