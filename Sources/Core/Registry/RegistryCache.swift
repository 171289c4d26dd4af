import FoundationEssentials
import System

/// The registry cache: each bundle's inspection, keyed by the `stat` of its
/// folder and of every file that was read, so listing re-reads only what changed.
///
/// One record per line, fields separated by tabs and percent-escaped, so that
/// reading a thousand records costs far less than the `stat` calls that
/// validate them. A file that is corrupt, truncated, from another version or
/// writable by others is ignored and rewritten; writes go to a temporary file
/// renamed into place, so concurrent writers never leave a torn cache.
package enum RegistryCache {
  package static let fileName = "registry-v1.cache"
  // 3: duplicate keys and every format are read by our own readers; records of 2 may hold bundles now refused.
  static let header = "translation-host registry cache 3"

  /// The records of the cache at `path`, or nil when it is absent or unusable.
  package static func load(from path: String) -> [String: BundleInspection]? {
    guard let status = try? FileStatus(path: path), status.isRegularFile, status.safetyProblem(at: path) == nil,
      let bytes = try? Directory.readPrefix(of: path, count: Int(status.size))
    else { return nil }
    // Parsed as bytes: splitting Strings by Character costs more than the stats.
    var lines = bytes.split(separator: newline, omittingEmptySubsequences: false)
    guard lines.first.map(Array.init) == Array(header.utf8), lines.last?.isEmpty == true else { return nil }
    lines.removeFirst()
    lines.removeLast()
    var records: [String: BundleInspection] = [:]
    records.reserveCapacity(lines.count)
    for line in lines {
      guard let inspection = decode(line) else { return nil }
      records[inspection.path] = inspection
    }
    return records
  }

  /// Whether the files of a cached inspection of the bundle `name`, in the
  /// open search folder `folder` (`Directory.open`), are exactly as they were.
  package static func isCurrent(_ inspection: BundleInspection, name: String, in folder: FileDescriptor) -> Bool {
    guard inspection.files["."] != nil else { return false }
    let prefix = name + "/"
    for (file, status) in inspection.files {
      let path = file == "." ? name : prefix + file
      guard (try? FileStatus(path: path, relativeTo: folder)) == status else { return false }
    }
    return true
  }

  /// Writes `records` atomically; failures are ignored (the cache is only a cache).
  /// The cache folder and `$XDG_CACHE_HOME` are made when missing, never the
  /// folder above them: a home that is gone (a test's, a removed user's) is
  /// not brought back by a command that was still listing.
  package static func save(_ records: [String: BundleInspection], to path: String) {
    let folder = URL(fileURLWithPath: path).deletingLastPathComponent()
    let home = folder.deletingLastPathComponent().deletingLastPathComponent().path
    guard FileManager.default.fileExists(atPath: home) else { return }
    try? FileManager.default.createDirectory(
      atPath: folder.path, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    var bytes = Array(header.utf8) + [newline]
    bytes.reserveCapacity(records.count * 512)
    for key in records.keys.sorted() {
      encode(records[key]!, into: &bytes)
      bytes.append(newline)
    }
    try? AtomicFile.write(bytes, to: path, mode: 0o600, durable: false)
  }

  // MARK: Records

  private static func encode(_ inspection: BundleInspection, into bytes: inout [UInt8]) {
    append(inspection.path, to: &bytes)
    bytes.append(tab)
    for (position, (name, s)) in inspection.files.sorted(by: { $0.key < $1.key }).enumerated() {
      if position > 0 { bytes.append(slash) }
      append(name, to: &bytes, separators: true)
      for number in [s.size, s.modified, Int64(s.mode), Int64(s.owner), Int64(bitPattern: s.inode), Int64(bitPattern: s.device)] {
        bytes.append(colon)
        bytes += String(number).utf8
      }
    }
    bytes.append(tab)
    if !inspection.problems.isEmpty, let json = try? JSONEncoder().encode(inspection.problems) {
      append(String(decoding: json, as: UTF8.self), to: &bytes)
    }
    if let m = inspection.manifest {
      let settings =
        m.settings.isEmpty ? "" : (try? JSONEncoder().encode(m.settings)).map { String(decoding: $0, as: UTF8.self) } ?? ""
      for field in [
        m.identifier, m.name, m.displayName, m.version, m.executablePath, m.allowsNetworkAccess ? "1" : "0",
        m.isTranslationApp ? "1" : "0", settings,
      ] {
        bytes.append(tab)
        append(field, to: &bytes)
      }
    }
  }

  /// One record, read field by field in place: splitting the line into
  /// arrays of slices cost more than the `stat` calls that validate it.
  private static func decode(_ line: ArraySlice<UInt8>) -> BundleInspection? {
    var fields = FieldCursor(line, separator: tab)
    guard let path = fields.next().flatMap(text), let stamps = fields.next(), let problemField = fields.next() else { return nil }
    var files: [String: FileStatus] = [:]
    files.reserveCapacity(4)
    var entries = FieldCursor(stamps, separator: slash)
    while let file = entries.next() {
      var parts = FieldCursor(file, separator: colon)
      guard let name = parts.next().flatMap(text), let size = parts.next().flatMap(number),
        let modified = parts.next().flatMap(number), let mode = parts.next().flatMap(number),
        let owner = parts.next().flatMap(number), let inode = parts.next().flatMap(number),
        let device = parts.next().flatMap(number), parts.next() == nil
      else { return nil }
      files[name] = FileStatus(
        size: size, modified: modified, mode: UInt32(truncatingIfNeeded: mode), owner: UInt32(truncatingIfNeeded: owner),
        inode: UInt64(bitPattern: inode), device: UInt64(bitPattern: device))
    }
    var problems: [ManifestError] = []
    if !problemField.isEmpty {
      guard let json = text(problemField), let decoded = try? JSONDecoder().decode([ManifestError].self, from: Data(json.utf8))
      else { return nil }
      problems = decoded
    }
    guard let identifierField = fields.next() else {
      return BundleInspection(path: path, manifest: nil, problems: problems, files: files)
    }
    guard let identifier = text(identifierField), let name = fields.next().flatMap(text),
      let displayName = fields.next().flatMap(text), let version = fields.next().flatMap(text),
      let executablePath = fields.next().flatMap(text), let network = fields.next().flatMap(flag),
      let translationApp = fields.next().flatMap(flag), let settingsField = fields.next(), fields.next() == nil
    else { return nil }
    var settings: [ProviderSetting] = []
    if !settingsField.isEmpty {
      guard let json = text(settingsField),
        let decoded = try? JSONDecoder().decode([ProviderSetting].self, from: Data(json.utf8))
      else { return nil }
      settings = decoded
    }
    let manifest = ProviderBundle(
      path: path, identifier: identifier, name: name, displayName: displayName, version: version,
      executablePath: executablePath, allowsNetworkAccess: network, isTranslationApp: translationApp, settings: settings)
    return BundleInspection(path: path, manifest: manifest, problems: problems, files: files)
  }

  /// The fields of a record between separators, one at a time, without copying.
  private struct FieldCursor {
    private let bytes: ArraySlice<UInt8>
    private let separator: UInt8
    private var position: Int?

    init(_ bytes: ArraySlice<UInt8>, separator: UInt8) {
      self.bytes = bytes
      self.separator = separator
      position = bytes.startIndex
    }

    /// The next field (possibly empty), or nil after the last one.
    mutating func next() -> ArraySlice<UInt8>? {
      guard let start = position else { return nil }
      guard let end = bytes.firstIndex(ofByte: separator, from: start) else {
        position = nil
        return bytes[start...]
      }
      position = end + 1
      return bytes[start..<end]
    }
  }

  /// "1" or "0".
  private static func flag(_ field: ArraySlice<UInt8>) -> Bool? {
    guard field.count == 1 else { return nil }
    switch field.first {
    case UInt8(ascii: "1"): return true
    case UInt8(ascii: "0"): return false
    default: return nil
    }
  }

  private static let newline = UInt8(ascii: "\n")
  private static let tab = UInt8(ascii: "\t")
  private static let slash = UInt8(ascii: "/")
  private static let colon = UInt8(ascii: ":")

  /// A decimal integer, possibly negative.
  private static func number(_ bytes: ArraySlice<UInt8>) -> Int64? {
    var digits = bytes[...]
    let negative = digits.first == UInt8(ascii: "-")
    if negative { digits = digits.dropFirst() }
    guard !digits.isEmpty, digits.count <= 19 else { return nil }
    var value: Int64 = 0
    for byte in digits {
      guard (0x30...0x39).contains(byte) else { return nil }
      value = value * 10 + Int64(byte - 0x30)
    }
    return negative ? -value : value
  }

  /// Appends `text`, percent-escaping `%`, tab and newline, and with
  /// `separators` also the `:` and `/` that separate file stamps.
  private static func append(_ text: String, to bytes: inout [UInt8], separators: Bool = false) {
    for byte in text.utf8 {
      if byte == 0x25 || byte == tab || byte == newline || (separators && (byte == colon || byte == slash)) {
        bytes += [0x25, hexDigit(byte >> 4), hexDigit(byte & 0x0F)]
      } else {
        bytes.append(byte)
      }
    }
  }

  private static func hexDigit(_ value: UInt8) -> UInt8 { value < 10 ? 0x30 + value : 0x41 + value - 10 }

  /// The UTF-8 text of an escaped field.
  private static func text(_ field: ArraySlice<UInt8>) -> String? {
    guard field.contains(UInt8(ascii: "%")) else { return String(validatingUTF8: field) }
    var bytes: [UInt8] = []
    var index = field.startIndex
    while index < field.endIndex {
      if field[index] == UInt8(ascii: "%") {
        guard index + 2 < field.endIndex,
          let value = UInt8(String(decoding: field[index + 1...index + 2], as: UTF8.self), radix: 16)
        else { return nil }
        bytes.append(value)
        index += 3
      } else {
        bytes.append(field[index])
        index += 1
      }
    }
    return String(validating: bytes, as: UTF8.self)
  }
}
