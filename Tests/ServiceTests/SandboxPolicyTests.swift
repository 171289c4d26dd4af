import Foundation
import Glibc
import System
import TestSupport
import Testing

@testable import Core
@testable import RunnerProtocol

/// What the host decides for a runner: arguments, environment, and which
/// extra paths a manifest may ask for.
@Suite struct SandboxPolicyTests {
  static let bundle = ProviderBundle(
    path: "/opt/providers/Net.translationprovider", identifier: "org.example.net", name: "Net", displayName: "Net",
    version: "1", executablePath: "/opt/providers/Net.translationprovider/libNet.so", allowsNetworkAccess: true,
    isTranslationApp: true, readOnlyPaths: ["/srv/dictionaries", "/var/lib/apt/lists"])

  @Test func argumentsSurviveTheRunnersCommandLine() throws {
    var bundle = Self.bundle
    bundle.allowsMemoryFiles = true
    let policy = try SandboxPolicy.forBundle(
      bundle, environment: ["HOME": "/home/ana", "TRANSLATION_HOST_LIMIT_PROCESSES": "64"])
    let read = try SandboxPolicy(arguments: policy.arguments)
    #expect(read == policy)
    #expect(read.container == "/home/ana/.local/share/translation-host/containers/org.example.net")
    // Resolved and checked: what does not exist is not shown.
    let lists = try #require(FileManager.default.fileExists(atPath: "/var/lib/apt/lists") ? "/var/lib/apt/lists" : nil)
    #expect(read.readOnlyPaths.paths == [lists])
    #expect(read.memoryFiles.isAllowed)
    #expect(read.limits.processes == 64)
    #expect(!read.allowsWeakSandbox)
  }

  /// What the host measured in the container reaches the runner as it was,
  /// above 4 GiB too, and "not measured" stays nil (the runner walks then).
  @Test(arguments: [nil, 0, 4096, 5 << 30 + 4096] as [UInt64?])
  func theContainersMeasureSurvivesTheCommandLine(_ used: UInt64?) throws {
    var policy = SandboxPolicy(allowsNetwork: false, bundlePath: "/b", container: "/c")
    policy.containerUsedBytes = used
    let read = try SandboxPolicy(arguments: policy.arguments)
    #expect(read.containerUsedBytes == used)
  }

  /// The policy's bytes with `edit` applied, as the runner's arguments.
  static func arguments(_ edit: (inout [UInt8]) -> Void) -> [String] {
    var writer = WireWriter()
    SandboxPolicy(allowsNetwork: false, bundlePath: "/b", container: "/c").encode(to: &writer)
    var bytes = writer.bytes
    edit(&bytes)
    return ["--policy", bytes.map { String(format: "%02x", $0) }.joined()]
  }

  static let foreignCommandLines: [[String]] = [
    ["--network", "allow"],
    ["--policy"],
    ["--policy", "zz"],
    ["--policy", "0"],
    ["--policy", "00"],
    ["--policy", "0AFF"],
    arguments { $0.append(0) },
    arguments { $0.removeLast() },
    arguments { $0[0] = 2 },
    // The bundle path "/b" becomes "bb": relative. (Found as "/b", not as the first "/": the host's
    // process id before it may hold the byte 0x2F.)
    arguments { bytes in
      let path = Array("/b".utf8)
      if let start = bytes.indices.first(where: { bytes[$0...].starts(with: path) }) {
        bytes[start] = UInt8(ascii: "b")
      }
    },
  ]

  @Test(arguments: foreignCommandLines)
  func aCommandLineNotFromTheHostIsRefused(_ arguments: [String]) {
    #expect(throws: SandboxError.invalidArguments(arguments)) { try SandboxPolicy(arguments: arguments) }
  }

  @Test func theUntouchedPolicyBytesAreRead() throws {
    let read = try SandboxPolicy(arguments: Self.arguments { _ in })
    #expect(read.bundlePath == "/b" && read.container == "/c" && !read.allowsNetwork && !read.memoryFiles.isAllowed)
  }

  @Test func theEnvironmentIsAnAllowList() throws {
    let user = [
      "PATH": "/usr/bin", "LANG": "de_DE.UTF-8", "LC_TIME": "C", "TZ": "UTC", "HOME": "/home/ana", "TMPDIR": "/tmp",
      "SSH_AUTH_SOCK": "/run/user/1000/ssh", "DBUS_SESSION_BUS_ADDRESS": "unix:path=/run/user/1000/bus", "DISPLAY": ":0",
      "WAYLAND_DISPLAY": "wayland-0", "XDG_RUNTIME_DIR": "/run/user/1000", "GITHUB_TOKEN": "x", "LD_PRELOAD": "/x.so",
      "TRANSLATION_HOST_LOG": "debug",
    ]
    let policy = try SandboxPolicy.forBundle(Self.bundle, environment: user)
    let container = "/home/ana/.local/share/translation-host/containers/org.example.net"
    #expect(
      policy.environment(from: user) == [
        "CFFIXED_USER_HOME=\(container)", "HOME=\(container)", "LANG=de_DE.UTF-8", "LC_TIME=C", "PATH=/usr/bin",
        "SWIFT_BACKTRACE=\(SandboxPolicy.backtraceSettings)", "TMPDIR=\(container)/tmp",
        "TRANSLATION_HOST_LOG=debug", "TZ=UTC",
      ])
  }

  @Test(arguments: [("1", true), ("0", false), ("", false)])
  func theWeakSandboxIsTheUsersChoice(_ value: String, _ allowed: Bool) throws {
    let policy = try SandboxPolicy.forBundle(Self.bundle, environment: [SandboxPolicy.weakSandboxVariable: value])
    #expect(policy.allowsWeakSandbox == allowed)
  }

  @Test func aWeakSandboxSwitchThatIsNotOneOrZeroIsRefused() {
    #expect(throws: SandboxError.invalidSwitch(SandboxPolicy.weakSandboxVariable, "yes")) {
      try SandboxPolicy.forBundle(Self.bundle, environment: [SandboxPolicy.weakSandboxVariable: "yes"])
    }
  }

  @Test(
    arguments: [
      ("/usr/share/hunspell", nil),
      ("/var/lib/apt/lists", nil),
      ("/srv/dictionaries", nil),
      ("/etc/apt", nil),
      ("/", "must be an absolute path"),
      ("/usr", "must lie below"),
      ("/home/ana/.ssh", "must lie below"),
      ("/root", "must lie below"),
      ("/tmp/x", "must lie below"),
      ("/run/user/1000", "must lie below"),
      ("/proc/1/mem", "must lie below"),
      ("/var/tmp/x", "must not lie below /var/tmp"),
      ("/var/run/dbus", "must not lie below /var/run"),
      ("/var/log", "must not lie below /var/log"),
      ("/var/log/syslog", "must not lie below /var/log"),
      ("/var/backups", "must not lie below /var/backups"),
      ("/var/lib", "holds /var/lib/sudo"),
      ("/etc/ssh/ssh_host_ed25519_key", "must not lie below /etc/ssh"),
      ("/etc/shadow", "is a file no provider may read"),
      ("/etc/shadow-", "is a file no provider may read"),
      ("/etc/gshadow", "is a file no provider may read"),
      ("/etc/gshadow-", "is a file no provider may read"),
      ("/etc/security", "holds /etc/security/opasswd"),
      ("/srv/home/ana/notes", "a user's home folder"),
      ("/srv/home", "a user's home folder"),
      ("/opt/users/bob", "a user's home folder"),
      ("usr/share", "must be an absolute path"),
      ("/usr/../home/ana", "must be an absolute path"),
      ("/usr/share/", "must be an absolute path"),
      ("/usr//share", "must be an absolute path"),
      ("/usr/./share", "must be an absolute path"),
    ] as [(String, String?)])
  func aManifestMayDeclareOnlySystemData(_ path: String, _ problem: String?) {
    // Homes from a password database of our own: where they are is the point.
    let checker = ReadOnlyPaths.Checker(homes: ["/srv/home/ana", "/opt/users/bob"])
    let found: String? =
      switch checker.verdict(for: path) {
      case .refused(let reason): reason
      case .accepted: nil
      }
    if let problem {
      #expect(found?.contains(problem) == true, "\(path): \(found ?? "accepted")")
    } else {
      #expect(found == nil, "\(path): \(found ?? "")")
    }
  }

  /// The homes come from the password database: root's is one of them.
  @Test func theSystemCheckerKnowsTheUsersHomes() {
    let checker = ReadOnlyPaths.Checker.system()
    #expect(checker.homes.contains(String(cString: getpwuid(0).pointee.pw_dir)))
    #expect(!checker.homes.contains("/"))
  }

  /// What a declared path is on disk, judged in a folder of the test's own
  /// (standing for /srv): a link out, a socket, a pipe, one inside a folder.
  static let placedCases: [(String, String?)] = [
    ("data", nil),
    ("data/words.txt", nil),
    ("link-out", "resolves to"),
    ("link-in", nil),
    ("socket", "is a socket"),
    ("pipe", "is a named pipe"),
    ("daemon", "holds a socket at"),
    ("missing", nil),
  ]

  @Test(arguments: placedCases)
  func aDeclaredPathIsJudgedByWhatItResolvesTo(_ name: String, _ problem: String?) throws {
    let folder = try TemporaryDirectory()
    let root = folder.path + "/srv"
    try folder.write("srv/data/words.txt", "hola")
    try folder.write("outside/secret", "x")
    try folder.write("srv/daemon/state", "x")
    symlink(folder.path + "/outside", root + "/link-out")
    symlink(root + "/data", root + "/link-in")
    mkfifo(root + "/pipe", 0o600)
    let listener = try UnixListener(root + "/socket")
    let daemon = try UnixListener(root + "/daemon/control")
    defer { withExtendedLifetime((listener, daemon)) {} }
    var checker = ReadOnlyPaths.Checker(homes: [])
    checker.allowedRoots = [root]
    checker.refusedRoots.removeAll { root.hasPrefix($0 + "/") }  // the test's folder is in /tmp
    let verdict = checker.verdict(for: root + "/" + name)
    switch (verdict, problem) {
    case (.refused(let reason), let problem?): #expect(reason.contains(problem), "\(name): \(reason)")
    case (.accepted(let real), nil):
      let expected = name == "missing" ? nil : Syscalls.realPath(root + "/" + name)
      #expect(real == expected)
    default: Issue.record("\(name): \(verdict), expected \(problem ?? "accepted")")
    }
  }

  /// What changes in a declared folder after it was found clean, and whether
  /// the remembered walk sees it (each change makes the folder walked again).
  static let changesAfterAWalk: [(String, String?)] = [
    ("nothing", nil),
    ("a socket in a subfolder", "holds a socket at"),
    ("a pipe at the top", "holds a named pipe at"),
    ("a subfolder swapped for one holding a socket", "holds a socket at"),
    ("a file's content", nil),
    ("the cache file garbled", nil),
  ]

  /// A declared folder found clean is remembered with its folders' stamps,
  /// and not listed again while they hold; any change of its entries shows.
  @Test(arguments: changesAfterAWalk)
  func aRememberedWalkSeesEveryChangeOfEntries(_ change: String, _ problem: String?) throws {
    let folder = try TemporaryDirectory()
    let root = folder.path + "/srv"
    try folder.write("srv/data/deep/words.txt", "hola")
    try folder.write("srv/data/other/list.txt", "x")
    var checker = ReadOnlyPaths.Checker(homes: [])
    checker.allowedRoots = [root]
    checker.refusedRoots.removeAll { root.hasPrefix($0 + "/") }  // the test's folder is in /tmp
    var cache = CleanFolders(file: folder.path + "/cache/read-only-folders-v1")
    cache.settling = .zero  // the folders were made just now; the change below comes 20 ms later
    try FileManager.default.createDirectory(atPath: folder.path + "/cache", withIntermediateDirectories: true)
    checker.cleanFolders = cache
    let data = root + "/data"
    #expect(checker.verdict(for: data) == .accepted(realPath: Syscalls.realPath(data)))
    #expect(cache.isClean(data))
    var listeners: [UnixListener] = []
    usleep(20_000)
    switch change {
    case "a socket in a subfolder": listeners.append(try UnixListener(data + "/deep/control"))
    case "a pipe at the top": #expect(mkfifo(data + "/pipe", 0o600) == 0)
    case "a subfolder swapped for one holding a socket":
      try folder.write("srv/swap/x", "x")
      listeners.append(try UnixListener(root + "/swap/control"))
      #expect(rename(data + "/other", root + "/old") == 0 && rename(root + "/swap", data + "/other") == 0)
    case "a file's content": try folder.write("srv/data/deep/words.txt", "adiós")
    case "the cache file garbled": try folder.write("cache/read-only-folders-v1", "translation-host clean folders 1\nx\ty\n")
    default: break
    }
    defer { withExtendedLifetime(listeners) {} }
    #expect(cache.isClean(data) == (problem == nil && change != "the cache file garbled"))
    switch (checker.verdict(for: data), problem) {
    case (.refused(let reason), let problem?): #expect(reason.contains(problem), "\(change): \(reason)")
    case (.accepted, nil): #expect(cache.isClean(data))
    case (let verdict, _): Issue.record("\(change): \(verdict), expected \(problem ?? "accepted")")
    }
  }
}
