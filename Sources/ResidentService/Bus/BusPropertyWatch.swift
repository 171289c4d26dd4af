import CGDBus
import Core
import System

/// Sends `PropertiesChanged` for `DefaultProvider` and `Providers` when they
/// change (`set-default`, a bundle added or removed), so that clients need
/// not poll them.
///
/// The files that decide them (the search path's folders and the defaults
/// file) are watched with inotify (`FileWatch`); the bus's thread looks at
/// the watch twice a second (one `read` that mostly finds nothing), and
/// only after a change reads the properties again and compares them with
/// what it last told.
final class BusPropertyWatch: @unchecked Sendable {
  private let requests: BusRequests
  private var watch: FileWatch?
  private var defaultProvider: String
  private var providers: [[String]]

  /// Starts watching, and reads the properties once.
  init(requests: BusRequests) {
    self.requests = requests
    watch = try? FileWatch(paths: Self.watchedPaths(requests.server.environment))
    defaultProvider = requests.defaultProvider()
    providers = requests.providers()
  }

  static func watchedPaths(_ environment: [String: String]) -> [String] {
    SearchPath.standard(environment: environment).folders.map(\.path)
      + [DefaultPreferences.standard(environment: environment).file]
  }

  /// On the bus's thread: sends `PropertiesChanged` for what changed since the last look.
  func look(on connection: OpaquePointer) {
    if let watch, !watch.hasChanged { return }
    // Renewed before reading, so a change made while reading is seen at the next look.
    watch = try? FileWatch(paths: Self.watchedPaths(requests.server.environment))
    var changed: [(String, OpaquePointer)] = []
    let newDefault = requests.defaultProvider()
    if newDefault != defaultProvider {
      defaultProvider = newDefault
      changed.append(("DefaultProvider", GVariantCoding.make(newDefault)))
    }
    let newProviders = requests.providers()
    if newProviders != providers {
      providers = newProviders
      changed.append(("Providers", GVariantCoding.makeRows(newProviders)))
    }
    guard !changed.isEmpty else { return }
    let dictionary = GVariantCoding.makeArray(
      elementType: "{sv}", changed.map { g_variant_new_dict_entry(GVariantCoding.make($0.0), g_variant_new_variant($0.1)) })
    let parameters = GVariantCoding.makeTuple([
      GVariantCoding.make(BusInterface.name), dictionary, GVariantCoding.makeStrings([]),
    ])
    g_dbus_connection_emit_signal(
      connection, nil, BusInterface.objectPath, "org.freedesktop.DBus.Properties", "PropertiesChanged", parameters, nil)
  }
}
