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
    .target(name: "Journal", dependencies: ["JournalIO"]),
    .testTarget(name: "JournalTests", dependencies: ["Journal", "JournalIO"]),
  ],
  swiftLanguageModes: [.v6]
)
