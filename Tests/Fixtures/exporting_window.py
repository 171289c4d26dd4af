#!/usr/bin/python3
"""A GTK 4 window on Wayland that exports itself (xdg-foreign, as an
application does before it asks a portal or translation-host's Present to
show a dialog for it) and prints the handle on stdout, one line:
wayland:<handle>.

Usage: exporting_window.py <title>
"""
import sys

import gi

gi.require_version("Gtk", "4.0")
gi.require_version("GdkWayland", "4.0")
from gi.repository import GdkWayland, GLib, Gtk  # noqa: E402,F401

Gtk.init()
window = Gtk.Window(title=sys.argv[1])
window.set_child(Gtk.Label(label=sys.argv[1]))
window.present()


def exported(toplevel, handle, *data):
    print("wayland:" + handle, flush=True)


if not window.get_surface().export_handle(exported, None):
    print("this compositor exports no windows (no xdg-foreign)", file=sys.stderr, flush=True)
    sys.exit(1)
GLib.MainLoop().run()
