import FoundationEssentials
import Glibc
import TestSupport
import Testing

/// The popover as a layer surface on sway (headless, as an unprivileged
/// user): it is no window of sway's tree, its pixels are at the anchor
/// with the arrow's tip on it, with no title bar, at an output scale of 1
/// and 2; it answers keys, a held key repeats, Esc dismisses it, and so does
/// a click elsewhere (not one inside); and text selected in
/// gnome-text-editor is replaced in place through AT-SPI, exactly.
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
      try Self.expectAtTheAnchor(frame, placement, shot: folder.path + "/shot.png")
      // Its keys: Translate has the focus; Tab moves it to Replace With Translation.
      try session.press("Return", "Tab", "Return")
      let outcome = try popover.waitForExit()
      #expect(outcome.exitCode == 0, "\(outcome.stderr)")
      #expect(outcome.stdout == "dlrow olleH")
    }

    /// The popover's `frame` on the screenshot at `shot`: the arrow's tip at
    /// the anchor, the body centred on it where the output allows, no title
    /// bar (the body's first rows are the colour of its last ones).
    static func expectAtTheAnchor(_ frame: RunningCommand.Frame, _ placement: Placement, shot: String) throws {
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
    }

    struct Click: Sendable, CustomTestStringConvertible {
      var name: String
      /// Where, relative to the popover: inside its body (its left padding, no control), or elsewhere on the output.
      var inside: Bool
      /// A window under the click (sway tiles it over the whole output).
      var overWindow: Bool
      var testDescription: String { name }
    }

    /// A click elsewhere dismisses the popover, on the empty desktop and on
    /// a window (which sway 1.7 does not give the keyboard focus while the
    /// popover has it: the catcher over the output takes the click); a click
    /// inside it, on no control, does not.
    @Test(arguments: [
      Click(name: "inside, on no control", inside: true, overWindow: false),
      Click(name: "elsewhere, on the empty desktop", inside: false, overWindow: false),
      Click(name: "elsewhere, on a window", inside: false, overWindow: true),
    ])
    func aClickElsewhereDismissesIt(_ click: Click) throws {
      let session = try WaylandCompositor()
      let folder = try TemporaryDirectory()
      var window: RunningCommand?
      defer { window?.stop() }
      if click.overWindow {
        window = try session.start([
          "/usr/bin/python3", WaylandCompositor.fixture("exporting_window.py"), "Beneath",
        ])
        try eventually("the window", timeout: .seconds(60), interval: .milliseconds(200), detail: { window!.stderr }) {
          try session.hasWindow(titledLike: "Beneath")
        }
      }
      // The screen before the popover: the window drawn (its label's
      // colours), the same in two screenshots in a row.
      let before = folder.path + "/before.png"
      let next = folder.path + "/next.png"
      let size = WaylandCompositor.size
      try session.screenshot(to: before)
      try eventually("the screen to settle", timeout: .seconds(60), interval: .milliseconds(300)) {
        try session.screenshot(to: next)
        let settled =
          try Screenshot.differingPixels(before, next) == 0
          && (!click.overWindow
            || Screenshot.colours(in: next, x: 0, y: 0, width: size.width, height: size.height) > 8)
        try FileManager.default.removeItem(atPath: before)
        try FileManager.default.moveItem(atPath: next, toPath: before)
        return settled
      }
      let popover = try session.start([
        Host.executable, "run", "--desktop", "--provider", "Reverse", "--replace", "--text", "Hello world",
        "--anchor", "400,300",
      ])
      // The scene: what differs from the screen before it came (on the
      // empty desktop, from its colour: one image to read), steady.
      let frame = try popover.waitForScene(titled: Self.reverse) {
        guard click.overWindow else { return try Self.drawnFrame(on: session, in: folder) }
        let shot = folder.path + "/shot.png"
        try session.screenshot(to: shot)
        return try Screenshot.changedArea(shot, from: before)
      }
      if click.inside {
        try session.click(x: frame.x + 4, y: frame.y + frame.height / 2)
        // Given time to go, it stays, drawn where it was.
        usleep(1_500_000)
        #expect(!popover.hasEnded, "a click inside dismissed it: \(popover.stderr)")
        let still = try Self.drawnFrame(on: session, in: folder)
        #expect(still.map { $0 == frame } == true, "\(String(describing: still)) after \(frame)")
        try session.press("Escape")
      } else {
        try session.click(x: 1000, y: 700)
      }
      let outcome = try popover.waitForExit(timeout: .seconds(20))
      #expect(outcome.exitCode == 2, "\(outcome.stderr)")
      #expect(outcome.stdout == "")
      // Gone: where it was, the screen is as before (the window beneath, if any, has the focus back).
      try eventually("the popover to go from the screen", timeout: .seconds(20), interval: .milliseconds(200)) {
        let shot = folder.path + "/shot.png"
        try session.screenshot(to: shot)
        guard let changed = try Screenshot.changedArea(shot, from: before) else { return true }
        return changed.x >= frame.x + frame.width || frame.x >= changed.x + changed.width
          || changed.y >= frame.y + frame.height || frame.y >= changed.y + changed.height
      }
    }

    /// A key held in the popover's field repeats at the compositor's rate
    /// (sway's default: after 600 ms, 25 a second), as in any GTK field:
    /// Backspace held for 1.2 s deletes some 16 characters, not one.
    @Test func aHeldKeyRepeats() throws {
      let session = try WaylandCompositor()
      let folder = try TemporaryDirectory()
      let library = try CFixture.compile(
        CFixture.packageRoot + "/Tests/Fixtures/form_provider.c", name: "libForm", in: folder)
      let bundle = try BundleFixture(name: "Form", identifier: "org.example.form").write(
        name: "Form", in: folder, library: library)
      // A keyboard that stays on the seat: each wtype's own comes and goes, and
      // the popover binds a new keyboard only once sway announced it.
      let keyboard = try session.start(["/usr/bin/wtype", "-s", "3600000", "-k", "F24"])
      defer { keyboard.stop() }
      let popover = try session.start([
        Host.executable, "run", "--desktop", "--provider", bundle, "--replace", "--text", "hi", "--anchor", "400,300",
      ])
      _ = try popover.waitForScene(titled: "Form") { try Self.drawnFrame(on: session, in: folder) }
      // The field has the focus: typed into, then Backspace held.
      let typed = "abcdefghijklmnopqrstuvwxyz0123"
      let typing = try session.run("/usr/bin/wtype", "-s", "300", typed)
      #expect(typing.exitCode == 0, "\(typing.stderr)")
      let held = try session.run("/usr/bin/wtype", "-s", "300", "-P", "BackSpace", "-s", "1200", "-p", "BackSpace")
      #expect(held.exitCode == 0, "\(held.stderr)")
      // Done (the field, Later, Expand, Done) finishes with the field's text.
      try session.press("Tab", "Tab", "Tab", "Return")
      let outcome = try popover.waitForExit()
      #expect(outcome.exitCode == 0, "\(outcome.stderr)")
      #expect(typed.hasPrefix(outcome.stdout), "\(outcome.stdout)")
      // Pressed once, then 600 ms later every 40 ms: 1 + 15 in 1.2 s; a loaded machine's timers may fire late.
      let deleted = typed.count - outcome.stdout.count
      #expect((4...20).contains(deleted), "deleted \(deleted): \(outcome.stdout); \(outcome.stderr)")
    }

    /// On an output of scale 2 (2560×1600 pixels, 1280×800 logical) the
    /// popover is placed in logical pixels, exactly as at scale 1, and drawn
    /// with twice the pixels: its buffer has scale 2 and is the size of what
    /// grim finds on the screen, not enlarged by the compositor from half.
    @Test func onAScaleTwoOutputItIsDrawnAtTwiceThePixels() throws {
      let session = try WaylandCompositor(scale: 2)
      let folder = try TemporaryDirectory()
      let anchor = (x: 300, y: 200)
      let popover = try session.start([
        "/usr/bin/env", "WAYLAND_DEBUG=client", Host.executable, "run", "--desktop", "--provider", "Reverse", "--text",
        "Hello world", "--anchor", "\(anchor.x),\(anchor.y)", "--arrow-edge", "top",
      ])
      let frame = try Self.scene(of: popover, on: session, in: folder)
      // grim's pixels: two to a logical one.
      #expect(frame.y == 2 * anchor.y, "\(frame)")
      #expect(abs(frame.x + frame.width / 2 - 2 * anchor.x) <= 2, "\(frame)")
      #expect(frame.width <= 2 * 480 && frame.width > 2 * 100, "\(frame)")
      // The requests the popover sent (libwayland's log): buffer scale 2,
      // and a buffer as large as the frame on the screen.
      let log = popover.stderr
      #expect(log.contains("set_buffer_scale(2)"), "no buffer scale 2 asked for")
      let sizes = log.split(separator: "\n").filter { $0.contains("wl_shm_pool@") && $0.contains(".create_buffer(") }.map {
        line in
        line.split(separator: ",").dropFirst(2).prefix(2).compactMap { Int(String($0).trimmingWhitespace()) }
      }
      #expect(
        sizes.contains { $0.count == 2 && abs($0[0] - frame.width) <= 4 && abs($0[1] - frame.height) <= 4 },
        "no buffer the size of \(frame) among \(sizes)")
      try session.press("Escape")
      _ = try popover.waitForExit()
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
