import Testing
import TranslationViewTree

@testable import Service

@Suite struct SceneScriptTests {
  private let tree = ViewTree(
    root: .vstack(
      alignment: "leading", spacing: nil,
      children: [
        .button(id: "t", isEnabled: true, label: .label(title: "Translate", systemImage: "globe")),
        .button(id: "r", isEnabled: false, label: .text("Replace With Translation")),
        .hstack(alignment: "center", spacing: nil, children: [.button(id: "c", isEnabled: true, label: .text("Copy"))]),
      ]))

  @Test(arguments: [("Translate", "t"), ("translate", "t"), ("COPY", "c")])
  func findsEnabledButtonsByLabelIgnoringCase(_ label: String, _ id: String) throws {
    #expect(try SceneScript.button(labelled: label, in: tree) == id)
  }

  @Test func aDisabledButtonIsAnErrorListingTheButtons() {
    #expect(
      throws: SceneError.buttonDisabled(
        "Replace with translation", available: ["'Translate'", "'Replace With Translation' (disabled)", "'Copy'"])
    ) {
      try SceneScript.button(labelled: "Replace with translation", in: tree)
    }
  }

  @Test func aMissingButtonIsAnErrorListingTheButtons() {
    let error = SceneError.noSuchButton("Paste", available: ["'Translate'", "'Replace With Translation' (disabled)", "'Copy'"])
    #expect(throws: error) { try SceneScript.button(labelled: "Paste", in: tree) }
    #expect(
      error.description
        == "no button 'Paste' in the scene; its buttons are 'Translate', 'Replace With Translation' (disabled), 'Copy'")
  }

  /// The rule scripted presses and both popovers share: an empty
  /// replacement is refused only for a text that was not empty.
  @Test(arguments: [
    (replacement: "", text: "Hallo", pressed: String?.none, refused: true),
    (replacement: "", text: "Hallo", pressed: "Replace", refused: true),
    (replacement: "", text: "", pressed: nil, refused: false),
    (replacement: "ollaH", text: "Hallo", pressed: nil, refused: false),
    (replacement: " ", text: "Hallo", pressed: nil, refused: false),
  ])
  func anEmptyReplacementOfATextIsRefused(replacement: String, text: String, pressed: String?, refused: Bool) {
    let expected = SceneError.emptyReplacement(provider: "org.example.p", pressed: pressed)
    do {
      try SceneError.checkReplacement(replacement, for: text, provider: "org.example.p", pressed: pressed)
      #expect(!refused)
    } catch {
      #expect(refused)
      #expect(error == expected)
      #expect(error.hostError.kind == .providerFailed)
    }
  }

  @Test func thePopoversMessageSaysNothingWasReplaced() {
    #expect(
      SceneError.emptyReplacement(provider: "org.example.p", pressed: nil).description.hasPrefix(
        "provider 'org.example.p' returned an empty replacement for a text that was not empty; nothing replaced"))
  }
}
