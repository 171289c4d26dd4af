#!/usr/bin/python3
"""A GTK 4 application that copies a picture and HTML at once, as a
browser or an image viewer does: it owns the clipboard with image/png (the
file given) and text/html (the text given) until another copy takes it.

Usage: rich_clipboard.py <picture.png> <html>
"""
import sys

import gi

gi.require_version("Gtk", "4.0")
gi.require_version("Gdk", "4.0")
from gi.repository import Gdk, GLib, Gtk  # noqa: E402

Gtk.init()
picture = GLib.Bytes.new(open(sys.argv[1], "rb").read())
html = GLib.Bytes.new(sys.argv[2].encode())
provider = Gdk.ContentProvider.new_union([
    Gdk.ContentProvider.new_for_bytes("image/png", picture),
    Gdk.ContentProvider.new_for_bytes("text/html", html),
])
clipboard = Gdk.Display.get_default().get_clipboard()
clipboard.set_content(provider)
loop = GLib.MainLoop()


def changed(board):
    if not board.is_local():
        # Served what was asked on the change, then gone.
        GLib.timeout_add(2000, loop.quit)


clipboard.connect("changed", changed)
loop.run()
