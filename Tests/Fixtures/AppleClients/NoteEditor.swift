import Translation

/// An editor that offers "Translate" on its note, as a SwiftUI view would
/// with `.translationPresentation(isPresented:text:replacementAction:)`: the
/// replacement closure writes main-actor state.
@MainActor
final class NoteEditor {
  var text: String
  var showsTranslation = false

  init(text: String) {
    self.text = text
  }

  func presentTranslation() async throws {
    let isPresented = Binding(get: { self.showsTranslation }, set: { self.showsTranslation = $0 })
    try await translationPresentation(isPresented: isPresented, text: text, arrowEdge: .bottom) { translated in
      self.text = translated
    }
  }
}
