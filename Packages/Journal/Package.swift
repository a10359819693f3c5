// swift-tools-version: 6.2
// The Journal domain. Builds alone: `make build PKG=Journal`.
import PackageDescription

// Experimental features, and why this package needs each:
// - CoroutineAccessors: capabilities are `{ read }` / `{ read set }` requirements
//   witnessed by `read`/`modify`, so slices are reached without a copy.
// - SuppressedAssociatedTypes: service capabilities allow `~Copyable` implementations.
let features: [SwiftSetting] = [
  .enableExperimentalFeature("CoroutineAccessors"),
  .enableExperimentalFeature("SuppressedAssociatedTypes"),
]

let package = Package(
  name: "Journal",
  platforms: [.macOS(.v15)],
  products: [
    .library(name: "Journal", targets: ["Journal"]),
    .library(name: "JournalIO", targets: ["JournalIO"]),
  ],
  targets: [
    // The journal's system calls, a service domain linked by the journal's environment.
    .target(name: "JournalIO", swiftSettings: features),
    .target(name: "Journal", dependencies: ["JournalIO"], swiftSettings: features),
    .testTarget(name: "JournalTests", dependencies: ["Journal", "JournalIO"], swiftSettings: features),
  ],
  swiftLanguageModes: [.v6]
)
