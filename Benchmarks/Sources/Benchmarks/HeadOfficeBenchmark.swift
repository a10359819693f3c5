import Foundation
import HeadOffice
import PostgresTestServer

/// Shipping a day to the head office against PostgreSQL's own bulk load of
/// the same rows, on one throwaway server in one run.
enum HeadOfficeBenchmark {
  /// A day of `records` records, each a typical journal record.
  static func day(records: Int) -> TillDay {
    TillDay(
      till: "bench", day: 1, digest: "records crc32c:00000000, state crc32c:00000000",
      records: (1...records).map { sequence in
        TillDay.Record(
          sequence: sequence, kind: "settled", tab: sequence, amount: Decimal(string: "4.50"),
          body: #"{"settled":{"_0":{"chargedAt":802000000,"key":"k_fa510bf1a3401a76_\#(sequence)_t1","#
            + #""reference":"ch_a4db36fb_\#(sequence)","tab":{"raw":\#(sequence)},"total":4.5}}}"#)
      },
      sales: [TillDay.Sale(item: 1, name: "Latte", count: records, total: Decimal(string: "4.50")! * Decimal(records))],
      charged: Decimal(string: "4.50")! * Decimal(records), refunded: 0, settledTabs: records)
  }

  /// Best of `rounds`: `ship` into a fresh database, against `psql`'s `\copy` of
  /// the same rows (from a file in COPY's text form) into the same table.
  static func run(records: Int, rounds: Int) throws -> String {
    let server = try ThrowawayPostgres()
    defer { server.remove() }
    let day = day(records: records)
    var shipped = Double.infinity
    var copied = Double.infinity
    let file = server.folder + ".rows"
    defer { unlink(file) }
    // The bench's bodies hold no tab, newline or backslash: COPY's text form is the values joined.
    let text = day.records.map { record in
      ["copy", "1", String(record.sequence), record.kind, record.tab.map(String.init) ?? "\\N", "4.50", record.body]
        .joined(separator: "\t")
    }
    try (text.joined(separator: "\n") + "\n").write(toFile: file, atomically: false, encoding: .utf8)
    for _ in 0..<rounds {
      let database = try server.freshDatabase()
      var office = PostgresHeadOffice(conninfo: server.conninfo(database: database))
      _ = try office.heldDays(of: "bench")  // connects and creates the tables
      shipped = min(shipped, try timed { _ = try office.ship(day) })
      copied = min(
        copied,
        try timed {
          _ = try server.query(
            "\\copy kiosk_records (till, day, sequence, kind, tab, amount, body) FROM '\(file)'", database: database)
        })
    }
    let rows = [
      [
        "`ship` (the whole day: records by COPY, sales, the day's row, one transaction)", format(shipped * 1e3),
        format(Double(records) / shipped, decimals: 0), "1.00",
      ],
      [
        "`psql \\copy` of the same rows", format(copied * 1e3), format(Double(records) / copied, decimals: 0),
        format(copied / shipped, decimals: 2),
      ],
    ]
    return markdownTable(
      ["\(format(Double(records), decimals: 0)) records", "ms, best of \(rounds)", "records per second", "ratio"], rows)
      + "\n\nSync throughput against COPY: \(format(copied / shipped * 100, decimals: 0))% (goal, issue 27: at least 50%)."
  }
}
