import Foundation
import PostgresTestServer
import Testing

// The head office's client, libpq, and the TLS, Kerberos and LDAP libraries it
// brings, are loaded by `kiosk sync` alone: no binary links them, and the
// dynamic loader's own log (LD_DEBUG=libs) says what each run loaded.

/// The libraries the dynamic loader looked for during `run`'s process, from its log.
func librariesLoaded(_ run: KioskBinary.Run) -> [String] {
  run.errors.split(separator: "\n").compactMap { line in
    line.range(of: "find library=").map { String(line[$0.upperBound...].prefix { $0 != ";" && $0 != " " }) }
  }
}

@Test func onlySyncLoadsTheHeadOfficesClient() throws {
  let journal = try TemporaryJournal()
  let kiosk = KioskBinary(journal: journal.path, owner: journal)
  let opened = try kiosk("open", "Ada", environment: ["LD_DEBUG": "libs"])
  #expect(opened.status == 0, "\(opened.errors.suffix(400))")
  let atOpen = librariesLoaded(opened)
  #expect(!atOpen.isEmpty, "the loader's log was read")
  for library in ["libpq", "libssl", "libkrb5", "libldap", "libgssapi"] {
    #expect(!atOpen.contains { $0.hasPrefix(library) }, "kiosk open loaded \(library)")
  }
  #expect(try kiosk("close-day").status == 0)
  let server = try ThrowawayPostgres.shared.get()
  let database = try server.freshDatabase()
  var environment = headOffice(server, database: database, till: "north")
  environment["LD_DEBUG"] = "libs"
  let synced = try kiosk("sync", environment: environment)
  #expect(synced.status == 0, "\(synced.errors.suffix(400))")
  #expect(librariesLoaded(synced).contains { $0.hasPrefix("libpq.so") }, "sync loads libpq when it connects")
}

@Test func noShippedBinaryLinksLibpq() throws {
  for name in ["kiosk", "kiosk-hq", "kiosk-replay"] {
    let binary = KioskBinary.url.deletingLastPathComponent().appendingPathComponent(name)
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/ldd")
    process.arguments = [binary.path]
    let pipe = Pipe()
    process.standardOutput = pipe
    try process.run()
    let text = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    #expect(process.terminationStatus == 0 && text.contains("libc.so"), "ldd \(name): \(text)")
    #expect(!text.contains("libpq"), "\(name) links libpq:\n\(text)")
  }
}
