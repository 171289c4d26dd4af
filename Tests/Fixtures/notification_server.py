#!/usr/bin/python3
"""A desktop notification server (org.freedesktop.Notifications) that
writes each notification it is sent, as one JSON line, to the file given:
what a person would have seen pop up.

Usage: notification_server.py <file>
"""
import json
import sys

import dbus
import dbus.service
from dbus.mainloop.glib import DBusGMainLoop
from gi.repository import GLib

NAME = "org.freedesktop.Notifications"


class Server(dbus.service.Object):
    def __init__(self, bus, path):
        super().__init__(bus, "/org/freedesktop/Notifications")
        self.path = path
        self.count = 0

    @dbus.service.method(NAME, in_signature="susssasa{sv}i", out_signature="u")
    def Notify(self, application, replaces, icon, summary, body, actions, hints, timeout):
        self.count += 1
        record = {"application": str(application), "summary": str(summary), "body": str(body),
                  "urgency": int(hints.get("urgency", 1))}
        with open(self.path, "a") as file:
            file.write(json.dumps(record) + "\n")
        return dbus.UInt32(self.count)

    @dbus.service.method(NAME, out_signature="ssss")
    def GetServerInformation(self):
        return ("test", "translation-host", "1", "1.2")

    @dbus.service.method(NAME, out_signature="as")
    def GetCapabilities(self):
        return ["body"]


DBusGMainLoop(set_as_default=True)
bus = dbus.SessionBus()
name = dbus.service.BusName(NAME, bus)
server = Server(bus, sys.argv[1])
print("ready", flush=True)
GLib.MainLoop().run()
