import FoundationEssentials
import Glibc
import TestSupport
import Testing

/// The popover as a layer surface on phoc 0.24 (Phosh's compositor, Debian's
/// `phoc`), a second wlroots compositor with `zwlr_layer_shell_v1`, headless
/// as an unprivileged user like sway: at the anchor with the arrow's tip on
/// it, no title bar, its keys working, and a click elsewhere dismissing it.
/// phoc has no IPC, so the popover places itself on its output at 0, 0 (no
/// sway layout), and the tests find it on grim's screenshots only, as what
/// differs from the screen before it came: phoc draws the pointer's cursor
/// (the tests' pointer, which gives phoc its seat).
extension DesktopSessions {
  @Suite struct Phoc {
    typealias Placement = LayerShell.Placement

    @Test(arguments: [
      Placement(anchor: (300, 200), edge: "top", tipOn: "top"),
      // 60 pixels above the output's bottom edge: no room below, so above.
      Placement(anchor: (640, 740), edge: "top", tipOn: "bottom"),
    ])
    func thePopoverIsALayerSurfaceAtTheAnchor(_ placement: Placement) throws {
      let shown = try Shown(anchor: "\(placement.anchor.x),\(placement.anchor.y)", options: ["--arrow-edge", placement.edge])
      try LayerShell.expectAtTheAnchor(shown.frame, placement, shot: shown.folder.path + "/shot.png")
      try shown.session.press("Return", "Tab", "Return")
      let outcome = try shown.popover.waitForExit()
      #expect(outcome.exitCode == 0, "\(outcome.stderr)")
      #expect(outcome.stdout == "dlrow olleH")
    }

    @Test func aClickElsewhereDismissesIt() throws {
      let shown = try Shown(anchor: "400,300")
      let (session, folder, before, frame) = (shown.session, shown.folder, shown.before, shown.frame)
      try session.click(x: 1000, y: 700)
      let outcome = try shown.popover.waitForExit(timeout: .seconds(20))
      #expect(outcome.exitCode == 2, "\(outcome.stderr)")
      #expect(outcome.stdout == "")
      // Gone: nothing differs from before where it was (the cursor has moved to the click, far from it).
      let shot = folder.path + "/shot.png"
      try session.screenshot(to: shot)
      let crop = "\(frame.width)x\(frame.height)+\(frame.x)+\(frame.y)"
      for path in [before, shot] {
        let cropped = try Command.run("/usr/bin/convert", [path, "-crop", crop, "+repage", path + ".crop.png"])
        #expect(cropped.exitCode == 0, "\(cropped.stderr)")
      }
      #expect(try Screenshot.differingPixels(before + ".crop.png", shot + ".crop.png") == 0, "still on the screen")
    }

    /// A phoc session showing the popover for "Hello world" at `anchor`
    /// ("x,y"), with the screen before it came and the popover's frame.
    struct Shown {
      let session: WaylandCompositor
      let folder: TemporaryDirectory
      let before: String
      let popover: RunningCommand
      let frame: RunningCommand.Frame

      init(anchor: String, options: [String] = []) throws {
        session = try WaylandCompositor(.phoc)
        folder = try TemporaryDirectory()
        before = folder.path + "/before.png"
        try session.screenshot(to: before)
        popover = try session.start(
          [
            Host.executable, "run", "--desktop", "--provider", "Reverse", "--replace", "--text", "Hello world",
            "--anchor", anchor,
          ] + options)
        frame = try Phoc.scene(of: popover, on: session, before: before, in: folder)
      }
    }

    /// The popover's scene: what differs from `before`, steady.
    static func scene(of popover: RunningCommand, on session: WaylandCompositor, before: String, in folder: TemporaryDirectory)
      throws -> RunningCommand.Frame
    {
      try popover.waitForScene(titled: LayerShell.reverse) {
        let shot = folder.path + "/shot.png"
        try session.screenshot(to: shot)
        return try Screenshot.changedArea(shot, from: before)
      }
    }
  }
}
