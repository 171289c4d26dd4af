import FoundationEssentials
import System

/// `translation-host shortcut`: binds a key, in the desktop, to translating
/// the selection in any application (`run --selection --replace`).
struct ShortcutCommand: Command {
  static let name = "shortcut"
  static let abstract = "Bind a key that translates the selection in any application."
  static let usage =
    "install [--key <accelerator>] [--desktop gnome|cinnamon|sway|i3|xfce|kde] | remove [--desktop <name>]"
  static let discussion = """
    The key translates the text selected in any application, as
    'translation-host run --selection --replace' does: the default
    provider's popover at the pointer, whose "Replace with Translation" puts
    the translation in its place. It runs 'gapplication action
    org.translationhost.Desktop translate-selection', which asks the
    resident desktop agent ('translation-host agent --help') to show the
    popover, without starting GTK; the session bus starts the agent on the
    first press. 'install' writes the bus's activation file for this
    installation's agent in $XDG_DATA_HOME/dbus-1/services (unless you wrote
    one there yourself); 'remove' removes it.

    GNOME and Cinnamon: a custom keybinding is added to GSettings (as their
    keyboard settings do); 'remove' takes it out, other keybindings stay.
    sway and i3: the line to add to their configuration is printed (and, for
    'remove', the line to delete). Xfce: the xfconf-query command that adds
    the custom shortcut is printed (and the one that removes it). KDE
    Plasma: the steps in System Settings are printed, the key in KDE's
    syntax (Meta+Shift+T), and the agent's command that binds the key
    through the GlobalShortcuts portal instead ('agent --global-shortcut').
    The desktop comes from XDG_CURRENT_DESKTOP unless --desktop names it.
    """
  static let arguments = [
    (name: "install", help: "Bind the key (again, replacing an earlier binding of this tool)."),
    (name: "remove", help: "Undo 'install'."),
  ]
  static let options: [OptionSpec] = [
    .option("key", "accelerator", help: "The key, in GTK's syntax (default: \(GlobalShortcut.defaultKey))."),
    .option("desktop", "name", help: "gnome, cinnamon, sway, i3, xfce or kde (default: from XDG_CURRENT_DESKTOP)."),
  ]

  var installs: Bool
  var key: String
  var desktop: String?

  init(_ arguments: ParsedArguments) throws(CommandError) {
    guard arguments.positionals.count == 1, ["install", "remove"].contains(arguments.positionals[0]) else {
      throw .usage("expected 'install' or 'remove'", of: Self.self)
    }
    installs = arguments.positionals[0] == "install"
    if !installs, arguments.value("key") != nil {
      throw .usage("'--key' is for 'install'; 'remove' removes whichever key was bound", of: Self.self)
    }
    key = arguments.value("key") ?? GlobalShortcut.defaultKey
    desktop = arguments.value("desktop")
  }

  func run(in context: CommandContext) throws -> ExitCode {
    let output = context.output
    let environment = context.environment
    let desktop: ShortcutDesktop
    if let name = self.desktop {
      guard let named = ShortcutDesktop(rawValue: name.lowercased()) else { throw ShortcutError.unknownDesktop(name) }
      desktop = named
    } else {
      guard let current = ShortcutDesktop.current(environment) else {
        throw ShortcutError.unknownDesktop(environment["XDG_CURRENT_DESKTOP"] ?? "")
      }
      desktop = current
    }
    let command = AgentActivation.shortcutCommand
    guard installs else { return try remove(command: command, from: desktop, environment: environment, output: output) }
    // Only GTK reads its accelerator syntax: translation-host becomes
    // translation-host-desktop here, before anything is written.
    guard let parsed = try DesktopHandOff.frontEnd().shortcutKey(key) else { throw ShortcutError.invalidKey(key) }
    if let written = try AgentActivation.install(program: DesktopHandOff.desktopProgram, environment: environment) {
      output.note("the session bus starts the desktop agent from \(written)")
    } else {
      output.note("\(AgentActivation.path(environment)) is not this tool's; it is left as it is")
    }
    let shortcut = GlobalShortcut(key: parsed.name, swayKey: parsed.swayName, command: command)
    switch desktop {
    case .gnome:
      try CustomKeybinding.gnome.install(shortcut)
      output.note("\(shortcut.key) now translates the selection (GNOME custom keybinding \(CustomKeybinding.gnome.path))")
    case .cinnamon:
      try CustomKeybinding.cinnamon.install(shortcut)
      output.note("\(shortcut.key) now translates the selection (Cinnamon custom keybinding \(CustomKeybinding.cinnamon.path))")
    case .sway:
      try output.data(
        "# Add to ~/.config/sway/config, then reload sway (swaymsg reload):\n\(shortcut.swayBinding)\n")
    case .i3:
      try output.data("# Add to ~/.config/i3/config, then reload i3 (i3-msg reload):\n\(shortcut.i3Binding)\n")
    case .xfce:
      try output.data("# Run this to add the shortcut to Xfce's keyboard shortcuts:\n\(shortcut.xfceCommand)\n")
    case .kde:
      try output.data(
        """
        In System Settings > Keyboard > Shortcuts, choose "Add New" > "Command or Script…",
        enter this command, then set its shortcut to \(shortcut.kdeKey):
          \(shortcut.command)
        Or let the desktop agent bind it through the desktop portal's global shortcuts
        (System Settings asks you to confirm it): add to the session's autostart
          translation-host agent --global-shortcut \(GlobalShortcut.shellQuoted(shortcut.key))

        """)
    }
    return .success
  }

  /// `remove`: needs no GTK (GNOME's keybinding is GSettings, in GIO), so it
  /// works in translation-host alone.
  private func remove(
    command: String, from desktop: ShortcutDesktop, environment: [String: String], output: Output
  ) throws -> ExitCode {
    if AgentActivation.remove(environment: environment) {
      output.note("the desktop agent's activation file is removed")
    }
    switch desktop {
    case .gnome:
      let removed = try CustomKeybinding.gnome.remove()
      output.note(removed ? "the GNOME keybinding is removed" : "there was no GNOME keybinding of translation-host to remove")
    case .cinnamon:
      let removed = try CustomKeybinding.cinnamon.remove()
      output.note(
        removed ? "the Cinnamon keybinding is removed" : "there was no Cinnamon keybinding of translation-host to remove")
    case .sway:
      try output.data(
        "# Delete the line 'bindsym <key> exec \(command)' from ~/.config/sway/config, then reload sway (swaymsg reload).\n"
      )
    case .i3:
      try output.data(
        "# Delete the line 'bindsym <key> exec --no-startup-id \(command)' from ~/.config/i3/config, then reload i3 (i3-msg reload).\n"
      )
    case .xfce:
      try output.data(
        "# Run this with the key you bound (as xfconf-query -c xfce4-keyboard-shortcuts -l -v lists it under /commands/custom):\n"
          + "xfconf-query -c xfce4-keyboard-shortcuts -r -p '/commands/custom/<key>'\n")
    case .kde:
      try output.data("In System Settings > Keyboard > Shortcuts, select the entry running '\(command)' and remove it.\n")
    }
    return .success
  }
}
