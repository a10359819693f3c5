import Foundation

/// The root of the repository these tests belong to: the tests that run
/// linkgen on the real manifest, packages and build start there.
let thisRepository: URL = {
  // This file is tools/LinkGen/Tests/LinkGenCoreTests/Support/ThisRepository.swift.
  var folder = URL(fileURLWithPath: #filePath)
  for _ in 0..<6 { folder.deleteLastPathComponent() }
  return folder
}()
