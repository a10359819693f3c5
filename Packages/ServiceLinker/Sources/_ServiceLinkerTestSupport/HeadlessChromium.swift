import Foundation

/// Debian's Chromium run headless on a local file: the DOM it built
/// (`--dump-dom`) and a screenshot, for tests of a page as a browser reads it.
/// Nothing is fetched: the page is a `file://` URL, and a page that asked for
/// the network would find none here.
public struct HeadlessChromium: Sendable {
  /// What the browser did not do: it is missing, it failed, or it ran past its time.
  public struct Failure: Error, CustomStringConvertible {
    /// One line saying why, with the end of the browser's own errors.
    public var description: String
  }

  /// The browser's executable.
  public let executable: URL
  /// How long one run may take before it is stopped and reported.
  public var timeout: Duration = .seconds(90)

  /// The browser on the PATH (`chromium`, `chromium-browser`), or nil when none is
  /// installed: `make setup` installs Debian's `chromium`, and a test that needs it
  /// is skipped, never passed, where it could not be.
  public init?() {
    let folders = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
    for name in ["chromium", "chromium-browser"] {
      for folder in folders + ["/usr/bin"] {
        let candidate = URL(fileURLWithPath: String(folder)).appendingPathComponent(name)
        if FileManager.default.isExecutableFile(atPath: candidate.path) {
          executable = candidate
          return
        }
      }
    }
    return nil
  }

  /// The DOM the browser built from the page at `file`, serialized as HTML.
  public func dumpDOM(of file: URL) throws -> String {
    try run(["--dump-dom", file.absoluteString])
  }

  /// Saves a PNG of the page at `file`, `width` × `height` CSS pixels, to `png`.
  public func screenshot(of file: URL, to png: URL, width: Int = 1100, height: Int = 2000) throws {
    try? FileManager.default.removeItem(at: png)
    _ = try run([
      "--screenshot=\(png.path)", "--window-size=\(width),\(height)", "--hide-scrollbars", file.absoluteString,
    ])
    guard FileManager.default.fileExists(atPath: png.path) else {
      throw Failure(description: "chromium wrote no screenshot to '\(png.path)'")
    }
  }

  /// Runs the browser headless with a profile of its own, on `arguments`;
  /// returns what it printed on standard output.
  private func run(_ arguments: [String]) throws -> String {
    let profile = try TemporaryDirectory(prefix: "chromium-profile")
    let process = Process()
    process.executableURL = executable
    // As root the sandbox cannot start; there is no GPU; /dev/shm may be small.
    process.arguments =
      [
        "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run",
        "--disable-extensions", "--user-data-dir=\(profile.url.path)",
      ] + arguments
    let output = profile.url.appendingPathComponent("stdout")
    let errors = profile.url.appendingPathComponent("stderr")
    _ = FileManager.default.createFile(atPath: output.path, contents: nil)
    _ = FileManager.default.createFile(atPath: errors.path, contents: nil)
    let outputHandle = try FileHandle(forWritingTo: output)
    let errorHandle = try FileHandle(forWritingTo: errors)
    defer {
      try? outputHandle.close()
      try? errorHandle.close()
    }
    process.standardOutput = outputHandle
    process.standardError = errorHandle
    process.standardInput = FileHandle.nullDevice
    try process.run()
    let deadline = ContinuousClock.now + timeout
    while process.isRunning && ContinuousClock.now < deadline { usleep(10_000) }
    if process.isRunning {
      process.terminate()
      process.waitUntilExit()
      throw Failure(description: "chromium ran past \(timeout) on \(arguments.last ?? "")")
    }
    let text = (try? String(contentsOf: output, encoding: .utf8)) ?? ""
    guard process.terminationStatus == 0 else {
      let said = ((try? String(contentsOf: errors, encoding: .utf8)) ?? "").suffix(600)
      throw Failure(description: "chromium exited \(process.terminationStatus): \(said)")
    }
    return text
  }
}
