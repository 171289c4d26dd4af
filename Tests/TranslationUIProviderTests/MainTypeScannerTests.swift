import Testing

@testable import translation_provider_entry_point

/// The entry point plugin's tool finds the `@main` type as a reader would.
@Suite struct MainTypeScannerTests {
  @Test(arguments: [
    ("@main\nclass MyTranslationExtension: TranslationUIProviderExtension {}", "MyTranslationExtension", true),
    ("@main struct Glossary: TranslationUIProviderExtension {}", "Glossary", true),
    ("@main @MainActor final class Web: TranslationUIProviderExtension {}", "Web", true),
    ("@main\n@available(macOS 15, *)\npublic final class Late: P {}", "Late", true),
    ("@main private class Hidden: P {}", "Hidden", false),
    ("// @main class Commented {}\n/* @main /* nested */ class Block {} */\n@main class Real: P {}", "Real", true),
    ("let s = \"@main class InString {}\"\nlet r = #\"@main \"class\" Raw\"#\n@main enum E {}", "E", true),
    ("let m = \"\"\"\n  @main class InMultiline {}\n  \"\"\"\n@main actor A {}", "A", true),
  ])
  func findsTheMainType(source: String, name: String, visible: Bool) {
    #expect(MainTypeScanner.mainType(in: source) == .init(name: name, isVisibleToTheModule: visible))
  }

  @Test(arguments: ["class NoMain {}", "// @main class C {}", "let x = \"@main struct S {}\""])
  func findsNoneWithoutIt(source: String) {
    #expect(MainTypeScanner.mainType(in: source) == nil)
  }

  @Test func theGeneratedFileCallsTheInitializer() {
    let text = EntryPointSource.text(for: .init(name: "Web", isVisibleToTheModule: true), in: "Web.swift")
    #expect(text.contains("extension Web: _EntryPointInitializable {"))
    #expect(text.contains("@MainActor static func _makeEntryPoint() -> Any { Web() }"))
    #expect(!EntryPointSource.text(for: .init(name: "H", isVisibleToTheModule: false), in: "H.swift").contains("extension"))
    #expect(!EntryPointSource.text(for: nil, in: nil).contains("extension"))
  }
}
