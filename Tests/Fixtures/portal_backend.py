#!/usr/bin/python3
"""A back end of xdg-desktop-portal for the tests: it implements
org.freedesktop.impl.portal.RemoteDesktop and .GlobalShortcuts, as
xdg-desktop-portal-gnome or -kde would, for the real front end
(/usr/libexec/xdg-desktop-portal) to call on the test's private bus.

What the person answers in the portal's dialog comes from the file
<folder>/answer ("grant" or "deny"; read at each Start and BindShortcuts).
Each call is written as one JSON line to <folder>/calls: the keysyms the
keyboard was given (press and release), each dialog it would have shown,
the shortcuts it was asked to bind. With PORTAL_BACKEND_TYPES=wtype in
its environment it also types each pressed key into the focused window of
the Wayland session (WAYLAND_DISPLAY) with wtype, as Mutter's or KWin's
remote desktop would. SIGUSR1 makes it emit Activated for
each bound shortcut, as the desktop does when the person presses the key.

Usage: portal_backend.py <folder> <bus name>
"""
import json
import os
import signal
import subprocess
import sys

from gi.repository import Gio, GLib

PATH = "/org/freedesktop/portal/desktop"
XML = """
<node>
  <interface name="org.freedesktop.impl.portal.RemoteDesktop">
    <method name="CreateSession">
      <arg type="o" direction="in"/><arg type="o" direction="in"/><arg type="s" direction="in"/>
      <arg type="a{sv}" direction="in"/><arg type="u" direction="out"/><arg type="a{sv}" direction="out"/>
    </method>
    <method name="SelectDevices">
      <arg type="o" direction="in"/><arg type="o" direction="in"/><arg type="s" direction="in"/>
      <arg type="a{sv}" direction="in"/><arg type="u" direction="out"/><arg type="a{sv}" direction="out"/>
    </method>
    <method name="Start">
      <arg type="o" direction="in"/><arg type="o" direction="in"/><arg type="s" direction="in"/>
      <arg type="s" direction="in"/><arg type="a{sv}" direction="in"/>
      <arg type="u" direction="out"/><arg type="a{sv}" direction="out"/>
    </method>
    <method name="NotifyKeyboardKeysym">
      <arg type="o" direction="in"/><arg type="a{sv}" direction="in"/><arg type="i" direction="in"/>
      <arg type="u" direction="in"/>
    </method>
    <method name="NotifyKeyboardKeycode">
      <arg type="o" direction="in"/><arg type="a{sv}" direction="in"/><arg type="i" direction="in"/>
      <arg type="u" direction="in"/>
    </method>
    <property name="AvailableDeviceTypes" type="u" access="read"/>
    <property name="version" type="u" access="read"/>
  </interface>
  <interface name="org.freedesktop.impl.portal.GlobalShortcuts">
    <method name="CreateSession">
      <arg type="o" direction="in"/><arg type="o" direction="in"/><arg type="s" direction="in"/>
      <arg type="a{sv}" direction="in"/><arg type="u" direction="out"/><arg type="a{sv}" direction="out"/>
    </method>
    <method name="BindShortcuts">
      <arg type="o" direction="in"/><arg type="o" direction="in"/><arg type="a(sa{sv})" direction="in"/>
      <arg type="s" direction="in"/><arg type="a{sv}" direction="in"/>
      <arg type="u" direction="out"/><arg type="a{sv}" direction="out"/>
    </method>
    <method name="ListShortcuts">
      <arg type="o" direction="in"/><arg type="o" direction="in"/>
      <arg type="u" direction="out"/><arg type="a{sv}" direction="out"/>
    </method>
    <signal name="Activated">
      <arg type="o"/><arg type="s"/><arg type="t"/><arg type="a{sv}"/>
    </signal>
    <property name="version" type="u" access="read"/>
  </interface>
  <interface name="org.freedesktop.impl.portal.Session">
    <method name="Close"/>
    <signal name="Closed"/>
    <property name="version" type="u" access="read"/>
  </interface>
</node>
"""
folder, name = sys.argv[1], sys.argv[2]
node = Gio.DBusNodeInfo.new_for_xml(XML)
connection = Gio.bus_get_sync(Gio.BusType.SESSION, None)
sessions = {}  # path -> registration id
bound = {}  # shortcut session path -> [(id, options)]


def record(**entry):
    with open(os.path.join(folder, "calls"), "a") as file:
        file.write(json.dumps(entry, ensure_ascii=False) + "\n")


def answer():
    try:
        with open(os.path.join(folder, "answer")) as file:
            return file.read().strip()
    except OSError:
        return "deny"


def empty():
    return GLib.Variant("a{sv}", {})


def session_call(conn, sender, path, interface, method, parameters, invocation):
    record(call="Session.Close", session=path)
    if path in sessions:
        conn.unregister_object(sessions.pop(path))
    bound.pop(path, None)
    invocation.return_value(None)


def export_session(path):
    sessions[path] = connection.register_object(path, node.interfaces[2], session_call, None, None)


def method_call(conn, sender, path, interface, method, parameters, invocation):
    arguments = parameters.unpack()
    short = interface.rsplit(".", 1)[1] + "." + method
    if method == "CreateSession":
        export_session(arguments[1])
        record(call=short, app_id=arguments[2])
        # The front end (1.16) passes GlobalShortcuts' "shortcuts" on from here, as -kde gives them.
        results = {"shortcuts": GLib.Variant("a(sa{sv})", [])} if "GlobalShortcuts" in interface else {}
        invocation.return_value(GLib.Variant("(ua{sv})", (0, results)))
    elif method == "SelectDevices":
        record(call=short, options=arguments[3])
        invocation.return_value(GLib.Variant("(ua{sv})", (0, {})))
    elif method == "Start":
        # The front end gave no restore data: the person is asked.
        given = answer()
        record(call=short, asked=True, answer=given, restore_data="restore_data" in arguments[4])
        if given == "grant":
            invocation.return_value(GLib.Variant("(ua{sv})", (0, {"devices": GLib.Variant("u", 1)})))
        else:
            invocation.return_value(GLib.Variant("(ua{sv})", (1, {})))
    elif method == "NotifyKeyboardKeysym":
        record(call=short, keysym=arguments[2], state=arguments[3])
        invocation.return_value(None)
        if arguments[3] == 1 and os.environ.get("PORTAL_BACKEND_TYPES") == "wtype":
            type_key(arguments[2])
    elif method == "NotifyKeyboardKeycode":
        record(call=short, keycode=arguments[2], state=arguments[3])
        invocation.return_value(None)
    elif method == "BindShortcuts":
        given = answer()
        shortcuts = [[i, o] for i, o in arguments[2]]
        record(call=short, shortcuts=shortcuts, answer=given)
        if given != "grant":
            invocation.return_value(GLib.Variant("(ua{sv})", (1, {})))
            return
        bound[arguments[1]] = shortcuts
        result = [(i, {"description": GLib.Variant("s", o.get("description", "")),
                       "trigger_description": GLib.Variant("s", o.get("preferred_trigger", ""))})
                  for i, o in shortcuts]
        invocation.return_value(GLib.Variant("(ua{sv})", (0, {"shortcuts": GLib.Variant("a(sa{sv})", result)})))
    elif method == "ListShortcuts":
        result = [(i, {}) for i, _ in bound.get(arguments[1], [])]
        invocation.return_value(GLib.Variant("(ua{sv})", (0, {"shortcuts": GLib.Variant("a(sa{sv})", result)})))
    else:
        invocation.return_dbus_error("org.freedesktop.DBus.Error.UnknownMethod", method)


def type_key(keysym):
    """Types one key with wtype: a keyboard added for it, after 300 ms, so the application has bound it."""
    named = {0xFF0D: "Return", 0xFF09: "Tab"}
    if keysym in named:
        keys = ["-k", named[keysym]]
    else:
        keys = ["--", chr(keysym - 0x01000000 if keysym >= 0x01000000 else keysym)]
    typed = subprocess.run(["/usr/bin/wtype", "-s", "300"] + keys, check=False)
    record(call="Typed", keysym=keysym, status=typed.returncode)


def get_property(conn, sender, path, interface, name):
    if name == "AvailableDeviceTypes":
        return GLib.Variant("u", 1 | 2)
    return GLib.Variant("u", 1)


def activate():
    for session, shortcuts in bound.items():
        for shortcut, _ in shortcuts:
            record(call="Activated", shortcut=shortcut)
            connection.emit_signal(None, PATH, "org.freedesktop.impl.portal.GlobalShortcuts", "Activated",
                                   GLib.Variant("(osta{sv})", (session, shortcut, 1, {})))
    return True


for interface in node.interfaces[:2]:
    connection.register_object(PATH, interface, method_call, get_property, None)
GLib.unix_signal_add(GLib.PRIORITY_DEFAULT, signal.SIGUSR1, activate)
GLib.unix_signal_add(GLib.PRIORITY_DEFAULT, signal.SIGTERM, lambda: loop.quit() or False)
loop = GLib.MainLoop()


def owned(*_):
    print("ready", flush=True)


Gio.bus_own_name_on_connection(connection, name, Gio.BusNameOwnerFlags.NONE, owned, lambda *_: loop.quit())
loop.run()
