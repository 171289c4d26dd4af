import CTranslationProvider

/// Why a provider's shared object could not be loaded or started; each case
/// names the file and carries the loader's own text.
package enum LoadError: Error, Equatable, CustomStringConvertible {
  /// The file does not start with the ELF magic number.
  case notELF(String)
  /// `dlopen` failed; `reason` is `dlerror()`.
  case openFailed(String, reason: String)
  /// The library exports neither `translation_provider_entry_v2` nor `translation_provider_entry`.
  case missingEntry(String, reason: String)
  /// `translation_provider_entry` returned NULL.
  case nullEntry(String)
  /// The entry table is smaller than the v1 table.
  case truncatedEntry(String, size: UInt32)
  /// The provider's table declares a major that its entry symbol (`symbol`) does not carry.
  case abiMismatch(String, provider: (UInt32, UInt32), symbol: String)
  /// The provider's `create` returned NULL (ABI 2), or its `init` returned false (ABI 1).
  case initFailed(String)

  package var description: String {
    switch self {
    case .notELF(let path):
      "\(path): not an ELF shared object; CFBundleExecutable must name the provider's .so"
    case .openFailed(let path, let reason):
      "\(path): cannot be loaded: \(reason)"
    case .missingEntry(let path, let reason):
      "\(path): exports neither 'translation_provider_entry_v2' nor 'translation_provider_entry' (\(reason)); export 'translation_provider_entry_v2' as Documentation/ABI.md shows"
    case .nullEntry(let path):
      "\(path): 'translation_provider_entry' returned NULL"
    case .truncatedEntry(let path, let size):
      "\(path): entry table is \(size) bytes, smaller than any ABI v1 table"
    case .abiMismatch(let path, let provider, let symbol):
      "\(path): built for provider ABI \(provider.0).\(provider.1), but this host speaks ABI \(TP_V1_ABI_VERSION_MAJOR).\(TP_V1_ABI_VERSION_MINOR) through 'translation_provider_entry' and ABI \(TP_ABI_VERSION_MAJOR).\(TP_ABI_VERSION_MINOR) through 'translation_provider_entry_v2', and the provider's table came from '\(symbol)'; rebuild the provider against this host's header"
    case .initFailed(let path):
      "\(path): the provider's create returned NULL (init returned false, for ABI 1; its log lines, if it wrote any, say why)"
    }
  }

  package static func == (lhs: LoadError, rhs: LoadError) -> Bool { lhs.description == rhs.description }
}
