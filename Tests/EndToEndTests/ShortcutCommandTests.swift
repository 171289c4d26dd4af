import FoundationEssentials
import TestSupport
import Testing

/// `translation-host shortcut`: GNOME's keybinding written to GSettings (a
/// keyfile backend in the test's home, read back with `gsettings`), sway's
/// and KDE's instructions, and bad keys and desktops refused.
@Suite(.tags(.endToEnd)) struct ShortcutCommandTests {
  static let list = "org.gnome.settings-daemon.plugins.media-keys"
  static let entry =
    "org.gnome.settings-daemon.plugins.media-keys.custom-keybinding:/org/gnome/settings-daemon/plugins/media-keys/custom-keybindings/translation-host/"
  static let other = "/org/gnome/settings-daemon/plugins/media-keys/custom-keybindings/custom0/"

  private func gnomeHost() throws -> Host {
    var host = try Host()
    host.environment["GSETTINGS_BACKEND"] = "keyfile"
    host.environment["XDG_CURRENT_DESKTOP"] = "ubuntu:GNOME"
    return host
  }

  private func gsettings(_ host: Host, _ arguments: String...) throws -> String {
    try host.run(program: "/usr/bin/gsettings", arguments).stdout.trimmingWhitespace()
  }

  @Test func gnomeGetsACustomKeybindingThatRemoveTakesAway() throws {
    let host = try gnomeHost()
    _ = try host.run(program: "/usr/bin/gsettings", ["set", Self.list, "custom-keybindings", "['\(Self.other)']"])

    let install = try host.run("shortcut", "install", "--key", "<Control><Alt>e")
    #expect(install.exitCode == 0, "\(install.stderr)")
    #expect(try gsettings(host, "get", Self.list, "custom-keybindings").contains(Self.other))
    #expect(try gsettings(host, "get", Self.list, "custom-keybindings").contains("/translation-host/"))
    #expect(try gsettings(host, "get", Self.entry, "binding") == "'<Control><Alt>e'")
    #expect(
      try gsettings(host, "get", Self.entry, "command") == "'gapplication action org.translationhost.Desktop translate-selection'"
    )
    // The session bus starts this build's agent for it, and only a file of this tool's is replaced or removed.
    let activation = host.home.path + "/data/dbus-1/services/org.translationhost.Desktop.service"
    #expect(
      try String(contentsOfFile: activation, encoding: .utf8).contains(
        "\nExec='\(Host.desktopExecutable)' agent --gapplication-service\n"))

    // Installing again replaces the key, without a second entry.
    #expect(try host.run("shortcut", "install").exitCode == 0)
    #expect(try gsettings(host, "get", Self.entry, "binding") == "'<Shift><Super>t'")
    #expect(
      try gsettings(host, "get", Self.list, "custom-keybindings")
        == "['\(Self.other)', '/org/gnome/settings-daemon/plugins/media-keys/custom-keybindings/translation-host/']")

    let remove = try host.run("shortcut", "remove")
    #expect(remove.exitCode == 0)
    #expect(!FileManager.default.fileExists(atPath: activation))
    #expect(try gsettings(host, "get", Self.list, "custom-keybindings") == "['\(Self.other)']")
    #expect(try gsettings(host, "get", Self.entry, "binding") == "''")
    #expect(try host.run("shortcut", "remove").stderr.contains("no GNOME keybinding"))
  }

  @Test(arguments: [
    (
      ["install", "--desktop", "sway", "--key", "<Super><Shift>t"],
      "bindsym Mod4+Shift+t exec gapplication action org.translationhost.Desktop translate-selection\n"
    ),
    (["install", "--desktop", "kde"], "then set its shortcut to Meta+Shift+T"),
    (["install", "--desktop", "kde", "--key", "<Control><Alt>F9"], "then set its shortcut to Ctrl+Alt+F9"),
    (["install", "--desktop", "kde"], "translation-host agent --global-shortcut '<Shift><Super>t'"),
    (
      ["install", "--desktop", "i3"],
      "bindsym Mod4+Shift+t exec --no-startup-id gapplication action org.translationhost.Desktop translate-selection\n"
    ),
    (
      ["install", "--desktop", "xfce"],
      "xfconf-query -c xfce4-keyboard-shortcuts -p '/commands/custom/<Shift><Super>t' -n -t string"
        + " -s 'gapplication action org.translationhost.Desktop translate-selection'\n"
    ),
    (["remove", "--desktop", "xfce"], "xfconf-query -c xfce4-keyboard-shortcuts -r -p '/commands/custom/<key>'"),
    (
      ["remove", "--desktop", "SWAY"],
      "exec gapplication action org.translationhost.Desktop translate-selection' from ~/.config/sway/config"
    ),
  ])
  func otherDesktopsGetInstructions(arguments: [String], expected: String) throws {
    let result = try Host().run(["shortcut"] + arguments)
    #expect(result.exitCode == 0, "\(result.stderr)")
    #expect(result.stdout.contains(expected), "\(result.stdout)")
  }

  @Test(arguments: [
    (["install", "--desktop", "gnome", "--key", "<Bogus>t"], "'<Bogus>t' is not a key GTK understands"),
    (["install", "--desktop", "gnome", "--key", ""], "'' is not a key GTK understands"),
    (
      ["install", "--desktop", "windows"],
      "the desktop 'windows' is not one this can bind keys in; name one with --desktop: gnome, cinnamon, sway, i3, xfce, kde"
    ),
    (["install"], "cannot tell which desktop this is"),
    (["remove", "--key", "<Super>t", "--desktop", "gnome"], "'--key' is for 'install'"),
    (["bind"], "expected 'install' or 'remove'"),
    ([], "expected 'install' or 'remove'"),
  ])
  func refusesWhatItCannotDo(arguments: [String], message: String) throws {
    let result = try Host().run(["shortcut"] + arguments)
    #expect(result.exitCode == 64)
    #expect(result.stderr.contains(message), "\(result.stderr)")
  }
}
