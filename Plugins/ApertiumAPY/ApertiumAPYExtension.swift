import System
import TranslationUIProvider

/// The same translations as the Apertium provider, from an Apertium-APY
/// server over HTTP. Declares the network-access key, so the runner lets it
/// reach the network. Settings: `endpoint` (default `http://127.0.0.1:2737`),
/// `timeout` in seconds (default 10) and `marks` (default false: clean text,
/// as the Apertium provider gives it, without marks on unknown words nor
/// blanks at either end; true: the server's exact output).
@main
class ApertiumAPYExtension: TranslationUIProviderExtension, TranslationProviding {
  private var client: APYClient {
    APYClient(
      http: HTTPClient(
        endpoint: ProviderSettings.string("endpoint") ?? "http://127.0.0.1:2737",
        timeout: Double(ProviderSettings.integer("timeout") ?? 10)))
  }

  var body: some TranslationUIProviderExtensionScene {
    TranslationUIProviderSelectedTextScene { [self] context in
      APYTranslationView(
        context: context,
        translate: { text, source, target in
          try self.translate([text], from: source, to: target)[0]
        })
    }
  }

  func translate(_ texts: [String], from source: String, to target: String) throws -> [String] {
    guard source.lowercased() != target.lowercased() else {
      throw TranslationProviderError.unsupportedLanguagePairing(source: source, target: target)
    }
    let client = client
    let marks = ProviderSettings.boolean("marks") ?? false
    do {
      return try texts.map { text throws(APYError) in
        let translation = try client.translate(text, from: source, to: target, marksUnknownWords: marks)
        return marks ? translation : translation.trimmingWhitespace()
      }
    } catch let error {
      // APY answers 400 "That pair is not installed" for a pair it lacks.
      if case .server(_, 400, let message) = error, message.lowercased().contains("pair") {
        throw TranslationProviderError.unsupportedLanguagePairing(source: source, target: target)
      }
      throw TranslationProviderError.failed(error.description)
    }
  }

  var languagePairs: [LanguagePair] {
    get throws {
      do {
        return try client.pairs().map { LanguagePair(source: $0.source, target: $0.target, status: .installed) }
      } catch {
        throw TranslationProviderError.failed(error.description)
      }
    }
  }
}

/// The scene: the text, "Translate", the translation, and "Replace with
/// Translation" when the caller allows replacement.
struct APYTranslationView: View {
  @State var context: TranslationUIProviderContext
  @State var result: String = ""
  let translate: (String, String, String) throws -> String

  var body: some View {
    VStack(alignment: .leading) {
      Text("Apertium-APY: \(context.sourceLanguage ?? "?") → \(context.targetLanguage ?? "?")")
      Text(context.inputText ?? "")
      Text(result)
      Button(action: run) { Label("Translate", systemImage: "globe") }
        .disabled(context.sourceLanguage == nil || context.targetLanguage == nil)
      if context.allowsReplacement {
        Button("Replace with Translation") { context.finish(translation: AttributedString(result)) }
          .disabled(result.isEmpty)
      }
    }
  }

  private func run() {
    guard let source = context.sourceLanguage, let target = context.targetLanguage else { return }
    do {
      result = try translate(String((context.inputText ?? "").characters), source, target)
    } catch {
      result = "\(error)"
    }
  }
}
