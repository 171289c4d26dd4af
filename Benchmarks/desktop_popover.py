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
Usage: Benchmarks/desktop_popover.py [--quick] [--host PATH] [--sway]
(--host: another build's translation-host, or a translation-host-desktop, for
the cold popover and the service, to compare builds or to time the hand-off;
the agent is always this build's.)

--sway: the same three on sway (headless, as `nobody` when run as root),
where the popover is a layer surface: timed from outside by polling grim for
a column of pixels (no Wayland client can see another's surfaces), the
popover mapped when the pixel under its anchor turns the popover's colour,
its scene shown when the one 150 pixels lower does (below the spinner alone);
the floor, GTK 4's empty window mapped, when the output's centre turns the
window's colour. The figures are as coarse as one grim call (reported)."""
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


def wait_for_agent(env, agent, prefix=()):
    """Until the agent owns its name on the bus (it registers after GTK is warm)."""
    for _ in range(1000):
        if agent.poll() is not None:
            sys.exit(f"translation-host agent exited with status {agent.returncode}")
        owner = subprocess.run(list(prefix) + ["gdbus", "call", "--session", "--dest", "org.freedesktop.DBus", "--object-path",
                                "/org/freedesktop/DBus", "--method", "org.freedesktop.DBus.NameHasOwner", AGENT],
                               env=env, capture_output=True, text=True)
        if "true" in owner.stdout:
            return
        time.sleep(0.01)
    sys.exit("translation-host agent did not register on the session bus")


def require_built():
    for program in (HOST, DESKTOP):
        if not os.access(program, os.X_OK):
            sys.exit(f"{program} is missing: run 'make build' first")


def main():
    require_built()
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

SWAY_ANCHOR = (640, 200)
SCENE_BELOW = 150


def start_sway(folder):
    """sway headless on a 1280×800 output, as `nobody` when root; its environment and process."""
    runtime = os.path.join(folder, "sway-run")
    home = os.path.join(runtime, "home")
    os.makedirs(home)
    config = os.path.join(runtime, "sway.config")
    with open(config, "w") as file:
        file.write("output HEADLESS-1 resolution 1280x800\ndefault_border none\n")
    prefix = []
    if os.getuid() == 0:
        for path in (runtime, home, config):
            os.chown(path, 65534, 65534)
        prefix = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", "--"]
    os.chmod(runtime, 0o700)
    env = {"PATH": "/usr/bin:/bin", "HOME": home, "XDG_RUNTIME_DIR": runtime, "LANG": "C.UTF-8",
           "XDG_CONFIG_HOME": home + "/config", "XDG_DATA_HOME": home + "/data", "XDG_CACHE_HOME": home + "/cache"}
    sway = subprocess.Popen(prefix + ["sway", "-c", config], env=dict(env, WLR_BACKENDS="headless", WLR_LIBINPUT_NO_DEVICES="1",
                                                                     WLR_RENDERER="pixman"),
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    for _ in range(3000):
        names = os.listdir(runtime)
        display = next((n for n in names if n.startswith("wayland-") and not n.endswith(".lock")), None)
        ipc = next((n for n in names if n.startswith("sway-ipc.")), None)
        if display and ipc:
            env.update(WAYLAND_DISPLAY=display, SWAYSOCK=os.path.join(runtime, ipc), GDK_BACKEND="wayland", NO_AT_BRIDGE="1")
            return sway, env, prefix, runtime
        time.sleep(0.01)
    sys.exit("sway did not start")


def column(env, prefix, x, top, height):
    """The pixels of a column of the output (grim, PPM), as (r, g, b) tuples."""
    shot = subprocess.run(prefix + ["grim", "-g", f"{x},{top} 1x{height}", "-t", "ppm", "-"], env=env, capture_output=True)
    data = shot.stdout
    # P6\n1 <height>\n255\n then the pixels.
    header_end = 0
    for _ in range(3):
        header_end = data.index(b"\n", header_end) + 1
    pixels = data[header_end:]
    return [tuple(pixels[i:i + 3]) for i in range(0, len(pixels), 3)]


def light(pixel):
    return pixel is not None and min(pixel) > 200


def time_shown(command, env, prefix, x, top, offsets, polls):
    """Starts `command`; the seconds until each pixel at `offsets` below `top` turned light, in milliseconds."""
    height = max(offsets) + 1
    start = time.monotonic()
    process = subprocess.Popen(prefix + command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                               start_new_session=True)
    shown = [None] * len(offsets)
    while None in shown and time.monotonic() - start < 20:
        before = time.monotonic()
        pixels = column(env, prefix, x, top, height)
        now = time.monotonic()
        polls.append((now - before) * 1000)
        for index, offset in enumerate(offsets):
            if shown[index] is None and offset < len(pixels) and light(pixels[offset]):
                shown[index] = (now - start) * 1000
    if None in shown:
        sys.exit(f"{' '.join(command)} showed nothing on sway within 20 s")
    return process, shown


def wait_gone(env, prefix, x, top):
    for _ in range(500):
        if not light(column(env, prefix, x, top, 1)[0]):
            return
        time.sleep(0.01)
    sys.exit("the popover stayed on the screen")


def main_sway():
    require_built()
    runs = 5 if QUICK else 11
    with tempfile.TemporaryDirectory() as folder:
        os.chmod(folder, 0o755)
        gtk = subprocess.run(["pkg-config", "--cflags", "--libs", "gtk4"], capture_output=True, text=True, check=True).stdout.split()
        empty = os.path.join(folder, "empty_window")
        subprocess.run(["cc", "-O2", "-o", empty, os.path.join(ROOT, "Benchmarks/empty_window.c")] + gtk, check=True)
        sway, env, prefix, runtime = start_sway(folder)
        floor_env = dict(env, GSK_RENDERER="cairo", GDK_DEBUG="gl-disable")
        bus = subprocess.Popen(prefix + ["dbus-daemon", "--session", "--nofork", "--nopidfile", "--print-address=1"], env=env,
                               stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, start_new_session=True)
        env["DBUS_SESSION_BUS_ADDRESS"] = bus.stdout.readline().strip()
        service = subprocess.Popen(prefix + [HOST, "serve"], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                   start_new_session=True)
        agent = subprocess.Popen(prefix + [DESKTOP, "agent", "--idle-exit", "0"], env=env, stdout=subprocess.DEVNULL,
                                 stderr=subprocess.DEVNULL, start_new_session=True)
        polls = []
        x, y = SWAY_ANCHOR
        offsets = [12, 12 + SCENE_BELOW]
        options = ["--provider", "Reverse", "--from", "en", "--text", "Hello, world", "--anchor", f"{x},{y}"]
        popover = [HOST, "run", "--desktop"] + options
        shortcut = ["gapplication", "action", AGENT, "run", "[" + ", ".join(f"'{o}'" for o in options) + "]"]
        try:
            wait_for_agent(env, agent, prefix)

            def cold():
                process, shown = time_shown(popover, env, prefix, x, y, offsets, polls)
                os.killpg(process.pid, 15)
                process.wait(timeout=10)
                wait_gone(env, prefix, x, y + offsets[0])
                return shown

            def warm():
                process, shown = time_shown(shortcut, env, prefix, x, y, offsets, polls)
                process.wait(timeout=10)
                subprocess.run(prefix + ["gapplication", "action", AGENT, "dismiss"], env=env, check=True)
                wait_gone(env, prefix, x, y + offsets[0])
                return shown

            def floor():
                process, shown = time_shown([empty], floor_env, prefix, 640, 400, [0], polls)
                os.killpg(process.pid, 15)
                process.wait(timeout=10)
                wait_gone(env, prefix, 640, 400)
                return shown[0]

            cold(), warm(), floor()
            colds, warms, floors = [], [], []
            for _ in range(runs):
                floors.append(floor())
                colds.append(cold())
                warms.append(warm())
        finally:
            for process in (agent, service, bus, sway):
                try:
                    os.killpg(process.pid, 15)
                    process.wait(timeout=10)
                except (ProcessLookupError, subprocess.TimeoutExpired):
                    pass
    load = os.getloadavg()[0]
    median = statistics.median
    floor_ms = median(floors)
    print(f"\nDesktop popover on sway (headless), a layer surface, service warm, medians of {runs} "
          f"(load average {load:.1f}; one grim poll: median {median(polls):.1f} ms)\n")
    print("| measure | warm agent (gapplication action) | cold (translation-host run --desktop) | GTK 4 maps an empty window (the floor) | warm / floor | cold / floor |")
    print("|---|---:|---:|---:|---:|---:|")
    for index, name in enumerate(["layer surface mapped", "the provider's scene shown"]):
        warm_ms = median(w[index] for w in warms)
        cold_ms = median(c[index] for c in colds)
        print(f"| {name} | {warm_ms:.1f} ms | {cold_ms:.1f} ms | {floor_ms:.1f} ms | {warm_ms / floor_ms:.2f}× | {cold_ms / floor_ms:.2f}× |")
    warm_scene = median(w[1] for w in warms)
    record("desktop popover on sway (layer surface): shortcut → scene shown, warm agent", f"{warm_scene:.1f} ms",
           f"{floor_ms:.1f} ms (GTK maps an empty window on sway)", warm_scene / floor_ms, "≤ 1.0×", warm_scene / floor_ms <= 1.0)


if __name__ == "__main__":
    main_sway() if "--sway" in sys.argv else main()
