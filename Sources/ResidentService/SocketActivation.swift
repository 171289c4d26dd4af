import FoundationEssentials
import Service
import System

/// systemd's socket activation: the service manager made and bound the
/// socket (`translation-host.socket`) and passes it as descriptor 3, with
/// `LISTEN_PID` set to our process id and `LISTEN_FDS` to the count.
package enum SocketActivation {
  /// The descriptor systemd passed, or nil when this process was not socket
  /// activated. The variables are removed either way, so that runners and
  /// anything else this process starts do not take them for their own.
  package static func listener() throws(ServiceError) -> FileDescriptor? {
    let environment = ProcessInfo.processInfo.environment
    for variable in ["LISTEN_PID", "LISTEN_FDS", "LISTEN_FDNAMES"] { Syscalls.unsetEnvironmentVariable(variable) }
    guard let pid = environment["LISTEN_PID"], Int32(pid) == Syscalls.processID, let fds = environment["LISTEN_FDS"] else {
      return nil
    }
    guard let count = Int(fds), count >= 1 else { throw .badActivation("LISTEN_FDS is '\(fds)', not a count of sockets") }
    // SD_LISTEN_FDS_START: systemd passes its sockets from descriptor 3 on.
    let descriptor = FileDescriptor(rawValue: 3)
    guard UnixSocket.isListeningUnixSocket(descriptor) else {
      throw .badActivation("descriptor 3 is not a listening Unix stream socket")
    }
    do { try Syscalls.setCloseOnExec(descriptor) } catch { throw .socketFailed("descriptor 3", error) }
    return descriptor
  }
}
