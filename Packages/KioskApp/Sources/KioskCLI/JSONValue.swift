/// A JSON value, for `--json` output: encoded with sorted keys, so stable.
enum JSONValue: Encodable, Equatable {
  case string(String)
  case number(Int)
  case bool(Bool)
  case array([JSONValue])
  case object([String: JSONValue])
  case null

  func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    switch self {
    case .string(let value): try container.encode(value)
    case .number(let value): try container.encode(value)
    case .bool(let value): try container.encode(value)
    case .array(let value): try container.encode(value)
    case .object(let value): try container.encode(value)
    case .null: try container.encodeNil()
    }
  }
}
