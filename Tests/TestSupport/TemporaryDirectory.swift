import FoundationEssentials

/// A fresh folder under the system's temporary directory, removed on deinit.
///
/// The folder is under `TRANSLATION_HOST_TEST_TMPDIR` when it is set (`make
/// test` sets it to the caller's `TMPDIR`, having given the toolchain a
/// `TMPDIR` of its own), else under `TMPDIR`, else `/tmp`. Whatever a test
/// starts that writes into the folder must have ended before the folder goes,
/// or it makes the folder again: keep the owner of the folder alive for as long
/// as its processes (`TerminalSession`, `ServiceProcess` and `Host` do).
package final class TemporaryDirectory: WritableFolder, @unchecked Sendable {
  package let path: String

  package init() throws {
    let environment = ProcessInfo.processInfo.environment
    let base = environment["TRANSLATION_HOST_TEST_TMPDIR"] ?? environment["TMPDIR"] ?? "/tmp"
    path = "\(base)/translation-host-tests-\(UUID().uuidString)"
    try FileManager.default.createDirectory(
      atPath: path, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o755])
  }

  deinit {
    guard (try? FileManager.default.removeItem(atPath: path)) == nil else { return }
    // A test may have taken write permission away from a folder inside: give
    // it back (to folders only: a symbolic link would lead out), then try again.
    let entries = (try? FileManager.default.subpathsOfDirectory(atPath: path)) ?? []
    for entry in [path] + entries.map({ path + "/" + $0 }) {
      guard (try? FileManager.default.attributesOfItem(atPath: entry)[.type] as? FileAttributeType) == .typeDirectory else {
        continue
      }
      try? FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: entry)
    }
    do {
      try FileManager.default.removeItem(atPath: path)
    } catch {
      print("TemporaryDirectory: cannot remove \(path), which stays behind: \(error)")
    }
  }
}
