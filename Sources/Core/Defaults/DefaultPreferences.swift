import FoundationEssentials
import System

/// The user's ordered list of preferred default providers, by bundle
/// identifier, in `$XDG_CONFIG_HOME/translation-host/default-providers`.
///
/// One identifier per line, most preferred first; `#` starts a comment.
/// `prefer(_:)` rewrites the file atomically (temporary file, fsync, rename)
/// while holding a lock, so concurrent `set-default` calls never interleave
/// or leave a torn file.
package struct DefaultPreferences: Sendable {
  package static let fileName = "default-providers"

  /// The preferences file.
  package var file: String

  package init(file: String) { self.file = file }

  package static func standard(environment: [String: String] = ProcessInfo.processInfo.environment) -> DefaultPreferences {
    DefaultPreferences(file: XDGFolders(environment: environment).config + "/" + fileName)
  }

  /// The identifiers in preference order, and the lines that are not identifiers.
  package func read() throws(DefaultsError) -> (identifiers: [String], ignored: [String]) {
    guard FileManager.default.fileExists(atPath: file) else { return ([], []) }
    let bytes: [UInt8]
    do {
      bytes = try Directory.readPrefix(of: file, count: 1 << 20)
    } catch {
      throw .unreadable(file, reason: error.description)
    }
    guard let text = String(validating: bytes, as: UTF8.self) else { throw .unreadable(file, reason: "not UTF-8 text") }
    var identifiers: [String] = []
    var ignored: [String] = []
    for rawLine in text.split(separator: "\n") {
      let line = rawLine.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)[0].trimmingWhitespace()
      guard !line.isEmpty else { continue }
      if Self.isIdentifier(line) {
        if !identifiers.contains(line) { identifiers.append(line) }
      } else {
        ignored.append(line)
      }
    }
    return (identifiers, ignored)
  }

  /// Puts `identifier` first, keeping the others after it as fallbacks.
  /// - Returns: the new list.
  @discardableResult
  package func prefer(_ identifier: String) throws(DefaultsError) -> [String] {
    let folder = URL(fileURLWithPath: file).deletingLastPathComponent().path
    do {
      try FileManager.default.createDirectory(
        atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    } catch {
      throw .unwritable(folder, reason: "\(error)")
    }
    do {
      return try FileLock.withLock(at: file + ".lock") {
        let list = [identifier] + (try read().identifiers.filter { $0 != identifier })
        let text =
          "# Default translation providers, most preferred first; written by 'translation-host set-default'.\n"
          + list.joined(separator: "\n") + "\n"
        try AtomicFile.write(Array(text.utf8), to: file, mode: 0o644, durable: true)
        return list
      }
    } catch let error as DefaultsError {
      throw error
    } catch {
      throw .unwritable(file, reason: "\(error)")
    }
  }

  private static func isIdentifier(_ text: String) -> Bool {
    text.contains(".") && text.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "-_.".contains($0)) }
  }
}
