#!/usr/bin/env python3
"""Desktop popover benchmark: the time from the shortcut's command starting
to the popover's window being mapped and to the provider's scene being shown
in it, with `translation-host serve` warm, under Xvfb, three ways side by
side, alternating run by run:
- warm agent: `gapplication action org.translationhost.Desktop run [...]`,
  the resident desktop agent (`translation-host agent`, on a session bus of
  the benchmark's own) showing the popover; `gapplication` is the process
  the shortcut starts;
- cold: `translation-host run --desktop`, a process that starts GTK;
- the floor: GTK 4 mapping an empty window (Benchmarks/empty_window.c), the
  cheapest any GTK program can show something.
All are timed from outside by Benchmarks/first_map.c (X11 MapNotify, then the
window taller than the spinner alone). Medians.
Usage: Benchmarks/desktop_popover.py [--quick] [--host PATH]
(--host: another build's translation-host, or a translation-host-desktop, for
the cold popover and the service, to compare builds or to time the hand-off;
the agent is always this build's.)"""
import os, statistics, subprocess, sys, tempfile, time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from summary import record  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
HOST = os.path.join(ROOT, "build/bin/translation-host")
DESKTOP = os.path.join(ROOT, "build/libexec/translation-host/translation-host-desktop")
AGENT = "org.translationhost.Desktop"
QUICK = "--quick" in sys.argv
if "--host" in sys.argv:
    HOST = os.path.abspath(sys.argv[sys.argv.index("--host") + 1])


def compile_tools(folder):
    gtk = subprocess.run(["pkg-config", "--cflags", "--libs", "gtk4"], capture_output=True, text=True, check=True).stdout.split()
    first_map = os.path.join(folder, "first_map")
    empty = os.path.join(folder, "empty_window")
    subprocess.run(["cc", "-O2", "-o", first_map, os.path.join(ROOT, "Benchmarks/first_map.c"), "-lX11"], check=True)
    subprocess.run(["cc", "-O2", "-o", empty, os.path.join(ROOT, "Benchmarks/empty_window.c")] + gtk, check=True)
    return first_map, empty


def start_xvfb():
    read, write = os.pipe()
    server = subprocess.Popen(
        ["Xvfb", "-displayfd", str(write), "-noreset", "-screen", "0", "1280x800x24", "-nolisten", "tcp", "-nolisten", "unix"],
        pass_fds=[write], stderr=subprocess.DEVNULL, start_new_session=True)
    os.close(write)
    number = b""
    while not number.endswith(b"\n"):
        chunk = os.read(read, 16)
        if not chunk:
            sys.exit("Xvfb did not start")
        number += chunk
    os.close(read)
    return server, ":" + number.decode().strip()


def measure(first_map, command, env, map_only):
    # The popover's spinner alone is about 106 pixels high, Reverse's scene 188.
    out = subprocess.run([first_map] + ([] if map_only else ["--height", "150"]) + command, env=env,
                         capture_output=True, text=True)
    if out.returncode != 0:
        sys.exit(f"first_map {' '.join(command)} failed on {env['DISPLAY']}: {out.stdout}{out.stderr}")
    return [float(value) for value in out.stdout.split()]


def start_bus(env):
    """A session bus of the benchmark's own; its address."""
    bus = subprocess.Popen(["dbus-daemon", "--session", "--nofork", "--nopidfile", "--print-address=1"], env=env,
                           stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, start_new_session=True)
    address = bus.stdout.readline().strip()
    if not address:
        sys.exit("dbus-daemon did not start")
    return bus, address


def agent_action(env, *arguments):
    subprocess.run(["gapplication", "action", AGENT] + list(arguments), env=env, check=True)


def wait_for_agent(env, agent):
    """Until the agent owns its name on the bus (it registers after GTK is warm)."""
    for _ in range(1000):
        if agent.poll() is not None:
            sys.exit(f"translation-host agent exited with status {agent.returncode}")
        owner = subprocess.run(["gdbus", "call", "--session", "--dest", "org.freedesktop.DBus", "--object-path",
                                "/org/freedesktop/DBus", "--method", "org.freedesktop.DBus.NameHasOwner", AGENT],
                               env=env, capture_output=True, text=True)
        if "true" in owner.stdout:
            return
        time.sleep(0.01)
    sys.exit("translation-host agent did not register on the session bus")


def main():
    for program in (HOST, DESKTOP):
        if not os.access(program, os.X_OK):
            sys.exit(f"{program} is missing: run 'make build' first")
    runs = 7 if QUICK else 21
    with tempfile.TemporaryDirectory() as folder:
        first_map, empty = compile_tools(folder)
        home = os.path.join(folder, "home")
        runtime = os.path.join(folder, "run")
        os.makedirs(home)
        os.makedirs(runtime, mode=0o700)
        xvfb, display = start_xvfb()
        env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": home, "XDG_RUNTIME_DIR": runtime,
               "XDG_CONFIG_HOME": home + "/config", "XDG_DATA_HOME": home + "/data", "XDG_CACHE_HOME": home + "/cache",
               "DISPLAY": display, "GDK_BACKEND": "x11", "NO_AT_BRIDGE": "1", "LANG": "C.UTF-8"}
        # The popover chooses GTK's cairo renderer and no GL unless told
        # otherwise (GtkSession.open); the floor is drawn the same way, and
        # also with GTK's defaults (GL set up when the display opens).
        floor_env = dict(env, GSK_RENDERER="cairo", GDK_DEBUG="gl-disable")
        bus, address = start_bus(env)
        env["DBUS_SESSION_BUS_ADDRESS"] = address
        service = subprocess.Popen([HOST, "serve"], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                   start_new_session=True)
        agent = subprocess.Popen([DESKTOP, "agent", "--idle-exit", "0"], env=env, stdout=subprocess.DEVNULL,
                                 stderr=subprocess.DEVNULL, start_new_session=True)
        try:
            wait_for_agent(env, agent)
            socket = os.path.join(runtime, "translation-host", "socket")
            for _ in range(300):
                if os.path.exists(socket):
                    break
                time.sleep(0.01)
            options = ["--provider", "Reverse", "--from", "en", "--text", "Hello, world"]
            popover = [HOST, "run", "--desktop"] + options
            shortcut = ["gapplication", "action", AGENT, "run", "[" + ", ".join(f"'{o}'" for o in options) + "]"]

            def warm_agent():
                shown, scene = measure(first_map, shortcut, env, map_only=False)
                agent_action(env, "dismiss")
                time.sleep(0.2)  # the popover closes before the next request
                return shown, scene

            # Warm: the service's runner for Reverse, GTK's caches (fonts, icons, theme).
            measure(first_map, popover, env, map_only=False)
            measure(first_map, [empty], floor_env, map_only=True)
            warm_agent()
            maps, scenes, floors, defaults, agent_maps, agent_scenes = [], [], [], [], [], []
            for _ in range(runs):
                floors.append(measure(first_map, [empty], floor_env, map_only=True)[0])
                defaults.append(measure(first_map, [empty], env, map_only=True)[0])
                shown, scene = measure(first_map, popover, env, map_only=False)
                maps.append(shown)
                scenes.append(scene)
                shown, scene = warm_agent()
                agent_maps.append(shown)
                agent_scenes.append(scene)
        finally:
            agent.terminate()
            agent.wait(timeout=10)
            os.killpg(service.pid, 15)
            service.wait(timeout=10)
            os.killpg(xvfb.pid, 15)
            xvfb.wait(timeout=10)
            os.killpg(bus.pid, 15)
            bus.wait(timeout=10)
    load = os.getloadavg()[0]
    floor = statistics.median(floors)
    default = statistics.median(defaults)
    median = statistics.median
    print(f"\nDesktop popover under Xvfb, service warm, medians of {runs} (load average {load:.1f})\n")
    print("| measure | warm agent (gapplication action) | cold (translation-host run --desktop) | GTK 4 maps an empty window (the floor) | warm / floor | cold / floor |")
    print("|---|---:|---:|---:|---:|---:|")
    for name, warm, cold in [("window mapped", agent_maps, maps), ("the provider's scene shown", agent_scenes, scenes)]:
        print(f"| {name} | {median(warm):.1f} ms | {median(cold):.1f} ms | {floor:.1f} ms | "
              f"{median(warm) / floor:.2f}× | {median(cold) / floor:.2f}× |")
    print(f"| the scene, against an empty window with GTK's defaults (GL set up) | {median(agent_scenes):.1f} ms | "
          f"{median(scenes):.1f} ms | {default:.1f} ms | {median(agent_scenes) / default:.2f}× | {median(scenes) / default:.2f}× |")
    print(f"\n(cold: {HOST})")
    print("Goal (issue 28): the scene through the warm agent ≤ 1.0× the floor.")
    warm = median(agent_scenes)
    record("desktop popover: shortcut → scene shown, warm agent", f"{warm:.1f} ms",
           f"{floor:.1f} ms (GTK maps an empty window)", warm / floor, "≤ 1.0×", warm / floor <= 1.0)

if __name__ == "__main__":
    main()
