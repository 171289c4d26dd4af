import System

/// One problem with a provider bundle; each case names the file (and key) and
/// its description says what to do.
package enum ManifestError: HostErrorConvertible, Codable, Equatable, Hashable, Sendable {
  /// A file the bundle must have is absent.
  case missingFile(String)
  /// The shared object `CFBundleExecutable` names is not in the bundle.
  case missingExecutable(String)
  /// A file exists but cannot be read or parsed.
  case unreadable(String, reason: String)
  /// A property list larger than `PropertyListLimits.maximumBytes`.
  case tooLarge(String, size: Int)
  /// A property list nested deeper than `PropertyListLimits.maximumDepth`, or expanding too far.
  case tooComplex(String)
  /// One dictionary holds a key twice (the key is a path such as
  /// `TPSettings[0].Key`); readers disagree on which value counts, so the
  /// bundle is refused rather than read as one of them.
  case duplicateKey(file: String, key: String)
  /// A required key is absent.
  case missingKey(file: String, key: String)
  /// A key holds the wrong property-list type.
  case wrongType(file: String, key: String, expected: String, found: String)
  /// A key holds a value of the right type that is not acceptable.
  case invalidValue(file: String, key: String, value: String, reason: String)
  /// The bundle has no entitlements file, or more than one.
  case entitlementsCount(bundle: String, found: [String])
  /// The bundle does not declare the translation-app entitlement as true.
  case notTranslationApp(file: String)
  /// The executable is not an ELF shared object.
  case notELF(String)
  /// The executable is built for another machine.
  case wrongArchitecture(String, found: String, expected: String)
  /// A file or folder that others may write (a code-execution path).
  case writableByOthers(String, mode: UInt32)
  /// A file or folder owned by another user who is not root.
  case foreignOwner(String, owner: UInt32)
  /// The bundle path is not a folder.
  case notADirectory(String)
  /// The bundle folder, or a file or folder in it, is a symbolic link that
  /// resolves outside the bundle (`target`; "nothing" when it dangles).
  case resolvesOutside(String, target: String)
  /// The bundle lies in a provider's container, which providers write.
  case insideContainer(String, containers: String)
  /// A file of the bundle has other names (hard links) that could change it.
  case hardLinked(String, links: Int)
  /// Something in the bundle that is neither a folder, a regular file nor a
  /// symbolic link inside it (a socket, a device, a pipe), or more of them than a bundle holds.
  case unsupportedFile(String, reason: String)

  /// Whether the problem makes the manifest unusable.
  package var isFatal: Bool { !isWarning && !preventsRunningOnly }

  /// Whether the problem stops the bundle from running: every fatal problem,
  /// and a missing translation-app entitlement (the manifest is fine, but the
  /// bundle is listed as not eligible).
  package var preventsRunning: Bool { !isWarning }

  /// A problem that is reported but read securely: a mistyped network key
  /// means no network.
  package var isWarning: Bool {
    if case .wrongType(_, ManifestKey.networkAccess, _, _) = self { return true }
    return false
  }

  /// Whether the problem means someone else could have put code in the bundle.
  package var isSafetyProblem: Bool {
    switch self {
    case .writableByOthers, .foreignOwner, .resolvesOutside, .insideContainer, .hardLinked, .unsupportedFile: true
    default: false
    }
  }

  private var preventsRunningOnly: Bool {
    if case .notTranslationApp = self { return true }
    return false
  }

  /// One line: file names and values come from the bundle, so their control
  /// characters are escaped, newlines too, and cannot forge a line of the host's.
  package var description: String {
    multilineDescription.escapingControlCharacters(keeping: [])
  }

  private var multilineDescription: String {
    switch self {
    case .missingExecutable(let path):
      "\(path): file is missing; the Info.plist key 'CFBundleExecutable' names it: build the provider into the bundle, or make the key name its .so"
    case .missingFile(let path):
      "\(path): file is missing; a provider bundle needs it (see Documentation/Bundles.md)"
    case .unreadable(let path, let reason):
      "\(path): cannot be read: \(reason)"
    case .tooLarge(let path, let size):
      "\(path): is \(size) bytes, more than the \(PropertyListLimits.maximumBytes)-byte limit for a manifest; remove what the host does not read"
    case .tooComplex(let path):
      "\(path): nests deeper than \(PropertyListLimits.maximumDepth) levels or expands to more than \(PropertyListLimits.maximumObjects) objects; flatten it"
    case .duplicateKey(let file, let key):
      "\(file): key '\(key)' appears more than once in the same dictionary, and other tools may read the other value; keep one"
    case .missingKey(let file, let key):
      "\(file): required key '\(key)' is missing; add it"
    case .wrongType(let file, ManifestKey.networkAccess, let expected, let found):
      "\(file): key '\(ManifestKey.networkAccess)' is of type \(found) but must be of type \(expected), so the provider gets no network; write <true/> or <false/>"
    case .wrongType(let file, let key, let expected, let found):
      "\(file): key '\(key)' is of type \(found) but must be of type \(expected); change its type"
    case .invalidValue(let file, let key, let value, let reason):
      "\(file): key '\(key)' has the value '\(value)', which \(reason)"
    case .entitlementsCount(let bundle, let found) where found.isEmpty:
      "\(bundle): has no *.entitlements file; add one declaring '\(ManifestKey.translationApp)' = true"
    case .entitlementsCount(let bundle, let found):
      "\(bundle): has \(found.count) entitlements files (\(found.joined(separator: ", "))); keep exactly one"
    case .notTranslationApp(let file):
      "\(file): entitlement '\(ManifestKey.translationApp)' is not true, so this provider may not run; set it to <true/>"
    case .notELF(let path):
      "\(path): not an ELF shared object; CFBundleExecutable must name the provider's .so"
    case .wrongArchitecture(let path, let found, let expected):
      "\(path): built for \(found), but this machine runs \(expected) code; rebuild the provider for \(expected)"
    case .writableByOthers(let path, let mode):
      "\(path): may be written by other users (mode \(String(mode & 0o7777, radix: 8))); a provider folder runs code, so run 'chmod go-w \(path)'"
    case .foreignOwner(let path, let owner):
      "\(path): is owned by user \(owner), neither you nor root; a provider folder runs code, so take ownership or remove it"
    case .notADirectory(let path):
      "\(path): is not a folder; a provider bundle is a folder named <Name>.translationprovider"
    case .resolvesOutside(let path, let target):
      "\(path): is a symbolic link to \(target), outside the bundle; a bundle's folder and files must be its own (links could hand it another's identity or a file a provider writes): copy them in, or install the bundle with 'translation-host install', which copies it"
    case .insideContainer(let path, let containers):
      "\(path): lies in \(containers), where providers write their files, so it may be a provider's own work and is refused; install bundles with 'translation-host install'"
    case .hardLinked(let path, let links):
      "\(path): has \(links) names (hard links), and a change through another name would change the bundle; replace it with a copy of its own (cp, or 'translation-host install')"
    case .unsupportedFile(let path, let reason):
      "\(path): \(reason)"
    }
  }
}

extension ManifestError {
  package var hostError: HostError { HostError(.providerUnavailable, description) }
}
