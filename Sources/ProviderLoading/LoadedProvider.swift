import CTranslationProvider
import Glibc
import RunnerProtocol

/// A provider's shared object, loaded, checked and initialised: the runner's
/// handle on the C ABI. Only the runner (or `--in-process`) creates one.
package final class LoadedProvider {
  package let library: DynamicLibrary
  private let entry: UnsafePointer<tp_entry>
  private let host: UnsafeMutablePointer<tp_host>
  private let logSink: LogSink

  /// The capabilities this build knows and the provider implements.
  package let capabilities: [Capability]
  /// The ABI version the provider's entry table declares.
  package let abiVersion: (major: UInt32, minor: UInt32)

  /// Loads `executablePath`, checks its entry table and ABI major, and calls
  /// its `init` with `settingsJSON` as its settings. `log` receives the
  /// provider's log lines, from any thread.
  package init(
    executablePath: String, bundlePath: String, settingsJSON: String = "{}",
    log: @escaping @Sendable (ProviderLogLevel, String) -> Void
  ) throws(LoadError) {
    library = try DynamicLibrary(path: executablePath)
    let symbol = try library.symbol(named: "translation_provider_entry")
    let function = unsafeBitCast(symbol, to: tp_entry_function.self)
    guard let entry = function() else { throw .nullEntry(executablePath) }
    // The three leading fields are the same in every ABI version: read only
    // them, check the major, then the size, and only then the whole table.
    let header = UnsafeRawPointer(entry).assumingMemoryBound(to: UInt32.self)
    let (size, major, minor) = (header[0], header[1], header[2])
    guard major == TP_ABI_VERSION_MAJOR else {
      throw .abiMismatch(
        executablePath, provider: (major, minor), host: (UInt32(TP_ABI_VERSION_MAJOR), UInt32(TP_ABI_VERSION_MINOR)))
    }
    guard size >= MemoryLayout<tp_entry>.size else { throw .truncatedEntry(executablePath, size: size) }
    let table = entry.pointee
    self.entry = entry
    abiVersion = (major, minor)
    logSink = LogSink(log)
    host = .allocate(capacity: 1)
    host.initialize(
      to: tp_host(
        struct_size: UInt32(MemoryLayout<tp_host>.size),
        abi_major: UInt32(TP_ABI_VERSION_MAJOR), abi_minor: UInt32(TP_ABI_VERSION_MINOR),
        host_data: Unmanaged.passUnretained(logSink).toOpaque(),
        bundle_path: strdup(bundlePath), executable_path: strdup(executablePath),
        log: { host, level, message in
          guard let data = host?.pointee.host_data else { return }
          Unmanaged<LogSink>.fromOpaque(data).takeUnretainedValue().write(level, message.string)
        }, settings_json: strdup(settingsJSON)))
    guard let initialize = table.`init`, initialize(host) else { throw .initFailed(executablePath) }
    let getCapability = table.get_capability
    capabilities = Capability.known.filter { getCapability?($0.rawValue) != nil }
  }

  deinit {
    entry.pointee.deinit?()
  }

  /// The capability table for `id`, or nil.
  func capability<Table>(_ id: String, as type: Table.Type) -> UnsafePointer<Table>? {
    guard let pointer = entry.pointee.get_capability?(id) else { return nil }
    return pointer.assumingMemoryBound(to: Table.self)
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
