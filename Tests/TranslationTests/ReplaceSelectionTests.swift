import Foundation
import Glibc
import TestSupport
import Testing

/// `Examples/ReplaceSelection`, the presentation call in an app, on a real
/// terminal (tmux) with the default provider set to `Reverse` (Apple's
/// sample), directly and through the resident service.
@Suite struct ReplaceSelectionTests {
  /// The example, built next to the test bundle.
  static func binary() throws -> String {
    let path =
      URL(fileURLWithPath: try #require(CommandLine.arguments.first)).deletingLastPathComponent().path + "/ReplaceSelection"
    try #require(FileManager.default.isExecutableFile(atPath: path), "\(path) is not built")
    return path
  }

  /// A private home whose default provider is Reverse.
  private static func environment(home: TemporaryDirectory) throws -> [String: String] {
    var environment = [
      "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin", "HOME": home.path,
      "XDG_DATA_HOME": home.path + "/data", "XDG_CONFIG_HOME": home.path + "/config", "XDG_CACHE_HOME": home.path + "/cache",
      "TRANSLATION_HOST_PROVIDER_PATH": Providers.buildDirectory + "/lib/translation-host/providers",
    ]
    let setDefault = try Command.run(ServiceProcess.executable, ["set-default", "Reverse"], environment: environment)
    try #require(setDefault.exitCode == 0, "\(setDefault.stderr)")
    environment["TERM"] = "xterm-256color"
    environment["LANG"] = "C.UTF-8"
    return environment
  }

  private func app(_ arguments: [String], home: TemporaryDirectory, stdin: String = "") throws -> TerminalSession {
    try TerminalSession(
      [try Self.binary()] + arguments, environment: try Self.environment(home: home), stdin: stdin, keeping: [home])
  }

  @Test(arguments: [["Hello, world"], ["--view-only", "Hello, world"]])
  func thePopoverAppearsOnTheAppsTerminal(_ arguments: [String]) throws {
    let home = try TemporaryDirectory()
    let terminal = try app(arguments, home: home)
    let screen = try terminal.waitFor("Translate ]")
    #expect(screen.contains("Reverse (Apple's sample)"))
    #expect(screen.contains("Hello, world"))
    try terminal.press("Escape")
    #expect(try terminal.waitForExit().terminalRestored)
  }

  /// Through the service (running in the app's environment), the
  /// popover's provider is one of the service's runners.
  @Test(arguments: [false, true])
  func translateThenReplaceCallsTheActionOnceWithTheWholeReplacement(throughService: Bool) throws {
    let home = try TemporaryDirectory()
    let service = throughService ? try Providers.service() : nil
    try service?.start()
    defer { service?.stop() }
    var environment = try Self.environment(home: home)
    if let service {
      #expect(try service.run(["set-default", "Reverse"]).exitCode == 0)
      environment = service.environment.merging(["TERM": "xterm-256color", "LANG": "C.UTF-8"]) { $1 }
    }
    let terminal = try TerminalSession(
      [try Self.binary()], environment: environment, stdin: "Hallo, Welt!", keeping: [home, service as Any])
    try terminal.waitFor("Translate ]")
    #expect(service.map { $0.runners().count == 1 } ?? true, "the popover's provider runs in the service")
    try terminal.press("Enter")
    try terminal.waitFor("!tleW ,ollaH")
    try terminal.press("Tab", "Enter")
    let outcome = try terminal.waitForExit()
    #expect(outcome.exitCode == 0)
    #expect(outcome.stdout == "!tleW ,ollaH\n")
    #expect(outcome.terminalRestored)
  }

  @Test(arguments: [["Escape"], ["Enter", "Escape"]])
  func dismissingNeverCallsTheAction(_ keys: [String]) throws {
    let home = try TemporaryDirectory()
    let terminal = try app(["Hello"], home: home)
    try terminal.waitFor("Translate ]")
    for key in keys {
      try terminal.press(key)
      if key == "Enter" { try terminal.waitFor("olleH") }
    }
    let outcome = try terminal.waitForExit()
    #expect(outcome.exitCode == 1)
    #expect(outcome.stdout == "")
    #expect(outcome.terminalRestored)
  }

  @Test func withoutAReplacementActionTheReplaceButtonIsDisabled() throws {
    let home = try TemporaryDirectory()
    let terminal = try app(["--view-only", "abc"], home: home)
    try terminal.waitFor("Translate ]")
    // Dimmed (SGR 2) and never focused: Tab wraps back to Translate, so Enter translates.
    #expect(try terminal.screen(styles: true).contains("\u{1B}[2m[ Replace With Translation ]"))
    try terminal.press("Tab", "Enter")
    try terminal.waitFor("cba")
    try terminal.press("Tab", "Enter")
    try terminal.waitFor("cba")
    try terminal.press("Escape")
    let outcome = try terminal.waitForExit()
    #expect(outcome.exitCode == 0)
    #expect(outcome.stdout == "")
    #expect(outcome.terminalRestored)
  }

  @Test func ctrlCIsACancellationError() throws {
    let home = try TemporaryDirectory()
    let terminal = try app(["Hello"], home: home)
    try terminal.waitFor("Translate ]")
    try terminal.press("C-c")
    let outcome = try terminal.waitForExit()
    #expect(outcome.exitCode == 130)
    #expect(outcome.stdout == "")
    #expect(outcome.terminalRestored)
    try terminal.waitFor("ReplaceSelection: interrupted")
  }
}
