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
    let policy = try SandboxPolicy.forBundle(
      Self.bundle, environment: ["HOME": "/home/ana", "TRANSLATION_HOST_LIMIT_PROCESSES": "64"])
    let read = try SandboxPolicy(arguments: policy.arguments)
    #expect(read == policy)
    #expect(read.container == "/home/ana/.local/share/translation-host/containers/org.example.net")
    #expect(read.readOnlyPaths == ["/srv/dictionaries", "/var/lib/apt/lists"])
    #expect(read.limits.processes == 64)
    #expect(!read.allowsWeakSandbox)
  }

  @Test(arguments: [
    ["--network", "allow"],
    [
      "--network", "maybe", "--memory-mib", "1", "--cpu-seconds", "1", "--open-files", "1", "--processes", "1", "--host-pid", "1",
      "--bundle", "/b", "--weak", "refuse",
    ],
    [
      "--network", "deny", "--memory-mib", "1", "--cpu-seconds", "1", "--open-files", "1", "--processes", "1", "--host-pid", "1",
      "--bundle", "/", "--weak", "refuse",
    ],
    [
      "--network", "deny", "--memory-mib", "1", "--cpu-seconds", "1", "--open-files", "1", "--processes", "1", "--host-pid", "1",
      "--bundle", "b", "--weak", "refuse",
    ],
    [
      "--network", "deny", "--memory-mib", "1", "--cpu-seconds", "1", "--open-files", "1", "--processes", "1", "--host-pid", "1",
      "--bundle", "/b", "--weak", "yes",
    ],
  ])
  func aCommandLineNotFromTheHostIsRefused(_ arguments: [String]) {
    #expect(throws: SandboxError.invalidArguments(arguments)) { try SandboxPolicy(arguments: arguments) }
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
      ("/etc/ssh/ssh_host_ed25519_key", "must not lie below /etc/ssh"),
      ("/etc/shadow", "is a file no provider may read"),
      ("usr/share", "must be an absolute path"),
      ("/usr/../home/ana", "must be an absolute path"),
      ("/usr/share/", "must be an absolute path"),
      ("/usr//share", "must be an absolute path"),
      ("/usr/./share", "must be an absolute path"),
    ] as [(String, String?)])
  func aManifestMayDeclareOnlySystemData(_ path: String, _ problem: String?) {
    let found = ReadOnlyPathRule.problem(with: path)
    if let problem {
      #expect(found?.contains(problem) == true, "\(path): \(found ?? "accepted")")
    } else {
      #expect(found == nil, "\(path): \(found ?? "")")
    }
  }
}
