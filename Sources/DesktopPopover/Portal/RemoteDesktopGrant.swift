import FoundationEssentials
import Glibc
import System

/// The RemoteDesktop portal's restore token for the keyboard the person
/// granted, kept so that later Replaces do not ask again:
/// `$XDG_STATE_HOME/translation-host/remote-desktop-restore-token`
/// (default under `~/.local/state`), mode 0600 in a 0700 folder, written
/// atomically. The front end gives a new token each time it starts a
/// session from one, and this file keeps the newest.
///
/// The file is read only when it is a regular file of this user's that no
/// one else can read or write, and its contents are a UUID (what the front
/// end makes and takes); anything else is ignored, so the portal asks again.
struct RemoteDesktopGrant {
  static let fileName = "remote-desktop-restore-token"

  let path: String

  init(environment: [String: String]) {
    let home = environment["HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil } ?? "/"
    let state = environment["XDG_STATE_HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil } ?? home + "/.local/state"
    path = state + "/translation-host/" + Self.fileName
  }

  /// The kept token, nil when there is none to trust.
  func read() -> String? {
    guard let status = try? FileStatus(path: path, followingLinks: false), status.isRegularFile, status.owner == getuid(),
      status.mode & 0o077 == 0, status.size <= 64,
      let text = try? String(contentsOfFile: path, encoding: .utf8)
    else { return nil }
    let token = String(text.split(separator: "\n", omittingEmptySubsequences: false).first ?? "")
    return Self.isUUID(token) ? token : nil
  }

  /// Keeps `token`; one that is not a UUID is not kept. A failure to write
  /// only means the portal asks again next time.
  func keep(_ token: String) {
    guard Self.isUUID(token) else { return }
    let folder = String(path[..<path.lastIndex(of: "/")!])
    try? Directory.create(folder, mode: 0o700)
    try? AtomicFile.write(Array((token + "\n").utf8), to: path, mode: 0o600, durable: true)
  }

  /// Whether `text` is a UUID as GLib writes one (`8-4-4-4-12` hexadecimal digits).
  static func isUUID(_ text: String) -> Bool {
    let groups = text.split(separator: "-", omittingEmptySubsequences: false)
    return groups.map(\.count) == [8, 4, 4, 4, 12] && groups.allSatisfy { $0.allSatisfy(\.isHexDigit) }
  }
}
