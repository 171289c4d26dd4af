import CTranslationProvider
import Foundation
import Synchronization

/// The provider's side of the process: which extension type `@main`
/// registered, and the instances the host created (`tp_entry.create`), each
/// with its extension and the host it talks to.
enum ProviderRuntime {
  /// What the SDK needs of a loaded extension.
  struct LoadedExtension {
    let instance: Any
    let scene: (any SceneContentProviding)?
    let translator: (any TranslationProviding)?
  }

  private static let lock = Mutex(())
  nonisolated(unsafe) private static var factory: (() throws(EntryPointFactory.Refusal) -> LoadedExtension)?
  /// The instance created last and not destroyed: where the static API
  /// (`ProviderSettings`, log lines outside any instance) reads from.
  nonisolated(unsafe) private static var active: ProviderInstance?

  /// Records the extension type; `@main` calls this through `main()`.
  static func register<Extension: TranslationUIProviderExtension>(_ type: Extension.Type) {
    lock.withLock { _ in
      factory = { () throws(EntryPointFactory.Refusal) in
        let instance = try EntryPointFactory.make(type)
        // Made and read on the host's thread only: the provider's main thread.
        nonisolated(unsafe) let entryPoint = instance
        let scene = MainThread.run { entryPoint.body as? any SceneContentProviding }
        return LoadedExtension(instance: instance, scene: scene, translator: instance as? any TranslationProviding)
      }
    }
  }

  /// Creates an instance for `host`, or nil, after logging why, when no
  /// extension type was registered or it cannot be created.
  static func create(host: UnsafePointer<tp_host>) -> ProviderInstance? {
    let instance = ProviderInstance(host: host)
    lock.withLock { _ in active = instance }
    if lock.withLock({ _ in factory == nil }), let executablePath = host.pointee.executable_path {
      ProviderImage.runMain(executablePath: executablePath)
    }
    guard let make = lock.withLock({ _ in factory }) else {
      log(.error, "no TranslationUIProviderExtension was registered: mark the entry point with @main")
      lock.withLock { _ in active = nil }
      return nil
    }
    do {
      instance.loaded = try make()
    } catch {
      log(.error, error.description)
      lock.withLock { _ in active = nil }
      return nil
    }
    return instance
  }

  /// Forgets `instance`; the host destroys it.
  static func destroy(_ instance: ProviderInstance) {
    lock.withLock { _ in if active === instance { active = nil } }
    instance.loaded = nil
    // iOS writes an extension's defaults when it ends; swift-corelibs-foundation
    // writes them only when asked, and the runner ends after this.
    UserDefaults.standard.synchronize()
  }

  /// The settings the host sent to the active instance.
  static var settings: [String: ProviderSettings.Value] { lock.withLock { _ in active?.settings ?? [:] } }

  /// The bundle folder the host named to the active instance.
  static var bundlePath: String? { lock.withLock { _ in active?.bundlePath } }

  /// Writes a line to the active instance's host log; dropped when there is none.
  static func log(_ level: LogLevel, _ message: String) {
    lock.withLock { _ in active }?.log(level, message)
  }

  /// Severity of a log line; the corresponding C type is `tp_log_level`.
  enum LogLevel: Int32 {
    case debug = 0, info, warning, error
  }
}

/// One instance of the provider, `self` of every ABI call: the extension the
/// SDK created and the host that created it.
final class ProviderInstance: @unchecked Sendable {
  let host: UnsafePointer<tp_host>
  let settings: [String: ProviderSettings.Value]
  let bundlePath: String?
  /// Set once by `ProviderRuntime.create`, cleared by `destroy`; read on the host thread.
  var loaded: ProviderRuntime.LoadedExtension?

  init(host: UnsafePointer<tp_host>) {
    self.host = host
    settings = ProviderSettings.read(from: host)
    bundlePath = host.pointee.bundle_path.map { String(cString: $0) }
  }

  /// The pointer the host passes back as `self`.
  var handle: OpaquePointer { OpaquePointer(Unmanaged.passUnretained(self).toOpaque()) }

  static func from(_ handle: OpaquePointer?) -> ProviderInstance? {
    guard let handle else { return nil }
    return Unmanaged<ProviderInstance>.fromOpaque(UnsafeRawPointer(handle)).takeUnretainedValue()
  }

  func log(_ level: ProviderRuntime.LogLevel, _ message: String) {
    guard let write = host.pointee.log else { return }
    message.withTPString { write(host, level.rawValue, $0) }
  }
}
