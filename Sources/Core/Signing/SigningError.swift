import System

/// Why a bundle's signature does not hold, or cannot be made or checked.
package enum SigningError: HostErrorConvertible, Equatable {
  /// minisign is not installed at the paths the host looks at.
  case toolMissing([String])
  /// The bundle's signature folder is incomplete or malformed (the file, and why).
  case malformed(String, String)
  /// A file's signature does not verify with the bundle's key.
  case invalid(file: String, keyID: String)
  /// The identifier is pinned to a key, and the bundle is unsigned.
  case unsignedButPinned(bundle: String, identifier: String, pinned: String)
  /// The identifier is pinned to a key, and the bundle is signed by another.
  case otherKey(bundle: String, identifier: String, pinned: String, found: String)
  /// Signing failed (minisign's exit status).
  case signingFailed(String, status: Int32)
  /// The pins file cannot be written.
  case pinsUnwritable(String, String)

  package var description: String {
    switch self {
    case .toolMissing(let paths):
      "minisign is not installed (\(paths.joined(separator: ", "))); install Debian's minisign package to sign and verify bundles"
    case .malformed(let file, let reason):
      "\(file): \(reason); sign the bundle again with 'translation-host sign'"
    case .invalid(let file, let keyID):
      "\(file): its signature does not verify with the bundle's key \(keyID): the file changed after it was signed, or the signature is not for it; do not run this bundle, or sign it again"
    case .unsignedButPinned(let bundle, let identifier, let pinned):
      "\(bundle) is unsigned, but '\(identifier)' is pinned to key \(pinned), which signed the copy first installed; install a copy signed by that key, or 'translation-host uninstall' the provider (which forgets the key) first"
    case .otherKey(let bundle, let identifier, let pinned, let found):
      "\(bundle) is signed by key \(found), but '\(identifier)' is pinned to key \(pinned), which signed the copy first installed; install a copy signed by \(pinned), or 'translation-host uninstall' the provider (which forgets the key) first"
    case .signingFailed(let bundle, let status):
      "minisign could not sign \(bundle) (exit status \(status)); check the secret key and its password"
    case .pinsUnwritable(let file, let reason):
      "\(file): cannot be written (\(reason)); check the folder's permissions"
    }
  }

  package var hostError: HostError {
    switch self {
    case .toolMissing, .pinsUnwritable, .signingFailed: HostError(.failure, description)
    case .malformed, .invalid, .unsignedButPinned, .otherKey: HostError(.providerUnavailable, description)
    }
  }
}
