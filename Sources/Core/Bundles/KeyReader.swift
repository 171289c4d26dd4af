/// Reads typed values out of a property-list dictionary, collecting a
/// `ManifestError` for each key that is missing, mistyped or invalid.
struct KeyReader {
  let entries: [String: PropertyListValue]
  let file: String
  var prefix = ""
  private(set) var problems: [ManifestError] = []

  init(entries: [String: PropertyListValue], file: String, prefix: String = "") {
    self.entries = entries
    self.file = file
    self.prefix = prefix
  }

  /// Records a problem found by the caller.
  mutating func report(_ problem: ManifestError) { problems.append(problem) }

  /// A required string; `invalid` returns why a value is unacceptable, or nil.
  mutating func string(_ key: String, invalid: (String) -> String? = { _ in nil }) -> String? {
    guard entries[key] != nil else {
      problems.append(.missingKey(file: file, key: prefix + key))
      return nil
    }
    guard let value = optionalString(key) else { return nil }
    if let reason = invalid(value) {
      problems.append(.invalidValue(file: file, key: prefix + key, value: value, reason: reason))
      return nil
    }
    return value
  }

  /// An optional string.
  mutating func optionalString(_ key: String) -> String? {
    switch entries[key] {
    case nil: return nil
    case .string(let value)?: return value
    case let other?:
      problems.append(.wrongType(file: file, key: prefix + key, expected: "string", found: other.typeName))
      return nil
    }
  }

  /// An optional Boolean.
  mutating func boolean(_ key: String) -> Bool? {
    switch entries[key] {
    case nil: return nil
    case .boolean(let value)?: return value
    case let other?:
      problems.append(.wrongType(file: file, key: prefix + key, expected: "boolean", found: other.typeName))
      return nil
    }
  }

  /// A required dictionary.
  mutating func dictionary(_ key: String) -> [String: PropertyListValue]? {
    switch entries[key] {
    case nil:
      problems.append(.missingKey(file: file, key: prefix + key))
      return nil
    case .dictionary(let value)?: return value
    case let other?:
      problems.append(.wrongType(file: file, key: prefix + key, expected: "dictionary", found: other.typeName))
      return nil
    }
  }
}
