import CTranslationProvider
import TranslationHostCore

/// `translation-host run`: presents the provider's selected-text scene for a
/// text, as iOS presents the default translation app's extension.
struct RunCommand: Command {
  static let name = "run"
  static let abstract = "Show a provider's translation scene for a text."
  static let usage = "[--text <text>] [--replace] [--press <label> ...] [--provider <id|path>] [--from <tag>] [--to <tag>]"
  static let discussion = """
    The text comes from --text or stdin (one trailing newline is removed, and
    put back after a replacement). The provider runs in its own process.

    With --press, the scene is driven without a person: each label presses the
    button with that visible text (ignoring case), in order. With --replace the
    scene may replace the text (Apple's allowsReplacement): the replacement,
    and nothing else, is written to stdout. Without --press, a provider that
    can translate headlessly translates --from one language --to another; the
    translation goes to stdout with --replace, to stderr without.
    """
  static let options: [OptionSpec] =
    [
      .option("text", "text", help: "The text to translate (default: read stdin)."),
      .flag("replace", help: "Allow the scene to replace the text; the replacement goes to stdout."),
      .option("press", "label", help: "Press the button with this label; repeat to press several.", repeatable: true),
      .option("from", "tag", help: "Language of the text, a BCP-47 tag such as 'en'."),
      .option("to", "tag", help: "Language to translate into, a BCP-47 tag such as 'es'."),
    ] + ProviderOptions.specs

  var provider: ProviderOptions
  var text: String?
  var allowsReplacement: Bool
  var presses: [String]
  var source: String?
  var target: String?

  init(_ arguments: ParsedArguments) throws(CommandError) {
    guard arguments.positionals.isEmpty else {
      throw .usage("unexpected argument '\(arguments.positionals[0])'; pass the text with --text", of: Self.self)
    }
    provider = try ProviderOptions(arguments, command: Self.self)
    text = arguments.value("text")
    allowsReplacement = arguments.has("replace")
    presses = arguments.allValues("press")
    source = arguments.value("from")
    target = arguments.value("to")
  }

  func run(output: Output) throws -> ExitCode {
    let input = try InputText.read(argument: text, command: Self.self, optionName: "--text")
    for (option, tag) in [("--from", source), ("--to", target)] {
      if let tag, !TranslateCommand.isLanguageTag(tag) {
        throw CommandError.usage("'\(tag)' given to \(option) is not a BCP-47 language tag such as 'en' or 'pt-BR'", of: Self.self)
      }
    }
    let client = try provider.launch(output: output)
    defer { client.close() }
    let newline = input.hadTrailingNewline || (text != nil && output.stdoutIsTerminal) ? "\n" : ""

    guard presses.isEmpty else {
      guard client.supports(TP_CAPABILITY_SELECTED_TEXT_SCENE) else {
        throw SceneError.noScene(provider: client.bundle.identifier)
      }
      let first = try client.openScene(
        inputText: input.text, allowsReplacement: allowsReplacement, sourceLanguage: source, targetLanguage: target)
      switch try SceneScript(presses: presses).run(on: client, from: first) {
      case .replaced(let replacement):
        try output.data(replacement + newline)
        return .success
      case .dismissed:
        output.note("the scene closed without a replacement\(allowsReplacement ? "" : " (replacement needs --replace)")")
        return .dismissed
      case .unfinished(let tree):
        output.note("the scene did not finish after the last --press; it shows: \(tree.root.visibleText)")
        return .dismissed
      }
    }

    guard client.supports(TP_CAPABILITY_TRANSLATE) else {
      var message = "provider '\(client.bundle.identifier)' cannot translate without its scene; press its buttons with --press <label>"
      if client.supports(TP_CAPABILITY_SELECTED_TEXT_SCENE),
        case .view(let tree) = try client.openScene(inputText: input.text, allowsReplacement: allowsReplacement)
      {
        message += " (its buttons: \(tree.buttons.map { "'\($0.label)'" }.joined(separator: ", ")))"
      }
      throw CommandError.usage(message, of: Self.self)
    }
    let (source, target) = try TranslateCommand.languages(source, target, text: input.text, command: Self.self)
    let translation = try client.translate([input.text], from: source, to: target)[0]
    if allowsReplacement {
      try output.data(translation + newline)
    } else {
      output.diagnostic(translation + "\n")
    }
    return .success
  }
}
