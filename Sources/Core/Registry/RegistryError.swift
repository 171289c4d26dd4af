import System

/// Why a provider reference does not lead to a usable provider.
package enum RegistryError: HostErrorConvertible, Equatable {
  /// No bundle has this identifier, name or path.
  case notFound(String, searched: [String])
  /// A name shared by bundles with different identifiers.
  case ambiguous(String, identifiers: [String])
  /// The bundle exists but may not run; `reasons` are its diagnostics.
  case notEligible(String, reasons: [String])
  /// No eligible provider is installed at all.
  case noProviders(searched: [String])
  /// The resident service was asked for a bundle path that its search path
  /// does not list; it runs only bundles it finds itself.
  case outsideSearchPath(String, searched: [String])
  /// The bundle at the path declares an identifier another bundle (`owner`)
  /// holds: it may not run as that provider.
  case identifierHeld(String, identifier: String, owner: String)

  package var description: String {
    switch self {
    case .notFound(let reference, let searched):
      "no provider '\(reference)' in \(searched.joined(separator: ":")); see 'translation-host list --all', or pass a bundle path"
    case .ambiguous(let name, let identifiers):
      "more than one provider is named '\(name)' (\(identifiers.joined(separator: ", "))); pass its bundle id"
    case .notEligible(let reference, let reasons):
      "provider '\(reference)' may not run:" + reasons.map { "\n  \($0)" }.joined()
    case .outsideSearchPath(let path, let searched):
      "the translation-host service runs only bundles in its search path (\(searched.joined(separator: ":"))), and '\(path)' is not one; install it with 'translation-host install \(path)'"
    case .identifierHeld(let path, let identifier, let owner):
      "\(path) declares the identifier '\(identifier)', which belongs to \(owner), the first bundle in the search path that declares it; an identifier, with its settings and container, belongs to one bundle: remove one of them, or make this one the update with 'translation-host install --replace \(path)'"
    case .noProviders(let searched):
      "no eligible provider is installed in \(searched.joined(separator: ":")); install one with 'translation-host install <bundle>'"
    }
  }

  package var hostError: HostError {
    if case .outsideSearchPath = self { return HostError(.providerUnavailable, description, remedy: .bypassService) }
    return HostError(.providerUnavailable, description)
  }
}
