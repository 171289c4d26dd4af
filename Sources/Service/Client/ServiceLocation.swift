import System

/// Where the resident service listens: `$XDG_RUNTIME_DIR/translation-host/socket`,
/// in a folder that only its user may enter.
package struct ServiceLocation: Sendable, Equatable {
  /// `$XDG_RUNTIME_DIR/translation-host`.
  package var folder: String
  /// The socket inside it.
  package var socket: String { folder + "/socket" }

  package init(folder: String) { self.folder = folder }

  /// The location for `environment`, or nil when `XDG_RUNTIME_DIR` is unset
  /// or not absolute (the XDG specification ignores relative paths).
  package static func standard(environment: [String: String]) -> ServiceLocation? {
    guard let runtime = environment["XDG_RUNTIME_DIR"], runtime.hasPrefix("/") else { return nil }
    return ServiceLocation(folder: (runtime.hasSuffix("/") ? String(runtime.dropLast()) : runtime) + "/translation-host")
  }

  /// Creates the folder with mode 0700 if it is missing, then checks it.
  package func prepareFolder() throws(ServiceError) {
    do { try UnixSocket.makeFolder(folder, mode: 0o700) } catch { throw .socketFailed(folder, error) }
    try checkFolder()
  }

  /// Refuses a folder that is a symbolic link or not a folder, that another
  /// user owns, or that group or others may enter, read or write: anyone who
  /// can reach the socket file can try to talk to the service.
  package func checkFolder() throws(ServiceError) {
    let status: FileStatus
    do { status = try FileStatus(path: folder, followingLinks: false) } catch {
      throw .unsafeFolder(folder, reason: "cannot be examined (\(error))")
    }
    guard status.isDirectory else { throw .unsafeFolder(folder, reason: "is not a folder (a symbolic link or a file)") }
    guard status.owner == FileStatus.currentUser else {
      throw .unsafeFolder(folder, reason: "is owned by uid \(status.owner), not by you (uid \(FileStatus.currentUser))")
    }
    guard status.mode & 0o077 == 0 else {
      throw .unsafeFolder(folder, reason: "has mode \(String(status.mode & 0o7777, radix: 8)), which lets others in")
    }
  }

  /// Binds the socket. A socket left by a service that died is replaced; one
  /// that answers is refused as already running.
  package func listen() throws(ServiceError) -> FileDescriptor {
    if let existing = try? FileStatus(path: socket, followingLinks: false) {
      guard existing.isSocket else {
        throw .unsafeFolder(socket, reason: "exists and is not a socket")
      }
      if let probe = try? UnixSocket.connect(to: socket) {
        Syscalls.close(probe)
        throw .alreadyRunning(socket)
      }
      UnixSocket.unlink(socket)
    }
    do { return try UnixSocket.listen(at: socket) } catch { throw .socketFailed(socket, error) }
  }
}
