#!/usr/bin/python3
"""A D-Bus client of org.translationhost.Translation1 in Python (python3-dbus),
run by Tests/EndToEndTests/DBusTests.swift under dbus-run-session.

    dbus_client.py <scenario> [<argument>...]

Each scenario prints one JSON document on stdout: what each call answered,
or the name of the D-Bus error it raised, so that the Swift test compares
them with what it expects.
"""
import json
import sys
import threading

import dbus

NAME = "org.translationhost.Translation1"
PATH = "/org/translationhost/Translation1"


def interface(bus=None):
    bus = bus or dbus.SessionBus()
    return dbus.Interface(bus.get_object(NAME, PATH), NAME)


def outcome(call):
    """The call's answer as plain JSON values, or {"error": name}."""
    try:
        return plain(call())
    except dbus.exceptions.DBusException as error:
        return {"error": error.get_dbus_name(), "message": error.get_dbus_message()}


def plain(value):
    if isinstance(value, (list, tuple, dbus.Array, dbus.Struct)):
        return [plain(item) for item in value]
    if isinstance(value, dbus.Boolean):
        return bool(value)
    if isinstance(value, (dbus.String, str)):
        return str(value)
    if isinstance(value, (dbus.UInt32, dbus.Int32, int)):
        return int(value)
    if isinstance(value, (dbus.Double, float)):
        return float(value)
    return value


def concurrent(count, *sentences):
    """`count` callers, each on a connection of its own, each translating one sentence."""
    results = [None] * int(count)

    def caller(index):
        bus = dbus.bus.BusConnection(dbus.bus.BUS_SESSION)
        sentence = sentences[index % len(sentences)]
        results[index] = [sentence, outcome(lambda: interface(bus).Translate([sentence], "en", "es", ""))]
        bus.close()

    threads = [threading.Thread(target=caller, args=(index,)) for index in range(int(count))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return results


def crash(provider):
    """A provider that crashes on the text "crash": that call fails, the next is answered."""
    translation = interface()
    return [
        outcome(lambda: translation.Translate(["crash"], "en", "en-x-upper", provider)),
        outcome(lambda: translation.Translate(["hi", "there"], "en", "en-x-upper", provider)),
    ]


def bad_arguments():
    """Calls the interface cannot take, or the provider refuses; each names its error."""
    bus = dbus.SessionBus()
    translation = interface(bus)

    def raw(method, signature, arguments):
        return lambda: bus.call_blocking(NAME, PATH, NAME, method, signature, arguments)

    return {
        "wrong signature": outcome(raw("Translate", "ss", ["a", "b"])),
        "no such method": outcome(raw("Translation", "", [])),
        "unsupported target": outcome(lambda: translation.Translate(["The cat."], "en", "fr", "")),
        "unsupported source": outcome(lambda: translation.Translate(["The cat."], "xx", "es", "")),
        "unidentifiable": outcome(lambda: translation.Translate(["ok"], "", "es", "")),
        "no such provider": outcome(lambda: translation.Translate(["The cat."], "en", "es", "org.example.missing")),
        "path outside the search path": outcome(lambda: translation.Languages("/tmp/Evil.translationprovider")),
        "bad parent window": outcome(lambda: translation.Present("x11:nothex", "Hallo", {})),
        "bad option type": outcome(lambda: translation.Present("", "Hallo", {"press": "Translate"})),
        "bad arrow edge": outcome(lambda: translation.Present("", "Hallo", {"arrow_edge": "middle"})),
        "no such button": outcome(
            lambda: translation.Present("", "Hallo", {"provider": "Reverse", "press": dbus.Array(["Nope"], "s")})),
        "empty batch": outcome(lambda: translation.Translate(dbus.Array([], "s"), "en", "es", "")),
    }


def present():
    """Present with Reverse (Apple's sample), driven by presses."""
    translation = interface()
    presses = dbus.Array(["Translate", "Replace With Translation"], "s")
    return {
        "replaced": outcome(lambda: translation.Present(
            "x11:3a00007", "Hallo, Welt!", {"provider": "Reverse", "allows_replacement": True, "press": presses,
                                            "anchor": dbus.Struct((10, 20), signature="ii"), "arrow_edge": "bottom",
                                            "unknown_option": 7})),
        "dismissed": outcome(lambda: translation.Present(
            "", "Hallo, Welt!", {"provider": "Reverse", "press": dbus.Array(["Translate"], "s")})),
        "properties": outcome(lambda: dbus.SessionBus().get_object(NAME, PATH).GetAll(
            NAME, dbus_interface="org.freedesktop.DBus.Properties")),
    }


SCENARIOS = {"concurrent": concurrent, "crash": crash, "bad-arguments": bad_arguments, "present": present}

if __name__ == "__main__":
    print(json.dumps(SCENARIOS[sys.argv[1]](*sys.argv[2:]), sort_keys=True))
