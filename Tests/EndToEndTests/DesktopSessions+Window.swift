import FoundationEssentials
import Glibc
import TestSupport
import Testing

/// The popover's window as a person sees it under a window manager
/// (xfwm4): transparent outside its rounded outline (an X shape without a
/// compositor; a translucent window with a shadow with one), mapped where
/// it stays (no jump from where the window manager would put it), and gone
/// when the person clicks elsewhere.
extension DesktopSessions {
  @Suite struct Window {
    static let apertium = "Apertium (offline)"
    /// Where the pointer is when the popover starts: its arrow's tip.
    static let pointer = (x: 400, y: 200)
    /// What is under the popover: a terminal window painted in one colour.
    static let backdrop = "3465A4"

    /// The popover for a given text on `desktop`, anchored at the pointer (with a Replace button: taller than a spinner).
    static func popover(on desktop: AccessibleDesktop, host: Host) throws -> RunningCommand {
      try RunningCommand(
        [
          Host.executable, "run", "--replace", "--provider", "Apertium", "--from", "en", "--to", "es", "--text",
          "The cat is on the table.",
        ],
        environment: desktop.environment.merging(host.environment) { mine, _ in mine }.merging(
          ["TRANSLATION_HOST_PROVIDER_PATH": host.environment["TRANSLATION_HOST_PROVIDER_PATH"] ?? Host.providers]
        ) { $1 })
    }

    /// A desktop with a terminal in the backdrop's colour filling the screen, the pointer where the popover goes.
    static func desktop(compositor: Bool) throws -> AccessibleDesktop {
      let desktop = try AccessibleDesktop(compositor: compositor)
      try desktop.start([
        "/usr/bin/xterm", "-title", "backdrop", "-bg", "#" + backdrop, "-fg", "#" + backdrop, "-cr", "#" + backdrop,
        "-geometry", "200x60+0+0",
      ])
      _ = try desktop.display.window(named: "backdrop")
      try desktop.display.xdotool("mousemove", String(pointer.x), String(pointer.y))
      return desktop
    }

    /// The popover's window once its scene is drawn: its frame on the screen (xwininfo's).
    static func scene(of popover: RunningCommand, on desktop: AccessibleDesktop) throws -> (
      window: String, frame: RunningCommand.Frame
    ) {
      let window = try desktop.display.window(named: apertium)
      _ = try popover.waitForScene(titled: apertium) { try desktop.display.geometry(of: window) }
      let origin = try desktop.origin(of: window)
      let size = try desktop.display.geometry(of: window)
      return (window, (origin.x, origin.y, size.width, size.height))
    }

    @Test(arguments: [false, true])
    func outsideTheOutlineTheWindowBeneathShows(compositor: Bool) throws {
      let desktop = try Self.desktop(compositor: compositor)
      let host = try Host()
      let popover = try Self.popover(on: desktop, host: host)
      defer { popover.stop() }
      let (_, frame) = try Self.scene(of: popover, on: desktop)
      let shot = desktop.folder.path + "/popover.png"
      try desktop.display.screenshot(to: shot)

      // The outline: the window less the shadow's margin (with a compositor), its arrow's tip at the pointer.
      let margin = compositor ? 12 : 0
      #expect(frame.width > 200 && frame.height > 100, "\(frame)")
      let (x, y) = (frame.x + margin, frame.y + margin)
      let (width, height) = (frame.width - 2 * margin, frame.height - 2 * margin)
      let length = 10
      #expect(y == Self.pointer.y, "the arrow's tip is not at the pointer: \(frame)")
      let tip = Self.pointer.x
      // The body's corners, the arrow strip beside the arrow, beside the tip.
      let outside = [
        (x, y + length), (x + width - 1, y + length), (x, y + height - 1), (x + width - 1, y + height - 1),
        (x + 2, y + 2), (x + width - 3, y + 2), (tip - 4, y + 1), (tip + 4, y + 1),
      ]
      // The arrow near its tip, the body by its left and right edges.
      let inside = [(tip, y + 3), (x + 4, y + height / 2), (x + width - 5, y + height / 2)]
      // The window's own corners: in the shadow's margin, beyond the shadow.
      let margins = compositor ? [(frame.x, frame.y), (frame.x + frame.width - 1, frame.y + frame.height - 1)] : []
      let colours = try Screenshot.colours(in: shot, at: (outside + inside + margins).map { (x: $0.0, y: $0.1) })
      let (outer, inner, far) = (
        colours.prefix(outside.count), colours.dropFirst(outside.count).prefix(inside.count),
        colours.suffix(margins.count)
      )
      for (point, colour) in zip(outside, outer) {
        if compositor {
          // The backdrop, or the backdrop darkened by the shadow: never the popover's colour, nor black.
          #expect(Screenshot.distance(colour, Self.backdrop) < 80, "\(point) shows \(colour)")
        } else {
          #expect(colour == Self.backdrop, "\(point) shows \(colour), not what is beneath")
        }
      }
      for (point, colour) in zip(margins, far) { #expect(colour == Self.backdrop, "\(point) shows \(colour)") }
      let fill = try #require(inner.first)
      for (point, colour) in zip(inside, inner) {
        #expect(colour == fill, "\(point) shows \(colour), not the popover's \(fill)")
      }
      #expect(Screenshot.distance(fill, Self.backdrop) > 80, "the popover's colour \(fill) is the backdrop's")
      try desktop.display.xdotool("key", "Escape")
      #expect(try popover.waitForExit().exitCode == 2)
    }

    /// Watched from the X server's events (Tests/Fixtures/map_watch.c): the
    /// popover's window is mapped where it ends up, below the pointer, and
    /// not moved when its scene, of another size, replaces the spinner.
    @Test func itIsMappedWhereItStays() throws {
      let desktop = try Self.desktop(compositor: false)
      let host = try Host()
      let watcher = try CFixture.compileProgram(
        CFixture.packageRoot + "/Tests/Fixtures/map_watch.c", libraries: ["X11"], name: "map_watch", in: desktop.folder)
      let watch = try desktop.start([watcher, "translation-host", "60"])
      try eventually("the watcher to start", timeout: .seconds(30)) { watch.stdout.hasPrefix("ready\n") }
      let popover = try Self.popover(on: desktop, host: host)
      defer { popover.stop() }
      let (window, frame) = try Self.scene(of: popover, on: desktop)
      let lines = watch.stdout.split(separator: "\n").dropFirst()
      let first = try #require(lines.first, "no MapNotify seen")
      #expect(first == "map \(frame.x) \(frame.y)", "mapped at \(first), shown at \(frame)")
      #expect(lines.count == 1, "moved after it was mapped: \(lines)")
      #expect(frame.y == Self.pointer.y && frame.x <= Self.pointer.x && Self.pointer.x < frame.x + frame.width)
      try desktop.display.xdotool("windowfocus", "--sync", window)
      try desktop.display.xdotool("key", "Escape")
      #expect(try popover.waitForExit().exitCode == 2)
    }

    @Test func aClickElsewhereDismissesIt() throws {
      let desktop = try Self.desktop(compositor: false)
      let host = try Host()
      let popover = try Self.popover(on: desktop, host: host)
      defer { popover.stop() }
      let (window, _) = try Self.scene(of: popover, on: desktop)
      try eventually("the popover to have the focus", timeout: .seconds(10)) {
        (try? desktop.display.xdotool("getwindowfocus").trimmingWhitespace()) == window
      }
      // A click on the terminal beneath, far from the popover.
      try desktop.display.xdotool("mousemove", "900", "600", "click", "1")
      let outcome = try popover.waitForExit(timeout: .seconds(20))
      #expect(outcome.exitCode == 2, "\(outcome.stderr)")
      #expect(outcome.stdout == "")
      #expect(!desktop.display.hasWindow(named: Self.apertium))
    }
  }
}
