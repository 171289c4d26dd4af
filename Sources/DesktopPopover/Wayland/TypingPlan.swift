/// A text as a virtual keyboard types it: XKB keymaps in which each key
/// makes one character of the text, and the keys to press, in order. As a
/// person's keyboard cannot type every character, the keymap is made for
/// the text: a key per distinct character (its keysym `Uxxxx`, which
/// xkbcommon reads as that character), a line break as Return, a tab as
/// Tab. Keycodes stay within 9…255, the ones X clients (Xwayland) can
/// receive, so a text of more distinct characters is typed in parts, each
/// with its own keymap.
///
/// A control character other than a line break or a tab is refused: typed,
/// it would be a key with no character, or a command to the application.
struct TypingPlan: Equatable {
  /// One keymap and the keys typed with it.
  struct Part: Equatable {
    /// An XKB keymap (text), which the compositor and the application compile.
    var keymap: String
    /// Evdev key codes (the keymap's keycodes less 8), pressed and released in order.
    var keys: [UInt32]
  }

  /// Why a text cannot be typed.
  enum Refusal: Error, Equatable {
    /// A control character (not a line break or a tab), at this offset in scalars.
    case controlCharacter(Unicode.Scalar, offset: Int)
    /// More characters than `maximumLength`.
    case tooLong(count: Int)
    /// Nothing to type.
    case empty

    var description: String {
      switch self {
      case .controlCharacter(let scalar, let offset):
        "the translation holds the control character U+\(Self.hex(scalar.value)) (character \(offset + 1)), which cannot be typed"
      case .tooLong(let count):
        "the translation is too long to type (\(count) characters; at most \(TypingPlan.maximumLength))"
      case .empty: "the translation is empty: there is nothing to type"
      }
    }

    fileprivate static func hex(_ value: UInt32) -> String {
      let digits = String(value, radix: 16, uppercase: true)
      return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }
  }

  /// The longest text typed, in Unicode scalars: typing is a round trip to
  /// the compositor per key, and a provider's answer may be any size.
  static let maximumLength = 10_000
  /// Keycodes X clients can receive: 8…255, less 8 itself (evdev code 0, no key).
  static let keycodes: ClosedRange<UInt32> = 9...255

  let parts: [Part]
  /// How many keys in all.
  var count: Int { parts.reduce(0) { $0 + $1.keys.count } }

  init(_ text: String) throws(Refusal) {
    let scalars = try Self.scalars(of: text)
    var parts: [Part] = []
    var symbols: [String] = []
    var keycodeOf: [String: UInt32] = [:]
    var keys: [UInt32] = []
    for (offset, scalar) in scalars.enumerated() {
      guard let symbol = Self.keysym(scalar) else { throw .controlCharacter(scalar, offset: offset) }
      if keycodeOf[symbol] == nil {
        if symbols.count == Self.keycodes.count {
          parts.append(Part(keymap: Self.keymap(symbols), keys: keys))
          (symbols, keycodeOf, keys) = ([], [:], [])
        }
        keycodeOf[symbol] = Self.keycodes.lowerBound + UInt32(symbols.count)
        symbols.append(symbol)
      }
      keys.append(keycodeOf[symbol]! - 8)
    }
    parts.append(Part(keymap: Self.keymap(symbols), keys: keys))
    self.parts = parts
  }

  /// The text's scalars as they are typed: a CR LF pair, and a lone CR, as
  /// one line break.
  /// - Throws: when the text is empty or longer than `maximumLength`.
  static func scalars(of text: String) throws(Refusal) -> [Unicode.Scalar] {
    var scalars: [Unicode.Scalar] = []
    for scalar in text.unicodeScalars {
      if scalar == "\n", scalars.last == "\r" {
        scalars[scalars.count - 1] = scalar
      } else {
        scalars.append(scalar)
      }
    }
    guard !scalars.isEmpty else { throw .empty }
    guard scalars.count <= Self.maximumLength else { throw .tooLong(count: scalars.count) }
    return scalars
  }

  /// The text as X keysyms, one per character, as the RemoteDesktop
  /// portal's `NotifyKeyboardKeysym` takes them: Latin-1 characters are
  /// their own keysym, others `0x01000000` + the code point (X11's rule for
  /// Unicode keysyms), a line break Return (`0xff0d`), a tab Tab (`0xff09`).
  /// - Throws: the refusals of `init`: a control character, an empty or too long text.
  static func keysyms(_ text: String) throws(Refusal) -> [UInt32] {
    var keysyms: [UInt32] = []
    for (offset, scalar) in try scalars(of: text).enumerated() {
      guard keysym(scalar) != nil else { throw .controlCharacter(scalar, offset: offset) }
      switch scalar.value {
      case 0x0A, 0x0D: keysyms.append(0xFF0D)
      case 0x09: keysyms.append(0xFF09)
      case 0x20...0x7E, 0xA0...0xFF: keysyms.append(scalar.value)
      default: keysyms.append(0x0100_0000 + scalar.value)
      }
    }
    return keysyms
  }

  /// The keysym's name for `scalar`, nil for a control character that is not typed.
  static func keysym(_ scalar: Unicode.Scalar) -> String? {
    switch scalar.value {
    case 0x0A, 0x0D: "Return"
    case 0x09: "Tab"
    case 0..<0x20, 0x7F..<0xA0: nil
    default: "U" + Refusal.hex(scalar.value)
    }
  }

  /// A keymap whose keycode 9 + n makes `symbols[n]`, at every level. Types
  /// and compatibility are xkeyboard-config's `complete`, as every
  /// desktop's keymap has them (Debian's xkb-data).
  static func keymap(_ symbols: [String]) -> String {
    let first = keycodes.lowerBound
    var text = "xkb_keymap {\nxkb_keycodes \"translation-host\" {\n"
    text += "  minimum = 8;\n  maximum = \(first + UInt32(max(symbols.count, 1)) - 1);\n"
    for index in symbols.indices { text += "  <T\(first + UInt32(index))> = \(first + UInt32(index));\n" }
    text += "};\nxkb_types \"translation-host\" { include \"complete\" };\n"
    text += "xkb_compatibility \"translation-host\" { include \"complete\" };\n"
    text += "xkb_symbols \"translation-host\" {\n"
    for (index, symbol) in symbols.enumerated() { text += "  key <T\(first + UInt32(index))> { [ \(symbol) ] };\n" }
    text += "};\n};\n"
    return text
  }
}
