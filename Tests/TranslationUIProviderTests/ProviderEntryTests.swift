import CTranslationProvider
import Glibc
import Testing

@testable import TranslationUIProvider
@testable import TranslationViewTree

/// An extension as an author writes one, with headless translation too: a
/// class without stored properties, which the SDK creates without an `init()`.
class ShoutingExtension: TranslationUIProviderExtension, TranslationProviding {
  var body: some TranslationUIProviderExtensionScene {
    TranslationUIProviderSelectedTextScene { context in
      Button("Shout") {
        context.finish(translation: context.inputText.map { AttributedString(String($0.characters).uppercased()) })
      }
    }
  }

  func translate(_ texts: [String], from source: String, to target: String) throws -> [String] {
    guard source == "en", target == "en-x-loud" else {
      throw TranslationProviderError.unsupportedLanguagePairing(source: source, target: target)
    }
    return texts.map { $0.uppercased() }
  }

  var languagePairs: [LanguagePair] { [LanguagePair(source: "en", target: "en-x-loud")] }
}

/// The exported C table, exercised in-process as the runner would.
@MainActor @Suite(.serialized) struct ProviderEntryTests {
  private let entry: tp_entry
  /// The instance, `self` of every call; one for the whole test process, as in a runner.
  private let instance: OpaquePointer

  init() throws {
    ProviderRuntime.register(ShoutingExtension.self)
    entry = translation_provider_entry_v2().pointee
    instance = try #require(Self.created)
  }

  nonisolated(unsafe) private static let created: OpaquePointer? = {
    ProviderRuntime.register(ShoutingExtension.self)
    return translation_provider_entry_v2().pointee.create!(host)
  }()

  /// The host table lives for the whole test process, as it does in a runner.
  nonisolated(unsafe) private static let host: UnsafeMutablePointer<tp_host> = {
    let host = UnsafeMutablePointer<tp_host>.allocate(capacity: 1)
    host.initialize(
      to: tp_host(
        struct_size: UInt32(MemoryLayout<tp_host>.size), abi_major: 2, abi_minor: 0, host_data: nil,
        bundle_path: strdup("/usr/lib/translation-host/providers/Shouting.translationprovider"), executable_path: nil,
        log: nil, settings_json: strdup(#"{"greeting":"hola","loud":true,"times":3}"#)))
    return host
  }()

  @Test func settingsFromTheHostAreTyped() {
    #expect(ProviderSettings.string("greeting") == "hola")
    #expect(ProviderSettings.boolean("loud") == true)
    #expect(ProviderSettings.integer("times") == 3)
    #expect(ProviderSettings.string("times") == nil)
    #expect(ProviderSettings.string("missing") == nil)
  }

  @Test func theBundleFolderIsTheHosts() {
    #expect(ProviderResources.bundlePath == "/usr/lib/translation-host/providers/Shouting.translationprovider")
  }

  @Test func declaresTheABIVersionAndSize() {
    #expect(entry.abi_major == UInt32(TP_ABI_VERSION_MAJOR))
    #expect(entry.struct_size == UInt32(MemoryLayout<tp_entry>.size))
  }

  @Test(arguments: ["tp.unknown/1", "tp.translate/2", "", "tp.scene.selected-text"])
  func unknownCapabilitiesAreNull(_ id: String) {
    #expect(entry.get_capability!(instance, id) == nil)
  }

  @Test func sceneRendersActsAndFinishesThroughTheABI() throws {
    let factory = try #require(
      entry.get_capability!(instance, TP_CAPABILITY_SELECTED_TEXT_SCENE)?.assumingMemoryBound(
        to: tp_selected_text_scene_factory.self))
    let host = RecordingContext("hola", allowsReplacement: true)
    let scene = try #require(factory.pointee.create_scene!(instance, host.pointer))
    var json = tp_string(data: nil, length: 0)
    #expect(scene.pointee.render!(scene, &json) == TP_STATUS_OK)
    let tree = try ViewTree.decode(Array(UnsafeRawBufferPointer(start: json.data, count: json.length)))
    #expect(tree.root == .button(id: "0", isEnabled: true, label: .text("Shout")))
    #expect(scene.pointee.perform_action!(scene, "missing") == TP_STATUS_NOT_FOUND)
    #expect(scene.pointee.perform_action!(scene, "0") == TP_STATUS_OK)
    scene.pointee.destroy!(scene)
    #expect(host.recorded == [.finish("HOLA")])
  }

  @Test func translatesBatchesInOrder() throws {
    let translator = try #require(
      entry.get_capability!(instance, TP_CAPABILITY_TRANSLATE)?.assumingMemoryBound(to: tp_translator.self))
    let collected = Collected()
    var sink = tp_translation_sink(
      struct_size: UInt32(MemoryLayout<tp_translation_sink>.size), host_data: Unmanaged.passUnretained(collected).toOpaque(),
      translation: { sink, index, text in
        Unmanaged<Collected>.fromOpaque(sink!.pointee.host_data!).takeUnretainedValue().items.append("\(index):\(text.string)")
      })
    var message = tp_string(data: nil, length: 0)
    let inputs = ["one", "two"].map { (word: String) in tp_string(data: strdup(word), length: word.utf8.count) }
    defer { inputs.forEach { free(UnsafeMutableRawPointer(mutating: $0.data)) } }
    #expect(translator.pointee.translate!(instance, "en", "en-x-loud", inputs, 2, &sink, &message) == TP_STATUS_OK)
    #expect(collected.items == ["0:ONE", "1:TWO"])
    #expect(
      translator.pointee.translate!(instance, "en", "fr", inputs, 2, &sink, &message) == TP_STATUS_UNSUPPORTED_LANGUAGE_PAIRING)
    #expect(message.string == "unsupported language pairing 'en' → 'fr'")
  }
}

private final class Collected { var items: [String] = [] }
