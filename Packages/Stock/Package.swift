// swift-tools-version: 6.2
// The Stock domain. Builds alone: `make build PKG=Stock`.
import PackageDescription

let package = Package(
  name: "Stock",
  platforms: [.macOS(.v15)],
  products: [.library(name: "Stock", targets: ["Stock"])],
  dependencies: [
    .package(path: "../Menu")
  ],
  targets: [
    .target(name: "Stock", dependencies: [.product(name: "Menu", package: "Menu")]),
    .testTarget(name: "StockTests", dependencies: ["Stock"]),
  ],
  swiftLanguageModes: [.v6]
)
