import CBusInterface
import CGDBus
import Core
import System

/// Keeps the skeleton's `DefaultProvider` and `Providers` (the generated
/// setters) as the files that decide them say, and sends `PropertiesChanged`
/// when they change (`set-default`, a bundle added or removed), so that
/// clients need not poll them.
///
/// The files that decide them (the search path's folders and the defaults
/// file) are watched with inotify (`FileWatch`); the bus's thread looks at
/// the watch twice a second and before each `Get` (one `read` that mostly
/// finds nothing), and only after a change reads the properties again and
/// compares them with what it last told.
///
/// `PropertiesChanged` is sent here, not by the skeleton, because the
/// skeleton is registered by hand (`BusEndpoint`) so that property reads are
/// checked, and a skeleton sends it only on connections it was exported to.
final class BusPropertyWatch {
  private let requests: BusRequests
  private let skeleton: OpaquePointer
  private var watch: FileWatch?
  private var defaultProvider: String
  private var providers: [[String]]

  /// Starts watching, and reads the properties once into `skeleton` (a `CBusTranslation1Skeleton`).
  init(requests: BusRequests, skeleton: OpaquePointer) {
    self.requests = requests
    self.skeleton = skeleton
    watch = try? FileWatch(paths: Self.watchedPaths(requests.server.environment))
    defaultProvider = requests.defaultProvider()
    providers = requests.providers()
    cbus_translation1_set_default_provider(skeleton, defaultProvider)
    cbus_translation1_set_providers(skeleton, GVariantCoding.makeRows(providers))
  }

  static func watchedPaths(_ environment: [String: String]) -> [String] {
    SearchPath.standard(environment: environment).folders.map(\.path)
      + [DefaultPreferences.standard(environment: environment).file]
  }

  /// On the bus's thread: updates the skeleton and sends `PropertiesChanged` for what changed since the last look.
  func look(on connection: OpaquePointer) {
    if let watch, !watch.hasChanged { return }
    // Renewed before reading, so a change made while reading is seen at the next look.
    watch = try? FileWatch(paths: Self.watchedPaths(requests.server.environment))
    var changed: [(String, OpaquePointer)] = []
    let newDefault = requests.defaultProvider()
    if newDefault != defaultProvider {
      defaultProvider = newDefault
      cbus_translation1_set_default_provider(skeleton, newDefault)
      changed.append(("DefaultProvider", GVariantCoding.make(newDefault)))
    }
    let newProviders = requests.providers()
    if newProviders != providers {
      providers = newProviders
      cbus_translation1_set_providers(skeleton, GVariantCoding.makeRows(newProviders))
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
