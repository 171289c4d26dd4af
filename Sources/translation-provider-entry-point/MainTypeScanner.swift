/// Finds the type a module marks `@main` in its Swift sources, without a
/// parser: comments and string literals are skipped, then `@main` is
/// followed by other attributes and modifiers up to `class`, `struct`,
/// `enum` or `actor` and the type's name.
struct MainTypeScanner {
  /// The `@main` type: its name, and whether other files of the module can
  /// see it (a `private` or `fileprivate` type cannot be extended there).
  struct MainType: Equatable {
    var name: String
    var isVisibleToTheModule: Bool
  }

  /// The `@main` type declared in `source`, or nil.
  static func mainType(in source: String) -> MainType? {
    let words = tokens(of: source)
    guard let start = words.firstIndex(of: "@main") else { return nil }
    var isVisible = true
    var index = words.index(after: start)
    while index < words.endIndex {
      let word = words[index]
      switch word {
      case "class", "struct", "enum", "actor":
        let name = words.index(after: index)
        guard name < words.endIndex, words[name].first.map(isIdentifierStart) == true else { return nil }
        return MainType(name: words[name], isVisibleToTheModule: isVisible)
      case "private", "fileprivate":
        isVisible = false
      case "(":
        // An attribute's arguments, `@available(...)`: skipped to the closing parenthesis.
        var depth = 0
        while index < words.endIndex {
          if words[index] == "(" { depth += 1 }
          if words[index] == ")" { depth -= 1 }
          if depth == 0 { break }
          index += 1
        }
      default:
        break
      }
      index += 1
    }
    return nil
  }

  /// Identifiers, attributes (`@main`) and punctuation of `source`, without
  /// its comments and string literals.
  static func tokens(of source: String) -> [String] {
    var tokens: [String] = []
    let characters = Array(source.unicodeScalars)
    var index = 0
    func peek(_ offset: Int) -> Unicode.Scalar? {
      index + offset < characters.count ? characters[index + offset] : nil
    }
    while index < characters.count {
      let character = characters[index]
      if character == "/" && peek(1) == "/" {
        while index < characters.count && characters[index] != "\n" { index += 1 }
      } else if character == "/" && peek(1) == "*" {
        // Block comments nest in Swift.
        var depth = 0
        repeat {
          if characters[index] == "/" && peek(1) == "*" {
            depth += 1
            index += 2
          } else if characters[index] == "*" && peek(1) == "/" {
            depth -= 1
            index += 2
          } else {
            index += 1
          }
        } while depth > 0 && index < characters.count
      } else if character == "#" || character == "\"" {
        index = endOfString(characters, from: index) ?? index + 1
      } else if character == "@" || isIdentifierStart(character) {
        var word = String(character)
        index += 1
        while index < characters.count && isIdentifierPart(characters[index]) {
          word.unicodeScalars.append(characters[index])
          index += 1
        }
        tokens.append(word)
      } else {
        if !character.properties.isWhitespace { tokens.append(String(character)) }
        index += 1
      }
    }
    return tokens
  }

  /// The index after the string literal that starts at `start` (`"…"`,
  /// `"""…"""`, with any number of `#` around it); nil when none starts there.
  private static func endOfString(_ characters: [Unicode.Scalar], from start: Int) -> Int? {
    var index = start
    var hashes = 0
    while index < characters.count && characters[index] == "#" {
      hashes += 1
      index += 1
    }
    guard index < characters.count, characters[index] == "\"" else { return nil }
    let isMultiline = index + 2 < characters.count && characters[index + 1] == "\"" && characters[index + 2] == "\""
    let quotes = isMultiline ? 3 : 1
    index += quotes
    while index < characters.count {
      if characters[index] == "\\" && hashes == 0 {
        index += 2
        continue
      }
      if characters[index] == "\"" {
        var end = index
        var closing = 0
        while end < characters.count && characters[end] == "\"" && closing < quotes {
          closing += 1
          end += 1
        }
        var trailing = 0
        while end < characters.count && characters[end] == "#" && trailing < hashes {
          trailing += 1
          end += 1
        }
        if closing == quotes && trailing == hashes { return end }
      }
      index += 1
    }
    return characters.count
  }

  private static func isIdentifierStart(_ character: Unicode.Scalar) -> Bool {
    character == "_" || character.properties.isAlphabetic
  }

  private static func isIdentifierPart(_ character: Unicode.Scalar) -> Bool {
    isIdentifierStart(character) || ("0"..."9").contains(character)
  }

  private static func isIdentifierStart(_ character: Character) -> Bool {
    character.unicodeScalars.first.map { isIdentifierStart($0) } ?? false
  }
}
