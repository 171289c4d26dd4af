import FoundationEssentials
import TestSupport
import Testing

/// What a provider author meets: an iOS extension ported as it is, a
/// provider that forgets to escape its JSON, packages from `new-provider`,
/// the ABI header through pkg-config.
@Suite(.tags(.endToEnd)) struct ProviderAuthoringTests {
  /// `Examples/Glossary`, laid out by `make build`: a port of an iOS
  /// extension (a struct entry point, `DispatchQueue.main.async`, `await
  /// MainActor.run`, `.task`, `.onAppear`, `.padding`, `ForEach`, `@Observable`).
  static let glossary = Host.buildDirectory + "/examples/Glossary.translationprovider"

  /// The environment of a build a test starts: the host's, with the
  /// tools' temporary folder, where swift leaves what it never removes.
  private func buildEnvironment(_ host: Host) -> [String: String] {
    var environment = host.environment
    environment["TMPDIR"] = ProcessInfo.processInfo.environment["TMPDIR"] ?? "/tmp"
    return environment
  }

  @Test func anIOSExtensionPortRunsHeadless() throws {
    // The press waits while the scene shows its progress indicator: the
    // words come back on the main actor, between the host's requests.
    let result = try Host().run(
      "run", "--provider", Self.glossary, "--headless", "--replace", "--text", "The cat is on the table.",
      "--press", "Replace with Translation")
    #expect(result.stdout == "el gato es en el mesa")
    #expect(result.exitCode == 0, "\(result.stderr)")
  }

  /// The port passes `validate` (its Replace, enabled by `.task`, is
  /// pressed on every text) and `run --press` waits for its task.
  @Test func anIOSExtensionPortPassesValidate() throws {
    let result = try Host().run("validate", Self.glossary)
    #expect(result.exitCode == 0, "\(result.stdout)")
    #expect(
      result.stdout.contains("ok    scene on quotes: pressed 'Cancel', 'Replace with Translation'"), "\(result.stdout)")
    #expect(!result.stdout.contains("never became enabled"), "\(result.stdout)")
  }

  /// Apple's sample enables Replace whenever replacement is allowed, before
  /// anything was translated: pressing it first would write an empty
  /// replacement, which the host refuses to do silently.
  @Test func anEmptyReplacementIsNeverWrittenSilently() throws {
    let result = try Host().run(
      "run", "--provider", "Reverse", "--headless", "--replace", "--text", "Hallo", "--press", "Replace With Translation")
    #expect(result.stdout == "")
    #expect(result.exitCode == 70, "\(result.stderr)")
    #expect(
      result.stderr.contains(
        "finished with an empty replacement after 'Replace With Translation' was pressed, for a text that was not empty; nothing was written"
      ), "\(result.stderr)")
    let translated = try Host().run(
      "run", "--provider", "Reverse", "--headless", "--replace", "--text", "Hallo", "--press", "Translate", "--press",
      "Replace With Translation")
    #expect(translated.stdout == "ollaH", "\(translated.stderr)")
  }

  @Test func anIOSExtensionPortRunsInThePopover() throws {
    let host = try Host()
    var environment = host.environment
    environment["TERM"] = "xterm-256color"
    environment["LANG"] = "C.UTF-8"
    let terminal = try TerminalSession(
      [Host.executable, "run", "--provider", Self.glossary, "--replace", "--from", "en"], environment: environment,
      stdin: "Good morning, world\n", rows: 24, columns: 80, stdoutOnTerminal: false, keeping: [host])
    // `.onAppear` counted the words on a global queue and published the count with DispatchQueue.main.async,
    // `.task` looked them up off the main actor: both reach the screen without a key pressed.
    let screen = try terminal.waitFor("mundo")
    #expect(screen.contains("Good"))
    #expect(screen.contains("bueno"))
    #expect(screen.contains("[ Replace with Translation ]"))
    try terminal.press("Tab", "Enter")
    let outcome = try terminal.waitForExit()
    #expect(outcome.exitCode == 0)
    #expect(outcome.stdout == "bueno mañana mundo\n")
    #expect(outcome.terminalRestored)
  }

  @Test func validateCatchesAProviderThatDoesNotEscapeItsJSON() throws {
    let folder = try TemporaryDirectory()
    let library = try CFixture.compile(
      CFixture.packageRoot + "/Tests/Fixtures/careless_provider.c", abi: .v2, name: "libCareless", in: folder)
    let bundle = try BundleFixture(name: "Careless").write(name: "Careless", in: folder, library: library)
    // On the sample text it renders, so a single look would pass it.
    let result = try Host().run("validate", bundle)
    #expect(result.stdout.contains("ok    scene renders on 'Hello, world!'; buttons: 'Go'"), "\(result.stdout)")
    #expect(
      result.stdout.contains(
        "FAIL  scene on quotes: opening the scene: provider 'org.example.careless' drew an unusable view: view tree is not JSON at byte 82: expected ',' or '}' in an object, near "
      ), "\(result.stdout)")
    #expect(result.stdout.contains("FAIL  scene on newlines and tabs: opening the scene:"))
    #expect(result.stdout.contains("ok    scene on emoji and other scripts: pressed 'Go', 0 text fields edited"))
    #expect(result.exitCode == 69)
  }

  /// What lv2lint and clap-validator catch: a table for an id the provider
  /// cannot know, a symbol exported besides the entry; and one failure on
  /// several texts said once, with the count.
  @Test func validateCatchesSloppyTablesAndSaysEachFailureOnce() throws {
    let folder = try TemporaryDirectory()
    let library = try CFixture.compile(
      CFixture.packageRoot + "/Tests/Fixtures/careless_provider.c", defines: ["SLOPPY_TABLES"], abi: .v2,
      name: "libSloppy", in: folder)
    let bundle = try BundleFixture(name: "Sloppy").write(name: "Sloppy", in: folder, library: library)
    let result = try Host().run("validate", bundle)
    #expect(
      result.stdout.contains(
        "FAIL  get_capability answered a table for 'tp.translation-host.unknown-capability-probe/1', an id it cannot know"),
      "\(result.stdout)")
    #expect(result.stdout.contains("warn  exports 1 C symbol besides its entry points ('careless_helper')"), "\(result.stdout)")
    let sceneLines = result.stdout.split(separator: "\n").filter { $0.contains("scene on ") }
    #expect(Set(sceneLines).count == sceneLines.count, "\(result.stdout)")
    #expect(result.exitCode == 69)
    let clean = try Host().run("validate", Host.providers + "/Rot13.translationprovider")
    #expect(
      clean.stdout.contains("ok    exports no C symbol besides its entry points (translation_provider_entry_v2)"),
      "\(clean.stdout)")
  }

  @Test func aSceneThatStaysBusySaysWhatTheHostWaitedFor() throws {
    let folder = try TemporaryDirectory()
    let library = try CFixture.compile(
      CFixture.packageRoot + "/Tests/Fixtures/careless_provider.c", defines: ["STAYS_BUSY"], abi: .v2,
      name: "libBusy", in: folder)
    let bundle = try BundleFixture(name: "Busy").write(name: "Busy", in: folder, library: library)
    let result = try Host().run("run", "--provider", bundle, "--headless", "--text", "x", "--timeout", "1", "--press", "Go")
    #expect(result.exitCode == 75)
    #expect(
      result.stderr.contains(
        "still showed its progress indicator ('Translating') after 1 s: the host was waiting for it to draw again before pressing 'Go', and stopped it"
      ), "\(result.stderr)")
  }

  /// A bundle named by a relative path still gets an absolute `bundle_path`.
  @Test func aRelativeBundlePathReachesTheProviderAbsolute() throws {
    let folder = try TemporaryDirectory()
    let library = try CFixture.compile(
      CFixture.packageRoot + "/Tests/Fixtures/careless_provider.c", defines: ["FINISHES_WITH_BUNDLE_PATH"], abi: .v2,
      name: "libPath", in: folder)
    _ = try BundleFixture(name: "Path").write(name: "Path", in: folder, library: library)
    let result = try Host().run(
      program: "/bin/sh",
      [
        "-c", "cd \"$1\" && exec \"$2\" run --provider ./Path.translationprovider --headless --replace --text x --press Go",
        "sh", folder.path, Host.executable,
      ])
    #expect(result.stdout == folder.path + "/Path.translationprovider", "\(result.stderr)")
  }

  /// `new-provider --c`, built as its Makefile says: the header from an
  /// installed prefix (`make install` into a temporary DESTDIR) through pkg-config.
  @Test func aNewCProviderBuildsWithPkgConfigAgainstAnInstalledHeader() throws {
    let host = try Host()
    let folder = try TemporaryDirectory()
    let created = try host.run("new-provider", "Loud", "--c", folder.path + "/Loud")
    #expect(created.exitCode == 0, "\(created.stderr)")
    var environment = buildEnvironment(host)
    let root = folder.path + "/root"
    let install = try host.run(
      program: "/usr/bin/make", ["-s", "-C", CFixture.packageRoot, "install", "DESTDIR=\(root)", "PREFIX=/usr"])
    #expect(install.exitCode == 0, "\(install.stderr)")
    #expect(FileManager.default.fileExists(atPath: root + "/usr/include/translation-host/translation_provider.h"))
    environment["PKG_CONFIG_PATH"] = root + "/usr/lib/pkgconfig"
    environment["PKG_CONFIG_SYSROOT_DIR"] = root
    let cflags = try Command.run("/usr/bin/pkg-config", ["--cflags", "translation-provider"], environment: environment)
    #expect(cflags.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "-I\(root)/usr/include/translation-host")
    let built = try Command.run("/usr/bin/make", ["-s", "-C", folder.path + "/Loud"], environment: environment)
    #expect(built.exitCode == 0, "\(built.stderr)")
    let bundle = folder.path + "/Loud/build/Loud.translationprovider"
    let validated = try host.run("validate", bundle)
    #expect(validated.exitCode == 0, "\(validated.stdout)")
    #expect(
      try host.run("translate", "--provider", bundle, "--from", "en", "--to", "en-x-upper", "hi \"you\"").stdout == "HI \"YOU\"\n"
    )
  }

  /// `new-provider --swift`, built as its Makefile says, with a path
  /// dependency on this checkout (whose folder is not named translation-host).
  /// What it writes is built where swift's build folder is kept between
  /// runs of `make test` (`PackageBuildFolder`): the SDK is not compiled anew each time.
  @Test func aNewSwiftProviderBuildsAgainstTheSDK() throws {
    let host = try Host()
    let folder = try TemporaryDirectory()
    let created = try host.run("new-provider", "Loud", "--swift", folder.path + "/Loud", "--sdk", CFixture.packageRoot)
    #expect(created.exitCode == 0, "\(created.stderr)")
    let package = try PackageBuildFolder(name: "new-swift-provider")
    try package.replaceContents(with: folder.path + "/Loud")
    let built = try Command.run(
      "/usr/bin/make", ["-s", "-C", package.path, "CONFIG=debug"], environment: buildEnvironment(host))
    try #require(built.exitCode == 0, "\(built.stdout)\(built.stderr)")
    let bundle = package.path + "/build/Loud.translationprovider"
    let validated = try host.run("validate", bundle)
    #expect(validated.exitCode == 0, "\(validated.stdout)")
    let replaced = try host.run(
      "run", "--provider", bundle, "--headless", "--replace", "--text", "hello", "--press", "Replace with Translation")
    #expect(replaced.stdout == "HELLO")
  }

  @Test(arguments: [["Loud"], ["Loud", "--swift", "--c"], ["9lives", "--c"], ["Lo-ud", "--swift"]])
  func newProviderRefusesWhatItCannotWrite(_ arguments: [String]) throws {
    let result = try Host().run(["new-provider"] + arguments)
    #expect(result.exitCode == 64)
    #expect(result.stderr.hasPrefix("Error: "))
  }
}

/// The popover's side of a scene that stays busy.
@Suite(.tags(.endToEnd)) struct BusyPopoverTests {
  @Test func thePopoverSaysWhatItWaitedFor() throws {
    let host = try Host()
    let folder = try TemporaryDirectory()
    let library = try CFixture.compile(
      CFixture.packageRoot + "/Tests/Fixtures/careless_provider.c", defines: ["STAYS_BUSY"], abi: .v2,
      name: "libBusy", in: folder)
    let bundle = try BundleFixture(name: "Busy").write(name: "Busy", in: folder, library: library)
    var environment = host.environment
    environment["TERM"] = "xterm-256color"
    environment["LANG"] = "C.UTF-8"
    let terminal = try TerminalSession(
      [Host.executable, "run", "--provider", bundle, "--from", "en", "--timeout", "1"], environment: environment,
      stdin: "x", rows: 24, columns: 250, stdoutOnTerminal: false, keeping: [host])
    let outcome = try terminal.waitForExit()
    #expect(outcome.exitCode == 75)
    #expect(outcome.terminalRestored)
    #expect(try terminal.waitFor("still showed its progress indicator ('Translating') after 1 s").contains("Error: provider"))
  }
}
