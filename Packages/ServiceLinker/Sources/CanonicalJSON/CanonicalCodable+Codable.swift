#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

// A value that is `Codable` gets its canonical form from its coding keys, so
// an adopter declares `struct State: Codable, CanonicalCodable {}` and writes no
// JSON by hand. A type that writes `canonical` and `init(canonical:)` itself
// (as the kiosk's slices do, for their bounds and messages) keeps its own.

extension CanonicalEncodable where Self: Encodable {
  /// The value as `JSONEncoder` writes it (dates as UTC to the second) and
  /// the strict parser reads it back, built without the text
  /// (`JSONValueEncoder`). The canonical form has no floating-point numbers:
  /// a value that encodes one with a fraction (a `Double`, a `Decimal`) is a
  /// programming error, and stops here with the path of that value.
  public var canonical: JSONValue {
    do {
      return try JSONValue(encoding: self)
    } catch let error as CanonicalError {
      preconditionFailure(
        "\(Self.self) has no canonical form at '\(error.path)': \(error.reason); encode money as integer minor "
          + "units or a string, never as a floating-point number")
    } catch {
      preconditionFailure("\(Self.self) could not be encoded: \(error)")
    }
  }
}

extension JSONValue {
  /// The canonical value of an `Encodable` value, as `JSONEncoder` writes it
  /// (dates as UTC to the second) and the strict parser reads it, built
  /// without the text; what the parser would refuse is thrown, with its path.
  public init(encoding value: some Encodable) throws(CanonicalError) {
    self = try JSONValueEncoder.encode(value)
  }
}

extension CanonicalCodable where Self: Decodable {
  /// Reads the value through `JSONDecoder` from its canonical text; a
  /// decoding error becomes one line with the path of the value that is wrong.
  public init(canonical cursor: JSONCursor) throws(CanonicalError) {
    let decoder = JSONDecoder()
    decoder.dateDecodingStrategy = .iso8601
    do {
      self = try decoder.decode(Self.self, from: Data(cursor.value.compactBytes))
    } catch let error as DecodingError {
      throw CanonicalError(decoding: error, under: cursor.path)
    } catch {
      throw cursor.fail("\(error)")
    }
  }
}

extension CanonicalError {
  /// The one-line form of a `DecodingError`, at its coding path under `base`.
  init(decoding error: DecodingError, under base: String) {
    let (context, reason): (DecodingError.Context, String) =
      switch error {
      case .keyNotFound(let key, let context):
        (
          DecodingError.Context(codingPath: context.codingPath + [key], debugDescription: ""),
          "missing key '\(key.stringValue)'"
        )
      case .typeMismatch(let type, let context): (context, "expected \(type)")
      case .valueNotFound(let type, let context): (context, "expected \(type), found null")
      case .dataCorrupted(let context): (context, context.debugDescription)
      @unknown default: (DecodingError.Context(codingPath: [], debugDescription: ""), "\(error)")
      }
    var path = base
    for key in context.codingPath {
      if let index = key.intValue {
        path += "[\(index)]"
      } else {
        path += path.isEmpty ? key.stringValue : ".\(key.stringValue)"
      }
    }
    self.init(path: path, reason: reason)
  }
}
