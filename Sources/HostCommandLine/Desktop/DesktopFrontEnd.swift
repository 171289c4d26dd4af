import Presentation
import Service
import System

/// What of `translation-host` needs GTK 4 and X11: the desktop popover, the
/// process that keeps a clipboard, and GTK's reading of a shortcut's key.
///
/// `translation-host-desktop` implements it with `DesktopPopover` and
/// registers it (`DesktopHandOff.register`) before any command runs.
/// `translation-host` links none of it: a command that needs it asks
/// `DesktopHandOff.frontEnd()`, which there replaces the process with
/// `translation-host-desktop`, and the command starts again from its first
/// line, with the front end.
///
/// Rationale: GTK and the ~70 libraries it needs cost every process that
/// links them ~20 ms of dynamic linking at start, whether it opens a window
/// or not; most commands never do.
package protocol DesktopFrontEnd: Sendable {
  /// Shows `session`'s scene in the desktop popover until the provider
  /// finishes or the person dismisses it. The window is gone when it returns
  /// or throws; a replacement of the selection has been pasted back over it.
  func presentPopover(_ request: DesktopPopoverRequest, session: any SceneSession) throws -> PopoverOutcome

  /// Keeps `contents` (every format) on the clipboard until another
  /// application copies something (an X11 clipboard is gone when its owner
  /// exits) and has answered what it was asked; returns then. With
  /// `owner`, only if that process or no one owns the clipboard when the
  /// holder is ready (else something newer was copied, and is left alone).
  func holdClipboard(_ contents: ClipboardContents, unlessCopiedSince owner: Int32?, environment: [String: String]) throws

  /// `key` in GTK's accelerator syntax as GTK reads it: normalised, and as
  /// sway writes it; nil when GTK cannot parse it.
  func shortcutKey(_ key: String) -> (name: String, swayName: String)?

  /// Runs the resident desktop agent (`org.translationhost.Desktop`) in
  /// this process until it exits: GTK warm, each request shown by `run`
  /// (the arguments of `translation-host run`, checked, `--desktop`
  /// first, with where its stdout and stderr go for a caller of the
  /// agent's socket; it returns `run`'s exit status) on this thread. It
  /// exits after `idleExit` without requests (nil: never) or on SIGTERM.
  /// `note` tells what it refused. With `globalShortcut` (GTK's syntax) it
  /// binds that key through the GlobalShortcuts portal and holds it.
  /// - Returns: false when another agent of this session was running already.
  func runAgent(
    idleExit: Duration?, globalShortcut: String?, environment: [String: String], note: @escaping (String) -> Void,
    run: @escaping ([String], _ standardOutput: FileDescriptor?, _ standardError: FileDescriptor?) -> Int32
  ) throws -> Bool
}

/// What `run` asks of the desktop popover.
package struct DesktopPopoverRequest {
  /// The screen pixel the arrow points at; nil: the pointer.
  package var anchor: ScreenPoint?
  /// The side of the popover whose arrow points at the anchor.
  package var arrowEdge: ArrowEdge
  /// The application window the popover is for (`--parent-window`); nil: none given.
  package var parentWindow: ParentWindow?
  /// The text to translate; nil: the selection (PRIMARY, else the
  /// clipboard), over which a replacement is pasted back.
  package var text: String?
  /// Whether the scene may replace the text (Apple's `allowsReplacement`).
  package var allowsReplacement: Bool
  /// `--from` and `--to`, when given.
  package var sourceLanguage: String?
  package var targetLanguage: String?
  package var environment: [String: String]
  /// Tells the person what the popover can no longer show (a replacement
  /// left on the clipboard instead of pasted).
  package var note: (String) -> Void
  /// Keeps contents on the clipboard after this process exits (`clipboard-hold`).
  package var keepOnClipboard: (ClipboardContents) -> Void
}
