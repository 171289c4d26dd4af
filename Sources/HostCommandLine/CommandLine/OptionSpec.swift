/// An option a command accepts.
struct OptionSpec: Sendable {
  /// The long name without dashes, as in `provider` for `--provider`.
  var name: String
  /// The value's placeholder, or nil for a flag.
  var valueName: String?
  /// One line of help.
  var help: String
  /// Whether it may be given more than once.
  var isRepeatable = false

  static func flag(_ name: String, help: String) -> OptionSpec {
    OptionSpec(name: name, valueName: nil, help: help)
  }

  static func option(_ name: String, _ valueName: String, help: String, repeatable: Bool = false) -> OptionSpec {
    OptionSpec(name: name, valueName: valueName, help: help, isRepeatable: repeatable)
  }

  static let help = OptionSpec.flag("help", help: "Show help information.")

  var synopsis: String { valueName.map { "--\(name) <\($0)>" } ?? "--\(name)" }
}
