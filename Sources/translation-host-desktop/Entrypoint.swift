import HostCommandLine

/// `translation-host-desktop`: `translation-host` with the desktop popover
/// (GTK 4, X11) linked in. `translation-host` becomes it when a command
/// needs the desktop; it runs every command as `translation-host` does.
@main
enum Entrypoint {
  static func main() {
    DesktopHandOff.register(GtkDesktop())
    CommandLineTool.main()
  }
}
