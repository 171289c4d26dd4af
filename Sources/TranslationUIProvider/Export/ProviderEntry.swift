import CTranslationProvider

/// The one symbol a provider exports; the host calls it first.
///
/// The SDK defines it, so a Swift provider gets it by linking the SDK. The
/// name carries the ABI major (2).
// swift-format-ignore: AlwaysUseLowerCamelCase
// (The name is the C ABI's symbol, which the host looks up.)
@_cdecl("translation_provider_entry_v2")
public func translation_provider_entry_v2() -> UnsafePointer<tp_entry> {
  UnsafePointer(EntryTable.entry)
}

/// The static tables the C ABI points at; `self` of each call is a `ProviderInstance`.
enum EntryTable {
  nonisolated(unsafe) static let entry: UnsafeMutablePointer<tp_entry> = allocate(
    tp_entry(
      struct_size: UInt32(MemoryLayout<tp_entry>.size),
      abi_major: UInt32(TP_ABI_VERSION_MAJOR),
      abi_minor: UInt32(TP_ABI_VERSION_MINOR),
      create: { host in
        guard let host, let instance = ProviderRuntime.create(host: host) else { return nil }
        return OpaquePointer(Unmanaged.passRetained(instance).toOpaque())
      },
      destroy: { handle in
        guard let handle else { return }
        let instance = Unmanaged<ProviderInstance>.fromOpaque(UnsafeRawPointer(handle)).takeRetainedValue()
        ProviderRuntime.destroy(instance)
      },
      get_capability: { handle, id in
        guard let instance = ProviderInstance.from(handle), let id else { return nil }
        return capability(String(cString: id), of: instance)
      }))

  nonisolated(unsafe) static let sceneFactory: UnsafeMutablePointer<tp_selected_text_scene_factory> = allocate(
    tp_selected_text_scene_factory(
      struct_size: UInt32(MemoryLayout<tp_selected_text_scene_factory>.size),
      create_scene: { handle, context in
        guard let instance = ProviderInstance.from(handle), let context else { return nil }
        return SceneBridge.createScene(of: instance, for: context)
      }))

  nonisolated(unsafe) static let translator: UnsafeMutablePointer<tp_translator> = allocate(
    tp_translator(
      struct_size: UInt32(MemoryLayout<tp_translator>.size),
      translate: TranslatorBridge.translate,
      languages: TranslatorBridge.languages))

  nonisolated(unsafe) static let streamTranslator: UnsafeMutablePointer<tp_stream_translator> = allocate(
    tp_stream_translator(
      struct_size: UInt32(MemoryLayout<tp_stream_translator>.size),
      translate: TranslatorBridge.translateStream))

  private static func capability(_ id: String, of instance: ProviderInstance) -> UnsafeRawPointer? {
    guard let loaded = instance.loaded else { return nil }
    switch id {
    case TP_CAPABILITY_SELECTED_TEXT_SCENE where loaded.scene != nil:
      return UnsafeRawPointer(sceneFactory)
    case TP_CAPABILITY_TRANSLATE where loaded.translator != nil:
      return UnsafeRawPointer(translator)
    case TP_CAPABILITY_TRANSLATE_STREAM where loaded.translator is any StreamingTranslationProviding:
      return UnsafeRawPointer(streamTranslator)
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
