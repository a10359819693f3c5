import Foundation
import KioskApp
import Testing

// `NSString`'s path methods are the oracle `PathNames` stands in for on the command path.

private let paths = [
  "kiosk.journal", "/tmp/kiosk.journal", "tills/kiosk.journal", "/a/b/c", "/a/b/", "a//b", "a/b//", "/", "",
  "./kiosk.journal", "../x", "/x", "x/", "é/ü.journal",
]

@Test func theLastComponentIsNSStringsForEveryKindOfPath() {
  for path in paths {
    #expect(PathNames.lastComponent(of: path) == (path as NSString).lastPathComponent, "'\(path)'")
  }
  // Foundation 6.3.1 gives nothing for two slashes or more, and `/` for one: slashes alone are the root here.
  #expect(PathNames.lastComponent(of: "//") == "/")
}

@Test func aNameJoinedToAFolderIsNSStringsAppendedPath() {
  for folder in ["/tmp", "/tmp/", "/", "tills", "a/b"] {
    for name in ["kiosk.journal", "kiosk.journal.day-0007"] {
      #expect(
        PathNames.joining(folder, name) == (folder as NSString).appendingPathComponent(name), "'\(folder)' + '\(name)'")
    }
  }
  #expect(PathNames.joining("", "kiosk.journal") == "kiosk.journal")
}

@Test func theFolderIsNSStringsWithoutItsTrapOnABareName() {
  for path in ["/tmp/kiosk.journal", "tills/kiosk.journal", "/x", "/a/b/c", "./kiosk.journal"] {
    #expect(PathNames.folder(of: path) == (path as NSString).deletingLastPathComponent, "'\(path)'")
  }
  #expect(PathNames.folder(of: "kiosk.journal") == "")
}

@Test func aStandardizedPathIsURLsStandardizedFilePath() {
  let cases = paths + ["/a/./b/../c", "/..", "/../a", "a/../../b", "/a//b///c/", ".", "..", "/a/b/..", "/a/b/."]
  for path in cases where !path.isEmpty {
    #expect(
      PathNames.standardized(path) == URL(fileURLWithPath: path).standardizedFileURL.path, "'\(path)'")
  }
  #expect(PathNames.standardized("") == FileManager.default.currentDirectoryPath)
  #expect(PathNames.standardized("/a/b/../../..") == "/", "`..` at the root stays there")
}

@Test func aTillsPathResolvesThroughLinksDotsAndALinkToAFileNotMadeYet() throws {
  let made = FileManager.default.temporaryDirectory.appendingPathComponent("resolve-\(UUID().uuidString)").path
  try FileManager.default.createDirectory(atPath: made + "/sub", withIntermediateDirectories: true)
  defer { try? FileManager.default.removeItem(atPath: made) }
  let folder = try #require(
    realpath(made, nil).map { pointer in
      defer { free(pointer) }
      return String(cString: pointer)
    })
  FileManager.default.createFile(atPath: folder + "/kiosk.journal", contents: Data())
  try FileManager.default.createSymbolicLink(atPath: folder + "/via", withDestinationPath: folder)
  try FileManager.default.createSymbolicLink(
    atPath: folder + "/new.journal", withDestinationPath: "sub/../later.journal")

  #expect(TillFiles.resolve(folder + "/via/./sub/../kiosk.journal") == folder + "/kiosk.journal")
  #expect(TillFiles.resolve(folder + "/via/new.journal") == folder + "/later.journal", "the link is followed")
  #expect(TillFiles.resolve(folder + "/via/sub/not-yet.journal") == folder + "/sub/not-yet.journal")
  #expect(TillFiles.resolve("/no-such-folder-\(UUID().uuidString)/a/../b").hasSuffix("/b"))
}
