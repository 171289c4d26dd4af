#!/usr/bin/env python3
"""Desktop popover benchmark: the time from `translation-host run --desktop`
starting to its window being mapped and to the provider's scene being shown
in it, with `translation-host serve` warm, under Xvfb; against the floor of
GTK 4 mapping an empty window (Benchmarks/empty_window.c), in the same run,
alternating. Both are timed from outside by Benchmarks/first_map.c (X11
MapNotify, then the window taller than the spinner alone). Medians.
Usage: Benchmarks/desktop_popover.py [--quick] [--host PATH]
(--host: another build's translation-host, or a translation-host-desktop, for
the popover and the service, to compare builds or to time the hand-off.)"""
import os, statistics, subprocess, sys, tempfile, time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from summary import record  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
HOST = os.path.join(ROOT, "build/bin/translation-host")
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


def main():
    if not os.access(HOST, os.X_OK):
        sys.exit(f"{HOST} is missing: run 'make build' first")
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
        service = subprocess.Popen([HOST, "serve"], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                   start_new_session=True)
        try:
            socket = os.path.join(runtime, "translation-host", "socket")
            for _ in range(300):
                if os.path.exists(socket):
                    break
                time.sleep(0.01)
            popover = [HOST, "run", "--desktop", "--provider", "Reverse", "--from", "en", "--text", "Hello, world"]
            # Warm: the service's runner for Reverse, GTK's caches (fonts, icons, theme).
            measure(first_map, popover, env, map_only=False)
            measure(first_map, [empty], floor_env, map_only=True)
            maps, scenes, floors, defaults = [], [], [], []
            for _ in range(runs):
                floors.append(measure(first_map, [empty], floor_env, map_only=True)[0])
                defaults.append(measure(first_map, [empty], env, map_only=True)[0])
                shown, scene = measure(first_map, popover, env, map_only=False)
                maps.append(shown)
                scenes.append(scene)
        finally:
            os.killpg(service.pid, 15)
            service.wait(timeout=10)
            os.killpg(xvfb.pid, 15)
            xvfb.wait(timeout=10)
    load = os.getloadavg()[0]
    floor = statistics.median(floors)
    print(f"\nDesktop popover under Xvfb, {HOST}, service warm, medians of {runs} (load average {load:.1f})\n")
    print("| measure | translation-host run --desktop | GTK 4 maps an empty window | ratio |")
    print("|---|---:|---:|---:|")
    print(f"| window mapped | {statistics.median(maps):.1f} ms | {floor:.1f} ms | {statistics.median(maps) / floor:.2f}× |")
    print(f"| the provider's scene shown | {statistics.median(scenes):.1f} ms | {floor:.1f} ms | {statistics.median(scenes) / floor:.2f}× |")
    scene = statistics.median(scenes)
    record("desktop popover: command → scene shown, service warm", f"{scene:.1f} ms",
           f"{floor:.1f} ms (GTK maps an empty window)", scene / floor, "≤ 1.0×", scene / floor <= 1.0,
           "starting GTK in the popover's process; a resident agent would not (DESIGN §11)")
    default = statistics.median(defaults)
    print(f"| the same, against an empty window with GTK's defaults (GL set up) | {statistics.median(scenes):.1f} ms | {default:.1f} ms | {statistics.median(scenes) / default:.2f}× |")
    print("\nGoal (issue 13): the scene ≤ 150 ms after the command starts, with the service warm.")


if __name__ == "__main__":
    main()
