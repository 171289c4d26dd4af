// Glossary: a translation extension written for iOS, ported by deleting
// `import SwiftUI` (Swift 6 language mode, no `@unchecked Sendable`). It
// glosses each English word of the selection in Spanish: the words are
// looked up off the main thread, and the results come back the way iOS code
// brings them back, with `DispatchQueue.main.async` and `await MainActor.run`.
import TranslationUIProvider

@main
struct GlossaryExtension: TranslationUIProviderExtension {
  var body: some TranslationUIProviderExtensionScene {
    TranslationUIProviderSelectedTextScene { context in
      GlossaryView(context: context)
    }
  }
}

/// One word of the selection and its gloss.
struct GlossEntry: Identifiable, Sendable {
  let id: Int
  let word: String
  let gloss: String?
}

/// The scene's model: the entries once looked up, and the word count.
@MainActor @Observable
final class GlossaryModel {
  var entries: [GlossEntry] = []
  var wordCount = 0
  var isLookingUp = true

  /// Looks the words up on another thread and publishes them on the main actor.
  func lookUp(_ text: String) async {
    let entries = await Task.detached(priority: .userInitiated) { Glossary.entries(for: text) }.value
    await MainActor.run {
      self.entries = entries
      self.isLookingUp = false
    }
  }

  /// The translation the scene offers: each word replaced by its gloss.
  var glossedText: String {
    entries.map { $0.gloss ?? $0.word }.joined(separator: " ")
  }
}

struct GlossaryView: View {
  let context: TranslationUIProviderContext
  @State private var model = GlossaryModel()
  @Environment(\.dismiss) private var dismiss

  var body: some View {
    ScrollView {
      VStack(alignment: .leading, spacing: 8) {
        HStack {
          Image(systemName: "character.book.closed")
          Text("Glossary").font(.headline)
        }
        Text(context.inputText ?? "")
          .foregroundStyle(.secondary)
        if model.isLookingUp {
          ProgressView("Looking up \(model.wordCount) words…")
        } else {
          ForEach(model.entries) { entry in
            HStack {
              Text(entry.word).bold()
              Text(entry.gloss ?? "—")
            }
          }
          .padding(.leading, 16)
        }
        HStack {
          Button("Cancel") { dismiss() }
          if context.allowsReplacement {
            Button("Replace with Translation") {
              context.finish(translation: AttributedString(model.glossedText))
            }
            .disabled(model.isLookingUp)
          }
        }
      }
      .padding()
      .frame(maxWidth: .infinity)
    }
    .onAppear {
      let text = String((context.inputText ?? "").characters)
      let model = model
      DispatchQueue.global().async {
        let count = Glossary.words(in: text).count
        DispatchQueue.main.async {
          model.wordCount = count
        }
      }
    }
    .task {
      await model.lookUp(String((context.inputText ?? "").characters))
    }
  }
}

/// A small English–Spanish glossary.
enum Glossary {
  static let spanish: [String: String] = [
    "the": "el", "cat": "gato", "dog": "perro", "is": "es", "on": "en", "table": "mesa", "house": "casa",
    "hello": "hola", "world": "mundo", "good": "bueno", "morning": "mañana", "book": "libro", "red": "rojo",
    "water": "agua", "and": "y", "a": "un", "i": "yo", "you": "tú", "read": "leo", "black": "negro",
  ]

  static func words(in text: String) -> [String] {
    text.split(whereSeparator: { !$0.isLetter }).map(String.init)
  }

  static func entries(for text: String) -> [GlossEntry] {
    words(in: text).enumerated().map { index, word in
      GlossEntry(id: index, word: word, gloss: spanish[word.lowercased()])
    }
  }
}
