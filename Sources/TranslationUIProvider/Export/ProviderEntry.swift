import CTranslationProvider

/// The one symbol a provider exports; the host calls it first.
///
/// The SDK defines it, so a Swift provider gets it by linking the SDK.
// swift-format-ignore: AlwaysUseLowerCamelCase
// (The name is the C ABI's symbol, which the host looks up.)
@_cdecl("translation_provider_entry")
public func translation_provider_entry() -> UnsafePointer<tp_entry> {
  UnsafePointer(EntryTable.entry)
}

/// The static tables the C ABI points at.
enum EntryTable {
  nonisolated(unsafe) static let entry: UnsafeMutablePointer<tp_entry> = allocate(
    tp_entry(
      struct_size: UInt32(MemoryLayout<tp_entry>.size),
      abi_major: UInt32(TP_ABI_VERSION_MAJOR),
      abi_minor: UInt32(TP_ABI_VERSION_MINOR),
      init: { host in
        guard let host else { return false }
        return ProviderRuntime.start(host: host)
      },
      deinit: { ProviderRuntime.stop() },
      get_capability: { id in
        guard let id else { return nil }
        return capability(String(cString: id))
      }))

  nonisolated(unsafe) static let sceneFactory: UnsafeMutablePointer<tp_selected_text_scene_factory> = allocate(
    tp_selected_text_scene_factory(
      struct_size: UInt32(MemoryLayout<tp_selected_text_scene_factory>.size),
      create_scene: { context in
        guard let context else { return nil }
        return SceneBridge.createScene(for: context)
      }))

  nonisolated(unsafe) static let translator: UnsafeMutablePointer<tp_translator> = allocate(
    tp_translator(
      struct_size: UInt32(MemoryLayout<tp_translator>.size),
      translate: TranslatorBridge.translate,
      languages: TranslatorBridge.languages))

  private static func capability(_ id: String) -> UnsafeRawPointer? {
    guard let loaded = ProviderRuntime.current else { return nil }
    switch id {
    case TP_CAPABILITY_SELECTED_TEXT_SCENE where loaded.scene != nil:
      return UnsafeRawPointer(sceneFactory)
    case TP_CAPABILITY_TRANSLATE where loaded.translator != nil:
      return UnsafeRawPointer(translator)
    default:
      return nil
    }
  }

  private static func allocate<T>(_ value: T) -> UnsafeMutablePointer<T> {
    let pointer = UnsafeMutablePointer<T>.allocate(capacity: 1)
    pointer.initialize(to: value)
    return pointer
  }
}
