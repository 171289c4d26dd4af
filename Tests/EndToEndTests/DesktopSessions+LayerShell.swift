import FoundationEssentials
import Glibc
import TestSupport
import Testing

/// The popover as a layer surface on sway (headless, as an unprivileged
/// user): it is no window of sway's tree, its pixels are at the anchor
/// with the arrow's tip on it, with no title bar; it answers keys, Esc
/// dismisses it; and text selected in gnome-text-editor is replaced in
/// place through AT-SPI, exactly.
extension DesktopSessions {
  @Suite struct LayerShell {
    static let reverse = "Reverse (Apple's sample)"
    /// `DesktopPlacement.arrowLength`.
    static let arrowLength = 10

    /// The popover's pixels on an empty output: what differs from sway's
    /// background (the corner's colour), as ImageMagick trims it; nil when
    /// nothing does.
    static func drawnFrame(on session: WaylandCompositor, in folder: TemporaryDirectory) throws -> RunningCommand.Frame? {
      let path = folder.path + "/shot.png"
      try session.screenshot(to: path)
      let result = try Command.run("/usr/bin/convert", [path, "-fuzz", "2%", "-format", "%@", "info:"])
      guard result.exitCode == 0 else { throw ToolFailed(tool: "convert", result: result) }
      // WxH+X+Y, the box a trim would keep; one that finds nothing keeps one pixel (or none).
      let numbers = result.stdout.split(whereSeparator: { "x+".contains($0) }).compactMap { Int($0) }
      guard numbers.count == 4, numbers[0] > 1, numbers[1] > 1 else { return nil }
      return (numbers[2], numbers[3], numbers[0], numbers[1])
    }

    /// Waits for the popover's scene (taller than the spinner alone, its frame steady).
    static func scene(of popover: RunningCommand, on session: WaylandCompositor, in folder: TemporaryDirectory) throws
      -> RunningCommand.Frame
    {
      try popover.waitForScene(titled: reverse) { try drawnFrame(on: session, in: folder) }
    }

    struct Placement: Sendable, CustomTestStringConvertible {
      var anchor: (x: Int, y: Int)
      var edge: String
      /// Where the arrow's tip must be: on the frame's top edge (`top`) or its bottom edge (`bottom`).
      var tipOn: String
      var testDescription: String { "anchor \(anchor.x),\(anchor.y), arrow edge \(edge)" }
    }

    /// At the anchor (`--anchor`, screen pixels): the arrow's tip on it,
    /// below it for `top`, above it for `bottom`, flipped where the
    /// output has no room; the body centred on it where the output allows.
    @Test(arguments: [
      Placement(anchor: (300, 200), edge: "top", tipOn: "top"),
      Placement(anchor: (900, 600), edge: "bottom", tipOn: "bottom"),
      // 60 pixels above the output's bottom edge: no room below, so above.
      Placement(anchor: (640, 740), edge: "top", tipOn: "bottom"),
      // Near the left edge: the body stays on the output, the tip still at the anchor.
      Placement(anchor: (30, 100), edge: "top", tipOn: "top"),
    ])
    func thePopoverIsALayerSurfaceAtTheAnchor(_ placement: Placement) throws {
      let session = try WaylandCompositor()
      let folder = try TemporaryDirectory()
      let popover = try session.start([
        Host.executable, "run", "--desktop", "--provider", "Reverse", "--replace", "--text", "Hello world",
        "--anchor", "\(placement.anchor.x),\(placement.anchor.y)", "--arrow-edge", placement.edge,
      ])
      let frame = try Self.scene(of: popover, on: session, in: folder)
      // A layer surface: no window of sway's tree, titled or not.
      #expect(try session.frame(ofWindowTitled: Self.reverse) == nil)
      #expect(try !session.hasWindow(titledLike: "Reverse"))
      #expect(try !session.hasWindow(titledLike: "translation-host"))
      // The tip at the anchor: the frame's top (or bottom) row is the anchor's.
      if placement.tipOn == "top" {
        #expect(frame.y == placement.anchor.y, "\(frame)")
      } else {
        #expect(frame.y + frame.height == placement.anchor.y, "\(frame)")
      }
      #expect(frame.x <= placement.anchor.x && placement.anchor.x < frame.x + frame.width, "\(frame)")
      if placement.anchor.x - frame.width / 2 > 0 {
        #expect(abs(frame.x + frame.width / 2 - placement.anchor.x) <= 1, "\(frame)")
      }
      #expect(frame.width <= 480 && frame.height < 400, "\(frame)")
      let shot = folder.path + "/shot.png"
      let colours = try Screenshot.colours(in: shot, x: frame.x, y: frame.y, width: frame.width, height: frame.height)
      #expect(colours > 16, "the popover looks empty: \(colours) colours")
      // No title bar: the body's first rows are the colour of its last ones, the popover's background.
      let bodyTop = placement.tipOn == "top" ? frame.y + Self.arrowLength : frame.y
      let bodyBottom = placement.tipOn == "top" ? frame.y + frame.height : frame.y + frame.height - Self.arrowLength
      let centre = frame.x + frame.width / 2
      let samples = try Screenshot.colours(
        in: shot, at: [(centre, bodyTop + 3), (frame.x + 12, bodyTop + 4), (centre, bodyBottom - 3), (5, 5)])
      #expect(Screenshot.distance(samples[0], samples[2]) <= 8, "\(samples)")
      #expect(Screenshot.distance(samples[1], samples[2]) <= 8, "\(samples)")
      #expect(Screenshot.distance(samples[0], samples[3]) > 64, "the popover is the background's colour: \(samples)")
      // Its keys: Translate has the focus; Tab moves it to Replace With Translation.
      try session.press("Return", "Tab", "Return")
      let outcome = try popover.waitForExit()
      #expect(outcome.exitCode == 0, "\(outcome.stderr)")
      #expect(outcome.stdout == "dlrow olleH")
    }

    @Test func escapeDismissesIt() throws {
      let session = try WaylandCompositor()
      let folder = try TemporaryDirectory()
      let popover = try session.start([
        Host.executable, "run", "--desktop", "--provider", "Reverse", "--replace", "--text", "Hello world",
        "--anchor", "400,300",
      ])
      _ = try Self.scene(of: popover, on: session, in: folder)
      try session.press("Escape")
      let outcome = try popover.waitForExit()
      #expect(outcome.exitCode == 2, "\(outcome.stderr)")
      #expect(outcome.stdout == "")
      #expect(try Self.drawnFrame(on: session, in: folder) == nil, "the popover is still on the screen")
    }

    /// The resident agent (a `GtkApplication`) shows its popovers as layer
    /// surfaces too, one after another, and its `dismiss` action takes one away.
    @Test func theAgentShowsItsPopoversAsLayerSurfaces() throws {
      let session = try WaylandCompositor()
      let desktop = try AccessibleSway(session)
      let folder = try TemporaryDirectory()
      let agent = try desktop.start([Host.desktopExecutable, "agent", "--idle-exit", "0"])
      try eventually(
        "the agent on the session bus", timeout: .seconds(60), interval: .milliseconds(100), detail: { agent.stderr }
      ) {
        let owner = try desktop.run(
          "/usr/bin/gdbus", "call", "--session", "--dest", "org.freedesktop.DBus", "--object-path", "/org/freedesktop/DBus",
          "--method", "org.freedesktop.DBus.NameHasOwner", "org.translationhost.Desktop")
        return owner.stdout.contains("true")
      }
      for (text, anchor) in [("Hello world", (x: 500, y: 150)), ("Second", (x: 800, y: 400))] {
        let options = ["--provider", "Reverse", "--from", "en", "--text", text, "--anchor", "\(anchor.x),\(anchor.y)"]
        let action = try desktop.run(
          "/usr/bin/gapplication", "action", "org.translationhost.Desktop", "run",
          "[" + options.map { "'\($0)'" }.joined(separator: ", ") + "]")
        #expect(action.exitCode == 0, "\(action.stderr)")
        let frame = try agent.waitForScene(titled: Self.reverse) { try Self.drawnFrame(on: session, in: folder) }
        #expect(frame.y == anchor.y && abs(frame.x + frame.width / 2 - anchor.x) <= 1, "\(frame)")
        #expect(try !session.hasWindow(titledLike: "Reverse"))
        try desktop.run("/usr/bin/gapplication", "action", "org.translationhost.Desktop", "dismiss")
        try eventually("the popover to go", timeout: .seconds(10), interval: .milliseconds(100), detail: { agent.stderr }) {
          try Self.drawnFrame(on: session, in: folder) == nil
        }
      }
    }

    /// The selection in gnome-text-editor, found over AT-SPI (the field of
    /// the window sway says has the focus), is translated in a layer
    /// surface and replaced in place through `EditableText`: exactly, with
    /// no clipboard and no note.
    @Test func replaceGoesIntoTheEditorThroughAccessibility() throws {
      let session = try WaylandCompositor()
      let desktop = try AccessibleSway(session)
      let file = session.runtime + "/home/sentence.txt"
      try session.run("/bin/sh", "-c", "printf 'Keep this. Hello world\\n' > \"$1\"", "sh", file)
      let editor = try desktop.start(["/usr/bin/gnome-text-editor", "--standalone", file])
      try eventually("the editor's window", timeout: .seconds(60), interval: .milliseconds(200), detail: { editor.stderr }) {
        try session.hasWindow(titledLike: "sentence.txt")
      }
      // Hello world alone: the end of the first line, back 11 characters with Shift held.
      try eventually("the editor's selection", timeout: .seconds(30), interval: .milliseconds(500)) {
        let left = Array(repeating: ["-k", "Left"], count: 11).flatMap { $0 }
        let keys = ["-s", "30", "-M", "ctrl", "-k", "Home", "-m", "ctrl", "-k", "End", "-M", "shift"] + left + ["-m", "shift"]
        let typed = try session.run("/usr/bin/wtype", keys)
        guard typed.exitCode == 0 else { throw ToolFailed(tool: "wtype", result: typed) }
        return try session.primarySelection() == "Hello world"
      }
      let folder = try TemporaryDirectory()
      let before = folder.path + "/before.png"
      try session.screenshot(to: before)
      let popover = try desktop.start([Host.executable, "run", "--selection", "--replace", "--provider", "Reverse"])
      // The scene: some 200 × 200 pixels changed, the same in 5 screenshots in a row.
      var last = -1
      var steady = 0
      try eventually("the popover's scene", timeout: .seconds(60), interval: .milliseconds(100), detail: { popover.stderr }) {
        guard !popover.hasEnded else { throw RunningCommand.PopoverEnded(stderr: popover.stderr) }
        let shot = folder.path + "/shot.png"
        try session.screenshot(to: shot)
        let changed = try Screenshot.differingPixels(before, shot)
        steady = changed == last ? steady + 1 : 0
        last = changed
        return changed > 30_000 && steady >= 5
      }
      #expect(try !session.hasWindow(titledLike: "Reverse"), "the popover is a window, not a layer surface")
      try session.press("Return", "Tab", "Return")
      let outcome = try popover.waitForExit()
      #expect(outcome.exitCode == 0, "\(outcome.stderr)")
      #expect(outcome.stdout == "dlrow olleH")
      #expect(!outcome.stderr.contains("Ctrl+V"), "\(outcome.stderr)")
      try eventually("the editor to hold the translation", timeout: .seconds(30), interval: .milliseconds(500)) {
        try session.chord("ctrl", "s")
        return (try? String(contentsOfFile: file, encoding: .utf8)) == "Keep this. dlrow olleH\n"
      }
    }
  }
}

/// sway with what AT-SPI needs: a session bus of its own (on which the
/// accessibility bus is activated), accessibility on for the programs
/// started, and a keyboard that stays (a virtual one that types nothing):
/// without a keyboard on the seat, GTK 4 marks no widget focused, and
/// `wtype`'s keyboard goes when it exits.
final class AccessibleSway {
  let session: WaylandCompositor
  let environment: [String: String]
  private let bus: RunningCommand
  private let keyboard: RunningCommand
  private var programs: [RunningCommand] = []

  init(_ session: WaylandCompositor) throws {
    self.session = session
    bus = try session.start(["/usr/bin/dbus-daemon", "--session", "--nofork", "--print-address=1"])
    let bus = bus
    let address = try eventually("the session bus to start", timeout: .seconds(30), detail: { bus.stderr }) {
      bus.stdout.hasSuffix("\n") ? bus.stdout.trimmingWhitespace() : nil
    }
    var environment = session.environment
    environment["NO_AT_BRIDGE"] = nil
    environment["GTK_A11Y"] = nil
    environment["DBUS_SESSION_BUS_ADDRESS"] = address
    self.environment = environment
    // F24 after an hour: the keyboard stays on the seat until the test stops it.
    keyboard = try RunningCommand(session.command(["/usr/bin/wtype", "-s", "3600000", "-k", "F24"]), environment: environment)
  }

  deinit {
    for program in programs.reversed() { program.stop() }
    keyboard.stop()
    bus.stop()
  }

  /// Runs `program` on the session, as its user, with this bus.
  @discardableResult
  func run(_ program: String, _ arguments: String...) throws -> Command.Result {
    let full = session.command([program] + arguments)
    return try Command.run(full[0], Array(full.dropFirst()), environment: environment)
  }

  /// Starts `arguments` on the session, as its user, with accessibility on; stopped with this.
  func start(_ arguments: [String]) throws -> RunningCommand {
    let program = try RunningCommand(session.command(arguments), environment: environment)
    programs.append(program)
    return program
  }
}
