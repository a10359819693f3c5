/// Where a chain's tills send their closed days; each world links one implementation.
///
/// A day is stored exactly once per till: the first delivery stores it whole (its
/// records, its Z report and its digest, in one transaction); any later delivery
/// of the same day with the same digest changes nothing; one with another digest
/// is refused. So a till may resend after any failure without doubling anything.
public protocol HeadOfficeService {
  /// Stores `day` unless the head office already holds it.
  mutating func ship(_ day: TillDay) throws(HeadOfficeError) -> Shipment
  /// The days the head office holds for `till`, under its name or any name it
  /// had before (`rename`): each day's number and digest.
  mutating func heldDays(of till: String) throws(HeadOfficeError) -> [Int: String]
  /// Records that the till named `till` is named `name` from now on. Its days
  /// stay where they are, under the name they were shipped with, and count as
  /// the till's under either. Refused (`nameTaken`) when `name` holds days of
  /// another till or was a till's name before, or `till` was renamed already.
  mutating func rename(till: String, to name: String) throws(HeadOfficeError) -> Renaming
}
