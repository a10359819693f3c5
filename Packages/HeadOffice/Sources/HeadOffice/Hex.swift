/// Numbers in lowercase hex, zero-padded: how salts and CRCs are written in
/// the head office's rows, in a till's notes and in messages, everywhere alike.
public enum Hex {
  /// `value` in lowercase hex, at least `digits` wide (`0000beef`).
  public static func lowercase(_ value: UInt64, digits: Int) -> String {
    let text = String(value, radix: 16)
    return String(repeating: "0", count: max(0, digits - text.count)) + text
  }
}
