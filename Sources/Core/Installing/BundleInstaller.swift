import FoundationEssentials
import System

/// Copies bundles into the user's provider folder and removes them from it.
///
/// A bundle is assembled under a hidden name first, so no process ever sees
/// half of one. Replacing takes two renames (old away, new in); between them,
/// for an instant, the bundle is absent and a concurrent listing may miss it.
package struct BundleInstaller: Sendable {
  /// The user's provider folder.
  package var folder: String

  package init(folder: String) { self.folder = folder }

  /// Copies the bundle at `source` into the folder under its own name,
  /// replacing an older copy. Only folders and regular files are copied;
  /// folders get mode 0755, files 0644 (0755 for the executable).
  /// - Returns: the installed bundle's path.
  package func install(_ source: String, executableName: String) throws(InstallError) -> String {
    let name = URL(fileURLWithPath: source).lastPathComponent
    let target = folder + "/" + name
    let staging = folder + "/.\(name).\(Syscalls.processID).installing"
    do {
      try FileManager.default.createDirectory(
        atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o755])
      try copy(source, to: staging, executableName: executableName)
      if FileManager.default.fileExists(atPath: target) {
        let retired = folder + "/.\(name).\(Syscalls.processID).retired"
        try Syscalls.rename(target, to: retired)
        try Syscalls.rename(staging, to: target)
        try? FileManager.default.removeItem(atPath: retired)
      } else {
        try Syscalls.rename(staging, to: target)
      }
    } catch let error as InstallError {
      try? FileManager.default.removeItem(atPath: staging)
      throw error
    } catch {
      try? FileManager.default.removeItem(atPath: staging)
      throw .failed(target, reason: "\(error)")
    }
    return target
  }

  /// Removes the bundle at `path`, which must be inside the folder.
  package func uninstall(_ path: String) throws(InstallError) {
    let bundle = SearchPath.normalized(path)
    guard URL(fileURLWithPath: bundle).deletingLastPathComponent().path == SearchPath.normalized(folder) else {
      throw .notInUserFolder(bundle, folder: folder)
    }
    let retired = folder + "/.\(URL(fileURLWithPath: bundle).lastPathComponent).\(Syscalls.processID).removing"
    do {
      try Syscalls.rename(bundle, to: retired)
      try FileManager.default.removeItem(atPath: retired)
    } catch {
      throw .failed(bundle, reason: "\(error)")
    }
  }

  private func copy(_ source: String, to destination: String, executableName: String) throws {
    try FileManager.default.createDirectory(
      atPath: destination, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o755])
    for name in try Directory.names(at: source).sorted() {
      let from = source + "/" + name
      let status: FileStatus
      do throws(Errno) { status = try FileStatus(path: from, followingLinks: false) } catch {
        throw InstallError.failed(from, reason: error.description)
      }
      if status.isDirectory {
        try copy(from, to: destination + "/" + name, executableName: "")
      } else if status.isRegularFile {
        let data = try Data(contentsOf: URL(fileURLWithPath: from))
        let mode: UInt32 = name == executableName ? 0o755 : 0o644
        try AtomicFile.write(Array(data), to: destination + "/" + name, mode: mode, durable: false)
        // The umask may have taken bits away; the modes above are the point.
        try? Syscalls.setPermissions(destination + "/" + name, mode)
      } else {
        throw InstallError.unsupportedFile(from)
      }
    }
  }
}
