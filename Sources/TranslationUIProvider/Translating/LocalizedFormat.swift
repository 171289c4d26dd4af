import Foundation

/// Fills a localized format (`"Traducido por %@"`, `"%2$@ de %1$@"`) with
/// the values a `String.LocalizationValue` interpolated.
enum LocalizedFormat {
  /// `format` with its specifiers filled; nil when it asks for more values
  /// than there are, or for one of another kind (a translation that does
  /// not fit its key), which C's formatting would read past its arguments.
  static func fill(_ format: String, with arguments: [String.LocalizationValue.Argument], locale: Locale?) -> String? {
    guard !arguments.isEmpty else { return format }
    guard let wanted = specifiers(in: format) else { return nil }
    var next = 0
    for (position, conversion) in wanted {
      let index = position.map { $0 - 1 } ?? next
      next = index + 1
      guard arguments.indices.contains(index), fits(conversion, arguments[index]) else { return nil }
    }
    return String(format: format, locale: locale, arguments: arguments.map(\.cVarArg))
  }

  /// Each specifier's position (`%2$@`: 2) and conversion character; `%%`
  /// is none. Nil for a `*` width, which takes a value of its own.
  private static func specifiers(in format: String) -> [(position: Int?, conversion: Character)]? {
    var found: [(Int?, Character)] = []
    var characters = format[...]
    while let percent = characters.firstIndex(of: "%") {
      characters = characters[characters.index(after: percent)...]
      var digits = ""
      var position: Int?
      while let character = characters.first {
        characters = characters.dropFirst()
        if character == "%" && digits.isEmpty { break }
        if character == "*" { return nil }
        if character == "$" {
          position = Int(digits.filter(\.isNumber))
          continue
        }
        if character.isLetter && !"hlqLjzt".contains(character) || character == "@" {
          found.append((position, character))
          break
        }
        digits.append(character)
      }
    }
    return found
  }

  private static func fits(_ conversion: Character, _ argument: String.LocalizationValue.Argument) -> Bool {
    switch argument {
    case .object: conversion == "@"
    case .signed, .unsigned: "diouxXc".contains(conversion)
    case .double, .float: "fFeEgGaA".contains(conversion)
    }
  }
}

extension String.LocalizationValue.Argument {
  var cVarArg: any CVarArg {
    switch self {
    case .object(let text): text
    case .signed(let value): value
    case .unsigned(let value): value
    case .double(let value): value
    // C's variadic calls pass a float as a double.
    case .float(let value): Double(value)
    }
  }
}
