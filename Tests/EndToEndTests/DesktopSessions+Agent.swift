import Foundation
import Glibc
import TestSupport
import Testing

/// The resident desktop agent (`translation-host agent`) in an X11 session
/// (Xvfb) on a private session bus: started by the bus on the first
/// request, the popover it shows, Replace into a real editor, one popover
/// at a time, `dismiss`, refusals, a single instance, idle exit.
extension DesktopSessions {
  @Suite struct Agent {
    static let reverse = "Reverse (Apple's sample)"
    static let apertium = "Apertium (offline)"

    private struct Session {
      let display: X11Server
      let bus: AgentBus
      let host: Host
      var environment: [String: String]

      init() throws {
        display = try X11Server()
        host = try Host()
        var base = display.environment(host.environment)
        base["LANG"] = "C.UTF-8"
        // A runtime folder of its own: the agent must not find a service another test (or user) runs.
        let runtime = host.home.path + "/run"
        try FileManager.default.createDirectory(
          atPath: runtime, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        base["XDG_RUNTIME_DIR"] = runtime
        bus = try AgentBus(environment: base)
        environment = bus.environment(base)
      }

      /// `translation-host agent` with `arguments`, its stderr kept.
      func agent(_ arguments: [String] = []) throws -> RunningCommand {
        let agent = try RunningCommand([Host.executable, "agent"] + arguments, environment: environment)
        try eventually("the agent to register on the bus", timeout: .seconds(60), detail: { agent.stderr }) {
          guard !agent.hasEnded else { throw RunningCommand.PopoverEnded(stderr: agent.stderr) }
          return try bus.agentIsRunning(environment)
        }
        return agent
      }

      func run(_ arguments: [String]) throws {
        try bus.action("run", AgentBus.strings(arguments), environment: environment)
      }

      /// Waits for the agent's popover titled `title`, telling what the agent said if it does not come.
      func waitForWindow(named title: String, of agent: RunningCommand) throws {
        try eventually(
          "the agent's popover '\(title)'", timeout: .seconds(60), interval: .milliseconds(100),
          detail: { "the agent's stderr: \(agent.stderr)" }
        ) { display.hasWindow(named: title) }
      }

      func waitForNoWindow(named title: String) throws {
        try eventually("the popover '\(title)' to close", timeout: .seconds(20), interval: .milliseconds(100)) {
          !display.hasWindow(named: title)
        }
      }
    }

    /// The shortcut's path: the bus starts the agent (its activation file),
    /// which shows the popover over the editor's selection; Return replaces it.
    @Test
    func theBusStartsTheAgentWhichReplacesTheSelectionInAnEditor() throws {
      let session = try Session()
      let folder = try TemporaryDirectory()
      let file = try folder.write("sentence.txt", DesktopSessions.X11.sentence + "\n")
      let editor = try TextEditor(file: file, on: session.display, home: folder.path + "/editor-home")
      let expected = try session.host.run(
        "translate", "--provider", "Apertium", "--from", "en", "--to", "es", DesktopSessions.X11.sentence)
      #expect(expected.exitCode == 0)
      try editor.selectAll(on: session.display)
      try session.display.xdotool("mousemove", "200", "80")
      #expect(try !session.bus.agentIsRunning(session.environment))

      try session.run(["--selection", "--replace", "--provider", "Apertium", "--from", "en", "--to", "es"])
      let window = try session.display.window(named: Self.apertium)
      // The scene is drawn (and its button focused) once the frame has stayed the same for a second.
      var last = (x: 0, y: 0, width: 0, height: 0)
      var stable = 0
      let frame = try eventually("the scene to be drawn", interval: .milliseconds(100)) {
        let now = try session.display.geometry(of: window)
        stable = now == last ? stable + 1 : 0
        last = now
        return now.height > 120 && stable >= 10 ? now : nil
      }
      #expect(try session.bus.agentIsRunning(session.environment))
      #expect(frame.y == 80)
      #expect(frame.x <= 200 && 200 < frame.x + frame.width)
      try eventually("the popover to have the focus", timeout: .seconds(10)) {
        (try? session.display.xdotool("getwindowfocus").trimmingWhitespace()) == window
      }
      try session.display.xdotool("key", "Return")
      try session.waitForNoWindow(named: Self.apertium)
      // The popover hides before it pastes: a save right after it has gone
      // may come before the paste, so the editor saves until the file has it.
      try eventually(
        "the editor to save the translation", timeout: .seconds(30), interval: .seconds(1),
        detail: { "the editor holds \(editor.contents); the agent's stderr: \(session.bus.log)" }
      ) {
        try editor.save(on: session.display)
        return editor.contents == expected.stdout.trimmingWhitespace() + "\n"
      }
      // The agent stays for the next shortcut.
      #expect(try session.bus.agentIsRunning(session.environment))
      try session.bus.action("quit", environment: session.environment)
      try eventually("the agent to quit", timeout: .seconds(20)) { try !session.bus.agentIsRunning(session.environment) }
    }

    /// One popover at a time: a second request is refused while one shows;
    /// `dismiss` closes it, and the agent shows the next, asked for as soon
    /// as the window has gone (while the first is still ending: it waits).
    @Test
    func oneAtATimeDismissedAndShownAgain() throws {
      let session = try Session()
      let agent = try session.agent(["--idle-exit", "0"])
      let request = ["--provider", "Reverse", "--from", "en", "--text", "Hello, world"]
      try session.run(request)
      try session.waitForWindow(named: Self.reverse, of: agent)
      try session.run(["--provider", "Reverse", "--from", "en", "--text", "Second"])
      try eventually("the agent to refuse the second request", timeout: .seconds(10), detail: { agent.stderr }) {
        agent.stderr.contains("the desktop agent is showing a popover already")
      }
      try session.bus.action("dismiss", environment: session.environment)
      try session.waitForNoWindow(named: Self.reverse)
      try session.run(request)
      try session.waitForWindow(named: Self.reverse, of: agent)
      try session.bus.action("dismiss", environment: session.environment)
      try session.waitForNoWindow(named: Self.reverse)
      #expect(!agent.hasEnded, "\(agent.stderr)")
      agent.stop()
    }

    /// An app's `translationPresentation` (Examples/ReplaceSelection) with
    /// an agent in the session: the agent shows the popover (its window is
    /// the agent's), no GTK starts for it, and the replacement goes back to
    /// the app. With no agent running, the app's request starts one, which
    /// stays for the next.
    @Test(arguments: [true, false])
    func theLibrarysPresentationIsShownByTheAgent(agentRunning: Bool) throws {
      let session = try Session()
      #expect(try session.host.run("set-default", "Reverse").exitCode == 0)
      let agent = agentRunning ? try session.agent(["--idle-exit", "0"]) : nil
      let example = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().path + "/ReplaceSelection"
      try #require(FileManager.default.isExecutableFile(atPath: example), "\(example) is not built")
      var environment = session.environment
      environment["PATH"] = Host.buildDirectory + "/bin:" + (environment["PATH"] ?? "/usr/bin:/bin")
      let app = try RunningCommand([example, "Hello, world"], environment: environment)
      let window = try session.display.window(named: Self.reverse)
      try eventually("the scene to be drawn", interval: .milliseconds(100), detail: { app.stderr }) {
        try session.display.geometry(of: window).height > 150
      }
      let owner = try Int32(session.display.xdotool("getwindowpid", window).trimmingWhitespace())
      #expect(try session.bus.agentIsRunning(session.environment))
      if let agent {
        #expect(owner == agent.pid, "\(app.stderr) \(agent.stderr)")
      } else {
        // Not a popover process of the app's: the agent it started, which holds the bus name.
        let name = try String(contentsOfFile: "/proc/\(owner ?? 0)/cmdline", encoding: .utf8)
        #expect(name.split(separator: "\0").dropFirst().first == "agent", "\(name)")
      }
      try session.display.xdotool("windowfocus", "--sync", window)
      try session.display.xdotool("key", "Return", "Tab", "Return")
      let outcome = try app.waitForExit()
      #expect(outcome.exitCode == 0, "\(outcome.stderr)")
      #expect(outcome.stdout == "dlrow ,olleH\n")
      #expect(try session.bus.agentIsRunning(session.environment))
      try session.bus.action("quit", environment: session.environment)
      try eventually("the agent to quit", timeout: .seconds(20)) { try !session.bus.agentIsRunning(session.environment) }
    }

    /// The service's D-Bus `Present` in a graphical session: the service
    /// starts the agent, which shows the popover (the window is the
    /// agent's, not a `run` process's), and the replacement comes back in
    /// the `Response`.
    @Test func theServicesPresentIsShownByTheAgent() throws {
      let display = try X11Server()
      var session = try BusSession()
      session.environment = display.environment(session.environment)
      let client = try RunningCommand(
        [
          "/usr/bin/dbus-run-session", "--config-file=\(session.folder.path)/session.conf", "--", "/usr/bin/python3",
          BusSession.pythonClient, "present-desktop",
        ], environment: session.environment)
      let window = try display.window(named: Self.reverse)
      try eventually("the scene to be drawn", interval: .milliseconds(100), detail: { client.stderr }) {
        try display.geometry(of: window).height > 150
      }
      let owner = try #require(Int32(display.xdotool("getwindowpid", window).trimmingWhitespace()))
      let command = try String(contentsOfFile: "/proc/\(owner)/cmdline", encoding: .utf8)
      #expect(command.split(separator: "\0").dropFirst().first == "agent", "\(command)")
      try display.xdotool("windowfocus", "--sync", window)
      try display.xdotool("key", "Return", "Tab", "Return")
      let outcome = try client.waitForExit()
      let answer = try JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8)) as? [Any]
      #expect(answer?.first as? Int == 0, "\(outcome.stdout) \(outcome.stderr)")
      #expect(answer?.last as? String == "dlrow ,olleH", "\(outcome.stdout)")
      // The agent goes with the bus it was on.
      try eventually("the agent to end with its bus", timeout: .seconds(20)) { kill(owner, 0) != 0 }
    }

    /// An app that gives up (its task cancelled; here: it is killed) closes
    /// the popover the agent shows for it, and the agent shows the next.
    @Test func aCallerThatLeavesClosesItsPopover() throws {
      let session = try Session()
      #expect(try session.host.run("set-default", "Reverse").exitCode == 0)
      let agent = try session.agent(["--idle-exit", "0"])
      let example = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().path + "/ReplaceSelection"
      var environment = session.environment
      environment["PATH"] = Host.buildDirectory + "/bin:" + (environment["PATH"] ?? "/usr/bin:/bin")
      let app = try RunningCommand([example, "Hello, world"], environment: environment)
      _ = try session.display.window(named: Self.reverse)
      app.stop()
      try session.waitForNoWindow(named: Self.reverse)
      try session.run(["--provider", "Reverse", "--from", "en", "--text", "Next"])
      try session.waitForWindow(named: Self.reverse, of: agent)
      try session.bus.action("dismiss", environment: session.environment)
      try session.waitForNoWindow(named: Self.reverse)
      #expect(!agent.hasEnded, "\(agent.stderr)")
      agent.stop()
    }

    /// What any program of the session may send is checked: nothing that
    /// reads stdin, loads a provider into the agent or draws elsewhere runs.
    @Test(arguments: [
      (["--in-process", "--text", "Hello"], "'--in-process'"),
      (["--replace"], "give the text with --text"),
      (["--terminal", "--text", "Hello"], "'--terminal'"),
    ])
    func refusedRequestsShowNothing(arguments: [String], named: String) throws {
      let session = try Session()
      let agent = try session.agent(["--idle-exit", "0"])
      try session.run(arguments + ["--provider", "Reverse"])
      try eventually("the agent to refuse the request", timeout: .seconds(10), detail: { agent.stderr }) {
        agent.stderr.contains("the desktop agent refuses") && agent.stderr.contains(named)
      }
      #expect(!session.display.hasWindow(named: Self.reverse))
      #expect(!agent.hasEnded, "\(agent.stderr)")
      agent.stop()
    }

    /// A single instance per session, which exits when idle.
    @Test func aSecondAgentLeavesAndTheFirstExitsWhenIdle() throws {
      let session = try Session()
      let first = try session.agent(["--idle-exit", "2"])
      let second = try RunningCommand([Host.executable, "agent"], environment: session.environment)
      let outcome = try second.waitForExit(timeout: .seconds(60))
      #expect(outcome.exitCode == 0)
      #expect(outcome.stderr.contains("an agent of this session is running already"), "\(outcome.stderr)")
      let exited = try first.waitForExit(timeout: .seconds(30))
      #expect(exited.exitCode == 0, "\(exited.stderr)")
      #expect(try !session.bus.agentIsRunning(session.environment))
    }

    @Test(arguments: [["--idle-exit", "-1"], ["--idle-exit", "soon"], ["extra"], ["--global-shortcut", ""]])
    func aWrongCommandLineIsAUsageError(arguments: [String]) throws {
      let host = try Host()
      let result = try host.run(["agent"] + arguments)
      #expect(result.exitCode == 64, "\(result.stderr)")
    }
  }
}
