import FoundationEssentials
import System

/// The registry cache: each bundle's inspection, keyed by the `stat` of its
/// folder, of every file that was read and of every folder and regular file
/// in its tree (the identity check's), so listing re-reads only what changed.
///
/// A header line, then one binary record per bundle in the order of the scan
/// that wrote them, which is the order the next scan asks for them: a lookup
/// compares one path with `memcmp`, and a record is decoded only after its
/// files proved unchanged. Integers are little-endian, each file's `stat` is
/// seven fixed-width integers compared as they are, and texts are
/// length-prefixed bytes, so reading a record costs far less than the `stat`
/// calls that validate it (the text form with decimal numbers and escapes
/// cost more than them).
///
/// A file that is corrupt, truncated, from another version or writable by
/// others is ignored and rewritten, and so is a record that does not decode;
/// writes go to a temporary file renamed into place, so concurrent writers
/// never leave a torn cache.
package struct RegistryCache {
  package static let fileName = "registry-v1.cache"
  // 7: every folder and regular file of the bundle's tree in the key (6 kept
  // trusting a bundle after a link out of it, a pipe or a second name of a
  // file appeared below its top folder or beside its manifest);
  // 6: bundles that resolve outside themselves, lie in a container or hold
  // hard links are refused (5 trusted them), TPMemoryFiles, signatures; 5: each file's status change time too (4 trusted a file rewritten with its
  // size and modification time restored); 4: binary records in scan order, with
  // TPReadOnlyPaths (3 lost them); 3: every format read by our own readers.
  static let header = Array("translation-host registry cache 7\n".utf8)

  private let bytes: [UInt8]
  /// Where each record starts (at its length), in file order.
  private let starts: [Int]
  /// The record the next lookup tries first: the one after the last found.
  private var next = 0
  /// Record indexes by path, made on the first lookup that `next` does not answer.
  private var indexesByPath: [String: Int]?
  /// The path of each file being checked, NUL-terminated, in one reused buffer.
  private var pathBuffer: [UInt8] = []
  /// The file names of the last record decoded, by position: bundles hold
  /// files of the same names, which then share one String.
  private var recentNames: [String] = []

  /// How many records the cache holds.
  package var count: Int { starts.count }

  private init(bytes: [UInt8], starts: [Int]) {
    self.bytes = bytes
    self.starts = starts
  }

  /// The cache at `path`, or nil when it is absent or unusable: its records
  /// are only delimited here, and decoded when a lookup asks for one.
  package static func load(from path: String) -> RegistryCache? {
    guard let status = try? FileStatus(path: path), status.isRegularFile, status.safetyProblem(at: path) == nil,
      let bytes = try? Directory.readPrefix(of: path, count: Int(status.size)), bytes.starts(with: header)
    else { return nil }
    let all = bytes[...]
    var starts: [Int] = []
    starts.reserveCapacity(bytes.count / 256)
    var offset = header.count
    while offset < bytes.count {
      guard let length = all.littleEndianUInt32(at: offset), Int(length) <= bytes.count - offset - 4 else {
        return nil
      }
      starts.append(offset)
      offset += 4 + Int(length)
    }
    return RegistryCache(bytes: bytes, starts: starts)
  }

  /// The cached inspection of the bundle at `path`, whose name (from the
  /// UTF-8 offset `nameStart` of `path`) is in the open search folder
  /// `folder` (`Directory.open`), when the bundle folder and every file that
  /// was read have exactly the `stat` they had then; nil when there is no
  /// record, something changed, or the record does not decode.
  package mutating func currentInspection(of path: String, nameStart: Int, in folder: FileDescriptor) -> BundleInspection? {
    guard let index = recordIndex(of: path) else { return nil }
    next = index + 1
    var record = RecordReader(record(at: index))
    guard record.field() != nil, let files = unchangedFiles(in: &record, bundle: path.utf8.dropFirst(nameStart), folder: folder)
    else { return nil }
    return Self.decodeManifest(from: &record, path: path, files: files)
  }

  /// Every record, decoded without checking its files (for tests and tools).
  package func inspections() -> [String: BundleInspection] {
    var found: [String: BundleInspection] = [:]
    for index in starts.indices {
      var record = RecordReader(record(at: index))
      guard let path = record.text(), let count = record.byte() else { continue }
      var files: [BundleInspection.File] = []
      for _ in 0..<count {
        guard let name = record.text(), let status = record.status() else { break }
        files.append(BundleInspection.File(name: name, status: status))
      }
      guard files.count == Int(count), let inspection = Self.decodeManifest(from: &record, path: path, files: files) else {
        continue
      }
      found[path] = inspection
    }
    return found
  }

  /// Writes `inspections` atomically, in their order; failures are ignored (the cache is only a cache).
  /// The cache folder and `$XDG_CACHE_HOME` are made when missing, never the
  /// folder above them: a home that is gone (a test's, a removed user's) is
  /// not brought back by a command that was still listing.
  package static func save(_ inspections: [BundleInspection], to path: String) {
    let folder = URL(fileURLWithPath: path).deletingLastPathComponent()
    let home = folder.deletingLastPathComponent().deletingLastPathComponent().path
    guard FileManager.default.fileExists(atPath: home) else { return }
    try? FileManager.default.createDirectory(
      atPath: folder.path, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    var bytes = header
    bytes.reserveCapacity(inspections.count * 512)
    for inspection in inspections {
      guard let record = encode(inspection) else { continue }
      bytes.appendLittleEndian(UInt32(record.count))
      bytes += record
    }
    try? AtomicFile.write(bytes, to: path, mode: 0o600, durable: false)
  }

  // MARK: Looking up

  private func record(at index: Int) -> ArraySlice<UInt8> {
    let start = starts[index] + 4
    return bytes[start..<(index + 1 < starts.count ? starts[index + 1] : bytes.count)]
  }

  /// The index of the record of `path`: the next one in file order when the
  /// scan goes as the last one went, else found by path.
  private mutating func recordIndex(of path: String) -> Int? {
    if next < starts.count {
      var record = RecordReader(record(at: next))
      if record.field()?.isUTF8(of: path) == true { return next }
    }
    if indexesByPath == nil {
      var indexes: [String: Int] = [:]
      for index in starts.indices {
        var record = RecordReader(record(at: index))
        if let path = record.text() { indexes[path] = index }
      }
      indexesByPath = indexes
    }
    return indexesByPath?[path]
  }

  /// The files of the record, when each has the `stat` recorded for it and
  /// the folder itself (`.`) is among them.
  private mutating func unchangedFiles(
    in record: inout RecordReader, bundle name: Substring.UTF8View, folder: FileDescriptor
  ) -> [BundleInspection.File]? {
    guard let count = record.byte() else { return nil }
    var files: [BundleInspection.File] = []
    files.reserveCapacity(Int(count))
    pathBuffer.removeAll(keepingCapacity: true)
    if name.withContiguousStorageIfAvailable({ pathBuffer.append(contentsOf: $0) }) == nil { pathBuffer.append(contentsOf: name) }
    let folderLength = pathBuffer.count
    var hasFolder = false
    for position in 0..<Int(count) {
      guard let file = record.field(), let recorded = record.status() else { return nil }
      pathBuffer.removeLast(pathBuffer.count - folderLength)
      if file.count == 1 && file.first == dot {
        hasFolder = true
      } else {
        pathBuffer.append(slash)
        pathBuffer.append(contentsOf: file)
      }
      pathBuffer.append(0)
      guard let current = try? FileStatus(nulTerminatedPath: pathBuffer, relativeTo: folder), current == recorded else {
        return nil
      }
      if position < recentNames.count, file.isUTF8(of: recentNames[position]) {
        files.append(BundleInspection.File(name: recentNames[position], status: recorded))
      } else {
        guard let fileName = String(validatingUTF8: file) else { return nil }
        if position < recentNames.count { recentNames[position] = fileName } else { recentNames.append(fileName) }
        files.append(BundleInspection.File(name: fileName, status: recorded))
      }
    }
    return hasFolder ? files : nil
  }

  // MARK: Records

  /// path, file count, files (name and `stat`), problems as JSON (empty for
  /// none), and a manifest flag followed by the manifest's fields.
  private static func encode(_ inspection: BundleInspection) -> [UInt8]? {
    guard inspection.files.count <= Int(UInt8.max) else { return nil }
    var bytes: [UInt8] = []
    bytes.reserveCapacity(512)
    append(inspection.path, to: &bytes)
    bytes.append(UInt8(inspection.files.count))
    for file in inspection.files {
      append(file.name, to: &bytes)
      file.status.encode(into: &bytes)
    }
    if inspection.problems.isEmpty {
      append("", to: &bytes)
    } else {
      guard let json = try? JSONEncoder().encode(inspection.problems) else { return nil }
      append(String(decoding: json, as: UTF8.self), to: &bytes)
    }
    guard let m = inspection.manifest else {
      bytes.append(0)
      return bytes
    }
    bytes.append(1)
    for field in [m.identifier, m.name, m.displayName, m.version, m.executablePath] { append(field, to: &bytes) }
    bytes.append(
      (m.allowsNetworkAccess ? 1 : 0) | (m.isTranslationApp ? 2 : 0) | (m.allowsMemoryFiles ? 4 : 0) | (m.hasSignature ? 8 : 0))
    if m.settings.isEmpty {
      append("", to: &bytes)
    } else {
      guard let json = try? JSONEncoder().encode(m.settings) else { return nil }
      append(String(decoding: json, as: UTF8.self), to: &bytes)
    }
    bytes.appendLittleEndian(UInt32(m.readOnlyPaths.count))
    for path in m.readOnlyPaths { append(path, to: &bytes) }
    return bytes
  }

  private static func append(_ text: String, to bytes: inout [UInt8]) {
    var text = text
    text.withUTF8 { utf8 in
      bytes.appendLittleEndian(UInt32(utf8.count))
      bytes.append(contentsOf: utf8)
    }
  }

  /// The problems and manifest that follow a record's files; nil when they
  /// do not decode or bytes are left over.
  private static func decodeManifest(
    from record: inout RecordReader, path: String, files: [BundleInspection.File]
  ) -> BundleInspection? {
    guard let problemField = record.field() else { return nil }
    var problems: [ManifestError] = []
    if !problemField.isEmpty {
      guard let decoded = try? JSONDecoder().decode([ManifestError].self, from: Data(problemField)) else { return nil }
      problems = decoded
    }
    switch record.byte() {
    case 0:
      guard record.isAtEnd else { return nil }
      return BundleInspection(path: path, manifest: nil, problems: problems, files: files)
    case 1:
      break
    default:
      return nil
    }
    guard let identifier = record.text(), let name = record.text(), let displayName = record.text(),
      let version = record.text(), let executablePath = record.text(), let flags = record.byte(),
      flags & ~15 == 0, let settingsField = record.field(), let readOnlyCount = record.count()
    else { return nil }
    var settings: [ProviderSetting] = []
    if !settingsField.isEmpty {
      guard let decoded = try? JSONDecoder().decode([ProviderSetting].self, from: Data(settingsField)) else { return nil }
      settings = decoded
    }
    var readOnlyPaths: [String] = []
    for _ in 0..<readOnlyCount {
      guard let readOnly = record.text() else { return nil }
      readOnlyPaths.append(readOnly)
    }
    guard record.isAtEnd else { return nil }
    let manifest = ProviderBundle(
      path: path, identifier: identifier, name: name, displayName: displayName, version: version,
      executablePath: executablePath, allowsNetworkAccess: flags & 1 != 0, isTranslationApp: flags & 2 != 0,
      settings: settings, readOnlyPaths: readOnlyPaths, allowsMemoryFiles: flags & 4 != 0, hasSignature: flags & 8 != 0)
    return BundleInspection(path: path, manifest: manifest, problems: problems, files: files)
  }

  /// The fields of one record, read in order; each read is nil past the
  /// record's end, so a corrupt record is refused, never trusted.
  private struct RecordReader {
    private let bytes: ArraySlice<UInt8>
    private var position: Int

    init(_ bytes: ArraySlice<UInt8>) {
      self.bytes = bytes
      position = bytes.startIndex
    }

    var isAtEnd: Bool { position == bytes.endIndex }

    mutating func byte() -> UInt8? {
      guard position < bytes.endIndex else { return nil }
      defer { position += 1 }
      return bytes[position]
    }

    /// A little-endian `UInt32`: a length or a count.
    mutating func count() -> UInt32? {
      guard let value = bytes.littleEndianUInt32(at: position) else { return nil }
      position += 4
      return value
    }

    /// A length-prefixed field.
    mutating func field() -> ArraySlice<UInt8>? {
      guard let length = count(), Int(length) <= bytes.endIndex - position else { return nil }
      defer { position += Int(length) }
      return bytes[position..<position + Int(length)]
    }

    /// A length-prefixed field that is UTF-8 text.
    mutating func text() -> String? { field().flatMap { String(validatingUTF8: $0) } }

    /// A file's `stat`, as `encode` writes it.
    mutating func status() -> FileStatus? {
      guard let status = FileStatus(encoded: bytes[position...]) else { return nil }
      position += FileStatus.encodedSize
      return status
    }
  }
}

private let dot = UInt8(ascii: ".")
private let slash = UInt8(ascii: "/")
