/// Why a provider's shared object could not be loaded or started; each case
/// names the file and carries the loader's own text.
package enum LoadError: Error, Equatable, CustomStringConvertible {
  /// The file does not start with the ELF magic number.
  case notELF(String)
  /// `dlopen` failed; `reason` is `dlerror()`.
  case openFailed(String, reason: String)
  /// The library does not export `translation_provider_entry`.
  case missingEntry(String, reason: String)
  /// `translation_provider_entry` returned NULL.
  case nullEntry(String)
  /// The entry table is smaller than the v1 table.
  case truncatedEntry(String, size: UInt32)
  /// The provider was built for another ABI major.
  case abiMismatch(String, provider: (UInt32, UInt32), host: (UInt32, UInt32))
  /// The provider's `init` returned false.
  case initFailed(String)

  package var description: String {
    switch self {
    case .notELF(let path):
      "\(path): not an ELF shared object; CFBundleExecutable must name the provider's .so"
    case .openFailed(let path, let reason):
      "\(path): cannot be loaded: \(reason)"
    case .missingEntry(let path, let reason):
      "\(path): does not export 'translation_provider_entry' (\(reason)); export it as the ABI requires"
    case .nullEntry(let path):
      "\(path): 'translation_provider_entry' returned NULL"
    case .truncatedEntry(let path, let size):
      "\(path): entry table is \(size) bytes, smaller than any ABI v1 table"
    case .abiMismatch(let path, let provider, let host):
      "\(path): built for provider ABI \(provider.0).\(provider.1), but this host speaks ABI \(host.0).\(host.1); rebuild the provider against this host's header"
    case .initFailed(let path):
      "\(path): the provider's init returned false (see its log above)"
    }
  }

  package static func == (lhs: LoadError, rhs: LoadError) -> Bool { lhs.description == rhs.description }
}
