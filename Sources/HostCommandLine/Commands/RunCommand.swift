import CHostProcess
import FoundationEssentials
import Presentation
import Service
import System
import TerminalPopover

/// `translation-host run`: presents the provider's selected-text scene for a
/// text, as iOS presents the default translation app's extension.
struct RunCommand: Command {
  static let name = "run"
  static let abstract = "Show a provider's translation scene for a text."
  static let usage =
    "[--text <text> | --selection] [--replace] [--desktop | --terminal] [--anchor <x>,<y> | <row>,<col>] [--arrow-edge <edge>] [--parent-window <window>] [--press <label> ...] [--headless] [--provider <id|path>] [--from <tag>] [--to <tag>]"
  static let discussion = """
    The text comes from --text, --selection or stdin (one trailing newline is
    removed, and put back after a replacement). The provider runs in its own
    process.

    In a graphical session (DISPLAY or WAYLAND_DISPLAY set), the scene appears
    in a popover window at the pointer (or --anchor x,y in screen pixels, on
    X11; Wayland compositors place it themselves). --selection takes the text
    selected in any application (the PRIMARY selection, else the clipboard);
    with --replace, "Replace with Translation" pastes the translation over it
    in the window it came from (X11: Ctrl+V sent to that window only, and the
    clipboard's text put back afterwards; sway: typed over the selection in
    that window with the compositor's virtual keyboard while sway says it
    has the focus; other Wayland compositors, or another window focused:
    the translation is left on the clipboard and a note says why and to
    press Ctrl+V). Tab, Enter and Esc work
    as on the terminal. --terminal uses the terminal instead; --desktop
    insists on the window.

    On a terminal, the provider's scene appears in a popover drawn on the
    terminal (keys are read from /dev/tty, so stdin and stdout may be pipes:
    xclip -o | translation-host run --replace | xclip -i). With --replace the
    scene may replace the text (Apple's allowsReplacement) and shows "Replace
    with Translation"; the terminal is restored first, then the replacement,
    and nothing else, is written to stdout. When --from is absent and the
    language cannot be detected, the popover first asks for it.

    KEYS:
      Tab, Down, Right      next enabled control (Right moves the caret in a field)
      Shift-Tab, Up, Left   previous enabled control (Left moves the caret in a field)
      Enter, Space          press the focused button (Enter in a field: next control)
      typing                edits the focused text field
      Page Up, Page Down    scroll long content
      Esc, q                dismiss (q outside a field); nothing is written, exit 2
      Ctrl-C                interrupt; the terminal is restored, exit 130
    Esc and Ctrl-C also stop a provider that is busy with a press or an edit.

    Without a terminal (or with --headless, or TERM=dumb), the scene is driven
    by --press: each label presses the button with that visible text (ignoring
    case), in order. Without --press, a provider that can translate headlessly
    translates --from one language --to another; the translation goes to
    stdout with --replace, to stderr without. NO_COLOR turns colours off.
    """
  static let options: [OptionSpec] =
    [
      .option("text", "text", help: "The text to translate (default: read stdin)."),
      .flag("replace", help: "Allow the scene to replace the text; the replacement goes to stdout."),
      .option("press", "label", help: "Press the button with this label; repeat to press several.", repeatable: true),
      .option("from", "tag", help: "Language of the text, a BCP-47 tag such as 'en'."),
      .option("to", "tag", help: "Language to translate into, a BCP-47 tag such as 'es'."),
      .flag("selection", help: "Translate the text selected in the graphical session (PRIMARY, else the clipboard)."),
      .flag("desktop", help: "Show the popover as a window of the graphical session (the default there)."),
      .flag("terminal", help: "Show the popover on the terminal even in a graphical session."),
      .option(
        "anchor", "x,y|row,col",
        help: "Point the popover at this screen pixel (desktop) or terminal cell (1-based, as a cursor position report gives it)."
      ),
      .option(
        "arrow-edge", "edge",
        help: "Side of the popover whose arrow points at the anchor: top (default), bottom, leading, trailing."),
      .option(
        "parent-window", "window",
        help:
          "The application window the desktop popover is for, as xdg-desktop-portal spells it: x11:<hex id> or wayland:<exported handle> (on Wayland the popover becomes that window's dialog)."
      ),
      .flag("headless", help: "Never draw the popover, even on a terminal."),
      .option(
        "close-with-parent", "pid",
        help:
          "Close the popover if its parent process <pid> ends first (for programs that show it for their user, as the Translation library does)."
      ),
    ] + ProviderOptions.specs

  var provider: ProviderOptions
  var text: String?
  var allowsReplacement: Bool
  var presses: [String]
  var source: String?
  var target: String?
  var anchor: String?
  var arrowEdge: ArrowEdge
  /// `--parent-window`.
  var parentWindow: ParentWindow?
  var headless: Bool
  var fromSelection: Bool
  var popover: PopoverKind?
  /// The parent whose end closes the popover (`--close-with-parent`).
  var closingParent: Int32?

  /// Where the scene is drawn when the person asked for one.
  enum PopoverKind { case desktop, terminal }

  init(_ arguments: ParsedArguments) throws(CommandError) {
    guard arguments.positionals.isEmpty else {
      throw .usage("unexpected argument '\(arguments.positionals[0])'; pass the text with --text", of: Self.self)
    }
    provider = try ProviderOptions(arguments, command: Self.self)
    text = arguments.value("text")
    allowsReplacement = arguments.has("replace")
    presses = arguments.allValues("press")
    source = arguments.value("from")
    target = arguments.value("to")
    anchor = arguments.value("anchor")
    arrowEdge = .top
    if let edge = arguments.value("arrow-edge") {
      guard let arrowEdge = ArrowEdge(rawValue: edge) else {
        throw .usage("'--arrow-edge' takes top, bottom, leading or trailing, not '\(edge)'", of: Self.self)
      }
      self.arrowEdge = arrowEdge
    }
    if let window = arguments.value("parent-window"), !window.isEmpty {
      guard let parentWindow = ParentWindow(window) else {
        throw .usage(
          "'--parent-window' takes x11:<hexadecimal window id> or wayland:<exported handle>, not '\(window)'", of: Self.self)
      }
      self.parentWindow = parentWindow
    }
    headless = arguments.has("headless")
    if let parent = arguments.value("close-with-parent") {
      guard let pid = Int32(parent), pid > 1 else {
        throw .usage("'--close-with-parent' takes the process id of this process's parent, not '\(parent)'", of: Self.self)
      }
      closingParent = pid
    }
    fromSelection = arguments.has("selection")
    switch (arguments.has("desktop"), arguments.has("terminal")) {
    case (true, true): throw .usage("'--desktop' and '--terminal' cannot be used together", of: Self.self)
    case (true, false): popover = .desktop
    case (false, true): popover = .terminal
    case (false, false): popover = nil
    }
    if popover != nil || fromSelection, !presses.isEmpty || headless {
      throw .usage(
        "'--press' and '--headless' run the scene without a popover; they cannot be used with '--desktop', '--terminal' or '--selection'",
        of: Self.self)
    }
    if fromSelection, text != nil {
      throw .usage("'--text' and '--selection' both give the text; use one", of: Self.self)
    }
    if fromSelection, popover == .terminal {
      throw .usage("'--selection' reads the graphical session's selection; it cannot be used with '--terminal'", of: Self.self)
    }
  }

  /// The terminal popover's placement from `--anchor` (a cell) and `--arrow-edge`.
  private func terminalPlacement() throws(CommandError) -> PopoverPlacement {
    var placement = PopoverPlacement(arrowEdge: arrowEdge)
    if let anchor {
      let parts = anchor.split(separator: ",", omittingEmptySubsequences: false).map { Int($0.trimmingWhitespace()) }
      guard parts.count == 2, let row = parts[0], let column = parts[1], row >= 1, column >= 1 else {
        throw .usage(
          "'--anchor' takes a terminal cell as <row>,<col> counted from 1, such as '5,12', not '\(anchor)'", of: Self.self)
      }
      placement.anchor = CellPosition(line: row - 1, column: column - 1)
    }
    return placement
  }

  /// The desktop popover's anchor from `--anchor` (a screen pixel); nil: the pointer.
  private func desktopAnchor() throws(CommandError) -> ScreenPoint? {
    guard let anchor else { return nil }
    guard let point = ScreenPoint(parsing: anchor), point.x >= 0, point.y >= 0 else {
      throw .usage(
        "'--anchor' takes a screen position in pixels as <x>,<y>, such as '640,360', not '\(anchor)'", of: Self.self)
    }
    return point
  }

  func run(in context: CommandContext) throws -> ExitCode {
    let output = context.output
    // First: a popover whose parent has gone has nobody to answer. SIGTERM's
    // default action ends this process, and its runner with it.
    if let closingParent, tp_host_close_with_parent(closingParent) != 0 {
      output.note("process \(closingParent), which showed the popover, has ended (or is not its parent); closing it")
      return .interrupted(by: Signal.terminate.rawValue)
    }
    let environment = context.environment
    let kind = try popoverKind(environment, output)
    if fromSelection, kind != .desktop {
      throw CommandError.usage(
        "'--selection' reads the graphical session's selection, and there is none (DISPLAY and WAYLAND_DISPLAY are unset)",
        of: Self.self)
    }
    // Before stdin, the selection or a provider is touched: in
    // translation-host, this is where the process becomes translation-host-desktop.
    let desktop = kind == .desktop ? try DesktopHandOff.frontEnd() : nil
    let input =
      fromSelection
      ? InputText(text: "", hadTrailingNewline: false)
      : try InputText.read(argument: text, command: Self.self, optionName: "--text")
    for (option, tag) in [("--from", source), ("--to", target)] {
      if let tag, !TranslateCommand.isLanguageTag(tag) {
        throw CommandError.usage(
          "'\(tag)' given to \(option) is not a BCP-47 language tag such as 'en' or 'pt-BR'", of: Self.self)
      }
    }
    let client = try provider.launchScene(in: context)
    defer { client.close() }
    let newline = input.hadTrailingNewline || (text != nil && output.stdoutIsTerminal) ? "\n" : ""

    if let kind, client.supports(.selectedTextScene) {
      switch try present(client, on: kind, desktop: desktop, input: input, environment: environment, output: output) {
      case .replaced(let replacement):
        try output.data(replacement + newline)
        return .success
      case .finished, .dismissed:
        return .dismissed
      }
    }

    guard presses.isEmpty else {
      guard client.supports(.selectedTextScene) else {
        throw SceneError.noScene(provider: client.bundle.identifier)
      }
      let first = try client.openScene(
        inputText: input.text, allowsReplacement: allowsReplacement, sourceLanguage: source, targetLanguage: target)
      switch try SceneScript(presses: presses).run(on: client, from: first, inputText: input.text) {
      case .replaced(let replacement):
        try output.data(replacement + newline)
        return .success
      case .dismissed:
        output.note("the scene closed without a replacement\(allowsReplacement ? "" : " (replacement needs --replace)")")
        return .dismissed
      case .unfinished(let tree):
        output.note("the scene did not finish after the last --press; it shows: \(tree.root.visibleText)")
        return .dismissed
      }
    }

    guard client.supports(.translate) else {
      var message =
        "provider '\(client.bundle.identifier)' cannot translate without its scene; press its buttons with --press <label>"
      if client.supports(.selectedTextScene),
        case .view(let tree) = try client.openScene(inputText: input.text, allowsReplacement: allowsReplacement)
      {
        message += " (its buttons: \(tree.buttons.map { "'\($0.label)'" }.joined(separator: ", ")))"
      }
      throw CommandError.usage(message, of: Self.self)
    }
    let (source, target) = try TranslateCommand.languages(
      source, target, text: input.text, environment: environment, command: Self.self)
    let translation = try client.translate([input.text], from: source, to: target)[0]
    if allowsReplacement {
      try output.data(translation + newline)
    } else {
      output.diagnostic(translation + "\n")
    }
    return .success
  }

  /// The scene in the popover of `kind` (`desktop`'s for `.desktop`), until it finishes or is dismissed.
  private func present(
    _ client: any SceneSession, on kind: PopoverKind, desktop: (any DesktopFrontEnd)?, input: InputText,
    environment: [String: String], output: Output
  ) throws -> PopoverOutcome {
    switch kind {
    case .desktop:
      guard let desktop else { preconditionFailure("the desktop popover without the desktop front end") }
      let request = DesktopPopoverRequest(
        anchor: try desktopAnchor(), arrowEdge: arrowEdge, parentWindow: parentWindow,
        text: fromSelection ? nil : input.text,
        allowsReplacement: allowsReplacement, sourceLanguage: source, targetLanguage: target, environment: environment,
        note: output.note, keepOnClipboard: { ClipboardHoldCommand.start(holding: $0, environment: environment) })
      return try desktop.presentPopover(request, session: client)
    case .terminal:
      return try PopoverPresentation(placement: try terminalPlacement(), environment: environment).present(
        session: client, text: input.text, allowsReplacement: allowsReplacement, sourceLanguage: source,
        targetLanguage: target)
    }
  }

  /// Which popover draws the scene, nil for none (`--press`, `--headless`,
  /// or nowhere to draw): the desktop's in a graphical session, else the
  /// terminal's. A popover asked for by name that cannot be drawn is an
  /// error; a terminal that cannot draw the default one gets a note.
  private func popoverKind(_ environment: [String: String], _ output: Output) throws -> PopoverKind? {
    guard presses.isEmpty, !headless else { return nil }
    switch popover {
    case .desktop:
      guard GraphicalSession.isAvailable(environment: environment) else { throw DesktopError.noGraphicalSession }
      return .desktop
    case .terminal:
      guard try PopoverPresentation.isAvailable(environment: environment) else { throw PopoverError.noTerminal(.notATerminal) }
      return .terminal
    case nil:
      if GraphicalSession.isAvailable(environment: environment) { return .desktop }
      do {
        return try PopoverPresentation.isAvailable(environment: environment) ? .terminal : nil
      } catch {
        output.note("\(error), so the scene runs without it")
        return nil
      }
    }
  }
}
