import System

/// Why a global shortcut could not be installed or removed.
enum ShortcutError: HostErrorConvertible, Equatable {
  /// The key is not in GTK's accelerator syntax.
  case invalidKey(String)
  /// GNOME's keybinding settings are not installed here.
  case noGnomeSettings
  /// Cinnamon's keybinding settings are not installed here.
  case noCinnamonSettings
  /// The desktop could not be told from the environment.
  case unknownDesktop(String)
  /// The session bus's activation file for the desktop agent could not be written.
  case cannotWriteActivation(String, Errno)

  var description: String {
    switch self {
    case .invalidKey(let key):
      "'\(key)' is not a key GTK understands; write it as '<Super><Shift>t' or '<Control><Alt>F9'"
    case .noGnomeSettings:
      "GNOME's keybinding settings (the schema org.gnome.settings-daemon.plugins.media-keys) are not installed, so there is no GNOME to bind the key in"
    case .noCinnamonSettings:
      "Cinnamon's keybinding settings (the schema org.cinnamon.desktop.keybindings) are not installed, so there is no Cinnamon to bind the key in"
    case .unknownDesktop(let desktop):
      desktop.isEmpty
        ? "cannot tell which desktop this is (XDG_CURRENT_DESKTOP is not set); name it with --desktop: \(ShortcutDesktop.names)"
        : "the desktop '\(desktop)' is not one this can bind keys in; name one with --desktop: \(ShortcutDesktop.names)"
    case .cannotWriteActivation(let path, let errno):
      "cannot write \(path), which lets the session bus start the desktop agent the key asks for: \(errno); check that folder's owner and permissions"
    }
  }

  var hostError: HostError {
    switch self {
    case .invalidKey, .unknownDesktop: HostError(.usage, description)
    case .noGnomeSettings, .noCinnamonSettings, .cannotWriteActivation: HostError(.failure, description)
    }
  }
}
