import Glibc
import System

/// `TPReadOnlyPaths`: system data a provider needs and the sandbox does not
/// show by default (apt's lists, a dictionary in /srv), shown read-only at
/// the same place. Never a user's files, a secret, a log, a socket or a
/// device, another process's state or a folder anyone may write to.
///
/// What a manifest declares is checked as text and again as the real path
/// it resolves to (links and all), when the bundle is read and again when a
/// runner starts; the runner is handed the real paths.
package struct ReadOnlyPaths: SandboxRule {
  package static let manifestKey = "TPReadOnlyPaths"

  /// Real, checked paths.
  package var paths: [String]

  package init(_ paths: [String] = []) { self.paths = paths }

  package var grant: String? {
    paths.isEmpty ? nil : "reads \(paths.joined(separator: ", ")) besides its bundle and the system (\(Self.manifestKey))"
  }

  package func encode(to writer: inout WireWriter) { writer.strings(paths) }

  package init(from reader: inout WireReader) throws(ProtocolError) {
    paths = try reader.strings()
    guard paths.allSatisfy({ $0.hasPrefix("/") && $0 != "/" }) else {
      throw .malformed("a read-only path is not an absolute path below /")
    }
  }

  /// What a declared path comes to.
  package enum Verdict: Equatable, Sendable {
    /// It may be shown; `realPath` is what to show, nil when it does not exist (nothing to show).
    case accepted(realPath: String?)
    case refused(String)
  }

  /// The check: which paths a manifest may declare, on this machine.
  package struct Checker: Sendable {
    /// The folders below which a declared path, and what it resolves to, must lie.
    package var allowedRoots = ["/usr", "/opt", "/etc", "/var", "/srv"]
    /// Folders never shown, nor any folder that holds one: runtime state and
    /// sockets, logs, mail and queues, temporary files others write, host keys.
    package var refusedRoots = [
      "/run", "/var/run", "/var/lock", "/var/tmp", "/var/log", "/var/mail", "/var/spool", "/var/backups",
      "/var/lib/sudo", "/etc/ssh", "/etc/ssl/private", "/etc/sudoers.d", "/proc", "/sys", "/dev", "/tmp",
    ]
    /// Files never shown, nor any folder that holds one: password hashes and their backups.
    package var refusedFiles = [
      "/etc/shadow", "/etc/shadow-", "/etc/gshadow", "/etc/gshadow-", "/etc/sudoers", "/etc/security/opasswd",
    ]
    /// The users' home folders (from the password database); nothing in one,
    /// nor a folder that holds one, is shown.
    package var homes: [String]
    /// The most entries a declared folder may hold: each is looked at for
    /// sockets and devices.
    package var maximumEntries = 20_000
    /// Where the folders found clean are remembered with their stamps, so
    /// that an unchanged tree is not walked again; nil walks every time.
    package var cleanFolders: CleanFolders?

    /// The checker for this machine: its users' homes from the password
    /// database, but for those that are the system's own folders (`/`,
    /// `/usr/sbin`, `/bin`…), which hold no one's files.
    package static func system(cleanFolders: CleanFolders? = nil) -> Checker {
      let systemFolders = ["/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32"]
      let homes = UserDatabase.homeFolders().filter { home in
        home != "/" && home.hasPrefix("/") && !systemFolders.contains { home == $0 || home.hasPrefix($0 + "/") }
      }
      var checker = Checker(homes: homes)
      checker.cleanFolders = cleanFolders
      return checker
    }

    package init(homes: [String]) { self.homes = homes }

    /// What `path`, as a manifest declares it, comes to.
    package func verdict(for path: String) -> Verdict {
      let components = path.split(separator: "/", omittingEmptySubsequences: false).dropFirst()
      guard path.hasPrefix("/"), !components.contains(where: { $0.isEmpty || $0 == "." || $0 == ".." }),
        !path.contains("\0")
      else { return .refused("must be an absolute path without '.', '..', '//' or a trailing '/'") }
      if let problem = placeProblem(path) { return .refused(problem) }
      guard let real = Syscalls.realPath(path) else { return .accepted(realPath: nil) }
      if real != path, let problem = placeProblem(real) { return .refused("resolves to \(real), which \(problem)") }
      guard let status = try? FileStatus(path: real, followingLinks: false) else { return .accepted(realPath: nil) }
      if let problem = Self.kindProblem(status) { return .refused(problem) }
      if status.isDirectory, let problem = contentProblem(real) { return .refused(problem) }
      return .accepted(realPath: real)
    }

    /// Why a path may not be shown, judged by where it is.
    private func placeProblem(_ path: String) -> String? {
      func isBelow(_ root: String) -> Bool { path == root || path.hasPrefix(root + "/") }
      func holds(_ inner: String) -> Bool { inner.hasPrefix(path + "/") }
      guard allowedRoots.contains(where: { isBelow($0) && path != $0 }) else {
        return "must lie below one of \(allowedRoots.joined(separator: ", ")) (system data, not a user's files)"
      }
      if let root = refusedRoots.first(where: isBelow) { return "must not lie below \(root)" }
      if let root = refusedRoots.first(where: holds) { return "holds \(root), which no provider may read" }
      if let file = refusedFiles.first(where: { isBelow($0) || holds($0) }) {
        return file == path ? "is a file no provider may read" : "holds \(file), which no provider may read"
      }
      for home in homes {
        let real = Syscalls.realPath(home) ?? home
        for spelling in Set([home, real]) where isBelow(spelling) || holds(spelling) {
          return "is or holds \(spelling), a user's home folder"
        }
      }
      return nil
    }

    private static func kindProblem(_ status: FileStatus, at file: String? = nil) -> String? {
      let kind: String
      switch status.mode & S_IFMT {
      case S_IFSOCK: kind = "a socket"
      case S_IFCHR, S_IFBLK: kind = "a device"
      case S_IFIFO: kind = "a named pipe"
      default: return nil
      }
      let place = file.map { "holds \(kind) at \($0)" } ?? "is \(kind)"
      return place + ", through which even a provider without the network would reach another program or the hardware"
    }

    /// Looks at every entry below `folder` for sockets, devices and pipes.
    private func contentProblem(_ folder: String) -> String? {
      if let cleanFolders, cleanFolders.isClean(folder) { return nil }
      var pending = [folder]
      var seen = 0
      // Each folder's stamp is taken before it is listed: a change after makes it differ.
      var stamps: [CleanFolders.Stamp]? = []
      while let current = pending.popLast() {
        let stamp = CleanFolders.Stamp(of: current)
        guard let names = try? Directory.names(at: current), let stamp else {
          stamps = nil  // not seen whole: not remembered
          continue
        }
        stamps?.append(stamp)
        for name in names {
          seen += 1
          if seen > maximumEntries {
            return
              "holds more than \(maximumEntries) entries, too many to check for sockets and devices; declare a narrower folder"
          }
          let file = current + "/" + name
          guard let status = try? FileStatus(path: file, followingLinks: false) else { continue }
          if let problem = Self.kindProblem(status, at: file) { return problem }
          if status.isDirectory { pending.append(file) }
        }
      }
      if let cleanFolders, let stamps { cleanFolders.remember(folder, stamps: stamps) }
      return nil
    }
  }
}
