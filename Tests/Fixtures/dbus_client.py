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
import dbus.mainloop.glib
from gi.repository import GLib

# Signals (Present's Response, PropertiesChanged) arrive through GLib's main loop.
dbus.mainloop.glib.DBusGMainLoop(set_as_default=True)

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
    if isinstance(value, (dict, dbus.Dictionary)):
        return {str(key): plain(item) for key, item in value.items()}
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


TOKENS = iter(range(1, 1 << 30))


def request_path(bus, token):
    """The path of Present's request object for `token`, known before the call."""
    return PATH + "/request/" + bus.get_unique_name()[1:].replace(".", "_") + "/" + token


def present_and_wait(bus, parent, text, options, timeout=120, while_open=None, call_timeout=-1):
    """Present as the portals are called: subscribe to the request's Response,
    call (waiting `call_timeout` seconds for the reply; -1: D-Bus's default,
    25 s), and wait for the signal. [response, replacement], or the error of
    the call or of the Response."""
    token = "t%d" % next(TOKENS)
    path = request_path(bus, token)
    answer = {}
    loop = GLib.MainLoop()

    def response(code, results):
        answer["response"] = [int(code), plain(results)]
        loop.quit()

    receiver = bus.add_signal_receiver(
        response, signal_name="Response", dbus_interface="org.freedesktop.portal.Request", path=path)
    options = dict(options)
    options["handle_token"] = token
    try:
        handle = interface(bus).Present(parent, text, options, timeout=call_timeout)
    except dbus.exceptions.DBusException as error:
        receiver.remove()
        return {"error": error.get_dbus_name(), "message": error.get_dbus_message()}
    answer["handle"] = str(handle)
    if while_open:
        GLib.idle_add(lambda: while_open(str(handle)) and False)
    GLib.timeout_add(int(timeout * 1000), loop.quit)
    loop.run()
    receiver.remove()
    if "response" not in answer:
        return {"error": "no Response", "handle": answer["handle"]}
    code, results = answer["response"]
    if "error" in results:
        return {"error": results["error"], "message": results.get("message", "")}
    return [code, results.get("replacement", "")]


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


def provider_errors(provider):
    """A provider that finds nothing to translate, and one that misses the
    deadline, which a client with the default timeout (25 s) still hears of;
    a service that takes one call at a time (serve --max-connections 1) is busy
    for a second caller meanwhile."""
    translation = interface()
    nothing = outcome(lambda: translation.Translate(["nothing"], "en", "en-x-upper", provider))
    late = {}

    import time

    def hang():
        # The one call the service takes is freed just after its answer: a
        # call made at once may hear Busy ("call again in a moment"), as the
        # documentation says; it is made again, as a client would.
        until = time.monotonic() + 5
        while True:
            late["outcome"] = outcome(lambda: translation.Translate(["hang"], "en", "en-x-upper", provider))
            busy = isinstance(late["outcome"], dict) and late["outcome"].get("error", "").endswith(".Busy")
            if busy and time.monotonic() < until:
                time.sleep(0.05)
                continue
            break

    thread = threading.Thread(target=hang)
    started = time.monotonic()
    thread.start()
    time.sleep(2)
    other = dbus.bus.BusConnection(dbus.bus.BUS_SESSION)
    busy = outcome(lambda: interface(other).Translate(["hi"], "en", "en-x-upper", provider))
    thread.join()
    return {"nothing": nothing, "timeout": late["outcome"], "seconds": time.monotonic() - started, "busy": busy}


def abandoned(provider, callers):
    """`callers` callers (gdbus) ask a provider that never answers "hang", and
    are killed a second later: the runners working for them are stopped, so
    the next call is answered at once, not at the deadline."""
    import os
    import signal
    import subprocess
    import time
    translation = interface()
    warm = outcome(lambda: translation.Translate(["warm"], "en", "en-x-upper", provider))
    hanging = [subprocess.Popen(
        ["gdbus", "call", "--session", "-d", NAME, "-o", PATH, "-m", NAME + ".Translate", "['hang']", "en", "en-x-upper",
         provider], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL) for _ in range(int(callers))]
    time.sleep(1)
    daemon = bus_daemon()
    service = int(daemon.GetConnectionUnixProcessID(NAME))
    busy = runners(service)
    # The callers' unique names, by their process ids.
    pids = {process.pid for process in hanging}
    names = [name for name in daemon.ListNames() if name.startswith(":")
             and int(daemon.GetConnectionUnixProcessID(name)) in pids]
    for process in hanging:
        os.kill(process.pid, signal.SIGKILL)
    killed = time.monotonic()
    # When the bus has dropped their names (it then sends NameOwnerChanged),
    # and when the runners that worked for them are stopped.
    left = None
    while time.monotonic() - killed < 10:
        if left is None and not any(daemon.NameHasOwner(name) for name in names):
            left = time.monotonic()
        if left is not None and not any(alive(pid) for pid in busy):
            break
        time.sleep(0.001)
    stopped = (time.monotonic() - (left or killed)) * 1000
    for process in hanging:
        process.wait()
    # Then the next call finds a runner at once: a fresh one, started in the place of each.
    while len(runners(service)) < len(busy) and time.monotonic() - killed < 10:
        time.sleep(0.01)
    time.sleep(0.3)
    started = time.monotonic()
    answer = outcome(lambda: translation.Translate(["hi", "there"], "en", "en-x-upper", provider))
    elapsed = time.monotonic() - started
    # A call cancelled by its caller (TranslateRequest, CancelTranslate) fails
    # as Cancelled; both calls are made without blocking, on one connection.
    cancelled = {}
    loop = GLib.MainLoop()

    def failed(error):
        cancelled["outcome"] = {"error": error.get_dbus_name(), "message": error.get_dbus_message()}
        cancelled["milliseconds"] = (time.monotonic() - cancelled.get("started", 0)) * 1000
        loop.quit()

    def answered(translations):
        cancelled["outcome"] = plain(translations)
        loop.quit()

    def cancel():
        cancelled["started"] = time.monotonic()
        translation.CancelTranslate("request-1", reply_handler=lambda: None, error_handler=failed)
        return False

    translation.TranslateRequest(
        ["hang"], "en", "en-x-upper", provider, "request-1", reply_handler=answered, error_handler=failed, timeout=60)
    GLib.timeout_add(500, cancel)
    GLib.timeout_add(20000, loop.quit)
    loop.run()
    cancelled.pop("started", None)
    return {"warm": warm, "answer": answer, "milliseconds": elapsed * 1000, "cancelled": cancelled,
            "busy runners": len(busy), "callers": len(names), "bus said they left after milliseconds":
            ((left or killed) - killed) * 1000, "runners stopped after milliseconds": stopped}


def bus_daemon():
    return dbus.Interface(dbus.SessionBus().get_object("org.freedesktop.DBus", "/org/freedesktop/DBus"),
                          "org.freedesktop.DBus")


def alive(pid):
    """Whether process `pid` runs (is neither gone nor a zombie)."""
    try:
        with open("/proc/%d/stat" % pid) as file:
            return file.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def runners(service):
    """The live (not zombie) provider runners that `service` started."""
    import os
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open("/proc/%s/stat" % entry) as file:
                fields = file.read().rsplit(")", 1)[1].split()
            with open("/proc/%s/cmdline" % entry, "rb") as file:
                command = file.read()
        except OSError:
            continue
        if fields[0] != "Z" and int(fields[1]) == service and b"translation-provider-runner" in command:
            found.append(int(entry))
    return found


def bad_arguments():
    """Calls the interface cannot take, or the provider refuses; each names its error."""
    bus = dbus.SessionBus()
    translation = interface(bus)

    def raw(method, signature, arguments):
        return lambda: bus.call_blocking(NAME, PATH, NAME, method, signature, arguments)

    return {
        "wrong signature": outcome(raw("Translate", "ss", ["a", "b"])),
        "no such method": outcome(raw("Translation", "", [])),
        "unsupported target": outcome(lambda: translation.Translate(["The cat."], "en", "xx", "")),
        "unsupported pairing": outcome(lambda: translation.Translate(["The cat."], "en", "fr", "")),
        "unsupported language in Present": present_and_wait(
            bus, "", "The cat is on the table.", {"provider": "Apertium", "source": "en", "target": "xx"}),
        "bad timeout": outcome(lambda: translation.TranslateWithOptions(["The cat."], "en", "es", {"timeout": -1.0})),
        "bad timeout type": outcome(lambda: translation.TranslateWithOptions(["The cat."], "en", "es", {"timeout": "1"})),
        "bad Present timeout": present_and_wait(bus, "", "Hallo", {"timeout": 0.0}),
        "unsupported source": outcome(lambda: translation.Translate(["The cat."], "xx", "es", "")),
        "unidentifiable": outcome(lambda: translation.Translate(["ok"], "", "es", "")),
        "no such provider": outcome(lambda: translation.Translate(["The cat."], "en", "es", "org.example.missing")),
        "path outside the search path": outcome(lambda: translation.Languages("/tmp/Evil.translationprovider")),
        "bad parent window": present_and_wait(bus, "x11:nothex", "Hallo", {}),
        "bad option type": present_and_wait(bus, "", "Hallo", {"press": "Translate"}),
        "bad arrow edge": present_and_wait(bus, "", "Hallo", {"arrow_edge": "middle"}),
        "bad handle token": outcome(lambda: translation.Present("", "Hallo", {"handle_token": "no/slash"})),
        "no such button": present_and_wait(
            bus, "", "Hallo", {"provider": "Reverse", "press": dbus.Array(["Nope"], "s")}),
        "cancel unknown request": outcome(lambda: translation.CancelTranslate("nothing-by-this-id") or []),
        "empty batch": outcome(lambda: translation.Translate(dbus.Array([], "s"), "en", "es", "")),
        "same language": outcome(lambda: translation.Translate(["The cat."], "en", "en", "")),
        "too long for Present": present_and_wait(bus, "", "x" * (96 * 1024 + 1), {}),
        "not installed": outcome(lambda: translation.Translate(["The cat."], "en", "ca", "")),
        "no target": outcome(lambda: translation.Translate(["The cat is on the table."], "en", "", "")),
        "tags": outcome(lambda: translation.Translate(["The cat is on the table."], "en_US.UTF-8", "es-ES", "")),
    }


def present():
    """Present with Reverse (Apple's sample), driven by presses."""
    bus = dbus.SessionBus()
    presses = dbus.Array(["Translate", "Replace With Translation"], "s")
    return {
        "replaced": present_and_wait(
            bus, "x11:3a00007", "Hallo, Welt!", {"provider": "Reverse", "allows_replacement": True, "press": presses,
                                                 "anchor": dbus.Struct((10, 20), signature="ii"),
                                                 "arrow_edge": "bottom", "unknown_option": 7}),
        "dismissed": present_and_wait(
            bus, "", "Hallo, Welt!", {"provider": "Reverse", "press": dbus.Array(["Translate"], "s")}),
        "properties": outcome(lambda: dbus.SessionBus().get_object(NAME, PATH).GetAll(
            NAME, dbus_interface="org.freedesktop.DBus.Properties")),
    }


def present_desktop():
    """Present in a graphical session (the test presses the popover's keys):
    [response, replacement]."""
    bus = dbus.SessionBus()
    return present_and_wait(
        bus, "", "Hello, world", {"provider": "Reverse", "source": "en", "allows_replacement": True,
                                  "anchor": dbus.Struct((200, 100), signature="ii")})


def late(provider, deadline, call_timeout):
    """A popover answered later than the deadline of each request to the
    provider (`deadline`, the option `timeout`) and than the caller's own
    timeout for the Present call (`call_timeout`) still reaches the caller,
    through Response."""
    import time
    bus = dbus.SessionBus()
    started = time.monotonic()
    answer = present_and_wait(
        bus, "", "late answer", {"provider": provider, "allows_replacement": True, "timeout": float(deadline),
                                 "press": dbus.Array(["Go", "Go", "Go"], "s")},
        timeout=180, call_timeout=float(call_timeout))
    return {"answer": answer, "seconds": time.monotonic() - started}


def run_processes(marker):
    """Process ids whose command line contains `marker`."""
    import os
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open("/proc/%s/cmdline" % entry, "rb") as file:
                    if marker.encode() in file.read():
                        found.append(int(entry))
            except OSError:
                pass
    return found


def close(provider):
    """Present with a provider whose button never answers: Close ends the
    popover's process, and no Response follows."""
    import os
    import time
    bus = dbus.SessionBus()
    report = {}

    def close_it(handle):
        marker = "--provider=" + provider
        for _ in range(200):
            if run_processes(marker):
                break
            time.sleep(0.05)
        report["open before Close"] = bool(run_processes(marker))
        report["closing another caller's request"] = outcome(lambda: dbus.bus.BusConnection(
            dbus.bus.BUS_SESSION).get_object(NAME, handle).Close(dbus_interface="org.freedesktop.portal.Request"))
        bus.get_object(NAME, handle).Close(dbus_interface="org.freedesktop.portal.Request")
        started = time.monotonic()
        while run_processes(marker) and time.monotonic() - started < 5:
            time.sleep(0.02)
        report["open after Close"] = bool(run_processes(marker))
        report["closed within seconds"] = time.monotonic() - started

    report["answer"] = present_and_wait(
        bus, "", "a private note", {"provider": provider, "press": dbus.Array(["Go"], "s")}, timeout=3,
        while_open=close_it)
    return report


def properties_changed(executable, provider):
    """PropertiesChanged arrives after `translation-host set-default`."""
    import subprocess
    bus = dbus.SessionBus()
    changes = []
    loop = GLib.MainLoop()

    def changed(interface_name, values, invalidated):
        changes.append({"interface": str(interface_name), "values": plain(dict(values))})
        loop.quit()

    bus.add_signal_receiver(
        changed, signal_name="PropertiesChanged", dbus_interface="org.freedesktop.DBus.Properties", path=PATH)
    properties = bus.get_object(NAME, PATH)
    before = str(properties.Get(NAME, "DefaultProvider", dbus_interface="org.freedesktop.DBus.Properties"))
    version = int(properties.Get(NAME, "version", dbus_interface="org.freedesktop.DBus.Properties"))
    subprocess.run([executable, "set-default", provider], check=True, stdout=subprocess.DEVNULL)
    # Read at once, before the signal is waited for: a Get sees the change.
    after = str(properties.Get(NAME, "DefaultProvider", dbus_interface="org.freedesktop.DBus.Properties"))
    GLib.timeout_add(10000, loop.quit)
    if not changes:
        loop.run()
    return {"before": before, "after": after, "version": version, "changes": changes}


def present_path(provider):
    """Present with a provider named by its bundle path (issue 24: refused
    unless the service's search path lists it)."""
    return present_and_wait(dbus.SessionBus(), "", "environment",
                            {"provider": provider, "press": dbus.Array(["Go"], "s")}, timeout=30)


def deadline(executable, provider):
    """The deadline a caller sets, the same way on both transports: the
    option `timeout` on D-Bus, the socket's timeout field (the CLI's
    --timeout, through the service this bus started)."""
    import subprocess
    import time
    translation = interface()
    answers = {}
    for name, options in [("dbus", {"provider": provider, "timeout": dbus.Double(1.5)}),
                          ("dbus request", {"provider": provider, "timeout": dbus.Double(1.5), "request_id": "r1"})]:
        started = time.monotonic()
        answers[name] = outcome(lambda: translation.TranslateWithOptions(["hang"], "en", "en-x-upper", options))
        answers[name + " seconds"] = time.monotonic() - started
    answers["dbus answer"] = outcome(
        lambda: translation.TranslateWithOptions(["hi"], "en", "en-x-upper", {"provider": provider, "timeout": 5.0}))
    started = time.monotonic()
    cli = subprocess.run([executable, "translate", "--provider", provider, "--from", "en", "--to", "en-x-upper",
                          "--timeout", "1.5", "hang"], capture_output=True, text=True)
    answers["socket seconds"] = time.monotonic() - started
    answers["socket"] = {"exit": cli.returncode, "stderr": cli.stderr.strip()}
    return answers


def tags(executable, sentence, *pairs):
    """One sentence with each pair of tags ("source target"), on D-Bus and
    through the CLI with and without the service this bus started."""
    import subprocess
    translation = interface()
    answers = {}
    for pair in pairs:
        source, target = pair.split(" ")
        answers[pair] = {"dbus": outcome(lambda: translation.Translate([sentence], source, target, "Apertium"))}
        for path, extra in [("cli", []), ("cli --no-service", ["--no-service"])]:
            run = subprocess.run([executable, "translate", "--provider", "Apertium", "--from", source, "--to", target]
                                 + extra + [sentence], capture_output=True, text=True)
            answers[pair][path] = run.stdout.strip() if run.returncode == 0 else {"exit": run.returncode,
                                                                                   "stderr": run.stderr.strip()}
    return answers


def failed():
    """A failure of the host itself (the provider's settings cannot be read) is Failed."""
    translation = interface()
    return {
        "default provider": outcome(lambda: translation.Translate(["The cat is on the table."], "en", "es", "")),
        "detect": outcome(lambda: translation.Detect("The cat is on the table and the dog sleeps in the garden.")),
    }


SCENARIOS = {"present-desktop": present_desktop, "deadline": deadline, "failed": failed, "tags": tags, "concurrent": concurrent, "abandoned": abandoned, "provider-errors": provider_errors, "close": close,
             "late": late, "properties-changed": properties_changed, "crash": crash, "bad-arguments": bad_arguments,
             "present": present, "present-path": present_path}

if __name__ == "__main__":
    print(json.dumps(SCENARIOS[sys.argv[1]](*sys.argv[2:]), sort_keys=True))
