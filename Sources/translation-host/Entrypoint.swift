import HostCommandLine

/// `translation-host`: the command-line front of the translation host. It
/// links no GTK; a command that needs the desktop becomes
/// `translation-host-desktop` (HostCommandLine's `DesktopHandOff`).
@main
enum Entrypoint {
  static func main() {
    CommandLineTool.main()
  }
}
