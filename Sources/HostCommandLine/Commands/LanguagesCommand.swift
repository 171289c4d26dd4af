import System

/// `translation-host languages`: what a provider translates, as Apple's `LanguageAvailability`.
struct LanguagesCommand: Command {
  static let name = "languages"
  static let abstract = "List the language pairs a provider translates, and their status."
  static let usage = "[--from <tag>] [--to <tag>] [--json] [--provider <id|path>]"
  static let discussion = """
    Each pair is 'installed' (ready now), 'supported' (possible once something
    is installed; the note says what) or 'unsupported'. With --from and --to,
    prints the status of that one pair, as Apple's LanguageAvailability.status
    does; a same-language pair is unsupported.
    """
  static let options: [OptionSpec] =
    [
      .option("from", "tag", help: "Only pairs from this language."),
      .option("to", "tag", help: "Only pairs into this language."),
      .flag("json", help: "Print a JSON array of {source, target, status, note}."),
    ] + ProviderOptions.specs

  var provider: ProviderOptions
  var source: String?
  var target: String?
  var json: Bool

  init(_ arguments: ParsedArguments) throws(CommandError) {
    guard arguments.positionals.isEmpty else { throw .usage("unexpected argument '\(arguments.positionals[0])'", of: Self.self) }
    provider = try ProviderOptions(arguments, command: Self.self)
    source = arguments.value("from")
    target = arguments.value("to")
    json = arguments.has("json")
  }

  private struct Pair: Encodable {
    var source: String
    var target: String
    var status: String
    var note: String
  }

  func run(in context: CommandContext) throws -> ExitCode {
    let output = context.output
    let client = try provider.launchTranslator(in: context)
    defer { client.close() }
    let known = try client.languages()
    var pairs = known.filter { pair in
      (source.map { Self.same($0, pair.source) } ?? true) && (target.map { Self.same($0, pair.target) } ?? true)
    }.map { Pair(source: $0.source, target: $0.target, status: $0.availability.rawValue, note: $0.note) }
    if let source, let target, pairs.isEmpty {
      pairs = [
        Pair(source: source, target: target, status: "unsupported", note: Self.same(source, target) ? "same language" : "")
      ]
    }
    if json {
      try output.json(pairs)
    } else if source != nil && target != nil, let pair = pairs.first {
      try output.data(pair.status + "\n")
    } else {
      try output.data(
        pairs.map {
          "\($0.source) → \($0.target)  \($0.status)\($0.note.isEmpty ? "" : "  (\($0.note))")"
            .escapingControlCharacters(keeping: []) + "\n"
        }.joined())
    }
    return .success
  }

  /// Language tags compare without regard to case.
  private static func same(_ a: String, _ b: String) -> Bool { a.lowercased() == b.lowercased() }
}
