import FoundationEssentials
import RunnerProtocol
import System

/// Reads a provider bundle folder and reports every problem with it, in the
/// order a person would fix them. Never runs the bundle's code; reads at most
/// the two property lists and the first bytes of the shared object.
package struct BundleInspector {
  private let path: String
  private var problems: [ManifestError] = []
  private var files: [BundleInspection.File] = []

  /// The most entries a bundle's tree may hold, and how deep it may nest:
  /// every one is checked (`checkTree`), and a bundle is a few files.
  static let maximumEntries = 4096
  static let maximumDepth = 16

  /// Inspects the bundle folder at `path`.
  /// - Parameter containers: the folder of the providers' containers, where
  ///   no bundle may lie (by default the user's, from the environment).
  package static func inspect(_ path: String, containers: String? = nil) -> BundleInspection {
    var inspector = BundleInspector(path: path)
    let manifest = inspector.readManifest(
      containers: containers ?? XDGFolders(environment: ProcessInfo.processInfo.environment).data + "/containers")
    return BundleInspection(
      path: path, manifest: manifest, problems: inspector.problems, files: inspector.files.sorted { $0.name < $1.name })
  }

  private init(path: String) { self.path = path }

  private mutating func readManifest(containers: String) -> ProviderBundle? {
    guard let folder = status(of: path, name: ".") else { return nil }
    guard folder.isDirectory else {
      problems.append(.notADirectory(path))
      return nil
    }
    guard checkIdentity(containers: containers) else { return nil }
    guard let names = list() else { return nil }

    let infoPath = path + "/Info.plist"
    let info = dictionary(at: infoPath, name: "Info.plist")
    let entitlementFiles = names.filter { $0.hasSuffix(".entitlements") }.sorted()
    var entitlements: [String: PropertyListValue]?
    if entitlementFiles.count == 1 {
      entitlements = dictionary(at: path + "/" + entitlementFiles[0], name: entitlementFiles[0])
    } else {
      problems.append(.entitlementsCount(bundle: path, found: entitlementFiles))
    }
    guard let info else { return nil }

    var keys = KeyReader(entries: info, file: infoPath)
    let identifier = keys.string(ManifestKey.identifier) {
      Self.isReverseDNS($0) ? nil : "is not a reverse-DNS identifier such as 'org.example.reverse'"
    }
    let name = keys.string(ManifestKey.name)
    let displayName = keys.optionalString(ManifestKey.displayName)
    let version = keys.string(ManifestKey.shortVersion)
    _ = keys.optionalString(ManifestKey.bundleVersion)
    // Control characters too: the name is shown in messages and passed to the runner.
    let executable = keys.string(ManifestKey.executable) { value in
      value.isEmpty || value.contains("/") || value == "." || value == ".."
        || value.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }
        ? "must be a file name inside the bundle, without '/', '..' or control characters" : nil
    }
    let attributes = keys.dictionary(ManifestKey.extensionAttributes)
    var nested = KeyReader(entries: attributes ?? [:], file: infoPath, prefix: ManifestKey.extensionAttributes + ".")
    if attributes != nil {
      _ = nested.string(ManifestKey.extensionPoint) {
        $0 == ManifestKey.translationExtensionPoint ? nil : "must be '\(ManifestKey.translationExtensionPoint)'"
      }
    }
    let allowsNetworkAccess = keys.boolean(ManifestKey.networkAccess) ?? false
    let allowsMemoryFiles = keys.boolean(MemoryFiles.manifestKey) ?? false
    let settings = Self.settings(info[ManifestKey.settings], file: infoPath, problems: &keys)
    let readOnlyPaths = Self.readOnlyPaths(info[ReadOnlyPaths.manifestKey], file: infoPath, problems: &keys)
    problems += keys.problems + nested.problems

    var executablePath: String?
    if let executable {
      executablePath = path + "/" + executable
      checkExecutable(path + "/" + executable, name: executable)
    }

    var isTranslationApp = false
    if let entitlements, entitlementFiles.count == 1 {
      isTranslationApp = entitlements[ManifestKey.translationApp] == .boolean(true)
      if !isTranslationApp { problems.append(.notTranslationApp(file: path + "/" + entitlementFiles[0])) }
    }

    guard let identifier, let name, let version, let executablePath, attributes != nil else { return nil }
    return ProviderBundle(
      path: path, identifier: identifier, name: name, displayName: displayName ?? name, version: version,
      executablePath: executablePath, allowsNetworkAccess: allowsNetworkAccess, isTranslationApp: isTranslationApp,
      settings: settings, readOnlyPaths: readOnlyPaths, allowsMemoryFiles: allowsMemoryFiles,
      hasSignature: names.contains(BundleSignature.folder))
  }

  /// The `TPReadOnlyPaths` declarations (`ReadOnlyPaths.Checker`): system
  /// data, judged as declared and as the real path it resolves to; each bad
  /// entry is a problem and is not shown to the provider.
  private static func readOnlyPaths(_ value: PropertyListValue?, file: String, problems keys: inout KeyReader) -> [String] {
    guard let value else { return [] }
    guard case .array(let entries) = value else {
      keys.report(.wrongType(file: file, key: ReadOnlyPaths.manifestKey, expected: "array", found: value.typeName))
      return []
    }
    var paths: [String] = []
    let checker = ReadOnlyPaths.Checker.system(
      cleanFolders: XDGFolders(environment: ProcessInfo.processInfo.environment).cleanFolders)
    for (index, entry) in entries.enumerated() {
      let key = "\(ReadOnlyPaths.manifestKey)[\(index)]"
      guard case .string(let path) = entry else {
        keys.report(.wrongType(file: file, key: key, expected: "string", found: entry.typeName))
        continue
      }
      switch checker.verdict(for: path) {
      case .refused(let reason): keys.report(.invalidValue(file: file, key: key, value: path, reason: reason))
      case .accepted: paths.append(path)
      }
    }
    return paths
  }

  /// The `TPSettings` declarations; each bad entry is a problem and is skipped.
  private static func settings(_ value: PropertyListValue?, file: String, problems keys: inout KeyReader) -> [ProviderSetting] {
    guard let value else { return [] }
    guard case .array(let entries) = value else {
      keys.report(.wrongType(file: file, key: ManifestKey.settings, expected: "array", found: value.typeName))
      return []
    }
    var settings: [ProviderSetting] = []
    for (index, entry) in entries.enumerated() {
      let prefix = "\(ManifestKey.settings)[\(index)]."
      guard case .dictionary(let fields) = entry else {
        keys.report(
          .wrongType(file: file, key: "\(ManifestKey.settings)[\(index)]", expected: "dictionary", found: entry.typeName))
        continue
      }
      var reader = KeyReader(entries: fields, file: file, prefix: prefix)
      let key = reader.string("Key")
      let title = reader.string("Title")
      let kind = reader.string("Type") { ProviderSetting.Kind(rawValue: $0) == nil ? "must be string, boolean or integer" : nil }
      let defaultValue: SettingValue? =
        switch fields["Default"] {
        case .string(let text)?: .string(text)
        case .boolean(let flag)?: .boolean(flag)
        case .integer(let number)?: .integer(number)
        default: nil
        }
      let isSecret = reader.boolean("Secret") ?? false
      for problem in reader.problems { keys.report(problem) }
      guard let key, let title, let kind = kind.flatMap(ProviderSetting.Kind.init(rawValue:)) else { continue }
      if isSecret && kind != .string {
        keys.report(.invalidValue(file: file, key: prefix + "Secret", value: "true", reason: "is for string settings only"))
        continue
      }
      guard !settings.contains(where: { $0.key == key }) else {
        keys.report(.invalidValue(file: file, key: prefix + "Key", value: key, reason: "is declared twice; keep one"))
        continue
      }
      guard let defaultValue, defaultValue.kind == kind else {
        keys.report(
          .invalidValue(
            file: file, key: prefix + "Default", value: defaultValue?.description ?? "(none)",
            reason: "must be \(kind == .integer ? "an" : "a") \(kind.rawValue), as Type says"))
        continue
      }
      settings.append(ProviderSetting(key: key, title: title, kind: kind, defaultValue: defaultValue, isSecret: isSecret))
    }
    return settings
  }

  // MARK: Identity

  /// Whether the bundle is its own: the folder is no symbolic link, it does
  /// not lie in a container, and nothing in it resolves outside it or has
  /// another name (`checkTree`). A bundle that fails is refused whole: its
  /// manifest could be someone else's, or a provider's own writing.
  private mutating func checkIdentity(containers: String) -> Bool {
    let before = problems.count
    if let link = try? FileStatus(path: path, followingLinks: false), link.isSymbolicLink {
      problems.append(.resolvesOutside(path, target: Syscalls.realPath(path) ?? "nothing"))
      return false
    }
    guard let real = Syscalls.realPath(path) else {
      problems.append(.unreadable(path, reason: "its real path cannot be resolved"))
      return false
    }
    let realContainers = Syscalls.realPath(containers) ?? SearchPath.normalized(containers)
    if real == realContainers || real.hasPrefix(realContainers + "/") {
      problems.append(.insideContainer(path, containers: containers))
      return false
    }
    var remaining = Self.maximumEntries
    checkTree(path, real: real, depth: 0, remaining: &remaining)
    return problems.count == before
  }

  /// Checks every entry under `folder` (whose real path is `real` at the
  /// top): symbolic links must resolve inside the bundle, regular files
  /// must have one name only, and nothing else (sockets, devices, pipes) may be there.
  private mutating func checkTree(_ folder: String, real bundle: String, depth: Int, remaining: inout Int) {
    guard let names = try? Directory.names(at: folder) else {
      problems.append(.unreadable(folder, reason: "the folder cannot be listed"))
      return
    }
    for name in names.sorted() {
      let file = folder + "/" + name
      remaining -= 1
      guard remaining >= 0, depth < Self.maximumDepth else {
        problems.append(
          .unsupportedFile(
            file,
            reason:
              "the bundle holds more than \(Self.maximumEntries) entries or nests deeper than \(Self.maximumDepth) folders; a provider bundle is a few files"
          ))
        return
      }
      guard let status = try? FileStatus(path: file, followingLinks: false) else {
        problems.append(.unreadable(file, reason: "its status cannot be read"))
        continue
      }
      if status.isSymbolicLink {
        let target = Syscalls.realPath(file)
        if let target, target.hasPrefix(bundle + "/") { continue }
        problems.append(.resolvesOutside(file, target: target ?? "nothing"))
      } else if status.isDirectory {
        record(file, status)
        checkTree(file, real: bundle, depth: depth + 1, remaining: &remaining)
      } else if status.isRegularFile {
        record(file, status)
        if let links = Syscalls.linkCount(file), links > 1 { problems.append(.hardLinked(file, links: links)) }
      } else {
        problems.append(
          .unsupportedFile(file, reason: "is a socket, device or pipe; a bundle holds only folders and regular files"))
      }
    }
  }

  /// Records an entry of the tree, so that the registry's cache knows the
  /// bundle only while nothing in it changed: an entry added, removed or
  /// replaced changes its folder's `st_ctime`, and a second name given to a
  /// file changes the file's.
  private mutating func record(_ file: String, _ status: FileStatus) {
    files.append(BundleInspection.File(name: String(file.dropFirst(path.count + 1)), status: status))
  }

  // MARK: Files

  /// `stat` of a file, recording it and checking who may write it.
  private mutating func status(
    of file: String, name: String, missing: (String) -> ManifestError = ManifestError.missingFile
  ) -> FileStatus? {
    let status: FileStatus
    do {
      status = try FileStatus(path: file)
    } catch {
      problems.append(error == Errno(rawValue: 2) ? missing(file) : .unreadable(file, reason: error.description))
      return nil
    }
    // The executable may be one of the property lists; each file is recorded once.
    if !files.contains(where: { $0.name == name }) { files.append(BundleInspection.File(name: name, status: status)) }
    if let problem = status.safetyProblem(at: file) { problems.append(problem) }
    return status
  }

  private mutating func list() -> [String]? {
    do {
      return try Directory.names(at: path)
    } catch {
      problems.append(.unreadable(path, reason: error.description))
      return nil
    }
  }

  /// Reads a property list whose top level must be a dictionary.
  private mutating func dictionary(at file: String, name: String) -> [String: PropertyListValue]? {
    guard let status = status(of: file, name: name) else { return nil }
    guard status.isRegularFile else {
      problems.append(.unreadable(file, reason: "not a regular file"))
      return nil
    }
    guard status.size <= PropertyListLimits.maximumBytes else {
      problems.append(.tooLarge(file, size: Int(status.size)))
      return nil
    }
    let value: PropertyListValue
    do {
      value = try PropertyListValue.parse(try Directory.readPrefix(of: file, count: Int(status.size)))
    } catch let error as Errno {
      problems.append(.unreadable(file, reason: error.description))
      return nil
    } catch let violation as PropertyListLimits.Violation {
      switch violation {
      case .tooLarge(let size): problems.append(.tooLarge(file, size: size))
      case .tooDeep, .tooManyObjects: problems.append(.tooComplex(file))
      case .duplicateKey(let key): problems.append(.duplicateKey(file: file, key: key))
      case .malformed(let reason): problems.append(.unreadable(file, reason: "not a valid property list: \(reason)"))
      }
      return nil
    } catch {
      preconditionFailure("reading a property list throws only Errno or PropertyListLimits.Violation: \(error)")
    }
    guard case .dictionary(let entries) = value else {
      problems.append(.unreadable(file, reason: "the top level is a \(value.typeName), not a dictionary"))
      return nil
    }
    return entries
  }

  /// Checks that the executable exists, is safe, and is an ELF shared object for this machine.
  private mutating func checkExecutable(_ file: String, name: String) {
    guard let status = status(of: file, name: name, missing: ManifestError.missingExecutable) else { return }
    guard status.isRegularFile, let header = try? Directory.readPrefix(of: file, count: 20), header.count == 20,
      header.starts(with: [0x7f, 0x45, 0x4c, 0x46])
    else {
      problems.append(.notELF(file))
      return
    }
    let machine = Int(header[18]) | Int(header[19]) << 8
    let found = ELFMachine(class: header[4], data: header[5], machine: machine)
    if found != .host {
      problems.append(.wrongArchitecture(file, found: found.description, expected: ELFMachine.host.description))
    } else if header[16] != 3 || header[17] != 0 {  // e_type ET_DYN
      problems.append(.notELF(file))
    }
  }

  private static func isReverseDNS(_ identifier: String) -> Bool {
    let parts = identifier.split(separator: ".", omittingEmptySubsequences: false)
    return parts.count >= 2
      && parts.allSatisfy { part in
        !part.isEmpty && part.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") }
      }
  }
}
