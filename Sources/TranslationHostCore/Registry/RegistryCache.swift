import FoundationEssentials
import Glibc

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
  static let header = "translation-host registry cache 1"

  /// The records of the cache at `path`, or nil when it is absent or unusable.
  package static func load(from path: String) -> [String: BundleInspection]? {
    guard let status = try? FileStatus(path: path), status.isRegularFile, status.safetyProblem(at: path) == nil,
      let bytes = try? Directory.readPrefix(of: path, count: Int(status.size)),
      let text = String(validating: bytes, as: UTF8.self)
    else { return nil }
    var lines = text.split(separator: "\n", omittingEmptySubsequences: false)
    guard lines.first == Substring(header), lines.last == "" else { return nil }
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

  /// Whether the files of a cached inspection are exactly as they were.
  package static func isCurrent(_ inspection: BundleInspection) -> Bool {
    guard inspection.files["."] != nil else { return false }
    for (name, status) in inspection.files {
      let path = name == "." ? inspection.path : inspection.path + "/" + name
      guard (try? FileStatus(path: path)) == status else { return false }
    }
    return true
  }

  /// Writes `records` atomically; failures are ignored (the cache is only a cache).
  package static func save(_ records: [String: BundleInspection], to path: String) {
    let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
    try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    var text = header + "\n"
    for key in records.keys.sorted() { text += encode(records[key]!) + "\n" }
    try? AtomicFile.write(Array(text.utf8), to: path, mode: 0o600, durable: false)
  }

  // MARK: Records

  private static func encode(_ inspection: BundleInspection) -> String {
    let files = inspection.files.sorted { $0.key < $1.key }.map { name, s in
      [escape(name, separators: true), String(s.size), String(s.modified), String(s.mode), String(s.owner), String(s.inode), String(s.device)]
        .joined(separator: ":")
    }.joined(separator: "/")
    let m = inspection.manifest
    let manifest = m.map {
      [$0.identifier, $0.name, $0.displayName, $0.version, $0.executablePath, $0.allowsNetworkAccess ? "1" : "0", $0.isTranslationApp ? "1" : "0"]
    } ?? []
    let problems = inspection.problems.isEmpty ? "" : (try? JSONEncoder().encode(inspection.problems)).map { String(decoding: $0, as: UTF8.self) } ?? ""
    return ([escape(inspection.path), files, escape(problems)] + manifest.map { escape($0) }).joined(separator: "\t")
  }

  private static func decode(_ line: Substring) -> BundleInspection? {
    let raw = line.split(separator: "\t", omittingEmptySubsequences: false)
    let fields = raw.map { unescape($0) }
    guard fields.count == 3 || fields.count == 10, let path = fields[0] else { return nil }
    var files: [String: FileStatus] = [:]
    for file in raw[1].split(separator: "/") {
      let parts = file.split(separator: ":", omittingEmptySubsequences: false)
      guard parts.count == 7, let name = unescape(parts[0]), let size = Int64(parts[1]), let modified = Int64(parts[2]),
        let mode = UInt32(parts[3]), let owner = UInt32(parts[4]), let inode = UInt64(parts[5]), let device = UInt64(parts[6])
      else { return nil }
      files[name] = FileStatus(size: size, modified: modified, mode: mode, owner: owner, inode: inode, device: device)
    }
    var problems: [ManifestError] = []
    if let json = fields[2], !json.isEmpty {
      guard let decoded = try? JSONDecoder().decode([ManifestError].self, from: Data(json.utf8)) else { return nil }
      problems = decoded
    }
    var manifest: ProviderBundle?
    if fields.count == 10 {
      let m = fields[3...].map { $0 ?? "" }
      guard m[5] == "0" || m[5] == "1", m[6] == "0" || m[6] == "1" else { return nil }
      manifest = ProviderBundle(
        path: path, identifier: m[0], name: m[1], displayName: m[2], version: m[3], executablePath: m[4],
        allowsNetworkAccess: m[5] == "1", isTranslationApp: m[6] == "1")
    }
    return BundleInspection(path: path, manifest: manifest, problems: problems, files: files)
  }

  /// Percent-escapes `%`, tab and newline, and with `separators` also the
  /// `:` and `/` that separate file stamps.
  private static func escape(_ text: String, separators: Bool = false) -> String {
    let special: (UInt8) -> Bool = { $0 == 0x25 || $0 == 0x09 || $0 == 0x0A || (separators && ($0 == 0x3A || $0 == 0x2F)) }
    guard text.utf8.contains(where: special) else { return text }
    var out: [UInt8] = []
    for byte in text.utf8 {
      if special(byte) {
        out += Array("%\(byte < 16 ? "0" : "")\(String(byte, radix: 16, uppercase: true))".utf8)
      } else {
        out.append(byte)
      }
    }
    return String(decoding: out, as: UTF8.self)
  }

  private static func unescape(_ text: Substring) -> String? {
    guard text.contains("%") else { return String(text) }
    var bytes: [UInt8] = []
    var index = text.utf8.startIndex
    let utf8 = text.utf8
    while index < utf8.endIndex {
      let byte = utf8[index]
      if byte == 0x25 {
        let next = utf8.index(index, offsetBy: 3, limitedBy: utf8.endIndex) ?? utf8.endIndex
        guard utf8.distance(from: index, to: next) == 3, let value = UInt8(String(decoding: utf8[utf8.index(after: index)..<next], as: UTF8.self), radix: 16) else { return nil }
        bytes.append(value)
        index = next
      } else {
        bytes.append(byte)
        index = utf8.index(after: index)
      }
    }
    return String(validating: bytes, as: UTF8.self)
  }
}
