/// A subcommand of `translation-host`: its name, help, options, and what it does.
protocol Command: Sendable {
  /// The word that selects it, as in `translation-host run`.
  static var name: String { get }
  /// One line for the command list.
  static var abstract: String { get }
  /// Paragraphs after the abstract in `--help`.
  static var discussion: String { get }
  /// The usage line after `translation-host <name>`.
  static var usage: String { get }
  /// Positional arguments, for the ARGUMENTS heading.
  static var arguments: [(name: String, help: String)] { get }
  /// Options, for parsing and for the OPTIONS heading.
  static var options: [OptionSpec] { get }

  /// Builds the command from parsed arguments.
  init(_ arguments: ParsedArguments) throws(CommandError)

  /// Does the work, with what `context` gives of the world: its output goes
  /// through `context.output`, providers start through `context.launcher`.
  func run(in context: CommandContext) throws -> ExitCode
}

extension Command {
  static var discussion: String { "" }
  static var arguments: [(name: String, help: String)] { [] }

  /// The full `--help` text.
  static var help: String {
    var text = "OVERVIEW: \(abstract)\n"
    if !discussion.isEmpty { text += "\n\(discussion)\n" }
    text += "\nUSAGE: translation-host \(name) \(usage)\n"
    if !arguments.isEmpty {
      text += "\nARGUMENTS:\n" + arguments.map { "  \($0.name.padding(24))\($0.help)\n" }.joined()
    }
    text += "\nOPTIONS:\n" + (options + [.help]).map { "  \($0.synopsis.padding(24))\($0.help)\n" }.joined()
    text += "\n" + ExitCode.table + "\n"
    return text
  }
}

extension String {
  /// The string padded with spaces to `width`, or followed by a line break
  /// and that much indentation when it is too long.
  func padding(_ width: Int) -> String {
    count < width - 1 ? self + String(repeating: " ", count: width - count) : self + "\n  " + String(repeating: " ", count: width)
  }
}
