import Foundation

extension String {
  /// A localizable string as Foundation's `String.LocalizationValue` makes
  /// it from a literal: the key to look up, with a format specifier where
  /// the literal interpolated a value (`"\(count) words"` has the key
  /// `"%lld words"`), and the values. (Foundation on Linux has no
  /// `String(localized:)`; the SDK gives it, reading the provider's bundle.)
  public struct LocalizationValue: Equatable, Sendable, ExpressibleByStringInterpolation {
    /// One interpolated value, as it fills its format specifier.
    enum Argument: Equatable, Sendable {
      case object(String)
      case signed(Int64)
      case unsigned(UInt64)
      case double(Double)
      case float(Float)

      var specifier: String {
        switch self {
        case .object: "%@"
        case .signed: "%lld"
        case .unsigned: "%llu"
        case .double: "%lf"
        case .float: "%f"
        }
      }
    }

    /// The key: the literal with `%%` for each `%` and a specifier for each
    /// value when there are values; the literal as it is when there are none.
    let key: String
    let arguments: [Argument]

    /// A value made of the literal `value` alone.
    public init(_ value: String) {
      key = value
      arguments = []
    }

    public init(stringLiteral value: String) { self.init(value) }

    public init(stringInterpolation: StringInterpolation) {
      if stringInterpolation.arguments.isEmpty {
        key = stringInterpolation.literal
      } else {
        key = stringInterpolation.format
      }
      arguments = stringInterpolation.arguments
    }

    /// The value with its specifiers filled from `arguments`: what a lookup
    /// that finds nothing shows.
    var defaultString: String { LocalizedFormat.fill(key, with: arguments, locale: nil) ?? key }

    /// Builds a `LocalizationValue` from a literal and its interpolations.
    public struct StringInterpolation: StringInterpolationProtocol {
      var literal = ""
      var format = ""
      var arguments: [Argument] = []

      public init(literalCapacity: Int, interpolationCount: Int) {
        literal.reserveCapacity(literalCapacity)
        format.reserveCapacity(literalCapacity + 4 * interpolationCount)
      }

      public mutating func appendLiteral(_ literal: String) {
        self.literal += literal
        format += literal.replacingOccurrences(of: "%", with: "%%")
      }

      public mutating func appendInterpolation(_ string: String) { append(.object(string)) }

      public mutating func appendInterpolation(_ value: some SignedInteger) { append(.signed(Int64(value))) }

      public mutating func appendInterpolation(_ value: some UnsignedInteger) { append(.unsigned(UInt64(value))) }

      public mutating func appendInterpolation(_ value: Double) { append(.double(value)) }

      public mutating func appendInterpolation(_ value: Float) { append(.float(value)) }

      /// Any other value, by its description (`%@`).
      public mutating func appendInterpolation(_ value: some CustomStringConvertible) {
        append(.object(value.description))
      }

      /// A value of any other type, as `String(describing:)` shows it (`%@`).
      public mutating func appendInterpolation<Value>(_ value: Value) {
        append(.object(String(describing: value)))
      }

      /// The characters of an attributed string (`%@`).
      public mutating func appendInterpolation(_ value: AttributedString) {
        append(.object(String(value.characters)))
      }

      // `literal` only matters without values: it is not kept up with them.
      private mutating func append(_ argument: Argument) {
        format += argument.specifier
        arguments.append(argument)
      }
    }
  }
}
