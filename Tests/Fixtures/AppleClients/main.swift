import Translation

// Runs each client against the user's default provider (Apertium) and prints
// what it got, one line each, for the test to compare.
let english = Locale.Language(identifier: "en")
let spanish = Locale.Language(identifier: "es")

let article = ArticleTranslator(paragraphs: ["The cat is on the table.", "The house is big."])
await article.translate(from: english, to: spanish)
print("article: \(article.translatedParagraphs.joined(separator: " | "))")
await article.translate(from: english, to: spanish)
print("article runs: \(article.runs), version: \(article.configuration?.version ?? -1), error: \(article.lastError ?? "none")")

let phrasebook = PhrasebookViewModel(phrases: ["Good morning.", "Where is the station?"])
print("phrasebook availability: \(await phrasebook.availability(from: english, to: spanish))")
let phrasebookTask = translationTask(source: english, target: spanish) { session in
  await phrasebook.translateAll(with: session)
}
await phrasebookTask.value
print("phrasebook: \(phrasebook.entries.map { $0.translation ?? "-" }.joined(separator: " | "))")

// A configuration without a source: the language is detected in the batch.
let detecting = translationTask(TranslationSession.Configuration(target: spanish)) { session in
  do {
    let responses = try await session.translations(from: [.init(sourceText: "The weather is very good today in the city.")])
    print("detected: \(responses[0].sourceLanguage.minimalIdentifier) -> \(responses[0].targetText)")
  } catch {
    print("detected: failed: \(error)")
  }
}
await detecting.value

let headless = HeadlessTranslator(source: "en", target: "es", strategy: .highFidelity)
print("headless ready: \(await headless.isReady()), strategy: \(await headless.strategy)")
print("headless: \(try await headless.translate("My brother reads a book."))")
await headless.stop()
print("headless after stop refused: \(await headless.refusesAfterStop())")

let editor = NoteEditor(text: "Hello")
try await editor.presentTranslation()  // not presented: returns at once
print("editor: \(editor.text), presented: \(editor.showsTranslation)")

// An @Observable model (Observation, re-exported by Translation) and a hand-made preview response.
let observed = ObservableTranslation(sourceText: "The weather is very good today in the city.")
await observed.checkSupport(to: spanish)
let observing = translationTask(source: english, target: spanish) { session in
  await observed.translate(using: session)
}
await observing.value
print(
  "observable: \(observed.translatedText), supported: \(observed.isTranslationSupported ?? false), "
    + "preview: \(ObservableTranslation.preview.targetText) \(ObservableTranslation.preview.clientIdentifier ?? "nil")")
let supported = await LanguageAvailability().supportedLanguages
print("supported languages listed once: \(Set(supported).count == supported.count)")
