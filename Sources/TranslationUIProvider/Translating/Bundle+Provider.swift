import Synchronization

extension Bundle {
  /// The provider's own bundle (its `.translationprovider` folder, with its
  /// Info.plist and `<language>.lproj` resources): what `Bundle.main` is in an
  /// iOS extension. `Bundle.main` is the host's runner here. Outside a host
  /// (the provider's own tests), `Bundle.main`.
  public static var provider: Bundle {
    guard let path = ProviderResources.bundlePath else { return .main }
    // Made once per folder: every literal a view shows looks its key up here.
    return ProviderBundleCache.bundle.withLock { cached in
      if let cached, cached.path == path { return cached.bundle }
      let bundle = Bundle(path: path) ?? .main
      cached = (path, bundle)
      return bundle
    }
  }
}

/// The provider's bundle, made for its folder.
private enum ProviderBundleCache {
  nonisolated(unsafe) static let bundle = Mutex<(path: String, bundle: Bundle)?>(nil)
}
