import FoundationEssentials
import Glibc
import System

/// A server a test starts and stops by its process id.
package final class BackgroundProcess {
  package let pid: pid_t
  private var reaped = false

  /// Starts `path` with `arguments` and `environment` (nil: this process's), its output going to `log`.
  package init(_ path: String, _ arguments: [String], log: String, environment: [String: String]? = nil) throws {
    let environment = environment ?? ProcessInfo.processInfo.environment
    pid = try Syscalls.spawn(
      path, arguments: arguments, environment: environment.map { "\($0.key)=\($0.value)" },
      actions: [
        .nullDevice(as: .standardInput), .open(log, as: .standardOutput, flags: O_WRONLY | O_CREAT | O_TRUNC, mode: 0o644),
        .duplicate(.standardOutput, as: .standardError),
      ], newSession: true)
  }

  deinit { stop() }

  /// Sends SIGTERM to its process group, waits up to 5 s for the process to exit, then SIGKILL.
  /// Once it is reaped, its id may be another process's: a second call does nothing.
  package func stop() {
    guard !reaped else { return }
    reaped = true
    kill(-pid, SIGTERM)
    var status: Int32 = 0
    if (try? eventually("\(pid) to exit", timeout: .seconds(5)) { waitpid(pid, &status, WNOHANG) != 0 }) != nil { return }
    kill(-pid, SIGKILL)
    while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
  }

  /// A TCP port on 127.0.0.1 that was free a moment ago.
  package static func freePort() -> UInt16 { (try? Listener().port) ?? 0 }

  /// Whether something accepts connections on 127.0.0.1:`port`.
  package static func isListening(_ port: UInt16) -> Bool {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    defer { close(fd) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = port.bigEndian
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    return withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
    }
  }
}
