extension HasHeadOffice where Self: ~Copyable {
  /// Ships `day` to the linked head office, once. Writes: headOffice.
  @inlinable public mutating func shipToHeadOffice(_ day: TillDay) throws(HeadOfficeError) -> Shipment {
    try headOffice.ship(day)
  }

  /// Renames `till` to `name` at the linked head office. Writes: headOffice.
  @inlinable public mutating func renameAtHeadOffice(till: String, to name: String) throws(HeadOfficeError)
    -> Renaming
  {
    try headOffice.rename(till: till, to: name)
  }

  /// The days of `till` the linked head office holds, with their digests.
  /// Writes: headOffice (a link may open its connection).
  @inlinable public mutating func daysAtHeadOffice(of till: String) throws(HeadOfficeError) -> [Int: String] {
    try headOffice.heldDays(of: till)
  }
}
