import Presentation
import Testing

@testable import DesktopPopover

/// What the desktop agent runs for a request from the session bus, and what it refuses.
@Suite struct AgentRequestTests {
  struct Accepted: Sendable, CustomTestStringConvertible {
    var arguments: [String]
    var runs: [String]
    var testDescription: String { arguments.joined(separator: " ") }
  }

  @Test(arguments: [
    Accepted(arguments: ["--text", "Hello"], runs: ["--desktop", "--text", "Hello"]),
    Accepted(arguments: ["--text=Hello, world"], runs: ["--desktop", "--text=Hello, world"]),
    // A text that looks like an option is the value of --text, not an option.
    Accepted(arguments: ["--text", "--in-process"], runs: ["--desktop", "--text", "--in-process"]),
    Accepted(arguments: ["--selection", "--replace"], runs: ["--desktop", "--selection", "--replace"]),
    // --desktop is implied; given again it is not repeated.
    Accepted(arguments: ["--desktop", "--selection"], runs: ["--desktop", "--selection"]),
    Accepted(
      arguments: ["--provider", "Reverse", "--from", "en", "--to=es", "--text", "Hi", "--anchor", "10,20"],
      runs: ["--desktop", "--provider", "Reverse", "--from", "en", "--to=es", "--text", "Hi", "--anchor", "10,20"]),
    Accepted(
      arguments: ["--selection", "--arrow-edge", "bottom", "--timeout", "5"],
      runs: ["--desktop", "--selection", "--arrow-edge", "bottom", "--timeout", "5"]),
    // The window the popover is for (Present's parent_window); `run` checks its spelling.
    Accepted(
      arguments: ["--text", "Hi", "--parent-window", "wayland:6b3f0c1e"],
      runs: ["--desktop", "--text", "Hi", "--parent-window", "wayland:6b3f0c1e"]),
  ])
  func accepts(_ example: Accepted) throws {
    #expect(try AgentRequest(running: example.arguments).arguments == example.runs)
  }

  struct Refused: Sendable, CustomTestStringConvertible {
    var arguments: [String]
    /// The argument the error names.
    var names: String
    var testDescription: String { arguments.joined(separator: " ") }
  }

  @Test(arguments: [
    // No text: the agent has no stdin to read it from.
    Refused(arguments: [], names: ""),
    Refused(arguments: ["--replace"], names: "--replace"),
    // Both sources, or one twice.
    Refused(arguments: ["--text", "a", "--selection"], names: "--text a --selection"),
    Refused(arguments: ["--text", "a", "--text", "b"], names: "--text a --text b"),
    // What would load a provider into the agent, or draw elsewhere.
    Refused(arguments: ["--text", "a", "--in-process"], names: "--in-process"),
    Refused(arguments: ["--terminal", "--text", "a"], names: "--terminal"),
    Refused(arguments: ["--text", "a", "--press", "Translate"], names: "--press"),
    Refused(arguments: ["--text", "a", "--close-with-parent", "1"], names: "--close-with-parent"),
    Refused(arguments: ["--text", "a", "--headless"], names: "--headless"),
    Refused(arguments: ["--text", "a", "--no-service"], names: "--no-service"),
    // Positional words, a lone dash pair, a value missing, a value given to a flag.
    Refused(arguments: ["Hello"], names: "Hello"),
    Refused(arguments: ["--", "--text", "a"], names: "--"),
    Refused(arguments: ["--selection", "--provider"], names: "--provider"),
    Refused(arguments: ["--selection=yes"], names: "--selection=yes"),
  ])
  func refuses(_ example: Refused) {
    #expect {
      try AgentRequest(running: example.arguments)
    } throws: { error in
      guard case .refusedArguments(let argument, _) = error as? DesktopAgentError else { return false }
      return argument == example.names
    }
  }

  /// A caller of the agent's socket (Present, `translationPresentation`) brings its text; the
  /// options go as for the `run` action, and the text as `--text=`, exactly, whatever it looks like.
  @Test(arguments: [
    (["--desktop", "--replace", "--arrow-edge=top"], "Hello", ["--desktop", "--replace", "--arrow-edge=top", "--text=Hello"]),
    ([], "--in-process", ["--desktop", "--text=--in-process"]),
    (
      ["--provider=Reverse", "--anchor=10,20"], "a\nb = c",
      ["--desktop", "--provider=Reverse", "--anchor=10,20", "--text=a\nb = c"]
    ),
  ])
  func presentsACallersText(arguments: [String], text: String, runs: [String]) throws {
    let request = DesktopAgentChannel.Request(arguments: arguments, text: text)
    #expect(try AgentRequest(presenting: request).arguments == runs)
  }

  /// Never the selection (a caller would read and replace what the person
  /// selected elsewhere), never a second text, nothing `run` refuses from the bus.
  @Test(arguments: [
    (["--selection"], "--selection"),
    (["--selection", "--replace"], "--selection"),
    (["--text", "other"], "--text"),
    (["--text=other"], "--text=other"),
    (["--in-process"], "--in-process"),
    (["--press=Translate"], "--press=Translate"),
  ])
  func refusesWhatACallerMayNotAsk(arguments: [String], names: String) {
    #expect {
      try AgentRequest(presenting: DesktopAgentChannel.Request(arguments: arguments, text: "Hello"))
    } throws: { error in
      guard case .refusedArguments(let argument, _) = error as? DesktopAgentError else { return false }
      return argument == names
    }
  }

  @Test func theShortcutTranslatesAndReplacesTheSelection() {
    #expect(AgentRequest.translateSelection.arguments == ["--desktop", "--selection", "--replace"])
  }
}
