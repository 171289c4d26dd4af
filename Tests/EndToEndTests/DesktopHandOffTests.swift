import FoundationEssentials
import Glibc
import TestSupport
import Testing

/// `translation-host` links no GTK, X11 or XTest; a command that needs the
/// desktop becomes `translation-host-desktop` (in libexec) with the same
/// process, arguments, environment and stdin, and says so clearly when it is
/// missing.
@Suite(.tags(.endToEnd)) struct DesktopHandOffTests {
  /// The shared libraries an ELF file asks the dynamic linker for (its NEEDED entries).
  static func neededLibraries(_ path: String) throws -> [String] {
    let result = try Command.run("/usr/bin/readelf", ["--dynamic", "--wide", path])
    try #require(result.exitCode == 0, "readelf: \(result.stderr)")
    return result.stdout.split(separator: "\n").filter { $0.contains("(NEEDED)") }.compactMap { line in
      line.split(separator: "[").last?.split(separator: "]").first.map(String.init)
    }
  }

  @Test(arguments: [
    ("bin/translation-host", "libgtk-4.so", false), ("bin/translation-host", "libX11.so", false),
    ("bin/translation-host", "libXtst.so", false), ("bin/translation-host", "libgdk_pixbuf-2.0.so", false),
    ("bin/translation-host", "libpango-1.0.so", false), ("bin/translation-host", "libcairo.so", false),
    ("bin/translation-host", "libgraphene-1.0.so", false),
    // What stays: the terminal popover and GIO (D-Bus, GNOME's keybinding).
    ("bin/translation-host", "libncursesw.so", true), ("bin/translation-host", "libgio-2.0.so", true),
    ("libexec/translation-host/translation-host-desktop", "libgtk-4.so", true),
    ("libexec/translation-host/translation-host-desktop", "libX11.so", true),
    ("libexec/translation-host/translation-host-desktop", "libXtst.so", true),
  ])
  func linksOnlyWhatItNeeds(program: String, library: String, needed: Bool) throws {
    let libraries = try Self.neededLibraries(Host.buildDirectory + "/" + program)
    try #require(libraries.contains { $0.hasPrefix("libc.so") }, "no NEEDED entries read: \(libraries)")
    #expect(libraries.contains { $0.hasPrefix(library) } == needed, "\(program) needs \(libraries)")
  }

  /// An app that links the `Translation` library (Examples/ReplaceSelection)
  /// loads neither GTK nor X11: its popover window is `translation-host-desktop`'s.
  @Test(arguments: ["libgtk-4.so", "libX11.so", "libXtst.so", "libgio-2.0.so"])
  func anAppLinkingTheLibraryLoadsNoDesktopLibrary(_ library: String) throws {
    let app = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().path + "/ReplaceSelection"
    let libraries = try Self.neededLibraries(app)
    try #require(libraries.contains { $0.hasPrefix("libc.so") }, "no NEEDED entries read: \(libraries)")
    #expect(!libraries.contains { $0.hasPrefix(library) }, "ReplaceSelection needs \(libraries)")
  }

  /// An installation of `translation-host` alone, in a folder of its own,
  /// with `desktop` (a script) as its `translation-host-desktop`, or none.
  struct Installation {
    let folder: TemporaryDirectory
    /// The folder as the tool sees itself in it (`/proc/self/exe`).
    let prefix: String
    var tool: String { prefix + "/bin/translation-host" }
    var desktop: String { prefix + "/libexec/translation-host/translation-host-desktop" }

    init(desktop script: String?) throws {
      folder = try TemporaryDirectory()
      prefix = URL(fileURLWithPath: folder.path).resolvingSymlinksInPath().path
      // Programs are written by `install`, not by this process: a file this
      // process has open for writing may be inherited by whatever another
      // test starts meanwhile, and a program open for writing cannot be run (ETXTBSY).
      try Self.install(Host.executable, as: tool)
      if let script { try Self.install(try folder.write("recorder.sh", script), as: desktop) }
    }

    private static func install(_ file: String, as path: String) throws {
      let result = try Command.run("/usr/bin/install", ["-D", "-m", "0755", file, path])
      try #require(result.exitCode == 0, "install: \(result.stderr)")
    }
  }

  /// Each command that needs the desktop, with what the person sees
  /// without a display (when that is decided before the desktop is needed).
  static let desktopCommands: [[String]] = [
    ["run", "--desktop", "--provider", "Reverse"],
    ["run", "--provider", "Reverse", "--from", "en", "--anchor", "10,20"],
    ["run", "--selection", "--replace", "--provider", "Reverse"],
    ["clipboard-hold"],
    ["shortcut", "install", "--desktop", "sway", "--key", "<Control><Alt>e"],
  ]

  /// A stand-in for translation-host-desktop that shows what it was given:
  /// its parent (the test, if it replaced translation-host rather than being
  /// started by it), arguments, a variable of the environment, and stdin.
  static let recorder = """
    #!/bin/sh
    printf 'parent=%s\\n' "$PPID"
    printf 'argument=%s\\n' "$0" "$@"
    printf 'variable=%s\\n' "$HANDOFF_VARIABLE"
    printf 'stdin=%s\\n' "$(cat)"
    exit 7

    """

  @Test(arguments: desktopCommands)
  func theDesktopCommandsBecomeTheDesktopProgram(arguments: [String]) throws {
    let installation = try Installation(desktop: Self.recorder)
    var host = try Host()
    host.environment["DISPLAY"] = ":7"
    host.environment["XDG_CURRENT_DESKTOP"] = "sway"
    host.environment["HANDOFF_VARIABLE"] = "a value with spaces"
    let result = try host.run(program: installation.tool, arguments, stdin: "line one\nline two\n")
    #expect(result.exitCode == 7, "\(result.stderr)")
    #expect(result.stderr == "")
    let expected =
      ["parent=\(getpid())", "argument=\(installation.desktop)"] + arguments.map { "argument=" + $0 }
      + ["variable=a value with spaces", "stdin=line one", "line two", ""]
    #expect(result.stdout == expected.joined(separator: "\n"))
  }

  @Test(arguments: desktopCommands)
  func aMissingDesktopProgramIsAnErrorNamingWhereItWasLookedFor(arguments: [String]) throws {
    let installation = try Installation(desktop: nil)
    var host = try Host()
    host.environment["DISPLAY"] = ":7"
    host.environment["XDG_CURRENT_DESKTOP"] = "sway"
    let result = try host.run(program: installation.tool, arguments, stdin: "Hello\n")
    #expect(result.exitCode == 1)
    #expect(result.stdout == "")
    #expect(
      result.stderr
        == "Error: cannot find translation-host-desktop, which shows the desktop popover (looked in \(installation.desktop), \(installation.prefix)/bin/translation-host-desktop); run 'make build' or 'make install' again, or pass --terminal\n"
    )
  }

  /// What needs no desktop works without translation-host-desktop.
  @Test(arguments: [
    (["shortcut", "remove", "--desktop", "sway"], "exec "),
    (["run", "--provider", "Reverse", "--replace", "--press", "Translate", "--press", "Replace With Translation"], "olleH"),
    (["run", "--headless", "--replace", "--provider", "Rot13", "--from", "en", "--to", "en-x-rot13"], "Uryyb"),
    (["--help"], "SUBCOMMANDS:"),
    (["list"], "Reverse"),
  ])
  func theOtherCommandsNeedNoDesktopProgram(arguments: [String], output: String) throws {
    let installation = try Installation(desktop: nil)
    var host = try Host(providerPath: Host.providers)
    host.environment["DISPLAY"] = ":7"
    host.environment["TRANSLATION_HOST_RUNNER"] = Host.buildDirectory + "/libexec/translation-host/translation-provider-runner"
    let result = try host.run(program: installation.tool, arguments, stdin: "Hello\n")
    #expect(result.exitCode == 0, "\(result.stderr)")
    #expect(result.stdout.contains(output), "\(result.stdout)")
    #expect(!result.stderr.contains("translation-host-desktop"))
  }

  @Test func withoutAGraphicalSessionTheDesktopIsRefusedBeforeItIsLookedFor() throws {
    let installation = try Installation(desktop: nil)
    let result = try Host().run(program: installation.tool, ["run", "--desktop", "--text", "Hello"])
    #expect(result.exitCode == 1)
    #expect(
      result.stderr
        == "Error: no graphical session (neither WAYLAND_DISPLAY nor DISPLAY is set), so the desktop popover cannot be shown\n"
    )
  }

  @Test func theDesktopProgramRunsEveryCommandAsTheToolDoes() throws {
    let host = try Host()
    for arguments in [["--help"], ["run", "--help"], ["list"], ["bogus"]] {
      let tool = try host.run(arguments)
      let desktop = try host.run(program: Host.desktopExecutable, arguments)
      #expect(desktop.exitCode == tool.exitCode)
      #expect(desktop.stdout == tool.stdout)
      #expect(desktop.stderr == tool.stderr)
    }
  }

  @Test func makeInstallPutsTheDesktopProgramWhereTheInstalledToolFindsIt() throws {
    let destination = try TemporaryDirectory()
    let prefix = "/opt/translation-host-desktop-test"
    let variables = ["DESTDIR=\(destination.path)", "PREFIX=\(prefix)", "BUILD=\(Host.buildDirectory)"]
    let make = try Command.run("/usr/bin/make", ["-C", CFixture.packageRoot, "install"] + variables)
    #expect(make.exitCode == 0, "\(make.stderr)")
    let root = URL(fileURLWithPath: destination.path).resolvingSymlinksInPath().path + prefix
    #expect(FileManager.default.isExecutableFile(atPath: root + "/libexec/translation-host/translation-host-desktop"))
    // The key asks the desktop agent, which the session bus starts from
    // the activation file the tool writes for its own desktop program.
    let host = try Host()
    let installed = try host.run(program: root + "/bin/translation-host", ["shortcut", "install", "--desktop", "sway"])
    #expect(installed.exitCode == 0, "\(installed.stderr)")
    let desktop = root + "/libexec/translation-host/translation-host-desktop"
    #expect(
      installed.stdout.contains("bindsym Mod4+Shift+t exec gapplication action org.translationhost.Desktop translate-selection\n")
    )
    let activationFile = host.home.path + "/data/dbus-1/services/org.translationhost.Desktop.service"
    let activation = try String(contentsOfFile: activationFile, encoding: .utf8)
    #expect(activation.contains("\nName=org.translationhost.Desktop\nExec='\(desktop)' agent --gapplication-service\n"))
    let removal = try host.run(program: root + "/bin/translation-host", ["shortcut", "remove", "--desktop", "sway"])
    #expect(
      removal.stdout.contains("'bindsym <key> exec gapplication action org.translationhost.Desktop translate-selection'"))
    #expect(!FileManager.default.fileExists(atPath: activationFile))
    let entry = try String(
      contentsOfFile: root + "/share/applications/org.translationhost.TranslateSelection.desktop", encoding: .utf8)
    #expect(entry.contains("\nExec=gapplication action org.translationhost.Desktop translate-selection\n"))
    let uninstall = try Command.run("/usr/bin/make", ["-C", CFixture.packageRoot, "uninstall"] + variables)
    #expect(uninstall.exitCode == 0)
    #expect(!FileManager.default.fileExists(atPath: root + "/libexec/translation-host"))
  }
}
