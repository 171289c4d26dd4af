import ApertiumSupport
import Dispatch
import TranslationUIProvider

/// Offline machine translation with the Apertium engine from Debian: every
/// installed pair, each kept warm in null-flush mode. It keeps its engine in
/// a stored property, so it inherits the base class whose `init()` the SDK calls.
///
/// Translations are clean text, as apps expect from Apple's framework: what
/// `apertium -u` prints (no `*` or `#` marks on unknown words), without the
/// blanks Apertium keeps at either end. The setting `marks` (true) gives
/// exactly what `apertium` prints; `translation-host translate --raw` sets it for one command.
/// Each text of a batch is translated as if alone (each its own null flush,
/// and the tagger's fix in the stages: `Sources/ApertiumTaggerOpenClass`, whose
/// README says where that differs from Debian's `apertium` on a text alone).
@main
class ApertiumTranslationExtension: TranslationUIProviderExtensionBase, TranslationUIProviderExtension,
  StreamingTranslationProviding
{
  private let engine = ApertiumEngine(
    marksUnknownWords: ProviderSettings.boolean("marks") ?? false,
    stagePreload: ApertiumStagePreload(bundle: ProviderResources.bundlePath))

  var body: some TranslationUIProviderExtensionScene {
    TranslationUIProviderSelectedTextScene { [engine] context in
      ApertiumTranslationView(context: context, engine: engine)
    }
  }

  func translate(_ texts: [String], from source: String, to target: String) throws -> [String] {
    try checkPair(from: source, to: target)
    do {
      return try engine.translate(texts, from: source, to: target).map(engine.finished)
    } catch {
      throw TranslationProviderError.failed(error.description)
    }
  }

  /// The service's clients' texts as they come: Apertium's pipeline is kept
  /// fed while their translations come back one by one.
  func translate(_ stream: TranslationStream, from source: String, to target: String) throws {
    try checkPair(from: source, to: target)
    do {
      try engine.translate(
        from: source, to: target, wake: stream.descriptor,
        next: {
          switch stream.next() {
          case .text(let index, let text): .text(index: index, text)
          case .later: .later
          case .end: .end
          }
        },
        deliver: { [engine] in stream.deliver(engine.finished($1), for: $0) })
    } catch {
      throw TranslationProviderError.failed(error.description)
    }
  }

  private func checkPair(from source: String, to target: String) throws {
    guard source.lowercased() != target.lowercased() else {
      throw TranslationProviderError.unsupportedLanguagePairing(source: source, target: target)
    }
    guard engine.pair(from: source, to: target) != nil else {
      if !engine.pairs.contains(where: { $0.source.lowercased() == source.lowercased() }) {
        throw TranslationProviderError.unsupportedSourceLanguage(source)
      }
      if !engine.pairs.contains(where: { $0.target.lowercased() == target.lowercased() }) {
        throw TranslationProviderError.unsupportedTargetLanguage(target)
      }
      throw TranslationProviderError.unsupportedLanguagePairing(source: source, target: target)
    }
  }

  /// Installed pairs, then the ones a Debian package would add (`supported`).
  var languagePairs: [LanguagePair] {
    let installed = engine.pairs.map { LanguagePair(source: $0.source, target: $0.target, status: .installed) }
    let known = Set(installed.map { "\($0.source)>\($0.target)" })
    var seen = known
    // Current package names (ISO 639-3, longer) before the old two-letter ones.
    let packages = DebianPairPackages.available().sorted { $0.name.count > $1.name.count }
    let supported = packages.compactMap { package -> LanguagePair? in
      guard seen.insert("\(package.source)>\(package.target)").inserted else { return nil }
      return LanguagePair(
        source: package.source, target: package.target, status: .supported,
        note: "install the Debian package \(package.name)")
    }
    return installed + supported
  }
}

/// The scene: the language pair, the text, the translation as soon as it is
/// ready (a progress indicator until then), and "Replace with Translation"
/// when the caller allows replacement. Without an installed pair for the
/// request, it names the pair asked for and offers the installed targets.
struct ApertiumTranslationView: View {
  enum Outcome: Equatable {
    case working
    case translated(String)
    case failed(String)
  }

  @State var context: TranslationUIProviderContext
  @State var outcome: Outcome = .working
  @State var pair: ApertiumPair?
  /// The installed pairs to offer when none fits the request.
  let alternatives: [ApertiumPair]
  let engine: ApertiumEngine

  init(context: TranslationUIProviderContext, engine: ApertiumEngine) {
    self.context = context
    self.engine = engine
    let pair = Self.choosePair(engine: engine, source: context.sourceLanguage, target: context.targetLanguage)
    self.pair = pair
    alternatives = pair == nil ? Self.alternatives(engine: engine, source: context.sourceLanguage) : []
    guard let pair else {
      $outcome.wrappedValue = .failed(
        Self.missingPairMessage(source: context.sourceLanguage, target: context.targetLanguage, offers: alternatives))
      return
    }
    Self.translate(context.inputText.map { String($0.characters) } ?? "", with: pair, engine: engine, into: $outcome)
  }

  /// Why nothing is translated: the pair asked for, and what to do.
  static func missingPairMessage(source: String?, target: String?, offers alternatives: [ApertiumPair]) -> String {
    let asked =
      switch (source, target) {
      case (let source?, let target?): "from \(source) to \(target)"
      case (let source?, nil): "from \(source)"
      case (nil, let target?): "to \(target)"
      case (nil, nil): "at all"
      }
    return "No Apertium pair \(asked) is installed"
      + (alternatives.isEmpty ? ": install one (apt install apertium-<pair>)." : ". Translate into:")
  }

  /// The installed pairs from `source` (every installed pair when the source is not known).
  static func alternatives(engine: ApertiumEngine, source: String?) -> [ApertiumPair] {
    guard let source else { return engine.pairs }
    return engine.pairs.filter { $0.source.lowercased() == source.lowercased() }
  }

  /// Translates `text` with `pair` on another thread, into `outcome`.
  static func translate(_ text: String, with pair: ApertiumPair, engine: ApertiumEngine, into outcome: Binding<Outcome>) {
    DispatchQueue.global().async {
      do {
        let translation = engine.finished(try engine.translate([text], from: pair.source, to: pair.target)[0])
        outcome.wrappedValue = .translated(translation)
      } catch {
        outcome.wrappedValue = .failed("\(error)")
      }
    }
  }

  var body: some View {
    VStack(alignment: .leading, spacing: 1) {
      Text(pair.map { "Apertium \($0.mode): \($0.source) → \($0.target)" } ?? "Apertium")
      Text(context.inputText ?? "")
      Divider()
      switch outcome {
      case .working: ProgressView("Translating…")
      case .translated(let translation): Text(translation)
      case .failed(let message): Label(message, systemImage: "exclamationmark.triangle")
      }
      if pair == nil {
        ForEach(alternatives, id: \.mode) { choice in
          Button("\(choice.source) → \(choice.target)") {
            pair = choice
            outcome = .working
            Self.translate(
              context.inputText.map { String($0.characters) } ?? "", with: choice, engine: engine, into: $outcome)
          }
        }
      }
      if context.allowsReplacement {
        Button("Replace with Translation") {
          if case .translated(let translation) = outcome {
            context.finish(translation: AttributedString(translation))
          }
        }
        .disabled(!isTranslated)
      }
    }
  }

  private var isTranslated: Bool {
    if case .translated = outcome { return true }
    return false
  }

  /// The hinted pair, else the first installed pair from the hinted source or
  /// into the hinted target, else the first installed pair.
  static func choosePair(engine: ApertiumEngine, source: String?, target: String?) -> ApertiumPair? {
    if let source, let target { return engine.pair(from: source, to: target) }
    if let source { return engine.pairs.first { $0.source.lowercased() == source.lowercased() } }
    if let target { return engine.pairs.first { $0.target.lowercased() == target.lowercased() } }
    return engine.pairs.first
  }
}
