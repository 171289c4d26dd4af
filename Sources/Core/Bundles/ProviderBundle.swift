import RunnerProtocol
/// A provider bundle's manifest, as read from its `Info.plist` and
/// entitlements by `BundleInspector`.
package struct ProviderBundle: Equatable, Codable, Sendable {
  /// Path of the bundle folder.
  package var path: String
  /// `CFBundleIdentifier`, reverse-DNS.
  package var identifier: String
  /// `CFBundleName`.
  package var name: String
  /// `CFBundleDisplayName`, or the name when absent.
  package var displayName: String
  /// `CFBundleShortVersionString`.
  package var version: String
  /// Path of the shared object named by `CFBundleExecutable`.
  package var executablePath: String
  /// The network-access key is present and Boolean true.
  package var allowsNetworkAccess: Bool
  /// The translation-app entitlement is present and Boolean true.
  package var isTranslationApp: Bool
  /// The settings it declares under `TPSettings`.
  package var settings: [ProviderSetting] = []
  /// System paths the provider reads besides its bundle and the system's
  /// folders, declared under `TPReadOnlyPaths` and shown read-only in its sandbox.
  package var readOnlyPaths: [String] = []
  /// `TPMemoryFiles` is Boolean true: the provider may make memory files (`MemoryFiles`).
  package var allowsMemoryFiles = false
  /// The bundle holds a `_CodeSignature` folder (`BundleSignature`): signed
  /// or claiming to be, which only `verify` and `install` check.
  package var hasSignature = false

  /// What the manifest's sandbox rules ask for beyond the default sandbox, one line each, as declared.
  package var grants: [String] {
    [ReadOnlyPaths(readOnlyPaths).grant, MemoryFiles(isAllowed: allowsMemoryFiles).grant].compactMap(\.self)
  }

  /// Reads the bundle at `path` and returns its manifest when it has no fatal problem.
  /// - Throws: the first fatal `ManifestError`.
  package static func load(at path: String) throws(ManifestError) -> ProviderBundle {
    let inspection = BundleInspector.inspect(path)
    if let fatal = inspection.problems.first(where: \.isFatal) { throw fatal }
    guard let manifest = inspection.manifest else { throw .unreadable(path, reason: "no usable manifest") }
    return manifest
  }
}
