import CTranslationProvider
import TestSupport
import Testing

@testable import ProviderLoading
@testable import RunnerProtocol

/// The loader against real shared objects compiled from Tests/Fixtures.
@Suite struct LoaderTests {
  static let source = CFixture.packageRoot + "/Tests/Fixtures/misbehaving_provider.c"

  struct Case: Sendable, CustomTestStringConvertible {
    var testDescription: String
    var defines: [String]
    var expected: @Sendable (String) -> LoadError
  }

  static let cases: [Case] = [
    Case(testDescription: "no entry symbol", defines: ["NO_ENTRY"]) {
      .missingEntry($0, reason: "\($0): undefined symbol: translation_provider_entry")
    },
    Case(testDescription: "entry returns NULL", defines: ["NULL_ENTRY"]) { .nullEntry($0) },
    Case(testDescription: "ABI major 2", defines: ["ABI_MAJOR=2"]) {
      .abiMismatch($0, provider: (2, 7), symbol: "translation_provider_entry")
    },
    Case(testDescription: "truncated entry table", defines: ["ENTRY_SIZE=8"]) { .truncatedEntry($0, size: 8) },
    Case(testDescription: "init returns false", defines: ["INIT_FAILS"]) { .initFailed($0) },
    Case(testDescription: "unresolved symbol", defines: ["UNDEFINED_SYMBOL"]) {
      .openFailed($0, reason: "\($0): undefined symbol: tp_fixture_symbol_that_does_not_exist")
    },
  ]

  @Test(arguments: cases) func refusesBrokenLibraries(_ test: Case) throws {
    let directory = try TemporaryDirectory()
    let library = try CFixture.compile(Self.source, defines: test.defines, name: "broken", in: directory)
    #expect(throws: test.expected(library)) {
      try LoadedProvider(executablePath: library, bundlePath: directory.path) { _, _ in }
    }
  }

  /// The host's front ends name capabilities without the C header; the ids must be the header's.
  @Test(arguments: [
    (Capability.selectedTextScene, TP_CAPABILITY_SELECTED_TEXT_SCENE), (.translate, TP_CAPABILITY_TRANSLATE),
    (.translateStream, TP_CAPABILITY_TRANSLATE_STREAM),
  ])
  func capabilityIdsAreTheHeaders(_ capability: Capability, _ id: String) {
    #expect(capability.rawValue == id)
  }

  @Test func refusesFilesThatAreNotELF() throws {
    let directory = try TemporaryDirectory()
    let path = try directory.write("libText.so", "#!/bin/sh\necho not a library\n")
    #expect(throws: LoadError.notELF(path)) { try DynamicLibrary(path: path) }
  }

  @Test func messagesNameTheFileAndBothVersions() {
    let message = LoadError.abiMismatch("/b/libX.so", provider: (2, 7), symbol: "translation_provider_entry").description
    #expect(
      message.hasPrefix(
        "/b/libX.so: built for provider ABI 2.7, but this host speaks ABI 1.1 through 'translation_provider_entry' and ABI 2.1 through 'translation_provider_entry_v2'"
      ))
  }

  /// The host speaks both majors: Rot13 (ABI 2, an instance passed to every
  /// call) and the fixture above (ABI 1, none) load and translate alike.
  @Test(arguments: [
    (CFixture.packageRoot + "/Plugins/Rot13/rot13.c", CFixture.ABI.v2, "en-x-rot13", "Uryyb"),
    (source, CFixture.ABI.v1, "en-x-upper", "HELLO"),
  ])
  func loadsProvidersOfEitherMajor(_ file: String, _ abi: CFixture.ABI, _ target: String, _ expected: String) throws {
    let directory = try TemporaryDirectory()
    let library = try CFixture.compile(file, abi: abi, name: "either", in: directory)
    let provider = try LoadedProvider(executablePath: library, bundlePath: directory.path) { _, _ in }
    #expect(provider.abiVersion.major == (abi == .v2 ? 2 : 1))
    #expect(try ProviderTranslator(provider: provider).translate(["Hello"], from: "en", to: target) == [expected])
    let scene = try ProviderScene(
      provider: provider, inputText: "Hello", allowsReplacement: true, sourceLanguage: nil, targetLanguage: nil,
      onEvent: { _ in }, onWarning: { _ in })
    #expect(try !scene.render().isEmpty)
    scene.destroy()
  }

  @Test func loadsAWorkingProviderAndTranslates() throws {
    let directory = try TemporaryDirectory()
    let library = try CFixture.compile(Self.source, name: "good", in: directory)
    let provider = try LoadedProvider(executablePath: library, bundlePath: directory.path) { _, _ in }
    #expect(provider.capabilities == [.selectedTextScene, .translate])
    let translator = try ProviderTranslator(provider: provider)
    #expect(try translator.translate(["abc", "ñu"], from: "en", to: "en-x-upper") == ["ABC", "ñU"])
    #expect(
      try translator.languages() == [LanguagePairStatus(source: "en", target: "en-x-upper", availability: .installed, note: "")])
    #expect(throws: ProviderError.failed(.unsupportedLanguagePairing, message: "")) {
      try translator.translate(["abc"], from: "en", to: "fr")
    }
  }

  @Test func aBatchWithAMissingAnswerIsRefused() throws {
    let directory = try TemporaryDirectory()
    let library = try CFixture.compile(Self.source, defines: ["SKIP_ANSWER"], name: "skips", in: directory)
    let translator = try ProviderTranslator(
      provider: LoadedProvider(executablePath: library, bundlePath: directory.path) { _, _ in })
    #expect(throws: ProviderError.invalidTranslation("did not answer index 1")) {
      try translator.translate(["a", "b"], from: "en", to: "en-x-upper")
    }
  }
}
