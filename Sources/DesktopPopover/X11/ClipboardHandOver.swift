import CGtk
import System

/// Whether the clipboard this process owns was taken over by another
/// process: the holder it started (`translation-host clipboard-hold`), or
/// an application something was copied in since.
///
/// A holder is started and not waited for; it can fail to start, exit
/// before it takes the clipboard, or leave it alone because it thinks
/// something newer was copied. If this process then exits, the X server
/// gives the clipboard to no one, and what it held is lost. So this
/// process stays until the X server says another process owns it.
enum ClipboardHandOver {
  /// How long a holder has to take the clipboard (it starts a process and opens a display: seconds on a loaded machine).
  static let timeout = Duration.seconds(10)

  /// Runs the main loop (GDK serves the clipboard meanwhile) until the X
  /// server says a window of another process owns the clipboard, or for
  /// `timeout`. The loop sleeps between X events: a new owner is one
  /// (GDK watches the clipboard's owner through XFixes).
  /// - Returns: whether another process owns it.
  static func wait(x11: X11Session, timeout: Duration = ClipboardHandOver.timeout) -> Bool {
    let own = Syscalls.processID
    return MainLoop.run(until: .after(timeout)) {
      guard let owner = x11.clipboardOwner, let process = x11.processID(owning: owner) else { return true }
      return process == own
    }
  }
}
