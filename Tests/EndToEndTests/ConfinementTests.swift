import Foundation
import Glibc
import TestSupport
import Testing

/// A provider that tries to get out (`Tests/Fixtures/escaping_provider.c`)
/// performs each attack for real and fails: it reports what each attempt
/// met, and the test checks from outside that nothing happened. The host
/// stays up and answers as usual.
@Suite(.tags(.endToEnd)) struct ConfinementTests {
  static let fixtures = CFixture.packageRoot + "/Tests/Fixtures"

  /// What an attack runs against: a fresh host with a fake home, the attacker's
  /// bundle, another provider's bundle, and listeners it tries to reach.
  final class Target {
    let folder: TemporaryDirectory
    var host: Host
    let bundle: String
    let otherBundle: String
    let tcp: Listener
    let unix: UnixListener
    let abstract: UnixListener
    var home: String { host.home.path }
    /// Files whose content must not change, and the content they had.
    private(set) var guarded: [String: String] = [:]

    init(networkAccess: Bool) throws {
      folder = try TemporaryDirectory()
      host = try Host()
      let library = try CFixture.compile(fixtures + "/escaping_provider.c", name: "libEscape", in: folder)
      var fixture = BundleFixture(name: "Escape", identifier: UniqueName.make("org.example.escape"))
      if networkAccess { fixture.info["com.apple.developer.translation-ui-provider.network-access"] = .boolean(true) }
      bundle = try fixture.write(name: "Escape", in: folder, library: library)
      let otherLibrary = try CFixture.compile(fixtures + "/misbehaving_provider.c", name: "libOther", in: folder)
      otherBundle = try BundleFixture(name: "Other").write(name: "Other", in: folder, library: otherLibrary)
      tcp = try Listener()
      unix = try UnixListener(folder.path + "/agent.socket")
      abstract = try UnixListener("@" + UniqueName.make("translation-host-test"))
      try protect(home + "/.ssh/id_rsa", "-----BEGIN OPENSSH PRIVATE KEY----- fake")
      try protect(home + "/.bashrc", "# the user's shell setup\n")
      try protect(bundle + "/Info.plist", try String(contentsOfFile: bundle + "/Info.plist", encoding: .utf8))
      try protect(otherBundle + "/libOther.so", nil)
      _ = try host.run("set-default", "org.translationhost.rot13")
      try protect(defaultsFile, nil)
    }

    /// The user's default-provider list.
    var defaultsFile: String { home + "/config/translation-host/default-providers" }

    /// Writes `content` to `path` (or keeps what is there) and remembers it, to compare afterwards.
    func protect(_ path: String, _ content: String?) throws {
      try FileManager.default.createDirectory(
        atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
      if let content { try content.write(toFile: path, atomically: false, encoding: .utf8) }
      guarded[path] = try String(decoding: Data(contentsOf: URL(fileURLWithPath: path)), as: UTF8.self)
    }

    /// The guarded files whose content changed.
    func changedFiles() -> [String] {
      guarded.filter { path, content in
        (try? String(decoding: Data(contentsOf: URL(fileURLWithPath: path)), as: UTF8.self)) != content
      }.map(\.key)
    }

    func attack(_ text: String) throws -> Command.Result {
      try host.run("run", "--text", text, "--replace", "--press", "Go", "--provider", bundle)
    }
  }

  struct Attack: Sendable, CustomTestStringConvertible {
    var testDescription: String
    var networkAccess = false
    /// The environment the user's session has, which must not reach the provider.
    var environment: [String: String] = [:]
    /// The input text that names the attack, made from the target.
    var text: @Sendable (Target) -> String
    /// What the provider must have met, in its report.
    var met: [String] = []
    /// A file that must not exist afterwards.
    var absentFile: (@Sendable (Target) -> String)? = nil
  }

  static let attacks: [Attack] = [
    Attack(
      testDescription: "types a command into the user's terminal (TIOCSTI)", text: { _ in "tiocsti" },
      met: ["/dev/tty:ENOENT", "filter:EPERM"]),
    Attack(
      testDescription: "writes into the memory of a process of the user (/proc/<pid>/mem, ptrace)",
      text: { _ in "host-mem \(getpid())" }, met: ["ptrace(", ":EPERM", "hosts-in-proc:0"]),
    Attack(
      testDescription: "joins the host's network namespace (setns), then connects to loopback",
      text: { "setns \($0.tcp.port)" }, met: ["unshare:EPERM", "socket:EPERM"]),
    Attack(
      testDescription: "calls bpf, perf_event_open, userfaultfd, keyctl and mount", text: { _ in "kernel" },
      met: ["bpf:EPERM", "perf_event_open:EPERM", "userfaultfd:EPERM", "keyctl:EPERM", "mount:EPERM"]),
    Attack(testDescription: "reads ~/.ssh/id_rsa", text: { "read \($0.home)/.ssh/id_rsa" }, met: ["open:ENOENT"]),
    Attack(testDescription: "appends to ~/.bashrc", text: { "write \($0.home)/.bashrc" }, met: ["open:ENOENT"]),
    Attack(
      testDescription: "adds a program to ~/.config/autostart", text: { "create \($0.home)/.config/autostart/evil.desktop" },
      absentFile: { $0.home + "/.config/autostart/evil.desktop" }),
    Attack(testDescription: "rewrites the default-provider list", text: { "write \($0.defaultsFile)" }, met: ["open:ENOENT"]),
    Attack(
      testDescription: "overwrites another provider's shared object", text: { "write \($0.otherBundle)/libOther.so" },
      met: ["open:ENOENT"]),
    Attack(
      testDescription: "gives itself the network key in its own Info.plist", text: { "write \($0.bundle)/Info.plist" },
      met: ["open:EROFS"]),
    Attack(
      testDescription: "connects to a Unix socket the user's session listens on", text: { "connect \($0.unix.address)" },
      met: ["connect:ENOENT"]),
    Attack(
      testDescription: "connects to an abstract Unix socket without the network key", text: { "connect \($0.abstract.address)" },
      met: ["connect:ECONNREFUSED"]),
    Attack(
      testDescription: "connects to an abstract Unix socket with the network key", networkAccess: true,
      text: { "connect \($0.abstract.address)" }, met: ["connect:ECONNREFUSED"]),
    Attack(
      testDescription: "connects to the session bus at a path", environment: ["DBUS_SESSION_BUS_ADDRESS": "unix:path=BUS"],
      text: { _ in "bus" }, met: ["no-bus-address"]),
    Attack(
      testDescription: "reads the user's secrets from its environment",
      environment: [
        "SSH_AUTH_SOCK": "/run/user/0/ssh", "DISPLAY": ":0", "WAYLAND_DISPLAY": "wayland-0", "GITHUB_TOKEN": "ghp_x",
        "XDG_RUNTIME_DIR": "/run/user/0", "AWS_SECRET_ACCESS_KEY": "x",
      ],
      text: { _ in "environment" }, met: ["HOME=", "/translation-host/containers/org.example.escape"]),
    Attack(testDescription: "reads /etc/shadow", text: { _ in "read /etc/shadow" }, met: ["open:ENOENT"]),
  ]

  @Test(arguments: attacks) func aHostileProviderDoesNotGetOut(_ attack: Attack) throws {
    let target = try Target(networkAccess: attack.networkAccess)
    for (name, value) in attack.environment {
      target.host.environment[name] = value.replacingOccurrences(of: "BUS", with: target.unix.address)
    }
    let result = try target.attack(attack.text(target))
    #expect(result.exitCode == 0, "stderr: \(result.stderr)")
    #expect(result.stdout.hasPrefix("CONTAINED"), "the provider got out: \(result.stdout)")
    for expected in attack.met { #expect(result.stdout.contains(expected), "report: \(result.stdout)") }
    #expect(target.changedFiles().isEmpty)
    if let absent = attack.absentFile { #expect(!FileManager.default.fileExists(atPath: absent(target))) }
    #expect(!target.tcp.acceptedConnection())
    #expect(!target.unix.acceptedConnection())
    #expect(!target.abstract.acceptedConnection())
    #expect(result.stderr.isEmpty, "stderr: \(result.stderr)")
  }

  /// The container is the provider's own: it can keep files there between runs, and only there.
  @Test func theContainerIsWritableAndKept() throws {
    let target = try Target(networkAccess: false)
    let first = try target.attack("environment")
    let home = try #require(first.stdout.split(separator: "HOME=").last.map(String.init))
    let result = try target.attack("create \(home)/notes")
    #expect(result.stdout.hasPrefix("ESCAPED wrote to"), "the container is writable: \(result.stdout)")
    #expect(FileManager.default.fileExists(atPath: home + "/notes"))
    #expect(home.hasPrefix(target.home + "/data/translation-host/containers/"))
  }

  /// The service is a proxy no runner can reach: its socket is not in a runner's view.
  @Test func aProviderRunByTheServiceCannotReachTheServiceSocket() throws {
    let target = try Target(networkAccess: true)
    let service = try ServiceProcess()
    try service.start()
    defer { service.stop() }
    let result = try service.run(
      ["run", "--text", "connect \(service.location.socket)", "--replace", "--press", "Go", "--provider", target.bundle])
    #expect(result.exitCode == 0, "stderr: \(result.stderr)")
    #expect(result.stdout == "CONTAINED connect:ENOENT")
    let rot13 = try service.run([
      "translate", "--provider", "org.translationhost.rot13", "--from", "en", "--to", "en-x-rot13", "Hi",
    ])
    #expect(rot13.stdout == "Uv\n")
  }

  /// A runner in a real terminal: nothing it does reaches the terminal, which
  /// shows no injected command after translation-host returns to the shell.
  @Test func nothingIsTypedIntoTheUsersTerminal() throws {
    let target = try Target(networkAccess: false)
    let terminal = try TerminalSession(
      [Host.executable, "run", "--text", "tiocsti", "--replace", "--press", "Go", "--provider", target.bundle],
      environment: target.host.environment, stdoutOnTerminal: true, keeping: [target])
    let outcome = try terminal.waitForExit()
    #expect(outcome.exitCode == 0)
    let screen = try terminal.screen()
    #expect(screen.contains("CONTAINED"), "screen: \(screen)")
    #expect(!screen.contains("INJECTED"), "screen: \(screen)")
  }

  // MARK: Where the kernel refuses namespaces

  /// A host started under `deny_namespaces`, where `unshare` fails as on a
  /// kernel without unprivileged user namespaces.
  static func refusingKernel(_ target: Target) throws -> String {
    try CFixture.compileProgram(
      fixtures + "/deny_namespaces.c", libraries: ["seccomp"], name: "deny_namespaces", in: target.folder)
  }

  @Test func withoutNamespacesAProviderIsRefusedInOneLine() throws {
    let target = try Target(networkAccess: false)
    let wrapper = try Self.refusingKernel(target)
    let result = try Command.run(
      wrapper, [Host.executable, "run", "--text", "kernel", "--replace", "--press", "Go", "--provider", target.bundle],
      environment: target.host.environment)
    #expect(result.exitCode == 69, "stderr: \(result.stderr)")
    #expect(result.stdout == "")
    #expect(result.stderr.split(separator: "\n").count == 1, "stderr: \(result.stderr)")
    #expect(result.stderr.contains("the kernel refused user namespaces (unshare(CLONE_NEWUSER): Operation not permitted)"))
    #expect(result.stderr.contains("TRANSLATION_HOST_ALLOW_WEAK_SANDBOX=1"))
  }

  static let weakAttacks: [(String, @Sendable (Target) -> String, String)] = [
    ("reads ~/.ssh/id_rsa", { "read \($0.home)/.ssh/id_rsa" }, "open:EACCES"),
    ("appends to ~/.bashrc", { "write \($0.home)/.bashrc" }, "open:EACCES"),
    ("gives itself the network key", { "write \($0.bundle)/Info.plist" }, "open:EACCES"),
    ("writes into the host's memory", { _ in "host-mem \(getpid())" }, "ptrace("),
    ("types into the terminal", { _ in "tiocsti" }, "filter:EPERM"),
    ("calls bpf and mount", { _ in "kernel" }, "bpf:EPERM"),
    ("connects to loopback", { "setns \($0.tcp.port)" }, "socket:EPERM"),
  ]

  /// With the user's consent a provider runs without namespaces, and the
  /// filter and Landlock still stop every attack but path sockets (Security.md).
  @Test(arguments: weakAttacks.indices) func withAWeakSandboxTheFilterAndLandlockStillHold(_ index: Int) throws {
    let (_, text, met) = Self.weakAttacks[index]
    let target = try Target(networkAccess: false)
    let wrapper = try Self.refusingKernel(target)
    target.host.environment["TRANSLATION_HOST_ALLOW_WEAK_SANDBOX"] = "1"
    let result = try Command.run(
      wrapper, [Host.executable, "run", "--text", text(target), "--replace", "--press", "Go", "--provider", target.bundle],
      environment: target.host.environment)
    #expect(result.exitCode == 0, "stderr: \(result.stderr)")
    #expect(result.stdout.hasPrefix("CONTAINED") && result.stdout.contains(met), "report: \(result.stdout)")
    #expect(target.changedFiles().isEmpty)
    #expect(!target.tcp.acceptedConnection())
    let info = try Command.run(wrapper, [Host.executable, "info", target.bundle], environment: target.host.environment)
    #expect(info.stdout.contains("landlock") && !info.stdout.contains("file-system"), "info: \(info.stdout)")
  }
}
