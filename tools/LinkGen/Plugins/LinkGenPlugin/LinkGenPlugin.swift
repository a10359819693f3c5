import Foundation
import PackagePlugin

/// `swift package --allow-writing-to-package-directory linkgen generate` (or `check`,
/// `map`, `new-domain NAME`): runs linkgen on the package's own codegen.yaml, with
/// no Makefile. `make generate` stays the documented path; this is the SwiftPM-native one.
@main
struct LinkGenPlugin: CommandPlugin {
  func performCommand(context: PluginContext, arguments: [String]) async throws {
    let tool = try context.tool(named: "linkgen")
    var arguments = arguments.isEmpty ? ["generate"] : arguments
    // linkgen works on the package the command runs in, unless told otherwise.
    if !arguments.contains("--root"), !arguments.contains("--manifest"), !arguments.contains(where: isHelp) {
      arguments += ["--root", context.package.directoryURL.path]
    }
    let process = Process()
    process.executableURL = tool.url
    process.arguments = arguments
    try process.run()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else {
      Diagnostics.error("linkgen \(arguments.first ?? "") failed with status \(process.terminationStatus)")
      throw LinkGenPluginFailure(status: process.terminationStatus)
    }
  }

  private func isHelp(_ argument: String) -> Bool { argument == "--help" || argument == "-h" }
}

/// linkgen exited non-zero; it already printed why.
struct LinkGenPluginFailure: Error, CustomStringConvertible {
  var status: Int32
  var description: String { "linkgen exited with status \(status)" }
}
