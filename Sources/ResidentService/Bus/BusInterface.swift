/// The names of the service's D-Bus interface. The interface itself is
/// `Packaging/dbus/org.translationhost.Translation1.xml`, which `make
/// install` installs and from which `gdbus-codegen` generates what GDBus
/// reads (`CBusInterface`, `make dbus-interface`); the D-Bus tests check that
/// the service introspects exactly as that file says.
enum BusInterface {
  static let name = "org.translationhost.Translation1"
  static let objectPath = "/org/translationhost/Translation1"
  /// Where its named errors live: `<errorPrefix>.UnsupportedLanguagePairing`, ….
  static let errorPrefix = name + ".Error"
  /// The interface's `version` property: 2 since `Present` returns a
  /// request object, 3 since `TranslateWithOptions`.
  static let version: UInt32 = 3
}
