import Testing

@testable import TranslationUIProvider

/// An iOS class entry point that keeps state in stored properties with
/// default values: its only initializer is the `init()` Swift writes.
class KeepingExtension: TranslationUIProviderExtension {
  let words = ["uno", "dos"]
  var calls = 0
  let created = ContinuousClock.now

  var body: some TranslationUIProviderExtensionScene {
    TranslationUIProviderSelectedTextScene { context in Text(context.inputText ?? "") }
  }
}

/// A class whose designated initializer takes arguments, with a
/// convenience `init()`: the SDK calls that.
class ConvenientExtension: TranslationUIProviderExtension {
  let words: [String]
  init(words: [String]) { self.words = words }
  convenience init() { self.init(words: ["tres"]) }

  var body: some TranslationUIProviderExtensionScene {
    TranslationUIProviderSelectedTextScene { context in Text(context.inputText ?? "") }
  }
}

/// A private class with stored properties: the runtime names it by an
/// anonymous context, so its init() cannot be found; refused.
private class PrivateExtension: TranslationUIProviderExtension {
  let words = ["cuatro"]
  var body: some TranslationUIProviderExtensionScene {
    TranslationUIProviderSelectedTextScene { context in Text(context.inputText ?? "") }
  }
}

/// A class with only an initializer that takes arguments: iOS could not
/// create it, and neither can the SDK, which says so instead of calling it.
class ArgumentExtension: TranslationUIProviderExtension {
  let words: [String]
  init(words: [String]) { self.words = words }

  var body: some TranslationUIProviderExtensionScene {
    TranslationUIProviderSelectedTextScene { context in Text(context.inputText ?? "") }
  }
}

/// A struct with stored properties has no initializer the SDK can call.
struct StoringStruct: TranslationUIProviderExtension {
  var words = ["uno"]
  var body: some TranslationUIProviderExtensionScene {
    TranslationUIProviderSelectedTextScene { context in Text(context.inputText ?? "") }
  }
}

/// A struct with stored properties, conformed as the entry point plugin's
/// file conforms the `@main` type: created through its own `init()`.
struct PluginStruct: TranslationUIProviderExtension {
  var words = ["cinco"]
  var body: some TranslationUIProviderExtensionScene {
    TranslationUIProviderSelectedTextScene { context in Text(context.inputText ?? "") }
  }
}

extension PluginStruct: _EntryPointInitializable {
  @MainActor static func _makeEntryPoint() -> Any { PluginStruct() }
}

/// A non-final class with stored properties, conformed as the plugin does.
class PluginClass: TranslationUIProviderExtension {
  let words = ["seis"]
  var body: some TranslationUIProviderExtensionScene {
    TranslationUIProviderSelectedTextScene { context in Text(context.inputText ?? "") }
  }
}

extension PluginClass: _EntryPointInitializable {
  @MainActor static func _makeEntryPoint() -> Any { PluginClass() }
}

@Suite struct ClassEntryPointTests {
  @Test func anEntryPointTheReleasePluginConformedIsMadeByItsOwnInit() throws {
    #expect(try EntryPointFactory.make(PluginStruct.self).words == ["cinco"])
    #expect(try EntryPointFactory.make(PluginClass.self).words == ["seis"])
  }

  @Test func aClassWithStoredPropertiesIsCreatedThroughItsInit() throws {
    let made = try EntryPointFactory.make(KeepingExtension.self)
    #expect(made.words == ["uno", "dos"])
    #expect(made.calls == 0)
    made.calls += 1
    #expect(try EntryPointFactory.make(KeepingExtension.self).calls == 0)
  }

  @Test func aConvenienceInitWorksToo() throws {
    #expect(try EntryPointFactory.make(ConvenientExtension.self).words == ["tres"])
  }

  @Test func aPrivateClassWithStoredPropertiesIsRefused() {
    #expect { try EntryPointFactory.make(PrivateExtension.self) } throws: { error in
      "\(error)".contains("a generic or private class")
    }
  }

  @Test func aClassWithoutInitIsRefusedWithWhatToDo() {
    #expect { try EntryPointFactory.make(ArgumentExtension.self) } throws: { error in
      "\(error)".contains("TranslationUIProviderExtensionBase")
    }
  }

  @Test func aStructWithStoredPropertiesIsRefusedWithWhatToDo() {
    #expect { try EntryPointFactory.make(StoringStruct.self) } throws: { error in
      "\(error)".contains("is a struct with stored properties")
    }
  }

  @Test(
    arguments: [
      ("es_ES.UTF-8", "es-ES"), ("es_ES.UTF-8@euro", "es-ES"), ("pt_BR", "pt-BR"), ("de", "de"), ("C.UTF-8", nil),
      ("POSIX", nil), ("", nil),
    ] as [(String, String?)])
  func localeNamesBecomeTags(_ name: String, _ tag: String?) {
    #expect(UserLanguages.tag(of: name) == tag)
  }

  @Test(arguments: [
    (["es-ES"], ["en", "es"], ["es"]), (["pt-BR", "en"], ["en", "pt-BR", "pt"], ["pt-BR", "pt", "en"]),
    (["fr"], ["en", "es"], []), (["es_MX"], ["en", "es_MX"], ["es_MX"]),
  ])
  func localizationsMatchTheUsersLanguages(_ languages: [String], _ localizations: [String], _ expected: [String]) {
    #expect(UserLanguages.matches(of: languages, in: localizations) == expected)
  }
}
