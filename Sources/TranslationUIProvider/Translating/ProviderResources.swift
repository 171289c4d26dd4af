/// The files the provider ships in its bundle, beside its Info.plist and
/// shared object. (In an iOS extension, `Bundle.main` is the extension's
/// bundle; here the process is the host's runner, so the SDK names it.)
public enum ProviderResources {
  /// The provider's bundle folder, an absolute path, as the host loaded it;
  /// nil outside a host (the provider's own tests).
  public static var bundlePath: String? { ProviderRuntime.bundlePath }
}
