import FoundationEssentials

/// A provider bundle (`<Name>.translationprovider/`) as its manifest describes
/// it. Reading a bundle never runs its code.
package struct ProviderBundle: Equatable, Sendable {
  /// Absolute path of the bundle directory.
  package var path: String
  /// `CFBundleIdentifier`, reverse-DNS.
  package var identifier: String
  /// `CFBundleName`.
  package var name: String
  /// `CFBundleDisplayName`, or the name when absent.
  package var displayName: String
  /// `CFBundleShortVersionString`.
  package var version: String
  /// Absolute path of the shared object named by `CFBundleExecutable`.
  package var executablePath: String
  /// The network-access key is present and Boolean true.
  package var allowsNetworkAccess: Bool
  /// The translation-app entitlement is present and Boolean true.
  package var isTranslationApp: Bool
  /// Problems that do not stop the bundle from loading but must be reported
  /// (for example a network-access key of the wrong type, read as "no network").
  package var warnings: [ManifestError]

  /// Reads and checks the bundle at `path`.
  /// - Throws: `ManifestError` for the first problem that makes the bundle unusable.
  package static func load(at path: String) throws(ManifestError) -> ProviderBundle {
    let directory = URL(fileURLWithPath: path).standardizedFileURL.path
    let infoPath = directory + "/Info.plist"
    let info = try dictionary(at: infoPath)
    var warnings: [ManifestError] = []

    let identifier = try string(info, ManifestKey.identifier, in: infoPath)
    guard isReverseDNS(identifier) else {
      throw .invalidValue(
        file: infoPath, key: ManifestKey.identifier, value: identifier,
        reason: "is not a reverse-DNS identifier such as 'org.example.reverse'")
    }
    let name = try string(info, ManifestKey.name, in: infoPath)
    let displayName = try optionalString(info, ManifestKey.displayName, in: infoPath) ?? name
    let version = try string(info, ManifestKey.shortVersion, in: infoPath)
    let executable = try string(info, ManifestKey.executable, in: infoPath)
    guard !executable.isEmpty, !executable.contains("/"), executable != "..", executable != "." else {
      throw .invalidValue(
        file: infoPath, key: ManifestKey.executable, value: executable,
        reason: "must be a file name inside the bundle, without '/' or '..'")
    }
    let executablePath = directory + "/" + executable
    guard FileManager.default.fileExists(atPath: executablePath) else { throw .missingFile(executablePath) }

    guard case .dictionary(let attributes)? = info[ManifestKey.extensionAttributes] else {
      throw info[ManifestKey.extensionAttributes].map {
        .wrongType(file: infoPath, key: ManifestKey.extensionAttributes, expected: "dictionary", found: $0.typeName)
      } ?? .missingKey(file: infoPath, key: ManifestKey.extensionAttributes)
    }
    let extensionPoint = try string(
      attributes, ManifestKey.extensionPoint, in: infoPath, keyPath: ManifestKey.extensionAttributes + ".")
    guard extensionPoint == ManifestKey.translationExtensionPoint else {
      throw .invalidValue(
        file: infoPath, key: "\(ManifestKey.extensionAttributes).\(ManifestKey.extensionPoint)",
        value: extensionPoint, reason: "must be '\(ManifestKey.translationExtensionPoint)'")
    }

    var allowsNetworkAccess = false
    switch info[ManifestKey.networkAccess] {
    case nil: break
    case .boolean(let value)?: allowsNetworkAccess = value
    case let other?:
      warnings.append(
        .wrongType(file: infoPath, key: ManifestKey.networkAccess, expected: "boolean", found: other.typeName))
    }

    let entitlementsPath = try entitlementsFile(in: directory)
    let entitlements = try dictionary(at: entitlementsPath)
    let isTranslationApp = entitlements[ManifestKey.translationApp] == .boolean(true)

    return ProviderBundle(
      path: directory, identifier: identifier, name: name, displayName: displayName, version: version,
      executablePath: executablePath, allowsNetworkAccess: allowsNetworkAccess,
      isTranslationApp: isTranslationApp, warnings: warnings)
  }

  /// The single `*.entitlements` file of the bundle.
  private static func entitlementsFile(in directory: String) throws(ManifestError) -> String {
    let names: [String]
    do {
      names = try FileManager.default.contentsOfDirectory(atPath: directory)
    } catch {
      throw .unreadable(directory, reason: "\(error)")
    }
    let found = names.filter { $0.hasSuffix(".entitlements") }.sorted()
    guard found.count == 1 else { throw .entitlementsCount(bundle: directory, found: found) }
    return directory + "/" + found[0]
  }

  private static func dictionary(at path: String) throws(ManifestError) -> [String: PropertyListValue] {
    guard let data = FileManager.default.contents(atPath: path) else {
      throw FileManager.default.fileExists(atPath: path) ? .unreadable(path, reason: "permission denied") : .missingFile(path)
    }
    let value: PropertyListValue
    do {
      value = try PropertyListValue.parse(data)
    } catch {
      throw .unreadable(path, reason: "not a valid XML or binary property list")
    }
    guard case .dictionary(let entries) = value else {
      throw .unreadable(path, reason: "the top level is a \(value.typeName), not a dictionary")
    }
    return entries
  }

  private static func optionalString(
    _ entries: [String: PropertyListValue], _ key: String, in file: String, keyPath: String = ""
  ) throws(ManifestError) -> String? {
    switch entries[key] {
    case nil: nil
    case .string(let value)?: value
    case let other?: throw .wrongType(file: file, key: keyPath + key, expected: "string", found: other.typeName)
    }
  }

  private static func string(
    _ entries: [String: PropertyListValue], _ key: String, in file: String, keyPath: String = ""
  ) throws(ManifestError) -> String {
    guard let value = try optionalString(entries, key, in: file, keyPath: keyPath) else {
      throw .missingKey(file: file, key: keyPath + key)
    }
    return value
  }

  private static func isReverseDNS(_ identifier: String) -> Bool {
    let parts = identifier.split(separator: ".", omittingEmptySubsequences: false)
    return parts.count >= 2
      && parts.allSatisfy { part in
        !part.isEmpty && part.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") }
      }
  }
}
