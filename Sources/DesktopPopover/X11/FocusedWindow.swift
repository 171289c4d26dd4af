import Presentation

/// The X11 window with the keyboard focus when the popover was asked for:
/// the window a replacement may go into, and no other.
struct FocusedWindow: Equatable {
  /// The window with the focus (it may be a child of the application's toplevel).
  var window: UInt
  /// The application's own toplevel (the window with a `WM_CLASS`), or `window`.
  var toplevel: UInt
  /// The process that created the window, as the X server knows it (X-Resource); nil when it cannot say.
  var processID: Int32?
  /// `WM_CLASS`'s class (`XTerm`, `Mousepad`), when set.
  var windowClass: String?
  /// The toplevel's top-left corner on the screen.
  var origin: ScreenPoint?

  /// The window classes of terminal emulators, in lower case: a terminal
  /// pastes with Shift+Insert (Ctrl+V is the shell's literal-next key) and
  /// is never typed over.
  static let terminalClasses: Set<String> = [
    "xterm", "uxterm", "urxvt", "rxvt", "st", "st-256color", "alacritty", "kitty", "foot", "wezterm",
    "org.wezfurlong.wezterm", "gnome-terminal", "gnome-terminal-server", "org.gnome.terminal", "org.gnome.console",
    "kgx", "konsole", "org.kde.konsole", "xfce4-terminal", "mate-terminal", "lxterminal", "qterminal", "terminator",
    "tilix", "com.gexperts.tilix", "sakura", "terminology", "guake", "tilda", "yakuake", "cool-retro-term", "eterm",
    "aterm", "roxterm", "deepin-terminal", "io.elementary.terminal", "ptyxis", "org.gnome.ptyxis", "contour",
    "blackbox", "com.raggesilver.blackbox",
  ]

  /// Whether the window is a terminal emulator's, by its class.
  var isTerminal: Bool { windowClass.map { Self.terminalClasses.contains($0.lowercased()) } ?? false }
}
