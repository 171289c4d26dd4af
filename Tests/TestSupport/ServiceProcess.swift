import FoundationEssentials
import Glibc
import Service
import System

/// `translation-host serve` from the build, started by a test with a private
/// HOME, XDG folders and `XDG_RUNTIME_DIR`, and stopped by its process id.
package final class ServiceProcess {
  /// `$TRANSLATION_HOST_BUILD`, or `build/` in the package.
  package static let buildDirectory =
    ProcessInfo.processInfo.environment["TRANSLATION_HOST_BUILD"] ?? CFixture.packageRoot + "/build"
  package static let executable = buildDirectory + "/bin/translation-host"

  /// A provider search path for a service that this process (and the
  /// examples built beside it) will use. A client uses a service only when
  /// both search the same folders, and each adds its own prefix's
  /// (`build/lib/…` for the service, `.build/lib/…` here): naming both first
  /// makes the two paths equal.
  package static var sharedSearchPath: String {
    let executable = Syscalls.executablePath() ?? ""
    let prefix = URL(fileURLWithPath: executable).deletingLastPathComponent().deletingLastPathComponent().path
    return [buildDirectory, prefix].map { $0 + "/lib/translation-host/providers" }.joined(separator: ":")
  }

  /// A service (not started) that this process uses, searching `folders`
  /// first and then the build's providers.
  package static func shared(searching folders: [String] = []) throws -> ServiceProcess {
    try ServiceProcess(environment: ["TRANSLATION_HOST_PROVIDER_PATH": (folders + [sharedSearchPath]).joined(separator: ":")])
  }

  package let home: TemporaryDirectory
  /// The environment of the service, and of commands run with `run`.
  package let environment: [String: String]
  package private(set) var pid: pid_t = 0
  package var log: String { home.path + "/serve.log" }
  package var location: ServiceLocation { ServiceLocation.standard(environment: environment)! }
  private var exitStatus: Int32?

  /// A private home with a runtime folder of mode 0700; the service is not started yet.
  package init(environment extra: [String: String] = [:]) throws {
    home = try TemporaryDirectory()
    let runtime = home.path + "/run"
    try FileManager.default.createDirectory(
      atPath: runtime, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    environment = [
      "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin", "HOME": home.path,
      "XDG_DATA_HOME": home.path + "/data", "XDG_CONFIG_HOME": home.path + "/config", "XDG_CACHE_HOME": home.path + "/cache",
      "XDG_RUNTIME_DIR": runtime,
    ].merging(extra) { $1 }
  }

  deinit { if pid > 0 { _ = stop() } }

  /// Starts `serve` with `arguments` and waits for its socket to answer.
  /// With `activation`, the service gets that listening socket as descriptor 3,
  /// with `LISTEN_PID` and `LISTEN_FDS` set as systemd sets them.
  package func start(_ arguments: [String] = [], activation: Int32? = nil) throws {
    var actions: [Syscalls.SpawnAction] = [
      .nullDevice(as: .standardInput), .open(log, as: .standardOutput, flags: O_WRONLY | O_CREAT | O_APPEND, mode: 0o644),
      .duplicate(.standardOutput, as: .standardError),
    ]
    var path = Self.executable
    var argv = ["serve"] + arguments
    if let activation {
      actions.append(.duplicate(FileDescriptor(rawValue: activation), as: FileDescriptor(rawValue: 3)))
      // The shell's $$ is the pid `exec` keeps: the way to know LISTEN_PID before the program runs.
      argv = ["-c", "LISTEN_PID=$$ LISTEN_FDS=1 exec \"$0\" \"$@\"", path] + argv
      path = "/bin/sh"
    }
    pid = try Syscalls.spawn(
      path, arguments: argv, environment: environment.map { "\($0.key)=\($0.value)" }, actions: actions, newSession: true)
    exitStatus = nil
    enum Start { case answered, exited(Int32) }
    let log = { (try? String(contentsOfFile: self.log, encoding: .utf8)) ?? "" }
    let start = try eventually("translation-host serve to answer on its socket", timeout: .seconds(20), detail: log) {
      () -> Start? in
      if let client = try? ServiceClient.connect(to: location) {
        client.close()
        return .answered
      }
      return (try? Syscalls.reap(pid)).map(Start.exited)
    }
    if case .exited(let status) = start {
      exitStatus = status
      pid = 0
      throw StartError(log: log())
    }
  }

  /// Sends SIGTERM and waits (up to `seconds`, then SIGKILL); returns the exit code.
  @discardableResult
  package func stop(waiting seconds: Double = 20) -> Int32 {
    guard pid > 0 else { return -1 }
    kill(pid, SIGTERM)
    return waitForExit(seconds: seconds)
  }

  /// Waits for the service to exit and returns its exit code (128+signal if
  /// killed); after `seconds`, kills it. Either way, kills what remains of
  /// its process group (runners that outlived it).
  package func waitForExit(seconds: Double) -> Int32 {
    var status = try? eventually("translation-host serve (\(pid)) to exit", timeout: .seconds(seconds)) {
      try? Syscalls.reap(pid)
    }
    if status == nil {
      kill(-pid, SIGKILL)
      status = try? Syscalls.wait(pid)
    }
    kill(-pid, SIGKILL)
    pid = 0
    let raw = status ?? 0
    return raw & 0x7f == 0 ? (raw >> 8) & 0xff : 128 + (raw & 0x7f)
  }

  /// Runs the built `translation-host` with the service's environment.
  package func run(_ arguments: [String], stdin: String? = nil) throws -> Command.Result {
    try Command.run(Self.executable, arguments, environment: environment, stdin: stdin)
  }

  /// The process ids of the service's children (its runners).
  package func runners() -> [Int32] {
    guard pid > 0 else { return [] }
    let children = (try? String(contentsOfFile: "/proc/\(pid)/task/\(pid)/children", encoding: .utf8)) ?? ""
    // Runners are started from the launcher thread: look in every thread's list.
    let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
    let all = tasks.map { (try? String(contentsOfFile: "/proc/\(pid)/task/\($0)/children", encoding: .utf8)) ?? "" } + [children]
    return Array(Set(all.flatMap { $0.split(separator: " ").compactMap { Int32($0) } })).sorted()
  }

  package struct StartError: Error, CustomStringConvertible {
    package var log: String
    package var description: String { "translation-host serve did not start: \(log)" }
  }
}
