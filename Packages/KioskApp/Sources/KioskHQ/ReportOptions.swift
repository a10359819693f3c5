import Foundation

/// `kiosk-hq report`'s command line: `[DAY] [--json | --html FILE]`, in any order.
struct ReportOptions {
  /// A command line refused, or a page that could not be written: one line and its exit status.
  struct Refusal: Error {
    var message: String
    var status: Int32
  }

  /// The day asked for, or nil for every day.
  var day: Int?
  /// `--json`: the report as data.
  var json = false
  /// `--html FILE`: where the page goes.
  var htmlFile: String?

  /// Parses `arguments` (after `report`); a bad one is a usage refusal (exit 64).
  init(_ arguments: [String]) throws(Refusal) {
    var remaining = arguments[...]
    while let argument = remaining.popFirst() {
      switch argument {
      case "--json": json = true
      case "--html":
        guard let file = remaining.popFirst(), !file.isEmpty, !file.hasPrefix("-") else {
          throw Refusal(message: "--html needs the page's file name", status: 64)
        }
        guard htmlFile == nil else { throw Refusal(message: "--html once: one page at a time", status: 64) }
        htmlFile = file
      case "--day":
        guard let text = remaining.popFirst() else { throw Refusal(message: "--day needs a day's number", status: 64) }
        guard day == nil else { throw Refusal(message: "one DAY at most, not '\(text)' too", status: 64) }
        day = try Self.day(text)
      default:
        guard !argument.hasPrefix("-") else { throw Refusal(message: "unknown option '\(argument)'", status: 64) }
        guard day == nil else { throw Refusal(message: "one DAY at most, not '\(argument)' too", status: 64) }
        day = try Self.day(argument)
      }
    }
    if json && htmlFile != nil { throw Refusal(message: "--json and --html: one at a time", status: 64) }
  }

  private static func day(_ text: String) throws(Refusal) -> Int {
    guard text.allSatisfy({ $0.isASCII && $0.isNumber }), let day = Int(text), day >= 1 else {
      throw Refusal(message: "DAY is a day's number, from 1, not '\(text)'", status: 64)
    }
    return day
  }

  /// Writes `text` to `path` whole or not at all: into a temporary file beside
  /// it, then renamed over it, so a reader never sees half a page and a
  /// failure leaves what was there (exit 73, the file could not be made).
  static func write(_ text: String, to path: String) throws(Refusal) {
    let destination = URL(fileURLWithPath: path)
    do {
      try Data(text.utf8).write(to: destination, options: .atomic)
    } catch {
      var isFolder: ObjCBool = false
      let exists = FileManager.default.fileExists(atPath: path, isDirectory: &isFolder)
      let parent = destination.deletingLastPathComponent().path
      let reason =
        exists && isFolder.boolValue
        ? "it is a folder"
        : !FileManager.default.fileExists(atPath: parent)
          ? "there is no folder '\(parent)'"
          : ((error as NSError).userInfo[NSUnderlyingErrorKey] as? NSError)?.localizedDescription
            ?? "it could not be written here"
      throw Refusal(message: "could not write '\(path)': \(reason)", status: 73)
    }
  }
}
