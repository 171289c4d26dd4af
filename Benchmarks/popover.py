#!/usr/bin/env python3
"""Popover benchmark: time from starting `translation-host run` to the
popover's first frame, with the resident service warm, against the floor of
a program that only draws an empty screen, in the same run. Medians.
Usage: Benchmarks/popover.py [--quick] [--host PATH]
(--host: another build's translation-host, for the popover and the service,
to compare builds.)

Each case is a front end: how to start it, how to tell its first frame has
been drawn, and its floor. The terminal popover runs in a pseudo-terminal
(80x24, TERM=xterm-256color); its first frame is the first output that
shows the scene's own buttons, and its floor is a curses program that clears the
screen and draws one word. The desktop popover (GTK 4) is measured under
Xvfb by Benchmarks/desktop_popover.py: its first map and its scene against
GTK mapping an empty window.
"""
import os, pty, select, shutil, signal, statistics, subprocess, sys, tempfile, time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
HOST = os.path.join(ROOT, "build/bin/translation-host")
QUICK = "--quick" in sys.argv
if "--host" in sys.argv:
    HOST = os.path.abspath(sys.argv[sys.argv.index("--host") + 1])
TEXT = "Hello popover"
# The first frame is the scene's: its buttons ("Translate", "Replace With
# Translation" in Apple's sample, Reverse) are drawn by no one else.
SCENE_MARKER = b"Translat"
FLOOR_MARKER = TEXT.encode()

FLOOR_SOURCE = r"""
#include <curses.h>
#include <locale.h>
/* The floor: what any terminal front end must do before its first frame. */
int main(void) {
  setlocale(LC_ALL, "");
  initscr();
  cbreak();
  noecho();
  clear();
  mvaddstr(LINES / 2, COLS / 2 - 6, "Hello popover");
  refresh();
  getch();
  endwin();
  return 0;
}
"""


def first_frame_in_pty(command, env, marker, quit_keys=b"\x1b"):
    """Seconds from fork to the first output containing `marker`, with the
    program on a pseudo-terminal; then it is dismissed and reaped."""
    start = time.perf_counter()
    pid, fd = pty.fork()
    if pid == 0:
        os.execve(command[0], command, env)
    seen = b""
    elapsed = None
    deadline = start + 30
    try:
        import fcntl, struct, termios
        fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
        while time.perf_counter() < deadline:
            ready, _, _ = select.select([fd], [], [], 0.5)
            if not ready:
                continue
            try:
                chunk = os.read(fd, 65536)
            except OSError:
                break
            if not chunk:
                break
            seen += chunk
            if marker in seen:
                elapsed = time.perf_counter() - start
                break
        os.write(fd, quit_keys)
        for _ in range(100):
            done, _ = os.waitpid(pid, os.WNOHANG)
            if done:
                break
            try:
                select.select([fd], [], [], 0.02)
                os.read(fd, 65536)
            except OSError:
                pass
        else:
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
    finally:
        os.close(fd)
    if elapsed is None:
        raise SystemExit(f"{command[0]} drew no frame with {marker!r} within 30 s; it wrote: {seen[-400:]!r}")
    return elapsed


def terminal_case(work, env):
    floor = os.path.join(work, "empty_screen")
    source = floor + ".c"
    with open(source, "w") as f:
        f.write(FLOOR_SOURCE)
    subprocess.run(["cc", "-O2", "-o", floor, source, "-lncursesw"], check=True)
    popover = [HOST, "run", "--provider", "Reverse", "--text", TEXT]
    return {
        "name": "terminal popover (`run --provider Reverse`, 80x24 pty)",
        "measure": lambda: first_frame_in_pty(popover, env, SCENE_MARKER),
        "floor_name": "a curses program drawing an empty screen and one word",
        "floor": lambda: first_frame_in_pty([floor], env, FLOOR_MARKER, quit_keys=b"q"),
    }


# Front ends to measure: each returns a case given the work folder and the
# service's environment. A desktop popover adds its own (first mapped window
# against an empty window) here.
CASES = [terminal_case]


def start_service(work):
    home = os.path.join(work, "home")
    runtime = os.path.join(home, "run")
    os.makedirs(runtime, mode=0o700)
    env = dict(os.environ, HOME=home, XDG_RUNTIME_DIR=runtime, XDG_CONFIG_HOME=os.path.join(home, "config"),
               XDG_CACHE_HOME=os.path.join(home, "cache"), XDG_DATA_HOME=os.path.join(home, "data"),
               TERM="xterm-256color", LANG="C.UTF-8", LC_ALL="C.UTF-8")
    env.pop("NO_COLOR", None)
    service = subprocess.Popen([HOST, "serve"], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    socket = os.path.join(runtime, "translation-host", "socket")
    for _ in range(300):
        if os.path.exists(socket):
            break
        time.sleep(0.05)
    else:
        service.kill()
        raise SystemExit("translation-host serve made no socket within 15 s")
    return service, env


def main():
    if not os.access(HOST, os.X_OK):
        sys.exit(f"{HOST} is missing: run 'make build' first")
    runs = 7 if QUICK else 21
    work = tempfile.mkdtemp(prefix="translation-host-popover-bench-")
    service = None
    try:
        service, env = start_service(work)
        rows = []
        for make_case in CASES:
            case = make_case(work, env)
            for _ in range(3):  # the service starts and warms the provider's runner
                case["measure"]()
                case["floor"]()
            samples, floors = [], []
            for _ in range(runs):  # interleaved, so load falls on both alike
                samples.append(case["measure"]())
                floors.append(case["floor"]())
            rows.append((case, statistics.median(samples), statistics.median(floors)))
        load = open("/proc/loadavg").read().split()[:3]
        print(f"Popover benchmark, {HOST}, medians of {runs} (service warm; load average {' '.join(load)})\n")
        print("| front end | first frame | floor | ratio |")
        print("|---|---:|---:|---:|")
        for case, measured, floor in rows:
            print(f"| {case['name']} vs {case['floor_name']} | {measured * 1000:.1f} ms | {floor * 1000:.1f} ms | {measured / floor:.2f}× |")
        print("\nGoal (issue 16): time to the popover's first frame with the service warm, against the floor of an empty screen.")
    finally:
        if service is not None:
            service.terminate()
            try:
                service.wait(timeout=10)
            except subprocess.TimeoutExpired:
                service.kill()
                service.wait()
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
