import Presentation

/// What one activation of the desktop agent asks it to show: the arguments
/// of `run` that it runs, checked, since any program of the session may
/// send them over D-Bus.
///
/// Only the options of a desktop popover pass: the text (`--text`) or the
/// selection (`--selection`), exactly one of them, since the agent has no
/// stdin to read; `--replace`; the provider and languages; the anchor and
/// arrow edge; the parent window; the deadline. Everything else (`--in-process`, which would
/// load a provider into the agent, `--terminal`, `--press`,
/// `--close-with-parent`, positional words) is refused.
package struct AgentRequest: Equatable, Sendable {
  /// The arguments after `run`, `--desktop` first.
  package let arguments: [String]

  /// Options followed by a value.
  static let valueOptions: Set<String> = ["text", "provider", "from", "to", "anchor", "arrow-edge", "timeout", "parent-window"]
  /// Options that stand alone.
  static let flags: Set<String> = ["selection", "replace", "desktop"]

  /// The shortcut's request: the selection in any application, replaced by its translation.
  package static let translateSelection = AgentRequest(checked: ["--desktop", "--selection", "--replace"])

  private init(checked: [String]) { arguments = checked }

  /// A popover for a caller of the agent's socket (`DesktopAgentChannel`):
  /// its text, never the selection, with `run`'s options as for the `run`
  /// action (`--desktop` may be given; `--text` and `--selection` may not).
  /// - Throws: `DesktopAgentError.refusedArguments`, as `init(running:)`.
  package init(presenting request: DesktopAgentChannel.Request) throws(DesktopAgentError) {
    let options = request.arguments.filter { $0 != "--desktop" }
    if let source = options.first(where: {
      $0 == "--selection" || $0 == "--text" || $0.hasPrefix("--text=") || $0.hasPrefix("--selection=")
    }) {
      throw .refusedArguments(source, "a caller of the agent's socket gives its text in the request, and never the selection")
    }
    try self.init(running: options + ["--text=" + request.text])
  }

  /// `arguments` of `run`, as the agent's `run` action receives them.
  /// - Throws: `DesktopAgentError.refusedArguments` naming the first argument that cannot pass, and why.
  package init(running arguments: [String]) throws(DesktopAgentError) {
    var checked = ["--desktop"]
    var sources = 0
    var index = 0
    while index < arguments.count {
      let argument = arguments[index]
      guard argument.hasPrefix("--"), argument.count > 2 else {
        throw .refusedArguments(argument, "the agent takes options only; give the text with --text")
      }
      let body = argument.dropFirst(2)
      let name = String(body.prefix { $0 != "=" })
      if Self.flags.contains(name) {
        guard !body.contains("=") else { throw .refusedArguments(argument, "--\(name) takes no value") }
        if name != "desktop" { checked.append(argument) }
        if name == "selection" { sources += 1 }
      } else if Self.valueOptions.contains(name) {
        if body.contains("=") {
          checked.append(argument)
        } else {
          guard index + 1 < arguments.count else { throw .refusedArguments(argument, "--\(name) needs a value") }
          index += 1
          checked += [argument, arguments[index]]
        }
        if name == "text" { sources += 1 }
      } else {
        throw .refusedArguments(
          argument,
          "the agent shows a desktop popover and takes only --text or --selection, --replace, --provider, --from, --to, --anchor, --arrow-edge, --parent-window and --timeout"
        )
      }
      index += 1
    }
    guard sources == 1 else {
      throw .refusedArguments(
        arguments.joined(separator: " "), "give the text with --text or ask for the selection with --selection, once")
    }
    self.arguments = checked
  }
}
