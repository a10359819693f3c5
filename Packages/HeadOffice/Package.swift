// swift-tools-version: 6.2
// The HeadOffice service. Builds alone: `make build PKG=HeadOffice`.
import PackageDescription

let package = Package(
  name: "HeadOffice",
  platforms: [.macOS(.v15)],
  products: [
    .library(name: "HeadOffice", targets: ["HeadOffice"]),
    // The generated recording mock and closure witness (Generated/HeadOfficeTesting), for tests.
    .library(name: "HeadOfficeTesting", targets: ["HeadOfficeTesting"]),
    // A throwaway PostgreSQL server for tests (`make setup` installs the server).
    .library(name: "PostgresTestServer", targets: ["PostgresTestServer"]),
  ],
  targets: [
    // libpq's header (`make setup` installs libpq-dev); libpq itself is loaded
    // with dlopen by the first connection (LibPQ.swift), so no binary links it.
    .systemLibrary(name: "CLibPQ"),
    .target(name: "HeadOffice", dependencies: ["CLibPQ"]),
    .target(name: "HeadOfficeTesting", dependencies: ["HeadOffice"]),
    .target(name: "PostgresTestServer"),
    .testTarget(name: "HeadOfficeTests", dependencies: ["HeadOffice", "CLibPQ", "HeadOfficeTesting"]),
  ],
  swiftLanguageModes: [.v6]
)
