import CTranslationProvider
import Synchronization

/// The provider's side of the process: which extension type `@main`
/// registered, its one instance, and the host it talks to.
enum ProviderRuntime {
  /// What the SDK needs of a loaded extension.
  struct LoadedExtension {
    let instance: AnyObject
    let scene: (any SceneContentProviding)?
    let translator: (any TranslationProviding)?
  }

  private static let lock = Mutex(())
  nonisolated(unsafe) private static var factory: (() -> LoadedExtension)?
  nonisolated(unsafe) private static var loaded: LoadedExtension?
  nonisolated(unsafe) private static var host: UnsafePointer<tp_host>?
  nonisolated(unsafe) private static var storedSettings: [String: ProviderSettings.Value] = [:]

  /// Records the extension type; `@main` calls this through `main()`.
  static func register<Extension: TranslationUIProviderExtension>(_ type: Extension.Type) {
    lock.withLock { _ in
      factory = {
        let instance = Extension()
        return LoadedExtension(
          instance: instance,
          scene: instance.body as? any SceneContentProviding,
          translator: instance as? any TranslationProviding)
      }
    }
  }

  /// Creates the extension for `host`. Returns false, after logging why, when
  /// no extension type was registered.
  static func start(host newHost: UnsafePointer<tp_host>) -> Bool {
    let settings = ProviderSettings.read(from: newHost)
    lock.withLock { _ in
      host = newHost
      storedSettings = settings
    }
    if lock.withLock({ _ in factory == nil }), let executablePath = newHost.pointee.executable_path {
      ProviderImage.runMain(executablePath: executablePath)
    }
    guard let make = lock.withLock({ _ in factory }) else {
      log(.error, "no TranslationUIProviderExtension was registered: mark the extension class with @main")
      return false
    }
    let made = make()
    lock.withLock { _ in loaded = made }
    return true
  }

  /// Drops the extension and forgets the host.
  static func stop() {
    lock.withLock { _ in
      loaded = nil
      host = nil
    }
  }

  /// The settings the host sent.
  static var settings: [String: ProviderSettings.Value] { lock.withLock { _ in storedSettings } }

  /// The running extension, if `start` succeeded.
  static var current: LoadedExtension? { lock.withLock { _ in loaded } }

  /// Writes a line to the host's log; dropped when no host is attached.
  static func log(_ level: LogLevel, _ message: String) {
    guard let host = lock.withLock({ _ in host }), let write = host.pointee.log else { return }
    message.withTPString { write(host, level.rawValue, $0) }
  }

  /// Severity of a log line; the corresponding C type is `tp_log_level`.
  enum LogLevel: Int32 {
    case debug = 0, info, warning, error
  }
}
