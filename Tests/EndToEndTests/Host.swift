import FoundationEssentials
import TestSupport

/// The built `translation-host` (from `make build`), run with a private HOME
/// and XDG folders so nothing of the machine's user leaks in or out.
struct Host {
  /// `$TRANSLATION_HOST_BUILD`, or `build/` in the package.
  static let buildDirectory = ProcessInfo.processInfo.environment["TRANSLATION_HOST_BUILD"] ?? CFixture.packageRoot + "/build"
  static let executable = buildDirectory + "/bin/translation-host"
  /// The same tool with the desktop popover, which `executable` becomes for it.
  static let desktopExecutable = buildDirectory + "/libexec/translation-host/translation-host-desktop"
  static let providers = buildDirectory + "/lib/translation-host/providers"

  let home: TemporaryDirectory
  var environment: [String: String]

  init(providerPath: String? = nil) throws {
    guard FileManager.default.isExecutableFile(atPath: Self.executable) else {
      throw MissingBuild(path: Self.executable)
    }
    home = try TemporaryDirectory()
    environment = [
      "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin",
      "HOME": home.path,
      "XDG_DATA_HOME": home.path + "/data",
      "XDG_CONFIG_HOME": home.path + "/config",
      "XDG_CACHE_HOME": home.path + "/cache",
    ]
    if let providerPath { environment["TRANSLATION_HOST_PROVIDER_PATH"] = providerPath }
  }

  /// Runs `translation-host` with `arguments`.
  func run(_ arguments: String..., stdin: String? = nil) throws -> Command.Result {
    try run(arguments, stdin: stdin)
  }

  func run(_ arguments: [String], stdin: String? = nil) throws -> Command.Result {
    try Command.run(Self.executable, arguments, environment: environment, stdin: stdin)
  }

  /// Runs `program` (a shell, an installed copy of the tool) with the host's
  /// environment, while the host, and with it its home, lives.
  func run(program: String, _ arguments: [String], stdin: String? = nil) throws -> Command.Result {
    try Command.run(program, arguments, environment: environment, stdin: stdin)
  }

  struct MissingBuild: Error, CustomStringConvertible {
    var path: String
    var description: String { "\(path) does not exist: run 'make build' (or 'make test') first" }
  }
}
