#!/usr/bin/python3
"""A GTK 4 window that has text selected (it owns the PRIMARY selection
with the text given) but never pastes: Ctrl+V and Shift+Insert do nothing
in it, as in an application that hangs or ignores the keys. A paste into
it is never confirmed.

Usage: deaf_window.py <title> <text>
"""
import sys

import gi

gi.require_version("Gtk", "4.0")
gi.require_version("Gdk", "4.0")
from gi.repository import Gdk, GLib, Gtk  # noqa: E402

Gtk.init()
window = Gtk.Window(title=sys.argv[1])
window.set_default_size(400, 200)
window.set_child(Gtk.Label(label=sys.argv[2]))
window.present()
primary = Gdk.Display.get_default().get_primary_clipboard()
primary.set_content(Gdk.ContentProvider.new_for_bytes("text/plain;charset=utf-8", GLib.Bytes.new(sys.argv[2].encode())))
GLib.MainLoop().run()
