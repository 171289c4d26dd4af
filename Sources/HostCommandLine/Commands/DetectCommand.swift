import Core
import Service

/// `translation-host detect`: the language of a text.
struct DetectCommand: Command {
  static let name = "detect"
  static let abstract = "Detect the language of a text."
  static let usage = "[<text>] [--json]"
  static let discussion = """
    Prints the BCP-47 tag of the text's language (the text is the argument, or
    stdin). Detection uses CLD2; when it is not reliable, the command says so,
    lists the candidates and exits 4, rather than guess.
    """
  static let arguments = [(name: "<text>", help: "The text (default: read stdin).")]
  static let options: [OptionSpec] = [
    .flag("json", help: "Print tag, name, confidence, reliable and candidates as JSON."), ProviderOptions.noServiceSpec,
  ]

  var text: String?
  var json: Bool
  var usesService: Bool

  init(_ arguments: ParsedArguments) throws(CommandError) {
    guard arguments.positionals.count <= 1 else { throw .usage("expected one text; quote it", of: Self.self) }
    text = arguments.positionals.first
    json = arguments.has("json")
    usesService = !arguments.has("no-service")
  }

  func run(in context: CommandContext) throws -> ExitCode {
    let output = context.output
    let input = try InputText.read(argument: text, command: Self.self, optionName: "a <text> argument")
    let detection = try detect(input.text, in: context)
    if json {
      try output.json(detection)
      return detection.reliable ? .success : .unsupportedLanguage
    }
    guard detection.reliable, let tag = detection.tag else {
      throw LanguageError.unableToIdentifyLanguage(candidates: detection.candidates)
    }
    try output.data(tag + "\n")
    return .success
  }

  /// The detection of `text`: by the service when it runs (its detector is
  /// warm), else here; both use the same detector.
  private func detect(_ text: String, in context: CommandContext) throws -> LanguageDetection {
    let output = context.output
    guard usesService, let service = ServiceClient.running(environment: context.environment) else {
      return LanguageDetector.detect(text)
    }
    do {
      return try service.detect(text)
    } catch {
      switch error {
      case .unavailable: error.directPathNotice.map(output.note)
      case .connectionLost: break  // the service is stopping or restarting; the detector here is the same
      default: throw error
      }
      return LanguageDetector.detect(text)
    }
  }
}
