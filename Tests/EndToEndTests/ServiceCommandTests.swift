import Foundation
import Glibc
import TestSupport
import Testing

/// The CLI through the resident service answers exactly as it does without:
/// the same stdout, stderr and exit code, byte for byte.
@Suite(.serialized, .tags(.endToEnd)) struct ServiceCommandTests {
  struct Case: Sendable, CustomTestStringConvertible {
    var testDescription: String
    var arguments: [String]
    var stdin: String? = nil
    var exitCode: Int32
  }

  static let cases: [Case] = [
    Case(
      testDescription: "translate with the default provider (and its notice)",
      arguments: ["translate", "--from", "en", "--to", "es", "The cat is on the table."], exitCode: 0),
    Case(
      testDescription: "translate with Apertium",
      arguments: ["translate", "--provider", "Apertium", "--from", "en", "--to", "es", "My friend reads a book."], exitCode: 0),
    Case(
      testDescription: "translate with the C provider",
      arguments: ["translate", "--provider", "Rot13", "--from", "en", "--to", "en-x-rot13", "Hello, world!"], exitCode: 0),
    Case(
      testDescription: "translate --json",
      arguments: ["translate", "--json", "--provider", "Rot13", "--from", "en", "--to", "en-x-rot13", "Hi"], exitCode: 0),
    Case(
      testDescription: "translate --lines",
      arguments: ["translate", "--lines", "--provider", "Apertium", "--from", "en", "--to", "es"],
      stdin: "The cat is on the table.\nMy friend reads a book.\n\nThe children see the red car.\n", exitCode: 0),
    Case(
      testDescription: "an unsupported pair", arguments: ["translate", "--provider", "Rot13", "--from", "en", "--to", "fr", "x"],
      exitCode: 4),
    Case(
      testDescription: "an unknown provider",
      arguments: ["translate", "--provider", "org.example.nowhere", "--from", "en", "--to", "es", "x"], exitCode: 69),
    Case(testDescription: "languages", arguments: ["languages", "--provider", "Rot13"], exitCode: 0),
    Case(
      testDescription: "languages --json of one pair",
      arguments: ["languages", "--json", "--provider", "Apertium", "--from", "en", "--to", "es"], exitCode: 0),
    Case(testDescription: "detect", arguments: ["detect", "Hoy hace buen tiempo y vamos a la playa."], exitCode: 0),
    Case(testDescription: "detect --json, unreliable", arguments: ["detect", "--json", "ok"], exitCode: 4),
    Case(
      testDescription: "run Apple's sample to a replacement",
      arguments: ["run", "--provider", "Reverse", "--replace", "--press", "Translate", "--press", "Replace With Translation"],
      stdin: "Hallo, Welt!\n", exitCode: 0),
    Case(
      testDescription: "run, left unfinished",
      arguments: ["run", "--provider", "Reverse", "--text", "hi", "--press", "Translate"], exitCode: 2),
    Case(
      testDescription: "run, a button that is not there",
      arguments: ["run", "--provider", "Reverse", "--text", "hi", "--press", "Fly"], exitCode: 3),
    Case(
      testDescription: "run headless",
      arguments: ["run", "--provider", "Rot13", "--text", "Hello", "--replace", "--from", "en", "--to", "en-x-rot13"], exitCode: 0
    ),
  ]

  @Test func throughTheServiceAndDirectTheOutputIsTheSame() throws {
    let service = try ServiceProcess()
    try service.start()
    defer { service.stop() }
    for test in Self.cases {
      let through = try service.run(test.arguments, stdin: test.stdin)
      let direct = try service.run(test.arguments + ["--no-service"], stdin: test.stdin)
      #expect(through.exitCode == test.exitCode, "\(test.testDescription): \(through.stderr)")
      #expect(through.exitCode == direct.exitCode, "\(test.testDescription)")
      #expect(through.stdout == direct.stdout, "\(test.testDescription)")
      #expect(through.stderr == direct.stderr, "\(test.testDescription)")
    }
    // The service did the work: its runners are still warm.
    #expect(service.runners().count >= 3)
  }

  @Test func setDefaultTakesEffectWithoutARestart() throws {
    let service = try ServiceProcess()
    try service.start()
    defer { service.stop() }
    let arguments = ["translate", "--from", "en", "--to", "en-x-rot13", "Hello"]
    #expect(try service.run(arguments).exitCode == 4, "Apertium, the default, has no such pair")
    #expect(try service.run(["set-default", "Rot13"]).exitCode == 0)
    let after = try service.run(arguments)
    #expect(after.stdout == "Uryyb\n", "\(after.stderr)")
    #expect(after.stderr == "")
  }

  @Test(arguments: [
    ["--idle-timeout", "1e300"], ["--idle-timeout", "inf"], ["--idle-timeout", "nan"], ["--idle-timeout", "0"],
    ["--idle-timeout", "604801"],
    ["--connection-idle-timeout", "0"], ["--connection-idle-timeout", "-5"], ["--connection-idle-timeout", "604801"],
  ])
  func anIdleTimeoutOutOfRangeIsAUsageError(_ arguments: [String]) throws {
    let service = try ServiceProcess()
    let result = try service.run(["serve"] + arguments)
    #expect(result.exitCode == 64)
    #expect(
      result.stderr.contains("'\(arguments[0])' needs a positive number of seconds up to 604800 (a week), not '\(arguments[1])'"),
      "\(result.stderr)")
  }

  @Test func socketActivationTakesTheListenerOnDescriptor3() throws {
    let service = try ServiceProcess()
    let folder = service.home.path + "/run/translation-host"
    try FileManager.default.createDirectory(
      atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    // As systemd would make it; `UnixListener` binds a path longer than a socket address takes (a long TMPDIR) too.
    let listener = try UnixListener(folder + "/socket")
    defer { withExtendedLifetime(listener) {} }  // its path is removed with it
    try service.start(activation: listener.fd)
    let result = try service.run(["translate", "--provider", "Rot13", "--from", "en", "--to", "en-x-rot13", "Hello"])
    #expect(result.stdout == "Uryyb\n")
    #expect(service.runners().count == 1, "the translation went through the service")
    let log = try String(contentsOfFile: service.log, encoding: .utf8)
    #expect(log.contains("serving on the socket systemd passed"))
    #expect(service.stop() == 0)
    // systemd owns an activated socket: the service leaves it in place.
    #expect(FileManager.default.fileExists(atPath: folder + "/socket"))
  }

  @Test func makeInstallLaysOutThePrefixAndTheUnits() throws {
    let destination = try TemporaryDirectory()
    let prefix = "/opt/translation-host-test"
    let make = try Command.run(
      "/usr/bin/make",
      ["-C", CFixture.packageRoot, "install", "DESTDIR=\(destination.path)", "PREFIX=\(prefix)", "BUILD=\(Host.buildDirectory)"])
    #expect(make.exitCode == 0, "\(make.stderr)")
    let root = destination.path + prefix
    for file in [
      "bin/translation-host", "libexec/translation-host/translation-provider-runner",
      "lib/translation-host/providers/Apertium.translationprovider/libApertium.so",
      "lib/translation-host/providers/Rot13.translationprovider/Info.plist",
      "lib/systemd/user/translation-host.socket", "lib/systemd/user/translation-host.service",
      "share/applications/org.translationhost.TranslateSelection.desktop",
      "share/dbus-1/services/org.translationhost.Translation1.service",
      "share/dbus-1/interfaces/org.translationhost.Translation1.xml",
      "share/dbus-1/services/org.translationhost.Desktop.service",
    ] {
      #expect(FileManager.default.fileExists(atPath: root + "/" + file), "\(file)")
    }
    let unit = try String(contentsOfFile: root + "/lib/systemd/user/translation-host.service", encoding: .utf8)
    #expect(unit.contains("\nExecStart=\(prefix)/bin/translation-host serve\n"))
    let entry = try String(
      contentsOfFile: root + "/share/applications/org.translationhost.TranslateSelection.desktop", encoding: .utf8)
    #expect(entry.contains("\nExec=gapplication action org.translationhost.Desktop translate-selection\n"))
    let agent = try String(
      contentsOfFile: root + "/share/dbus-1/services/org.translationhost.Desktop.service", encoding: .utf8)
    #expect(agent.contains("\nExec=\(prefix)/libexec/translation-host/translation-host-desktop agent --gapplication-service\n"))
    let activation = try String(
      contentsOfFile: root + "/share/dbus-1/services/org.translationhost.Translation1.service", encoding: .utf8)
    #expect(activation.contains("\nExec=\(prefix)/bin/translation-host serve\n"))
    #expect(activation.contains("\nSystemdService=translation-host.service\n"))
    let socket = try String(contentsOfFile: root + "/lib/systemd/user/translation-host.socket", encoding: .utf8)
    for line in ["ListenStream=%t/translation-host/socket", "SocketMode=0600", "DirectoryMode=0700"] {
      #expect(socket.contains(line))
    }
    // The installed tool finds its runner and providers relative to itself.
    let installed = try Host().run(
      program: root + "/bin/translation-host", ["translate", "--provider", "Rot13", "--from", "en", "--to", "en-x-rot13", "Hi"])
    #expect(installed.stdout == "Uv\n", "\(installed.stderr)")
    let uninstall = try Command.run(
      "/usr/bin/make",
      [
        "-C", CFixture.packageRoot, "uninstall", "DESTDIR=\(destination.path)", "PREFIX=\(prefix)",
        "BUILD=\(Host.buildDirectory)",
      ])
    #expect(uninstall.exitCode == 0)
    #expect(!FileManager.default.fileExists(atPath: root + "/bin/translation-host"))
    #expect(!FileManager.default.fileExists(atPath: root + "/lib/systemd/user/translation-host.service"))
    #expect(!FileManager.default.fileExists(atPath: root + "/share/applications/org.translationhost.TranslateSelection.desktop"))
    #expect(!FileManager.default.fileExists(atPath: root + "/share/dbus-1/services/org.translationhost.Translation1.service"))
    #expect(!FileManager.default.fileExists(atPath: root + "/share/dbus-1/services/org.translationhost.Desktop.service"))
  }
}
