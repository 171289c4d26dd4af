import FoundationEssentials
import Glibc
import TestSupport
import Testing

extension DesktopSessions.Accessibility {
  /// Text that came from the clipboard (nothing selected in the focused
  /// terminal; PRIMARY owned by an editor's window, or by no one) is never
  /// replaced: the popover offers Copy Translation (Alt+C), which puts the
  /// translation on the clipboard, where it stays after the popover's
  /// process exits.
  @Test(arguments: [true, false])
  func clipboardTextOffersCopyInsteadOfReplace(primaryInAnotherWindow: Bool) throws {
    let desktop = try AccessibleDesktop()
    let host = try Host()
    let file = try desktop.folder.write("elsewhere.txt", Self.lines.joined(separator: "\n") + "\n")
    try desktop.start(["/usr/bin/mousepad", file])
    let editor = try desktop.display.window(matching: "^" + X11Server.escaped(file) + " - Mousepad$")
    try desktop.start(["/usr/bin/xterm", "-title", "terminal", "-geometry", "80x10+40+40"])
    let terminal = try desktop.display.window(named: "terminal")
    if primaryInAnotherWindow {
      try eventually("Mousepad to own PRIMARY with its first line", timeout: .seconds(30), interval: .milliseconds(500)) {
        try desktop.display.xdotool("windowactivate", "--sync", editor)
        try desktop.display.xdotool("key", "ctrl+Home", "shift+End")
        return try desktop.display.primarySelection() == Self.lines[0]
      }
    } else {
      #expect(try desktop.display.primarySelection() == nil, "something owns PRIMARY")
    }
    let copied = "The dog is on the table, and the cat is in the garden, and the bird is in the tree by the house."
    let translation = try Self.translation(of: copied, host: host)
    try desktop.display.setClipboard(copied)
    try desktop.display.xdotool("windowactivate", "--sync", terminal)
    let popover = try Self.popover(on: desktop, host: host)
    _ = try Self.press("alt+c", in: popover, on: desktop.display)
    let outcome = try popover.waitForExit()
    #expect(outcome.exitCode == 2, "\(outcome.stderr)")
    #expect(outcome.stdout == "")
    #expect(outcome.stderr.contains("the translation is copied"), "\(outcome.stderr)")
    try eventually("the translation to be on the clipboard", timeout: .seconds(30)) {
      try desktop.display.clipboard() == translation
    }
    // Kept there by the holder once the popover's process is gone, and nothing was replaced.
    Glibc.sleep(1)
    #expect(try desktop.display.clipboard() == translation)
    try desktop.display.xdotool("windowactivate", "--sync", editor)
    try desktop.display.xdotool("key", "ctrl+s")
    Glibc.sleep(1)
    #expect((try? String(contentsOfFile: file, encoding: .utf8)) == Self.lines.joined(separator: "\n") + "\n")
  }
}
