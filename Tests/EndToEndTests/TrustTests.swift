import CExtendedAttributes
import Foundation
import Glibc
import TestSupport
import Testing

/// The attacks of issue 24 that the confinement of issue 11 did not contain,
/// each by a hostile provider (`Tests/Fixtures/escaping_provider.c`), checked
/// from outside: files, listeners, `/proc/sys` values, the bits of what a
/// provider left in its container. Each failed before its fix.
@Suite(.tags(.endToEnd)) struct TrustTests {
  static let fixtures = CFixture.packageRoot + "/Tests/Fixtures"
  static let apyIdentifier = "org.translationhost.apertium-apy"

  /// A host whose search path starts with a provider folder of the test's
  /// own, holding the escaping provider (no network key).
  final class Setting {
    let folder: TemporaryDirectory
    let providers: String
    var host: Host
    let library: String
    let identifier: String
    let bundle: String

    init() throws {
      folder = try TemporaryDirectory()
      providers = folder.path + "/providers"
      try FileManager.default.createDirectory(
        atPath: providers, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o755])
      host = try Host(providerPath: providers)
      library = try CFixture.compile(fixtures + "/escaping_provider.c", name: "libEscape", in: folder)
      identifier = UniqueName.make("org.example.trust")
      bundle = try BundleFixture(name: "Escape", identifier: identifier).write(name: "Escape", in: folder, library: library)
      try FileManager.default.moveItem(atPath: bundle, toPath: providers + "/Escape.translationprovider")
    }

    var installedBundle: String { providers + "/Escape.translationprovider" }
    func container(_ identifier: String) -> String { host.home.path + "/data/translation-host/containers/" + identifier }

    /// A bundle of the escaping provider claiming `identifier`, outside the search path.
    func impostor(identifier: String, settings: [String] = []) throws -> String {
      let place = try TemporaryDirectory()
      var fixture = BundleFixture(name: "Impostor", identifier: identifier)
      fixture.info["TPSettings"] = .array(
        settings.map {
          .dictionary(["Key": .string($0), "Title": .string($0), "Type": .string("string"), "Default": .string("none")])
        })
      let written = try fixture.write(name: "Impostor", in: place, library: library)
      let kept = folder.path + "/impostor-" + UniqueName.make("b") + "/Impostor.translationprovider"
      try FileManager.default.createDirectory(
        atPath: (kept as NSString).deletingLastPathComponent, withIntermediateDirectories: true,
        attributes: [.posixPermissions: 0o755])
      try FileManager.default.moveItem(atPath: written, toPath: kept)
      return kept
    }

    /// Replaces the installed bundle with one that declares the network key.
    func grantNetworkToInstalledBundle() throws {
      var fixture = BundleFixture(name: "Escape", identifier: identifier)
      fixture.info["com.apple.developer.translation-ui-provider.network-access"] = .boolean(true)
      try FileManager.default.removeItem(atPath: installedBundle)
      let place = try TemporaryDirectory()
      let written = try fixture.write(name: "Escape", in: place, library: library)
      try FileManager.default.moveItem(atPath: written, toPath: installedBundle)
    }

    func press(_ text: String, provider: String) throws -> Command.Result {
      try host.run("run", "--text", text, "--replace", "--press", "Go", "--provider", provider)
    }
  }

  // MARK: 1. Self-granted network

  /// Run 1 (no network) writes a manifest declaring the network key, and a
  /// copy of its code, into its container; the pack it came in holds a
  /// second bundle folder, a link into that container sorted first. The
  /// link is refused: `list` names it under problems, the provider is not
  /// shown with [net], and run 2 is the real bundle, still without network.
  @Test func aBundleLinkedIntoItsContainerGrantsNoNetwork() throws {
    let setting = try Setting()
    let tcp = try Listener()
    let first = try setting.press("environment", provider: setting.identifier)
    #expect(first.stdout.hasPrefix("CONTAINED"), "\(first.stderr)")
    // What run 1 could write: its container is its own (ConfinementTests).
    let container = setting.container(setting.identifier)
    var forged = BundleFixture(name: "Escape", identifier: setting.identifier)
    forged.info["com.apple.developer.translation-ui-provider.network-access"] = .boolean(true)
    let written = try TemporaryDirectory()
    let forgedBundle = try forged.write(name: "Forged", in: written, library: setting.library)
    try FileManager.default.moveItem(atPath: forgedBundle, toPath: container + "/Forged.translationprovider")
    symlink(container + "/Forged.translationprovider", setting.providers + "/AAA.translationprovider")

    let list = try setting.host.run("list", "--all")
    let lines = list.stdout.split(separator: "\n").filter { $0.contains("\(setting.identifier)  1.0") }
    #expect(lines.count == 1 && !lines[0].contains("net"), "list: \(list.stdout)")
    #expect(list.stdout.contains("AAA.translationprovider"), "list: \(list.stdout)")
    #expect(list.stdout.contains("is a symbolic link to"), "list: \(list.stdout)")

    let second = try setting.press("setns \(tcp.port)", provider: setting.identifier)
    #expect(second.stdout.hasPrefix("CONTAINED") && second.stdout.contains("socket:EPERM"), "\(second.stdout) \(second.stderr)")
    #expect(!tcp.acceptedConnection())
    // Named by its path, the link is refused too, in one line.
    let byPath = try setting.press("setns \(tcp.port)", provider: setting.providers + "/AAA.translationprovider")
    #expect(byPath.exitCode != 0 && byPath.stdout.isEmpty, "\(byPath.stdout)")
    #expect(!tcp.acceptedConnection())
  }

  // MARK: 2. Identity impostor

  /// A bundle claiming the APY provider's identifier: `install` refuses it
  /// before any of its code runs (so the user's endpoint with its token never
  /// reaches it), `run` refuses it by path, and `validate` tries it with the
  /// defaults in a container of its own.
  @Test func anImpostorNeverGetsTheSettingsOrContainerOfTheProviderItClaims() throws {
    let setting = try Setting()
    let secret = "http://user:s3cret-token@127.0.0.1:1"
    let configured = try setting.host.run("config", Self.apyIdentifier, "endpoint", secret)
    #expect(configured.exitCode == 0, "\(configured.stderr)")
    let impostor = try setting.impostor(identifier: Self.apyIdentifier, settings: ["endpoint"])
    let leak = setting.container(Self.apyIdentifier) + "/settings-seen"

    let install = try setting.host.run("install", impostor)
    #expect(install.exitCode != 0)
    #expect(install.stderr.contains("'\(Self.apyIdentifier)' belongs to "), "\(install.stderr)")
    #expect(install.stderr.contains("ApertiumAPY.translationprovider"), "\(install.stderr)")
    #expect(!FileManager.default.fileExists(atPath: leak))

    let run = try setting.press("environment", provider: impostor)
    #expect(run.exitCode == 69 && run.stdout.isEmpty, "\(run.stdout) \(run.stderr)")
    #expect(run.stderr.contains("declares the identifier '\(Self.apyIdentifier)', which belongs to"), "\(run.stderr)")
    #expect(!FileManager.default.fileExists(atPath: leak))

    let validate = try setting.host.run("validate", impostor)
    #expect(validate.stdout.contains("holds the identifier \(Self.apyIdentifier): tried with the default settings"))
    #expect(!FileManager.default.fileExists(atPath: leak))
    #expect(!validate.stdout.contains("s3cret"))

    // With --replace the user makes it the provider: validated as a stranger
    // all the same, the token reaches it only once it is installed.
    let replaced = try setting.host.run("install", "--replace", impostor)
    #expect(replaced.exitCode == 0, "\(replaced.stderr)")
    #expect(!FileManager.default.fileExists(atPath: leak))
  }

  /// Two bundles with one identifier in the search path: the second never
  /// runs, whether named by its identifier or by its path.
  @Test func aShadowedBundleNeverRuns() throws {
    let setting = try Setting()
    let second = try TemporaryDirectory()
    var fixture = BundleFixture(name: "Shadow", identifier: setting.identifier)
    fixture.info["com.apple.developer.translation-ui-provider.network-access"] = .boolean(true)
    let shadow = try fixture.write(name: "Shadow", in: second, library: setting.library)
    setting.host.environment["TRANSLATION_HOST_PROVIDER_PATH"] = setting.providers + ":" + second.path
    let result = try setting.press("environment", provider: shadow)
    #expect(result.exitCode == 69 && result.stdout.isEmpty, "\(result.stdout)")
    #expect(result.stderr.contains("which belongs to \(setting.installedBundle)"), "\(result.stderr)")
    let list = try setting.host.run("list", "--all")
    #expect(list.stdout.contains("shadowed by \(setting.installedBundle)"), "\(list.stdout)")
  }

  // MARK: 7. Present

  /// `Present` with a bundle path outside the service's search path is
  /// refused as `Translate` is, and the bundle's code never runs.
  @Test func presentRunsOnlyBundlesOfTheSearchPath() throws {
    let setting = try Setting()
    let outside = try setting.impostor(identifier: UniqueName.make("org.example.outside"))
    let session = try BusSession()
    let (outcome, json) = try session.python("present-path", [outside])
    let answer = try #require(json as? [String: String], "\(outcome.result.stdout) \(outcome.result.stderr)")
    #expect(answer["error"] == BusSession.name + ".Error.ProviderUnavailable", "\(answer)")
    #expect(answer["message"]?.contains("runs only bundles in its search path") == true, "\(answer)")
    let containers = session.folder.path + "/data/translation-host/containers"
    #expect(((try? FileManager.default.contentsOfDirectory(atPath: containers)) ?? []).isEmpty)
  }

  // MARK: 4. Root

  /// A root-run provider finds no /proc/sys to write (core_pattern runs a
  /// program as root everywhere); checked on a harmless value from outside.
  @Test func procSysIsNotWritable() throws {
    let setting = try Setting()
    let file = "/proc/sys/fs/lease-break-time"
    let before = try String(contentsOfFile: file, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
    let changed = String((Int(before) ?? 45) + 1)
    defer {
      // Put back what an escape changed (the test failed then).
      if let fd = Optional(open(file, O_WRONLY)), fd >= 0 {
        _ = write(fd, before, before.utf8.count)
        close(fd)
      }
    }
    let result = try setting.press("sysctl \(file) \(changed)", provider: setting.identifier)
    #expect(result.stdout.hasPrefix("CONTAINED"), "\(result.stdout)")
    #expect(result.stdout.contains("open:ENOENT") || result.stdout.contains("open:EROFS"), "\(result.stdout)")
    let after = try String(contentsOfFile: file, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
    #expect(after == before)
  }

  /// A provider cannot leave a setuid or setgid program in its container,
  /// which any process of the user could run outside the sandbox.
  @Test func noSetuidProgramIsLeftInTheContainer() throws {
    let setting = try Setting()
    let environment = try setting.press("environment", provider: setting.identifier)
    let home = try #require(environment.stdout.split(separator: "HOME=").last.map(String.init))
    let result = try setting.press("setuid \(home)/tool", provider: setting.identifier)
    #expect(result.stdout.hasPrefix("CONTAINED"), "\(result.stdout)")
    #expect(result.stdout.contains("open:EPERM") && result.stdout.contains("chmod:EPERM"), "\(result.stdout)")
    var status = stat()
    #expect(stat(home + "/tool", &status) == 0)
    #expect(status.st_mode & (S_ISUID | S_ISGID) == 0)
  }

  /// A provider cannot leave a setuid or setgid program, a file capability
  /// or a device in its container by any way besides chmod either (copy,
  /// tar, install, a hard link, mknod, setxattr): checked from outside, the
  /// whole container holds none.
  @Test func noPrivilegedFileIsLeftInTheContainerByAnyWay() throws {
    let setting = try Setting()
    let environment = try setting.press("environment", provider: setting.identifier)
    let home = try #require(environment.stdout.split(separator: "HOME=").last.map(String.init))
    let result = try setting.press("privileged \(home)/kit", provider: setting.identifier)
    #expect(result.stdout.hasPrefix("CONTAINED"), "\(result.stdout)")
    #expect(try Self.privilegedFiles(in: setting.container(setting.identifier)) == [])
  }

  /// Whatever way a privileged file got into a container (here: made from
  /// outside, as a way the filter missed would), it is disarmed from outside
  /// once the runner is gone, and the user is told which.
  @Test func aPrivilegedFileInTheContainerIsDisarmedAfterTheRun() throws {
    let setting = try Setting()
    _ = try setting.press("environment", provider: setting.identifier)
    let container = setting.container(setting.identifier)
    let program = container + "/planted"
    #expect(FileManager.default.createFile(atPath: program, contents: Data("#!/bin/sh\nid\n".utf8)))
    #expect(chmod(program, 0o6755) == 0)
    let folder = container + "/shared"
    #expect(mkdir(folder, 0o755) == 0 && chmod(folder, 0o2755) == 0)
    var expected = ["planted", "shared"]
    if getuid() == 0 {
      #expect(mknod(container + "/null", S_IFCHR | 0o666, dev_t(1 << 8 | 3)) == 0)
      let capable = container + "/capable"
      #expect(FileManager.default.createFile(atPath: capable, contents: Data()))
      let capability: [UInt32] = [0x0200_0001, 1 << 7, 0, 0, 0]
      #expect(setxattr(capable, "security.capability", capability, 20, 0) == 0)
      expected += ["null", "capable"]
    }
    #expect(try Self.privilegedFiles(in: container).sorted() == expected.sorted())
    let result = try setting.press("environment", provider: setting.identifier)
    #expect(try Self.privilegedFiles(in: container) == [])
    #expect(result.stderr.contains("left privileged files in its container"), "\(result.stderr)")
    for name in expected { #expect(result.stderr.contains("'\(name)'"), "\(result.stderr)") }
    var status = stat()
    #expect(stat(program, &status) == 0 && status.st_mode & 0o7777 == 0o755)
  }

  /// The paths under `folder` (relative) of setuid or setgid files and
  /// folders, devices and files with capabilities; links are not followed.
  static func privilegedFiles(in folder: String, prefix: String = "") throws -> [String] {
    var found: [String] = []
    for name in try FileManager.default.contentsOfDirectory(atPath: folder) {
      let path = folder + "/" + name
      var status = stat()
      guard lstat(path, &status) == 0 else { continue }
      let kind = status.st_mode & S_IFMT
      if status.st_mode & (S_ISUID | S_ISGID) != 0 || kind == S_IFCHR || kind == S_IFBLK
        || (kind == S_IFREG && lgetxattr(path, "security.capability", nil, 0) >= 0)
      {
        found.append(prefix + name)
      }
      if kind == S_IFDIR { found += try privilegedFiles(in: path, prefix: prefix + name + "/") }
    }
    return found
  }

  // MARK: 8. Disk

  /// Whether the runner shows this provider its container through the
  /// size-limited view (`disk-budget`): where /dev/fuse can be opened.
  static func hasDiskBudget(_ setting: Setting) throws -> Bool {
    let info = try setting.host.run("info", setting.identifier)
    return info.stdout.contains("disk-budget")
  }

  /// The container as the host measures it: each name its blocks, at least 4 KiB.
  static func measured(_ folder: String) -> Int64 {
    var total: Int64 = 0
    for name in (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [] {
      var status = stat()
      guard lstat(folder + "/" + name, &status) == 0 else { continue }
      total += max(Int64(status.st_blocks) * 512, 4096)
      if status.st_mode & S_IFMT == S_IFDIR { total += measured(folder + "/" + name) }
    }
    return total
  }

  /// Within one run a provider wrote files of 1 MiB until the file system
  /// was full, each under the per-file limit, and then the host's own
  /// writes failed. Now it sees its container through a view of the disk
  /// limit (8 MiB here): its write past it fails with ENOSPC, the container
  /// measured from outside holds no more than the limit, the host names the
  /// folder and the limit, and `set-default` still writes. Root only here:
  /// /dev/fuse is mode 0600 on this machine (see Security.md for the rest).
  @Test(.enabled(if: getuid() == 0)) func aProviderFillsItsContainerOnlyUpToTheDiskLimit() throws {
    let setting = try Setting()
    setting.host.environment["TRANSLATION_HOST_LIMIT_DISK_MIB"] = "8"
    let info = try setting.host.run("info", setting.identifier)
    #expect(info.stdout.contains("disk-budget"), "\(info.stdout)")
    #expect(info.stdout.contains("at most 8 MiB (TRANSLATION_HOST_LIMIT_DISK_MIB), within a run too"), "\(info.stdout)")
    let result = try setting.press("fill 64", provider: setting.identifier)
    #expect(result.stdout.hasPrefix("CONTAINED"), "\(result.stdout) \(result.stderr)")
    #expect(result.stdout.contains("view:nosuid,nodev,8 MiB"), "\(result.stdout)")
    #expect(result.stdout.contains(", then ENOSPC"), "\(result.stdout)")
    let container = setting.container(setting.identifier)
    let used = Self.measured(container)
    // The limit, and no slack: the view counts as the host measures.
    #expect(used <= 8 << 20, "the container holds \(used) bytes")
    #expect(used > 7 << 20, "the container holds only \(used) bytes")
    #expect(
      result.stderr.contains("filled its container \(container) up to its limit of 8 MiB (TRANSLATION_HOST_LIMIT_DISK_MIB)"),
      "\(result.stderr)")
    let chosen = try setting.host.run("set-default", setting.identifier)
    #expect(chosen.exitCode == 0, "\(chosen.stderr)")
    // Full, not over: it starts again (its first file put aside, so that it
    // cannot make room by truncating it), and what is removed frees room.
    try FileManager.default.moveItem(atPath: container + "/fill-0", toPath: container + "/aside")
    let again = try setting.press("fill 1", provider: setting.identifier)
    #expect(again.stdout.contains("fill: 0 MiB, then ENOSPC"), "\(again.stdout) \(again.stderr)")
    try FileManager.default.removeItem(atPath: container + "/aside")
    let freed = try setting.press("fill 1", provider: setting.identifier)
    #expect(freed.stdout.hasPrefix("ESCAPED wrote 1 files"), "one file fits again: \(freed.stdout) \(freed.stderr)")
  }

  /// Whether /dev/fuse is closed to users other than its owner (mode 0600
  /// here; Debian's default is 0666).
  static let fuseIsClosedToOthers: Bool = {
    var status = stat()
    return stat("/dev/fuse", &status) == 0 && status.st_mode & 0o006 == 0
  }()

  /// Runs the built CLI as uid 65534 with a home of its own (`home`, made
  /// its), the escaping provider's folder first in its search path; with
  /// `openFuse`, in a mount namespace of its own where /dev/fuse is a node
  /// of mode 0666 (Debian's default), as this machine's is 0600.
  static func runAsNobody(
    _ setting: Setting, home: TemporaryDirectory, openFuse: Bool, _ arguments: [String]
  ) throws -> Command.Result {
    #expect(chown(home.path, 65534, 65534) == 0)
    let environment = [
      "PATH": "/usr/bin:/bin", "HOME": home.path, "XDG_DATA_HOME": home.path + "/data",
      "XDG_CONFIG_HOME": home.path + "/config", "XDG_CACHE_HOME": home.path + "/cache",
      "TRANSLATION_HOST_PROVIDER_PATH": setting.providers, "TRANSLATION_HOST_LIMIT_DISK_MIB": "8",
    ]
    let command = ["/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", Host.executable] + arguments
    guard openFuse else { return try Command.run(command[0], Array(command.dropFirst()), environment: environment) }
    let node = setting.folder.path + "/fuse"
    let script = "mknod \"$0\" c 10 229 && chmod 0666 \"$0\" && mount --bind \"$0\" /dev/fuse && shift && exec \"$@\""
    return try Command.run(
      "/usr/bin/unshare", ["--mount", "--propagation", "private", "/bin/sh", "-c", script, node, "-"] + command,
      environment: environment)
  }

  /// Where /dev/fuse is open to every user (Debian's default), the view
  /// holds for a provider run by an unprivileged user too: the runner opens
  /// /dev/fuse in its own user namespace and mounts the view there.
  @Test(.enabled(if: getuid() == 0)) func anUnprivilegedProvidersContainerIsBoundedToo() throws {
    let setting = try Setting()
    let home = try TemporaryDirectory()
    let result = try Self.runAsNobody(
      setting, home: home, openFuse: true,
      ["run", "--text", "fill 64", "--replace", "--press", "Go", "--provider", setting.identifier])
    #expect(result.stdout.hasPrefix("CONTAINED"), "\(result.stdout) \(result.stderr)")
    #expect(result.stdout.contains("view:nosuid,nodev,8 MiB"), "\(result.stdout)")
    #expect(result.stdout.contains(", then ENOSPC"), "\(result.stdout)")
    let used = Self.measured(home.path + "/data/translation-host/containers/" + setting.identifier)
    #expect(used <= 8 << 20 && used > 7 << 20, "the container holds \(used) bytes")
  }

  /// Where /dev/fuse cannot be opened, there is no view: the container is
  /// bound as it is, bounded only per file and between runs, and `info`
  /// says so rather than nothing. Run as uid 65534 with a home of its own.
  @Test(.enabled(if: getuid() == 0 && fuseIsClosedToOthers)) func withoutDevFuseInfoSaysWhatBoundsTheContainer() throws {
    let setting = try Setting()
    let home = try TemporaryDirectory()
    let result = try Self.runAsNobody(setting, home: home, openFuse: false, ["info", setting.identifier])
    #expect(result.exitCode == 0, "\(result.stderr)")
    #expect(result.stdout.contains("no-capabilities"), "the sandbox was probed: \(result.stdout)")
    #expect(!result.stdout.contains("disk-budget"), "\(result.stdout)")
    #expect(result.stdout.contains("each file at most 8 MiB; within a run its container can fill the file system"))
    #expect(result.stdout.contains("/dev/fuse cannot be opened here"), "\(result.stdout)")
  }

  /// What a provider wrote before it was killed is in its container: the
  /// view passes each write through to the real file before it returns.
  @Test(.enabled(if: getuid() == 0)) func aFileWrittenBeforeAKillIsKept() throws {
    let setting = try Setting()
    let result = try setting.press("keep 512", provider: setting.identifier)
    #expect(result.exitCode != 0 && result.stderr.contains("SIGKILL"), "\(result.stdout) \(result.stderr)")
    let kept = try #require(FileManager.default.contents(atPath: setting.container(setting.identifier) + "/kept"))
    #expect(kept.count == 512 * 1024)
    let expected = (0..<512).flatMap { i in (0..<1024).map { j in UInt8(ascii: "a") + UInt8((i + j) % 26) } }
    #expect(kept == Data(expected), "the file holds other bytes than were written")
  }

  /// Through the view, a symbolic link is followed in the sandbox's own
  /// view (read-only, the path outside is not there), and rename and hard
  /// links across its edge fail: checked from outside, the file outside is
  /// unchanged and nothing new is beside it or beside the container.
  @Test func linksThroughTheContainerReachNothingOutside() throws {
    let setting = try Setting()
    let outside = setting.folder.path + "/outside"
    try "secret\n".write(toFile: outside, atomically: false, encoding: .utf8)
    let result = try setting.press("links \(outside)", provider: setting.identifier)
    #expect(result.stdout.hasPrefix("CONTAINED"), "\(result.stdout) \(result.stderr)")
    #expect(try String(contentsOfFile: outside, encoding: .utf8) == "secret\n")
    let beside = try FileManager.default.contentsOfDirectory(atPath: setting.folder.path)
    #expect(beside.filter { $0.hasPrefix("outside") } == ["outside"], "\(beside)")
    let containers = (setting.container(setting.identifier) as NSString).deletingLastPathComponent
    #expect(!FileManager.default.fileExists(atPath: containers + "/escaped"))
    #expect(FileManager.default.fileExists(atPath: setting.container(setting.identifier) + "/mine"))
  }

  /// A container over the disk limit (here filled from outside, as a run
  /// without the view leaves it) is measured before the start: the provider
  /// is not started, the error names the folder and the limit, and it starts
  /// again once the folder holds less. Without the view a single file still
  /// stops at the limit (RLIMIT_FSIZE, EFBIG).
  @Test func aContainerOverTheDiskLimitIsNotStartedAgain() throws {
    let setting = try Setting()
    setting.host.environment["TRANSLATION_HOST_LIMIT_DISK_MIB"] = "8"
    let viewed = try Self.hasDiskBudget(setting)
    let result = try setting.press("disk 4", provider: setting.identifier)
    #expect(result.stdout.contains("one file: 4 MiB"), "\(result.stdout) \(result.stderr)")
    let container = setting.container(setting.identifier)
    let filler = String(repeating: "x", count: 1 << 20)
    for index in 0..<16 { try filler.write(toFile: container + "/outside-\(index)", atomically: false, encoding: .utf8) }
    let again = try setting.press("environment", provider: setting.identifier)
    #expect(again.exitCode != 0 && again.stdout.isEmpty)
    #expect(again.stderr.contains("container '\(container)'"), "\(again.stderr)")
    #expect(again.stderr.contains("over its limit of 8 MiB"), "\(again.stderr)")
    for name in try FileManager.default.contentsOfDirectory(atPath: container) where name.hasPrefix("outside-") {
      try FileManager.default.removeItem(atPath: container + "/" + name)
    }
    let cleared = try setting.press("environment", provider: setting.identifier)
    #expect(cleared.stdout.hasPrefix("CONTAINED"), "\(cleared.stdout) \(cleared.stderr)")
    if !viewed {
      let big = try setting.press("disk 16", provider: setting.identifier)
      #expect(big.stdout.contains("one file: 8 MiB, then EFBIG"), "\(big.stdout) \(big.stderr)")
    }
  }

  // MARK: 9. Root's fork bomb

  /// The kernel exempts root from RLIMIT_NPROC: a provider run by root
  /// could start processes until the machine's pid_max. With the task limit
  /// at 64 it is stopped near 64 (by the runner's control group where one
  /// can be made, by RLIMIT_NPROC in its user namespace otherwise); checked
  /// from outside by the machine's task count (/proc/loadavg) during the run.
  @Test func aForkBombIsBoundedForRootToo() throws {
    let setting = try Setting()
    setting.host.environment["TRANSLATION_HOST_LIMIT_PROCESSES"] = "64"
    let sampler = TaskCountSampler()
    let result = try setting.press("fork 2000", provider: setting.identifier)
    let (baseline, peak) = sampler.stop()
    #expect(result.exitCode == 0, "\(result.stderr)")
    #expect(result.stdout.hasPrefix("CONTAINED fork:EAGAIN after"), "\(result.stdout) \(result.stderr)")
    let started = Int(result.stdout.split(separator: " ").last ?? "") ?? .max
    #expect(started < 64, "\(result.stdout)")
    // 2000 processes would have shown; the other tasks of a busy machine come and go.
    #expect(peak - baseline < 1000, "the machine's tasks went from \(baseline) to \(peak)")
    if getuid() == 0 && access("/sys/fs/cgroup/pids", W_OK) == 0 {
      let info = try setting.host.run("info", setting.identifier)
      #expect(info.stdout.contains("task-group"), "\(info.stdout)")
    }
  }

  /// Where root's runner can make no control group (here: a mount
  /// namespace of the test's with an empty /sys/fs/cgroup), root's fork bomb
  /// was bounded only by the machine's pid_max: root is exempt from
  /// RLIMIT_NPROC. Now the provider runs as nobody (its container shown as
  /// nobody's through the size-limited view), and fork gets EAGAIN before 64.
  @Test(.enabled(if: getuid() == 0)) func aForkBombIsBoundedForRootWithoutAControlGroupToo() throws {
    let setting = try Setting()
    setting.host.environment["TRANSLATION_HOST_LIMIT_PROCESSES"] = "64"
    let withoutGroups = [
      "--mount", "--propagation", "private", "/bin/sh", "-c",
      "mount -t tmpfs none /sys/fs/cgroup && exec \"$@\"", "-", Host.executable,
    ]
    let info = try setting.host.run(program: "/usr/bin/unshare", withoutGroups + ["info", setting.identifier])
    #expect(!info.stdout.contains("task-group"), "\(info.stdout)")
    #expect(info.stdout.contains("process-count") && info.stdout.contains("unprivileged-user"), "\(info.stdout)")
    let sampler = TaskCountSampler()
    let result = try setting.host.run(
      program: "/usr/bin/unshare",
      withoutGroups + ["run", "--text", "fork 2000", "--replace", "--press", "Go", "--provider", setting.identifier])
    let (baseline, peak) = sampler.stop()
    #expect(result.exitCode == 0, "\(result.stderr)")
    #expect(result.stdout.hasPrefix("CONTAINED fork:EAGAIN after"), "\(result.stdout) \(result.stderr)")
    let started = Int(result.stdout.split(separator: " ").last ?? "") ?? .max
    #expect(started < 64, "\(result.stdout)")
    #expect(peak - baseline < 1000, "the machine's tasks went from \(baseline) to \(peak)")
    // Its container still works: it wrote its settings there at init, as root's through the view.
    var status = stat()
    let seen = setting.container(setting.identifier) + "/settings-seen"
    #expect(lstat(seen, &status) == 0 && status.st_uid == 0, "\(seen)")
  }

  // MARK: 6. Memory files

  /// With the memory limit at 64 MiB, a memory file would hold far more:
  /// `memfd_create` is refused unless the manifest declares TPMemoryFiles.
  @Test(arguments: [false, true]) func memoryFilesNeedTheManifestsKey(_ declared: Bool) throws {
    let setting = try Setting()
    if declared {
      var fixture = BundleFixture(name: "Escape", identifier: setting.identifier)
      fixture.info["TPMemoryFiles"] = .boolean(true)
      try FileManager.default.removeItem(atPath: setting.installedBundle)
      let place = try TemporaryDirectory()
      let written = try fixture.write(name: "Escape", in: place, library: setting.library)
      try FileManager.default.moveItem(atPath: written, toPath: setting.installedBundle)
    }
    setting.host.environment["TRANSLATION_HOST_LIMIT_MEMORY_MIB"] = "64"
    let result = try setting.press("memfd 80", provider: setting.identifier)
    if declared {
      #expect(result.stdout == "ESCAPED held 80 MiB in a memory file", "\(result.stdout) \(result.stderr)")
      let info = try setting.host.run("info", setting.identifier)
      #expect(info.stdout.contains("memory files"), "\(info.stdout)")
    } else {
      #expect(result.stdout == "CONTAINED memfd_create:EPERM", "\(result.stdout) \(result.stderr)")
    }
  }

  /// With the memory limit at 64 MiB, files in $TMPDIR (the container's
  /// tmp, on disk before), /tmp and /dev/shm would hold far more: the three
  /// are folders of one tmpfs, whose size is the memory limit. Nothing of it
  /// reaches the disk.
  @Test func tmpFilesAreBoundedByTheMemoryLimit() throws {
    let setting = try Setting()
    setting.host.environment["TRANSLATION_HOST_LIMIT_MEMORY_MIB"] = "64"
    let result = try setting.press("tmp-files 192", provider: setting.identifier)
    #expect(result.stdout.hasPrefix("CONTAINED"), "\(result.stdout) \(result.stderr)")
    #expect(result.stdout.contains("ENOSPC"), "\(result.stdout)")
    let tmp = setting.container(setting.identifier) + "/tmp"
    #expect(try FileManager.default.contentsOfDirectory(atPath: tmp) == [])
  }

  /// The container's `tmp`, where the scratch space is bound, as the next
  /// start finds it after a run removed it or made it a link to a folder
  /// outside (the runner opens it before it would make it, each look-up a
  /// round trip to the view's server): missing, it is made again and the
  /// scratch space is bound there; a link, the start is refused naming it,
  /// and nothing reaches the folder it points to.
  @Test(arguments: ["missing", "link"]) func theContainersTmpIsCheckedAtEachStart(_ shape: String) throws {
    let setting = try Setting()
    let first = try setting.press("tmp-files 3", provider: setting.identifier)
    // Under the memory limit: held, and gone with the run (the fixture calls that escaped).
    #expect(first.stdout.hasSuffix("held 3 MiB in tmp files"), "\(first.stdout) \(first.stderr)")
    let tmp = setting.container(setting.identifier) + "/tmp"
    try FileManager.default.removeItem(atPath: tmp)
    let outside = try TemporaryDirectory()
    if shape == "link" { #expect(symlink(outside.path, tmp) == 0) }
    let again = try setting.press("tmp-files 3", provider: setting.identifier)
    if shape == "link" {
      #expect(again.exitCode != 0 && again.stdout.isEmpty, "\(again.stdout)")
      #expect(again.stderr.contains("binding the scratch space at \(tmp)"), "\(again.stderr)")
      var status = stat()
      #expect(lstat(tmp, &status) == 0 && status.st_mode & S_IFMT == S_IFLNK)
    } else {
      #expect(again.stdout.hasSuffix("held 3 MiB in tmp files"), "\(again.stdout) \(again.stderr)")
      #expect(try FileManager.default.contentsOfDirectory(atPath: tmp) == [])
    }
    #expect(try FileManager.default.contentsOfDirectory(atPath: outside.path) == [])
  }

  // MARK: 5. Abstract sockets with the network key

  /// A provider with the network key is in a network namespace of its own,
  /// reached through pasta: the machine's loopback services still answer it,
  /// but an abstract socket of the machine (the X server's, the session
  /// bus's) does not exist for it, whatever the kernel's Landlock can scope.
  @Test func aNetworkProviderReachesTheNetworkButNoAbstractSocket() throws {
    let setting = try Setting()
    try setting.grantNetworkToInstalledBundle()
    let display = try UnixListener("@/tmp/.X11-unix/X\(UniqueName.make("9"))")
    let bus = try UnixListener("@" + UniqueName.make("dbus-session"))
    let tcp = try Listener()
    for listener in [display, bus] {
      let result = try setting.press("connect \(listener.address)", provider: setting.identifier)
      #expect(result.stdout == "CONTAINED connect:ECONNREFUSED", "\(result.stdout) \(result.stderr)")
      #expect(!listener.acceptedConnection())
    }
    let network = try setting.press("setns \(tcp.port)", provider: setting.identifier)
    // (The listener may not hold the connection any more: pasta ends with the runner, at once.)
    #expect(network.stdout.hasPrefix("ESCAPED connected to 127.0.0.1:\(tcp.port)"), "\(network.stdout) \(network.stderr)")
    let info = try setting.host.run("info", setting.identifier)
    #expect(info.stdout.contains("user-mode-network"), "\(info.stdout)")
  }

  /// The same on a kernel without Landlock's abstract-socket scoping (as
  /// Debian 12's 6.1): the namespace alone keeps the display out.
  @Test func withoutLandlockANetworkProviderStillReachesNoAbstractSocket() throws {
    let setting = try Setting()
    try setting.grantNetworkToInstalledBundle()
    let wrapper = try CFixture.compileProgram(
      Self.fixtures + "/deny_landlock.c", libraries: ["seccomp"], name: "deny_landlock", in: setting.folder)
    let display = try UnixListener("@/tmp/.X11-unix/X\(UniqueName.make("9"))")
    let result = try Command.run(
      wrapper,
      [
        Host.executable, "run", "--text", "connect \(display.address)", "--replace", "--press", "Go", "--provider",
        setting.identifier,
      ],
      environment: setting.host.environment)
    #expect(result.stdout == "CONTAINED connect:ECONNREFUSED", "\(result.stdout) \(result.stderr)")
    #expect(!display.acceptedConnection())
    let info = try Command.run(wrapper, [Host.executable, "info", setting.identifier], environment: setting.host.environment)
    #expect(!info.stdout.contains("landlock") && info.stdout.contains("user-mode-network"), "\(info.stdout)")
  }

  // MARK: 3. TPReadOnlyPaths

  /// What a manifest may ask to read is judged by where it resolves: a
  /// backup of the password hashes, the logs, a user's home and the runtime
  /// folder are refused at install, named in one line each.
  @Test(arguments: [
    ("/etc/shadow-", "is a file no provider may read"),
    ("/etc/gshadow-", "is a file no provider may read"),
    ("/var/log", "must not lie below /var/log"),
    ("/var/run/dbus", "must not lie below /var/run"),
    ("/var/lib", "holds /var/lib/sudo"),
  ])
  func aBundleCannotAskToReadSecrets(_ path: String, _ reason: String) throws {
    let setting = try Setting()
    var fixture = BundleFixture(name: "Reader", identifier: UniqueName.make("org.example.reader"))
    fixture.info["TPReadOnlyPaths"] = .array([.string(path)])
    let place = try TemporaryDirectory()
    let bundle = try fixture.write(name: "Reader", in: place, library: setting.library)
    let install = try setting.host.run("install", bundle)
    #expect(install.exitCode != 0)
    #expect(install.stderr.contains("key 'TPReadOnlyPaths[0]' has the value '\(path)', which \(reason)"), "\(install.stderr)")
  }

  /// What a bundle asks to read is said at install.
  @Test func installSaysWhatABundleReads() throws {
    let setting = try Setting()
    var fixture = BundleFixture(name: "Reader", identifier: UniqueName.make("org.example.reader"))
    fixture.info["TPReadOnlyPaths"] = .array([.string("/etc/apt")])
    let place = try TemporaryDirectory()
    let bundle = try fixture.write(name: "Reader", in: place, library: setting.library)
    let install = try setting.host.run("install", bundle)
    #expect(install.exitCode == 0, "\(install.stderr)")
    #expect(install.stderr.contains("it reads /etc/apt besides its bundle and the system"), "\(install.stderr)")
  }

  // MARK: Signed bundles

  /// A minisign key pair without a password, in `folder`.
  static func keyPair(_ name: String, in folder: TemporaryDirectory) throws -> (secret: String, public: String) {
    let secret = folder.path + "/\(name).key"
    let publicKey = folder.path + "/\(name).pub"
    let made = try Command.run("/usr/bin/minisign", ["-G", "-W", "-p", publicKey, "-s", secret], environment: [:])
    #expect(made.exitCode == 0, "\(made.stderr)")
    return (secret, publicKey)
  }

  /// A copy of the escaping provider's bundle with `identifier`, in a folder of its own.
  static func copy(of setting: Setting, identifier: String) throws -> String {
    let place = setting.folder.path + "/copy-" + UniqueName.make("c")
    try FileManager.default.createDirectory(
      atPath: place, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o755])
    let scratch = try TemporaryDirectory()
    let written = try BundleFixture(name: "Signed", identifier: identifier).write(
      name: "Signed", in: scratch, library: setting.library)
    try FileManager.default.moveItem(atPath: written, toPath: place + "/Signed.translationprovider")
    return place + "/Signed.translationprovider"
  }

  /// The first signed copy installed pins its identifier to its key; a later
  /// copy signed by another key, or unsigned, is refused naming both; a
  /// signed file changed afterwards fails `verify`.
  @Test func anIdentifierIsPinnedToTheKeyOfItsFirstSignedCopy() throws {
    let setting = try Setting()
    let keys = try TemporaryDirectory()
    let author = try Self.keyPair("author", in: keys)
    let stranger = try Self.keyPair("stranger", in: keys)
    let identifier = UniqueName.make("org.example.signed")
    let first = try Self.copy(of: setting, identifier: identifier)
    let signed = try setting.host.run("sign", first, "--secret-key", author.secret, "--public-key", author.public)
    #expect(signed.exitCode == 0, "\(signed.stderr)")
    let authorID = try #require(signed.stdout.split(separator: " ").dropFirst(4).first.map { String($0.dropLast()) })
    #expect(signed.stdout.hasPrefix("signed \(identifier) with key "), "\(signed.stdout)")
    let verified = try setting.host.run("verify", first)
    #expect(
      verified.stdout == "\(identifier): signed by key \(authorID), not pinned yet\n", "\(verified.stdout) \(verified.stderr)")

    let install = try setting.host.run("install", first)
    #expect(install.exitCode == 0, "\(install.stderr)")
    #expect(install.stderr.contains("now pinned to key \(authorID)"), "\(install.stderr)")
    let list = try setting.host.run("list")
    #expect(list.stdout.contains("(signed, pinned)"), "\(list.stdout)")
    let info = try setting.host.run("info", identifier)
    #expect(info.stdout.contains("signed by key \(authorID), verified"), "\(info.stdout)")

    // The same identifier signed by another key, under the same folder name (an "update").
    let forged = try Self.copy(of: setting, identifier: identifier)
    _ = try setting.host.run("sign", forged, "--secret-key", stranger.secret, "--public-key", stranger.public)
    let other = try setting.host.run("install", forged)
    #expect(other.exitCode != 0)
    #expect(other.stderr.contains("is pinned to key \(authorID)") && other.stderr.contains("signed by key "), "\(other.stderr)")
    // Unsigned.
    let unsigned = try Self.copy(of: setting, identifier: identifier)
    let plain = try setting.host.run("install", unsigned)
    #expect(plain.exitCode != 0)
    #expect(plain.stderr.contains("is unsigned, but '\(identifier)' is pinned to key \(authorID)"), "\(plain.stderr)")

    // A signed file changed after signing.
    let tampered = try Self.copy(of: setting, identifier: identifier)
    _ = try setting.host.run("sign", tampered, "--secret-key", author.secret, "--public-key", author.public)
    let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: tampered + "/libSigned.so"))
    try handle.seekToEnd()
    try handle.write(contentsOf: Data("x".utf8))
    try handle.close()
    let check = try setting.host.run("verify", tampered)
    #expect(check.exitCode == 69, "\(check.stdout) \(check.stderr)")
    #expect(
      check.stderr.contains("libSigned.so: its signature does not verify with the bundle's key \(authorID)"), "\(check.stderr)")
    #expect(try setting.host.run("install", tampered).exitCode != 0)
  }

  // MARK: Secrets

  /// The escaping provider, installed with a secret setting "token".
  static func withSecretSetting(_ setting: Setting) throws {
    var fixture = BundleFixture(name: "Escape", identifier: setting.identifier)
    fixture.info["TPSettings"] = .array([
      .dictionary([
        "Key": .string("token"), "Title": .string("API token"), "Type": .string("string"), "Default": .string(""),
        "Secret": .boolean(true),
      ])
    ])
    try FileManager.default.removeItem(atPath: setting.installedBundle)
    let place = try TemporaryDirectory()
    let written = try fixture.write(name: "Escape", in: place, library: setting.library)
    try FileManager.default.moveItem(atPath: written, toPath: setting.installedBundle)
  }

  /// A secret setting goes to the user's keyring (gnome-keyring on a
  /// private session bus), never to the settings file; the provider that
  /// holds the identifier is handed it, an impostor is not; config clears it.
  @Test func aSecretSettingLivesInTheKeyringAndReachesOnlyItsProvider() throws {
    let setting = try Setting()
    try Self.withSecretSetting(setting)
    let impostor = try setting.impostor(identifier: setting.identifier, settings: ["token"])
    let runtime = setting.folder.path + "/run"
    try FileManager.default.createDirectory(
      atPath: runtime, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    var environment = setting.host.environment
    environment["XDG_RUNTIME_DIR"] = runtime
    let host = Host.executable
    let id = setting.identifier
    let script = """
      echo password | gnome-keyring-daemon --unlock --components=secrets > /dev/null 2>&1
      '\(host)' config \(id) token 's3cret-token' || echo "config failed"
      echo "keyring: $(secret-tool lookup provider \(id) signer unsigned setting token)"
      '\(host)' run --provider \(id) --text environment --replace --press Go > /dev/null
      echo "seen: $(cat '\(setting.container(id))/settings-seen')"
      rm -f '\(setting.container(id))/settings-seen'
      '\(host)' run --provider '\(impostor)' --text environment --replace --press Go > /dev/null 2>&1 || echo "impostor refused"
      '\(host)' validate '\(impostor)' > /dev/null 2>&1
      [ -e '\(setting.container(id))/settings-seen' ] && echo "impostor saw: $(cat '\(setting.container(id))/settings-seen')"
      '\(host)' config \(id)
      '\(host)' config \(id) --clear token
      secret-tool lookup provider \(id) signer unsigned setting token || echo "cleared"
      """
    let result = try Command.run(
      "/usr/bin/dbus-run-session", ["--", "/bin/bash", "-c", script], environment: environment)
    let lines = result.stdout.split(separator: "\n").map(String.init)
    #expect(!lines.contains("config failed"), "\(result.stdout) \(result.stderr)")
    #expect(lines.contains("keyring: s3cret-token"), "\(result.stdout) \(result.stderr)")
    #expect(lines.contains(#"seen: {"token":"s3cret-token"}"#), "\(result.stdout)")
    #expect(lines.contains("impostor refused"), "\(result.stdout)")
    #expect(!lines.contains { $0.hasPrefix("impostor saw") && $0.contains("s3cret") }, "\(result.stdout)")
    #expect(lines.contains { $0.hasPrefix("token = (set, in your keyring)") }, "\(result.stdout)")
    #expect(lines.contains("cleared"), "\(result.stdout)")
    #expect(!result.stdout.contains("s3cret-token\n") || lines.contains("keyring: s3cret-token"))
    let settingsFile = setting.host.home.path + "/config/translation-host/settings/\(id).json"
    let file = (try? String(contentsOfFile: settingsFile, encoding: .utf8)) ?? ""
    #expect(!file.contains("s3cret"), "\(file)")
  }

  /// Without a keyring, a secret cannot be set: a clear error, nothing in a file.
  @Test func withoutAKeyringASecretIsNotWrittenAnywhere() throws {
    let setting = try Setting()
    try Self.withSecretSetting(setting)
    setting.host.environment["DBUS_SESSION_BUS_ADDRESS"] = "unix:path=" + setting.folder.path + "/no-bus"
    let result = try setting.host.run("config", setting.identifier, "token", "s3cret-token")
    #expect(result.exitCode != 0)
    #expect(
      result.stderr.contains("is a secret, kept only in your Secret Service keyring, which cannot be used"),
      "\(result.stderr)")
    let settings = setting.host.home.path + "/config/translation-host/settings"
    let files = (try? FileManager.default.contentsOfDirectory(atPath: settings)) ?? []
    for file in files {
      #expect(!((try? String(contentsOfFile: settings + "/" + file, encoding: .utf8)) ?? "").contains("s3cret"))
    }
  }
}

/// The machine's task count (the total of /proc/loadavg), read every 5 ms on
/// a thread of its own from creation until `stop`.
final class TaskCountSampler: @unchecked Sendable {
  private let lock = NSLock()
  private var running = true
  private var peak = 0
  let baseline: Int
  private var thread: Thread?

  init() {
    baseline = Self.tasks()
    peak = baseline
    let thread = Thread { [self] in
      while lock.withLock({ running }) {
        let now = Self.tasks()
        lock.withLock { peak = max(peak, now) }
        usleep(5_000)
      }
    }
    self.thread = thread
    thread.start()
  }

  /// Stops sampling; the count before and the highest seen.
  func stop() -> (baseline: Int, peak: Int) {
    lock.withLock { running = false }
    usleep(20_000)
    return (baseline, lock.withLock { peak })
  }

  static func tasks() -> Int {
    let text = (try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8)) ?? ""
    let field = text.split(separator: " ").dropFirst(3).first ?? ""
    return Int(field.split(separator: "/").last ?? "") ?? 0
  }
}
