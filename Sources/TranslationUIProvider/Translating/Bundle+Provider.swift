extension Bundle {
  /// The provider's own bundle (its `.translationprovider` folder, with its
  /// Info.plist and `<language>.lproj` resources): what `Bundle.main` is in an
  /// iOS extension. `Bundle.main` is the host's runner here. Outside a host
  /// (the provider's own tests), `Bundle.main`.
  public static var provider: Bundle {
    ProviderResources.bundlePath.flatMap { Bundle(path: $0) } ?? .main
  }
}
