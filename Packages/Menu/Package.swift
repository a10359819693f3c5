// swift-tools-version: 6.2
// The Menu domain. Builds alone: `make build PKG=Menu`.
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
  name: "Menu",
  platforms: [.macOS(.v15)],
  products: [.library(name: "Menu", targets: ["Menu"])],
  targets: [
    .target(name: "Menu", dependencies: [], swiftSettings: features),
    .testTarget(name: "MenuTests", dependencies: ["Menu"], swiftSettings: features),
  ],
  swiftLanguageModes: [.v6]
)
