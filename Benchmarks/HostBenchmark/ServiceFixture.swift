import FoundationEssentials
import Glibc
import Service
import System

/// What the service benchmark runs against, started in a temporary home and
/// stopped by process id: `translation-host serve` on a socket in a private
/// runtime folder, and Debian's apertium-apy on 127.0.0.1 (through the test
/// fixture that binds it to loopback only), configured as ApertiumAPY's endpoint.
final class ServiceFixture {
  let home: String
  let environment: [String: String]
  let location: ServiceLocation
  let apyPort: UInt16
  let servicePID: pid_t
  let apyPID: pid_t

  init(build: String) throws {
    var template = Array((FileManager.default.temporaryDirectory.path + "/service-benchmark-XXXXXX").utf8CString)
    guard let made = mkdtemp(&template) else { throw Errno.current }
    home = String(cString: made)
    let runtime = home + "/run"
    guard mkdir(runtime, 0o700) == 0 else { throw Errno.current }
    var environment = ProcessInfo.processInfo.environment
    environment["HOME"] = home
    environment["XDG_RUNTIME_DIR"] = runtime
    for (variable, folder) in [("XDG_CONFIG_HOME", "config"), ("XDG_CACHE_HOME", "cache"), ("XDG_DATA_HOME", "data")] {
      environment[variable] = home + "/" + folder
    }
    self.environment = environment
    location = ServiceLocation(folder: runtime + "/translation-host")
    apyPort = try Self.freePort()

    let root = build.hasSuffix("/build") ? String(build.dropLast("/build".count)) : "."
    let host = build + "/bin/translation-host"
    apyPID = try Self.start(
      "/usr/bin/python3",
      [
        root + "/Tests/Fixtures/apy_loopback.py", "-p", String(apyPort), "-l", home + "/langNames.db",
        "/usr/share/apertium/modes",
      ],
      environment)
    // Set-up that fails from here on leaves no apertium-apy and no home behind.
    let (apy, folder) = (apyPID, String(cString: made))
    var started = false
    defer {
      if !started {
        Syscalls.kill(-apy, .terminate)
        _ = try? Syscalls.wait(apy)
        try? FileManager.default.removeItem(atPath: folder)
      }
    }
    _ = try Self.wait(Self.start(host, ["config", "ApertiumAPY", "endpoint", "http://127.0.0.1:\(apyPort)"], environment))
    // `HOST_BENCHMARK_SERVE`: more options for `serve`, to compare settings
    // in one sitting (`--batches-per-runner 1`: no batch sent before the last is answered).
    let options = (ProcessInfo.processInfo.environment["HOST_BENCHMARK_SERVE"] ?? "").split(separator: " ").map(String.init)
    // `HOST_BENCHMARK_SERVE_WRAPPER`: a command that runs `serve`, to count
    // its work (`valgrind --tool=callgrind --callgrind-out-file=…`); its first word is a path.
    let wrapper = (ProcessInfo.processInfo.environment["HOST_BENCHMARK_SERVE_WRAPPER"] ?? "").split(separator: " ")
      .map(String.init)
    let command = wrapper + [host, "serve"] + options
    servicePID = try Self.start(command[0], Array(command.dropFirst()), environment)
    started = true
  }

  /// Waits up to `seconds` for both servers to answer.
  func waitUntilReady(seconds: Double = 60) throws -> (ServiceClient, LoopbackHTTP) {
    let deadline = Syscalls.monotonicNanoseconds() + UInt64(seconds * 1e9)
    let http = LoopbackHTTP(port: apyPort)
    while true {
      if let client = try? ServiceClient.connect(to: location), (try? http.get("/listPairs")) != nil {
        return (client, http)
      }
      guard Syscalls.monotonicNanoseconds() < deadline else {
        throw LoopbackHTTP.Failure(description: "the service or apertium-apy did not answer within \(Int(seconds)) s")
      }
      usleep(100_000)
    }
  }

  /// Stops the service (SIGTERM, which lets it close its runners) and
  /// apertium-apy (its process group), waits for both, and removes the home.
  func stop() {
    Syscalls.kill(servicePID, .terminate)
    _ = try? Syscalls.wait(servicePID)
    Syscalls.kill(-apyPID, .terminate)
    _ = try? Syscalls.wait(apyPID)
    try? FileManager.default.removeItem(atPath: home)
  }

  /// The resident memory of `pid` and of every process below it, in KiB.
  static func residentKiB(of pid: pid_t) -> (own: Int, descendants: Int) {
    let descendants = ProcessTree.descendants(of: pid).reduce(0) { $0 + ProcessTree.statusKiB("VmRSS", of: $1) }
    return (ProcessTree.statusKiB("VmRSS", of: pid), descendants)
  }

  /// Starts `path` in a process group of its own, output discarded.
  static func start(_ path: String, _ arguments: [String], _ environment: [String: String]) throws -> pid_t {
    try Syscalls.spawn(
      path, arguments: arguments, environment: environment.map { "\($0.key)=\($0.value)" },
      actions: [.nullDevice(as: .standardInput), .nullDevice(as: .standardOutput), .nullDevice(as: .standardError)],
      newSession: true)
  }

  /// Waits for `pid`; throws unless it exited with 0.
  static func wait(_ pid: pid_t) throws -> Int32 {
    let status = try Syscalls.wait(pid)
    guard status == 0 else { throw LoopbackHTTP.Failure(description: "a set-up command failed (wait status \(status))") }
    return status
  }

  /// A TCP port on 127.0.0.1 that nothing listens on now.
  private static func freePort() throws -> UInt16 {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else { throw Errno.current }
    defer { close(fd) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = UInt32(0x7f00_0001).bigEndian
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0 }
    }
    guard bound else { throw Errno.current }
    return UInt16(bigEndian: address.sin_port)
  }
}
