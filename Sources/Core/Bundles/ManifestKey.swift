/// The Info.plist and entitlements keys the host reads (Documentation/Bundles.md).
package enum ManifestKey {
  package static let identifier = "CFBundleIdentifier"
  package static let name = "CFBundleName"
  package static let displayName = "CFBundleDisplayName"
  package static let shortVersion = "CFBundleShortVersionString"
  package static let bundleVersion = "CFBundleVersion"
  package static let executable = "CFBundleExecutable"
  package static let extensionAttributes = "EXAppExtensionAttributes"
  package static let extensionPoint = "EXExtensionPointIdentifier"
  package static let networkAccess = "com.apple.developer.translation-ui-provider.network-access"
  package static let translationApp = "com.apple.developer.translation-app"
  package static let settings = "TPSettings"

  /// The only extension point a provider may declare.
  package static let translationExtensionPoint = "com.apple.public.translation-ui-provider"
}
