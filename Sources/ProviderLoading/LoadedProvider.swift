import CTranslationProvider
import Glibc
import RunnerProtocol

/// A provider's shared object, loaded, checked and initialised: the runner's
/// handle on the C ABI. Only the runner (or `--in-process`) creates one.
///
/// It speaks both majors: ABI 2 (`translation_provider_entry_v2`, an instance
/// passed to every call) and ABI 1 (`translation_provider_entry`, no
/// instance). Everything above this type sees one interface, whichever the
/// provider was built for.
package final class LoadedProvider {
  package let library: DynamicLibrary
  private let binding: Binding
  private let host: UnsafeMutablePointer<tp_host>
  private let logSink: LogSink

  /// The capabilities this build knows and the provider implements.
  package let capabilities: [Capability]
  /// The ABI version the provider's entry table declares.
  package let abiVersion: (major: UInt32, minor: UInt32)

  /// How the provider's tables are reached.
  private enum Binding {
    case v1(UnsafePointer<tp_v1_entry>)
    case v2(UnsafePointer<tp_entry>, instance: OpaquePointer)
  }

  /// Loads `executablePath`, checks its entry table and ABI major, and
  /// creates the provider with `settingsJSON` as its settings. `log` receives
  /// the provider's log lines, from any thread.
  package init(
    executablePath: String, bundlePath: String, settingsJSON: String = "{}",
    log: @escaping @Sendable (ProviderLogLevel, String) -> Void
  ) throws(LoadError) {
    library = try DynamicLibrary(path: executablePath)
    // The versioned symbol first: a provider that exports both is an ABI 2
    // provider that kept its old entry for older hosts.
    let (symbol, expectedMajor): (UnsafeMutableRawPointer, UInt32)
    if let v2 = library.symbolIfPresent(named: Self.entryV2) {
      (symbol, expectedMajor) = (v2, UInt32(TP_ABI_VERSION_MAJOR))
    } else {
      (symbol, expectedMajor) = (try library.symbol(named: Self.entryV1), UInt32(TP_V1_ABI_VERSION_MAJOR))
    }
    // Both functions return a pointer to a table whose three leading fields
    // are the same in every ABI version: read only them, check the major,
    // then the size, and only then the whole table.
    let function = unsafeBitCast(symbol, to: (@convention(c) () -> UnsafeRawPointer?).self)
    guard let table = function() else { throw .nullEntry(executablePath) }
    let header = table.assumingMemoryBound(to: UInt32.self)
    let (size, major, minor) = (header[0], header[1], header[2])
    guard major == expectedMajor else {
      throw .abiMismatch(
        executablePath, provider: (major, minor), symbol: expectedMajor == 1 ? Self.entryV1 : Self.entryV2)
    }
    abiVersion = (major, minor)
    logSink = LogSink(log)
    host = .allocate(capacity: 1)
    // What the host table says of the host: the version the provider was built for.
    let (hostMajor, hostMinor) =
      major == 1
      ? (UInt32(TP_V1_ABI_VERSION_MAJOR), UInt32(TP_V1_ABI_VERSION_MINOR))
      : (UInt32(TP_ABI_VERSION_MAJOR), UInt32(TP_ABI_VERSION_MINOR))
    host.initialize(
      to: tp_host(
        struct_size: UInt32(MemoryLayout<tp_host>.size), abi_major: hostMajor, abi_minor: hostMinor,
        host_data: Unmanaged.passUnretained(logSink).toOpaque(),
        bundle_path: strdup(bundlePath), executable_path: strdup(executablePath),
        log: { host, level, message in
          guard let data = host?.pointee.host_data else { return }
          Unmanaged<LogSink>.fromOpaque(data).takeUnretainedValue().write(level, message.string)
        }, settings_json: strdup(settingsJSON)))
    if major == 1 {
      let entry = table.assumingMemoryBound(to: tp_v1_entry.self)
      guard size >= MemoryLayout<tp_v1_entry>.size else {
        Self.free(host)
        throw .truncatedEntry(executablePath, size: size)
      }
      guard let initialize = entry.pointee.`init`, initialize(host) else {
        // ABI 1 has no call after a failed init: the host's strings are the host's to free.
        Self.free(host)
        throw .initFailed(executablePath)
      }
      self.binding = .v1(entry)
    } else {
      let entry = table.assumingMemoryBound(to: tp_entry.self)
      guard size >= MemoryLayout<tp_entry>.size else {
        Self.free(host)
        throw .truncatedEntry(executablePath, size: size)
      }
      guard let create = entry.pointee.create, let instance = create(host) else {
        Self.free(host)
        throw .initFailed(executablePath)
      }
      self.binding = .v2(entry, instance: instance)
    }
    let binding = binding
    capabilities = (Capability.known + [.unknownProbe]).filter { Self.capabilityTable(binding, $0.rawValue) != nil }
  }

  deinit {
    switch binding {
    case .v1(let entry): entry.pointee.deinit?()
    case .v2(let entry, let instance): entry.pointee.destroy?(instance)
    }
    Self.free(host)
  }

  /// The symbol names and the versions this host speaks, for messages.
  package static let entryV1 = "translation_provider_entry"
  package static let entryV2 = "translation_provider_entry_v2"

  /// The raw capability table for `id`, or nil.
  private static func capabilityTable(_ binding: Binding, _ id: String) -> UnsafeRawPointer? {
    switch binding {
    case .v1(let entry): entry.pointee.get_capability?(id)
    case .v2(let entry, let instance): entry.pointee.get_capability?(instance, id)
    }
  }

  /// The scene factory of `tp.scene.selected-text/1`, whichever ABI the provider speaks.
  func sceneFactory() throws(ProviderError) -> (UnsafePointer<tp_context>) -> UnsafePointer<tp_scene>? {
    let id = TP_CAPABILITY_SELECTED_TEXT_SCENE
    guard let raw = Self.capabilityTable(binding, id) else { throw .missingCapability(id) }
    let size = raw.assumingMemoryBound(to: UInt32.self).pointee
    switch binding {
    case .v1:
      guard size >= MemoryLayout<tp_v1_selected_text_scene_factory>.size else {
        throw .invalidTable(
          "tp_selected_text_scene_factory", size: size, required: MemoryLayout<tp_v1_selected_text_scene_factory>.size)
      }
      guard let create = raw.assumingMemoryBound(to: tp_v1_selected_text_scene_factory.self).pointee.create_scene else {
        throw .missingFunction("create_scene")
      }
      return { create($0) }
    case .v2(_, let instance):
      guard size >= MemoryLayout<tp_selected_text_scene_factory>.size else {
        throw .invalidTable(
          "tp_selected_text_scene_factory", size: size, required: MemoryLayout<tp_selected_text_scene_factory>.size)
      }
      guard let create = raw.assumingMemoryBound(to: tp_selected_text_scene_factory.self).pointee.create_scene else {
        throw .missingFunction("create_scene")
      }
      return { create(instance, $0) }
    }
  }

  /// The two functions of `tp.translate/1`, whichever ABI the provider speaks.
  struct TranslatorFunctions {
    var translate:
      (
        (
          UnsafePointer<CChar>, UnsafePointer<CChar>, UnsafePointer<tp_string>?, Int, UnsafePointer<tp_translation_sink>,
          UnsafeMutablePointer<tp_string>
        ) -> tp_status
      )?
    var languages: ((UnsafePointer<tp_language_sink>) -> tp_status)?
  }

  func translator() throws(ProviderError) -> TranslatorFunctions {
    let id = TP_CAPABILITY_TRANSLATE
    guard let raw = Self.capabilityTable(binding, id) else { throw .missingCapability(id) }
    let size = raw.assumingMemoryBound(to: UInt32.self).pointee
    switch binding {
    case .v1:
      guard size >= MemoryLayout<tp_v1_translator>.size else {
        throw .invalidTable("tp_translator", size: size, required: MemoryLayout<tp_v1_translator>.size)
      }
      let table = raw.assumingMemoryBound(to: tp_v1_translator.self).pointee
      return TranslatorFunctions(
        translate: table.translate.map { translate in { translate($0, $1, $2, $3, $4, $5) } },
        languages: table.languages.map { languages in { languages($0) } })
    case .v2(_, let instance):
      guard size >= MemoryLayout<tp_translator>.size else {
        throw .invalidTable("tp_translator", size: size, required: MemoryLayout<tp_translator>.size)
      }
      let table = raw.assumingMemoryBound(to: tp_translator.self).pointee
      return TranslatorFunctions(
        translate: table.translate.map { translate in { translate(instance, $0, $1, $2, $3, $4, $5) } },
        languages: table.languages.map { languages in { languages(instance, $0) } })
    }
  }

  /// The translate function of `tp.translate.stream/1` (ABI 2.1), or nil
  /// when the provider has none (an ABI 1 provider never has).
  func streamTranslator() throws(ProviderError) -> (
    (
      UnsafePointer<CChar>, UnsafePointer<CChar>, UnsafePointer<tp_text_source>, UnsafePointer<tp_translation_sink>,
      UnsafeMutablePointer<tp_string>
    ) -> tp_status
  )? {
    guard case .v2(_, let instance) = binding, let raw = Self.capabilityTable(binding, TP_CAPABILITY_TRANSLATE_STREAM)
    else { return nil }
    let size = raw.assumingMemoryBound(to: UInt32.self).pointee
    guard size >= MemoryLayout<tp_stream_translator>.size else {
      throw .invalidTable("tp_stream_translator", size: size, required: MemoryLayout<tp_stream_translator>.size)
    }
    guard let translate = raw.assumingMemoryBound(to: tp_stream_translator.self).pointee.translate else {
      throw .missingFunction("tp_stream_translator.translate")
    }
    return { translate(instance, $0, $1, $2, $3, $4) }
  }

  /// Frees the host table and the strings the host allocated for it.
  private static func free(_ host: UnsafeMutablePointer<tp_host>) {
    Glibc.free(UnsafeMutablePointer(mutating: host.pointee.bundle_path))
    Glibc.free(UnsafeMutablePointer(mutating: host.pointee.executable_path))
    Glibc.free(UnsafeMutablePointer(mutating: host.pointee.settings_json))
    host.deinitialize(count: 1).deallocate()
  }

  /// Holds the log closure for the C callback.
  private final class LogSink: Sendable {
    let write: @Sendable (ProviderLogLevel, String) -> Void
    init(_ write: @escaping @Sendable (ProviderLogLevel, String) -> Void) { self.write = write }
    func write(_ level: tp_log_level, _ message: String) {
      write(ProviderLogLevel(rawValue: level) ?? .info, message)
    }
  }
}

/// Severity of a provider's log line; the corresponding C type is `tp_log_level`.
package enum ProviderLogLevel: Int32, Codable, Sendable, CustomStringConvertible {
  case debug = 0, info, warning, error

  package var description: String {
    switch self {
    case .debug: "debug"
    case .info: "info"
    case .warning: "warning"
    case .error: "error"
    }
  }
}

extension tp_string {
  /// The bytes as a String, with invalid UTF-8 replaced (callers that must
  /// refuse invalid UTF-8 check `isValidUTF8` first).
  var string: String {
    guard let data, length > 0 else { return "" }
    return String(decoding: UnsafeRawBufferPointer(start: data, count: length), as: UTF8.self)
  }

  /// Whether the string breaks the ABI's rule that `data` may be NULL only
  /// when `length` is 0; such a string must be refused, not read as "".
  var hasMissingData: Bool { data == nil && length > 0 }

  /// The raw bytes.
  var bytes: [UInt8] {
    guard let data, length > 0 else { return [] }
    return Array(UnsafeRawBufferPointer(start: data, count: length))
  }
}

extension String {
  /// Calls `body` with the string as a borrowed `tp_string`.
  func withTPString<Result>(_ body: (tp_string) throws -> Result) rethrows -> Result {
    var copy = self
    return try copy.withUTF8 { bytes in
      try body(
        tp_string(
          data: bytes.baseAddress.map { UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self) },
          length: bytes.count))
    }
  }
}
