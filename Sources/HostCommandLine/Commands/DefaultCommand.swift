import Core

/// `translation-host default`: which provider `run` uses, and why.
struct DefaultCommand: Command {
  static let name = "default"
  static let abstract = "Show the default provider."
  static let usage = "[--explain] [--json]"
  static let discussion = """
    Prints the bundle id of the provider that 'run' and 'translate' use when
    --provider is absent. With --explain, says how it was chosen: your list of
    preferred defaults, which entries were skipped and why, or the rule used
    when none is usable (the first search folder with an eligible provider,
    lowest bundle id there).
    """
  static let options: [OptionSpec] = [
    .flag("explain", help: "Say how the default was chosen."),
    .flag("json", help: "Print a JSON object with the id, path and explanation."),
  ]

  var explain: Bool
  var json: Bool

  init(_ arguments: ParsedArguments) throws(CommandError) {
    guard arguments.positionals.isEmpty else { throw .usage("unexpected argument '\(arguments.positionals[0])'", of: Self.self) }
    explain = arguments.has("explain")
    json = arguments.has("json")
  }

  private struct Report: Encodable {
    var id: String?
    var path: String?
    var configured: [String]
    var explanation: [String]
  }

  func run(in context: CommandContext) throws -> ExitCode {
    let output = context.output
    let context = try RegistryContext()
    let choice = context.choice
    var explanation = context.ignoredPreferences.map { "ignored the line '\($0)' of your preferences: not a bundle id" }
    explanation += choice.explanation
    if json {
      try output.json(
        Report(id: choice.entry?.identifier, path: choice.entry?.path, configured: context.preferences, explanation: explanation))
    } else {
      if let identifier = choice.entry?.identifier { try output.data(identifier + "\n") }
      if explain { try output.data(explanation.map { "  \($0)\n" }.joined()) }
    }
    guard choice.entry != nil else {
      throw RegistryError.noProviders(searched: context.snapshot.searchPath.folders.map(\.path))
    }
    return .success
  }
}
