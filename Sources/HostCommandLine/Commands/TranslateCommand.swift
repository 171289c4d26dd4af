import Core
import FoundationEssentials

/// `translation-host translate`: headless translation for scripts.
struct TranslateCommand: Command {
  static let name = "translate"
  static let abstract = "Translate a text with a provider's headless capability."
  static let usage =
    "[<text>] [--from <tag>] [--to <tag>] [--lines] [--json] [--raw] [--provider <id|path>] [--timeout <seconds>]"
  static let discussion = """
    Writes the translation, and a newline, to stdout. The text is the argument,
    or stdin without its trailing newline. With --lines, each line of stdin is
    its own request: translations come out one per line, in order, as input
    arrives. With --json, each result is a JSON object with sourceLanguage,
    targetLanguage, sourceText, targetText and, when the request had one,
    clientIdentifier; with --lines --json, an input line may itself be a JSON
    object {"sourceText": …, "clientIdentifier": …}. The provider must
    implement the translate capability (tp.translate/1).

    Translations are clean text, as apps get them from the Translation
    library: the Apertium provider leaves out its marks on unknown words (*,
    #) and the blanks at either end. --raw prints the provider's exact output
    instead (for Apertium, what `apertium <pair>` prints): it sets the
    provider's setting 'marks' for this command, so the provider runs here,
    not in the resident service.
    """
  static let arguments = [(name: "<text>", help: "The text to translate (default: read stdin).")]
  static let options: [OptionSpec] =
    [
      .option("from", "tag", help: "Language of the text, such as 'en' (default: detected, if reliably)."),
      .option("to", "tag", help: "Language to translate into (default: your preferred language that is not the source)."),
      .flag("lines", help: "Translate each line of stdin on its own, streaming."),
      .flag("json", help: "Print one JSON object per request (with --lines, input lines may be JSON requests too)."),
      .flag(
        "raw", help: "The provider's exact output, marks and blanks included (its setting 'marks'; not through the service)."),
    ] + ProviderOptions.specs

  var provider: ProviderOptions
  var text: String?
  var source: String?
  var target: String?
  var lines: Bool
  var json: Bool

  init(_ arguments: ParsedArguments) throws(CommandError) {
    guard arguments.positionals.count <= 1 else {
      throw .usage("expected one text, got \(arguments.positionals.count); quote the text", of: Self.self)
    }
    provider = try ProviderOptions(arguments, command: Self.self)
    if arguments.has("raw") { provider.settingOverrides[Self.marksSetting] = .boolean(true) }
    text = arguments.positionals.first
    source = arguments.value("from")
    target = arguments.value("to")
    lines = arguments.has("lines")
    json = arguments.has("json")
    if lines, text != nil { throw .usage("--lines reads stdin; drop the <text> argument", of: Self.self) }
  }

  func run(in context: CommandContext) throws -> ExitCode {
    let output = context.output
    if lines { return try translateLines(in: context) }
    let input = try InputText.read(argument: text, command: Self.self, optionName: "a <text> argument")
    guard !input.text.isEmpty else { throw CommandError("nothing to translate: the text is empty", exitCode: .invalidInput) }
    let (source, target) = try Self.languages(
      source, target, text: input.text, environment: context.environment, command: Self.self)
    let client = try provider.launchTranslator(in: context)
    defer { client.close() }
    let translation = try client.translateFallingBack([input.text], from: source, to: target)[0]
    if json {
      try output.data(try TranslationRecord(source, target, input.text, translation, nil).jsonLine())
    } else {
      try output.data(translation + "\n")
    }
    return .success
  }

  /// One request per line of stdin, in batches of what has arrived. Without
  /// `--from`, the language is detected once, on the first batch: a batch is
  /// in one source language, as Apple's are.
  private func translateLines(in context: CommandContext) throws -> ExitCode {
    let output = context.output
    var reader = LineReader()
    guard let first = try reader.nextBatch().map(requests) else { return .success }
    let sample = first.map(\.text).joined(separator: "\n")
    let (source, target) = try Self.languages(source, target, text: sample, environment: context.environment, command: Self.self)
    let client = try provider.launchTranslator(in: context)
    defer { client.close() }
    var batch: [(text: String, identifier: String?)]? = first
    while let lines = batch {
      let translations = try client.translateFallingBack(lines.map(\.text), from: source, to: target)
      if json {
        try output.data(
          try zip(lines, translations).map { try TranslationRecord(source, target, $0.text, $1, $0.identifier).jsonLine() }
            .joined())
      } else {
        try output.data(translations.map { $0 + "\n" }.joined())
      }
      batch = try reader.nextBatch().map(requests)
    }
    return .success
  }

  /// The requests in a batch of lines: with `--json`, a line that is a JSON
  /// object with `sourceText` is read as one (with its `clientIdentifier`).
  private func requests(_ lines: [String]) -> [(text: String, identifier: String?)] {
    lines.map { line in
      guard json, line.hasPrefix("{"),
        let request = try? JSONDecoder().decode(TranslationRecord.Request.self, from: Data(line.utf8))
      else { return (line, nil) }
      return (request.sourceText, request.clientIdentifier)
    }
  }

  /// The languages of a request: `--from`, or the language detected in
  /// `text` (reliably, or an error naming `--from`); `--to`, or the user's
  /// preferred language that is not the source. Both must look like BCP-47.
  static func languages(
    _ source: String?, _ target: String?, text: String, environment: [String: String], command: any Command.Type
  ) throws -> (String, String) {
    let filled: (source: String, target: String)
    do {
      filled = try RequestLanguages.fill(source: source, target: target, texts: [text], environment: environment)
    } catch .noTargetLanguage(let source) {
      throw CommandError.usage(
        "missing '--to <tag>', and no preferred language other than '\(source)' in LANGUAGE, LC_ALL, LC_MESSAGES or LANG; say which language to translate into, such as 'es'",
        of: command)
    }
    // Either spelling, BCP 47 or POSIX (`en_US.UTF-8`), in any case.
    let (source, target) = (LanguageTag.normalized(filled.source), LanguageTag.normalized(filled.target))
    for (option, tag) in [("--from", source), ("--to", target)] where !isLanguageTag(tag) {
      throw CommandError.usage("'\(tag)' given to \(option) is not a BCP-47 language tag such as 'en' or 'pt-BR'", of: command)
    }
    return (source, target)
  }

  /// The setting of a provider that can give its engine's exact output
  /// (Apertium: `marks`); `--raw` sets it for one command.
  static let marksSetting = "marks"

  static func isLanguageTag(_ tag: String) -> Bool {
    let parts = tag.split(separator: "-", omittingEmptySubsequences: false)
    guard let language = parts.first, (2...8).contains(language.count), language.allSatisfy({ $0.isASCII && $0.isLetter }) else {
      return false
    }
    return parts.dropFirst().allSatisfy { part in
      (1...8).contains(part.count) && part.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) }
    }
  }
}
