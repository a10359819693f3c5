import Foundation
import Testing

@testable import HeadOffice

@Test func aLibraryThatIsNotThereIsNamedInOneLineNotACrash() {
  guard case .failure(let failure) = LibPQ.load(["libpq-that-is-not-here.so.5"]) else {
    Issue.record("a missing library loaded")
    return
  }
  #expect(failure.message.hasPrefix("libpq, PostgreSQL's client library, could not be loaded (install libpq5): "))
  #expect(failure.message.contains("libpq-that-is-not-here.so.5"))
  #expect(!failure.message.contains("\n"))
}

@Test func aLibraryWithoutLibpqsFunctionsIsRefusedNamingWhatItLacks() {
  // libc loads, but holds none of libpq's functions.
  guard case .failure(let failure) = LibPQ.load(["libc.so.6"]) else {
    Issue.record("libc passed for libpq")
    return
  }
  #expect(failure.message.contains("libc.so.6 lacks PQconnectdb, PQstatus"), "\(failure.message)")
}

@Test func libpqLoadsAndAConnectionThatFailsSaysWhy() throws {
  guard case .success = LibPQ.shared else {
    Issue.record("libpq did not load: \(LibPQ.shared)")
    return
  }
  #expect(PostgresConnection.libraryIsLoaded)
  #expect(throws: PostgresConnection.Failure.self) {
    try PostgresConnection("host=/nonexistent-socket-folder dbname=hq connect_timeout=1")
  }
}
