import CGtk
import System

/// Keeps a text on the clipboard after the popover's process has exited.
///
/// An X11 clipboard is served by its owner: when the owner exits, the
/// content is gone (unless a clipboard manager took a copy). A holder
/// process (`translation-host clipboard-hold`) owns it until another
/// application copies something, then exits. On Wayland a client cannot
/// take the clipboard without keyboard focus, so `wl-copy` (Debian's
/// wl-clipboard, which uses the compositor's data-control protocol) keeps it.
package enum ClipboardHolder {
  /// Owns the clipboard with `text` until another application takes it.
  package static func hold(_ text: String, environment: [String: String]) throws(DesktopPopoverError) {
    let display = try GtkSession.open(environment: environment)
    guard X11Session(display) != nil else {
      try handToWaylandCopy(text, environment: environment)
      return
    }
    let clipboard = gdk_display_get_clipboard(display)!
    gdk_clipboard_set_text(clipboard, text)
    final class Owner { var isOwner = true }
    let owner = Owner()
    GObjectBridge.onSignal(UnsafeMutableRawPointer(clipboard), "changed") {
      if gdk_clipboard_is_local(clipboard) == 0 { owner.isOwner = false }
    }
    while owner.isOwner { g_main_context_iteration(nil, 1) }
  }

  private static func handToWaylandCopy(_ text: String, environment: [String: String]) throws(DesktopPopoverError) {
    let path = (environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":").map { "\($0)/wl-copy" }
      .first { (try? FileStatus(path: $0))?.isRegularFile == true }
    guard let path else { throw .noClipboardKeeper }
    do {
      let (parent, child) = try Syscalls.socketPair()
      let pid = try Syscalls.spawn(
        path, arguments: [], environment: environment.map { "\($0)=\($1)" },
        actions: [.duplicate(child, as: .standardInput)], newSession: true)
      Syscalls.close(child)
      try? Syscalls.writeAll(parent, text)
      Syscalls.close(parent)
      _ = try Syscalls.wait(pid)
    } catch {
      throw .noClipboardKeeper
    }
  }
}
