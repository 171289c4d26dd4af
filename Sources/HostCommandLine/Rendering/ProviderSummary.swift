import Core
import FoundationEssentials

/// A provider as `list --json` and `info --json` describe it. The keys are a
/// stable contract for scripts.
struct ProviderSummary: Encodable {
  var id: String?
  var name: String?
  var displayName: String?
  var version: String?
  var path: String
  var executable: String?
  var folder: String
  var origin: String
  var eligible: Bool
  var translationApp: Bool
  var networkAccess: Bool
  /// System paths the manifest asks to read (`TPReadOnlyPaths`).
  var readOnlyPaths: [String]
  /// The manifest lets it make memory files (`TPMemoryFiles`).
  var memoryFiles: Bool
  /// The bundle has a `_CodeSignature` folder (checked by `info`, `verify`, `install`).
  var signed: Bool
  /// Its identifier is pinned to a key (`SignaturePins`).
  var pinned: Bool
  var isDefault: Bool
  var shadowedBy: String?
  var problems: [String]
  /// The isolation layers in force, when they were probed (`info`).
  var sandbox: [String]?

  init(_ entry: RegistryEntry, defaultPath: String?, pins: [String: String]) {
    let manifest = entry.manifest
    id = manifest?.identifier
    name = manifest?.name
    displayName = manifest?.displayName
    version = manifest?.version
    path = entry.path
    executable = manifest?.executablePath
    folder = entry.folder.path
    origin = entry.folder.origin.rawValue
    eligible = entry.isUsable
    translationApp = manifest?.isTranslationApp ?? false
    networkAccess = manifest?.allowsNetworkAccess ?? false
    readOnlyPaths = manifest?.readOnlyPaths ?? []
    memoryFiles = manifest?.allowsMemoryFiles ?? false
    signed = manifest?.hasSignature ?? false
    pinned = manifest.map { pins[$0.identifier] != nil } ?? false
    isDefault = entry.path == defaultPath
    shadowedBy = entry.shadowedBy
    problems = entry.problemDescriptions
  }

  // `shadowedBy` is written as null rather than left out.
  enum CodingKeys: String, CodingKey {
    case id, name, displayName, version, path, executable, folder, origin, eligible, translationApp, networkAccess,
      readOnlyPaths, memoryFiles, signed, pinned, isDefault, shadowedBy, problems, sandbox
  }

  func encode(to encoder: any Encoder) throws {
    var c = encoder.container(keyedBy: CodingKeys.self)
    try c.encode(id, forKey: .id)
    try c.encode(name, forKey: .name)
    try c.encode(displayName, forKey: .displayName)
    try c.encode(version, forKey: .version)
    try c.encode(path, forKey: .path)
    try c.encode(executable, forKey: .executable)
    try c.encode(folder, forKey: .folder)
    try c.encode(origin, forKey: .origin)
    try c.encode(eligible, forKey: .eligible)
    try c.encode(translationApp, forKey: .translationApp)
    try c.encode(networkAccess, forKey: .networkAccess)
    try c.encode(readOnlyPaths, forKey: .readOnlyPaths)
    try c.encode(memoryFiles, forKey: .memoryFiles)
    try c.encode(signed, forKey: .signed)
    try c.encode(pinned, forKey: .pinned)
    try c.encode(isDefault, forKey: .isDefault)
    try c.encode(shadowedBy, forKey: .shadowedBy)
    try c.encode(problems, forKey: .problems)
    try c.encodeIfPresent(sandbox, forKey: .sandbox)
  }
}

extension Output {
  /// Writes `value` as pretty, key-sorted JSON and a newline to stdout.
  func json(_ value: some Encodable) throws {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    try data(String(decoding: try encoder.encode(value), as: UTF8.self) + "\n")
  }
}
