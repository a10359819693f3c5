// swift-tools-version: 6.2
// linkgen on its own: `swift build --package-path tools/LinkGen`.
// The root Package.swift builds the same targets for `make test`.
import PackageDescription

let package = Package(
  name: "LinkGen",
  platforms: [.macOS(.v15)],
  products: [
    .library(name: "LinkGenCore", targets: ["LinkGenCore"]),
    .executable(name: "linkgen", targets: ["linkgen"]),
    .plugin(name: "LinkGenPlugin", targets: ["LinkGenPlugin"]),
  ],
  targets: [
    // libyaml, the C parser that Yams wraps; `make setup` installs libyaml-dev.
    .systemLibrary(
      name: "CYaml",
      pkgConfig: "yaml-0.1",
      providers: [.apt(["libyaml-dev"]), .brew(["libyaml"])]
    ),
    .target(name: "LinkGenCore", dependencies: ["CYaml"]),
    .executableTarget(name: "linkgen", dependencies: ["LinkGenCore"]),
    // `swift package --allow-writing-to-package-directory linkgen generate`.
    .plugin(
      name: "LinkGenPlugin",
      capability: .command(
        intent: .custom(verb: "linkgen", description: "Run linkgen (generate, check, map, new-domain) on codegen.yaml"),
        permissions: [.writeToPackageDirectory(reason: "linkgen writes Generated/ from codegen.yaml")]
      ),
      dependencies: ["linkgen"]
    ),
    .testTarget(
      name: "LinkGenCoreTests",
      dependencies: ["LinkGenCore"],
      exclude: ["Golden", "Corpus"]
    ),
  ],
  swiftLanguageModes: [.v6]
)
