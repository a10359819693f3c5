// swift-tools-version: 6.2
// The Menu domain. Builds alone: `make build PKG=Menu`.
import PackageDescription

let package = Package(
  name: "Menu",
  platforms: [.macOS(.v15)],
  products: [.library(name: "Menu", targets: ["Menu"])],
  targets: [
    .target(name: "Menu", dependencies: []),
    .testTarget(name: "MenuTests", dependencies: ["Menu"]),
  ],
  swiftLanguageModes: [.v6]
)
