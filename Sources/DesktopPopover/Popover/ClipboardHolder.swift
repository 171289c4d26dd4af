import CGtk
import Presentation
import System

/// Keeps contents on the clipboard after the popover's process has exited.
///
/// An X11 clipboard is served by its owner: when the owner exits, the
/// content is gone (unless a clipboard manager took a copy). A holder
/// process (`translation-host clipboard-hold`) owns it, every format as it
/// was read, until another application copies something; it then stays
/// until the new owner has answered what GTK asked it on the change (its
/// formats), since an owner that answers a window already destroyed gets
/// an X error, of which xclip dies, taking the new copy with it. On Wayland
/// a client cannot take the clipboard without keyboard focus, so `wl-copy`
/// (Debian's wl-clipboard, which uses the compositor's data-control
/// protocol) keeps it: the text, or else the first format (it holds one).
package enum ClipboardHolder {
  /// How long a lost clipboard's holder waits for the new owner's answer.
  static let handOverTimeout = Duration.seconds(2)
  /// How long nothing must come from the new owner before the holder's window goes.
  static let handOverQuiet = Duration.milliseconds(300)

  /// Owns the clipboard with `contents` until another application takes
  /// it. With `owner`, on X11, only if process `owner` or no one owns it
  /// now: otherwise something was copied since, and is left alone.
  package static func hold(
    _ contents: ClipboardContents, unlessCopiedSince owner: Int32? = nil, environment: [String: String]
  ) throws(DesktopPopoverError) {
    let display = try GtkSession.open(environment: environment)
    guard let x11 = X11Session(display) else {
      try handToWaylandCopy(contents, environment: environment)
      return
    }
    let clipboard = gdk_display_get_clipboard(display)!
    // Checked and taken in one step: GDK claims the clipboard at the
    // server's current time, so a copy made between the check and the
    // claim would be taken over (and xclip, which exits when it loses the
    // clipboard, would take that copy with it).
    let taken = x11.withServerGrabbed { () -> Bool in
      if let owner, let current = x11.clipboardOwner, x11.processID(owning: current) != owner { return false }
      GObjectBridge.setContents(clipboard, contents)
      return true
    }
    guard taken else { return }
    // The claim can fail (the X server refuses a claim older than the
    // last change): then nothing is held, which the process that started
    // this holder sees (it still owns the clipboard) and says.
    guard x11.ownsClipboard else { throw .clipboardNotTaken }
    serve(clipboard, contents, x11: x11)
  }

  /// Serves `contents`, which this process owns on `clipboard`, until
  /// another application copies something and has answered what GTK asks
  /// it on the change.
  static func serve(_ clipboard: OpaquePointer, _ contents: ClipboardContents, x11: X11Session) {
    final class Owner { var isOwner = true }
    let owner = Owner()
    GObjectBridge.onSignal(UnsafeMutableRawPointer(clipboard), "changed") {
      if gdk_clipboard_is_local(clipboard) == 0 { owner.isOwner = false }
    }
    while true {
      while owner.isOwner { g_main_context_iteration(nil, 1) }
      // GDK took the clipboard to be another's: the X server says whose it
      // is. Still this process's (GDK misread an event), it is claimed
      // again, or the contents would go when this process exits.
      let claimedAgain = x11.withServerGrabbed { () -> Bool in
        guard x11.ownsClipboard else { return false }
        GObjectBridge.setContents(clipboard, contents)
        return true
      }
      guard claimedAgain else { break }
      owner.isOwner = true
    }
    // GTK asks the new owner for its formats: the answer comes to a window of this process.
    MainLoop.run(until: .after(handOverTimeout)) { !hasFormats(clipboard) }
    // What is still under way (the answer's last events, a request the new
    // owner's toolkit makes after the formats) is served before the window
    // goes: until nothing has come for a while.
    MainLoop.runUntilQuiet(for: handOverQuiet, until: .after(handOverTimeout))
  }

  private static func hasFormats(_ clipboard: OpaquePointer) -> Bool {
    guard let formats = gdk_clipboard_get_formats(clipboard) else { return false }
    var count = 0
    return gdk_content_formats_get_mime_types(formats, &count) != nil && count > 0
  }

  /// Whether `wl-copy` is on `environment`'s PATH: without it, nothing keeps
  /// a Wayland clipboard once this process exits.
  package static func waylandCopyPath(environment: [String: String]) -> String? {
    (environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":").map { "\($0)/wl-copy" }
      .first { (try? FileStatus(path: $0))?.isRegularFile == true }
  }

  private static func handToWaylandCopy(
    _ contents: ClipboardContents, environment: [String: String]
  ) throws(DesktopPopoverError) {
    guard let path = waylandCopyPath(environment: environment) else { throw .noClipboardKeeper }
    guard let format = contents.formats.first(where: { $0.mimeType == ClipboardContents.textType }) ?? contents.formats.first
    else { return }
    do {
      let (parent, child) = try Syscalls.socketPair()
      let pid = try Syscalls.spawn(
        path, arguments: ["--type", format.mimeType], environment: environment.map { "\($0)=\($1)" },
        actions: [.duplicate(child, as: .standardInput)], newSession: true)
      Syscalls.close(child)
      try? Syscalls.writeAll(parent, format.bytes)
      Syscalls.close(parent)
      _ = try Syscalls.wait(pid)
    } catch {
      throw .noClipboardKeeper
    }
  }
}
