#!/usr/bin/env python3
"""What an idle terminal popover costs: once its scene is drawn and nobody
presses a key, how often the popover wakes (context switches) and how much
CPU it and the warm service use over a few seconds. A popover that waits
on its descriptors wakes for nothing; one that polls wakes at its timer's
rate and asks the service each time. The floor is a curses program waiting
for a key (`getch`), in the same run.

With --holder, the desktop's clipboard holder instead (`translation-host
clipboard-hold`, which keeps a clipboard borrowed for a paste once the
popover has exited), under Xvfb with a session bus of its own: its wakeups
and CPU while it holds the clipboard and nothing happens, then, once
`xclip` copies something else, how long it takes to hand the clipboard over
and exit, and how often it woke meanwhile (a holder that polls GLib wakes
at its timer's rate there).
Usage: Benchmarks/popover_idle.py [--holder] [--rounds N] [--seconds S] [--host PATH]...
(several --host: builds measured in turn, each with its own service.)
"""
import os, pty, select, shutil, signal, statistics, subprocess, sys, tempfile, time

import popover

ROUNDS = int(sys.argv[sys.argv.index("--rounds") + 1]) if "--rounds" in sys.argv else 5
SECONDS = float(sys.argv[sys.argv.index("--seconds") + 1]) if "--seconds" in sys.argv else 5.0
HOSTS = [os.path.abspath(sys.argv[i + 1]) for i, a in enumerate(sys.argv) if a == "--host"] or [popover.HOST]
TICKS = os.sysconf("SC_CLK_TCK")


def cpu_seconds(pid):
    """User + system time of `pid`, in seconds."""
    fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICKS


def switches(pid):
    """Voluntary + involuntary context switches of `pid`, its threads summed."""
    total = 0
    for task in os.listdir(f"/proc/{pid}/task"):
        for line in open(f"/proc/{pid}/task/{task}/status"):
            if line.startswith(("voluntary_ctxt_switches", "nonvoluntary_ctxt_switches")):
                total += int(line.split()[1])
    return total


def idle(command, env, marker, service_pid, quit_keys):
    """Starts `command` on an 80x24 pty, waits for `marker`, then measures
    `SECONDS` of idleness: (wakeups/s, CPU ms/s of the program, CPU ms/s of the service)."""
    pid, fd = pty.fork()
    if pid == 0:
        os.execve(command[0], command, env)
    import fcntl, struct, termios
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
    seen = b""
    deadline = time.monotonic() + 30
    try:
        while marker not in seen:
            if time.monotonic() > deadline:
                raise SystemExit(f"{command[0]} drew no {marker!r} within 30 s: {seen[-300:]!r}")
            if select.select([fd], [], [], 0.5)[0]:
                seen += os.read(fd, 65536)
        time.sleep(1)  # the scene settles (its first look for changes, a redraw)
        start = (switches(pid), cpu_seconds(pid), cpu_seconds(service_pid) if service_pid else 0)
        end_at = time.monotonic() + SECONDS
        while time.monotonic() < end_at:  # keep the pty drained, as a terminal does
            if select.select([fd], [], [], 0.1)[0]:
                os.read(fd, 65536)
        end = (switches(pid), cpu_seconds(pid), cpu_seconds(service_pid) if service_pid else 0)
        os.write(fd, quit_keys)
        for _ in range(100):
            if os.waitpid(pid, os.WNOHANG)[0]:
                break
            if select.select([fd], [], [], 0.05)[0]:
                try:
                    os.read(fd, 65536)
                except OSError:
                    pass
        else:
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
    finally:
        os.close(fd)
    return tuple((b - a) / SECONDS for a, b in zip(start, end))


HOLDER_TEXT = "Held by the benchmark"


def holder_round(host, env):
    """Starts a holder of a two-format clipboard, waits until it serves it,
    measures `SECONDS` of idleness, then has xclip copy something else.
    Returns (idle wakeups/s, idle CPU ms/s, hand-over ms, hand-over wakeups)."""
    html = f"<b>{HOLDER_TEXT}</b>".encode()
    text = HOLDER_TEXT.encode()
    contents = (b"text/plain;charset=utf-8 %d\n" % len(text) + text + b"text/html %d\n" % len(html) + html)
    read, write = os.pipe()
    holder = subprocess.Popen([host, "clipboard-hold"], stdin=read, stdout=subprocess.DEVNULL,
                              stderr=subprocess.PIPE, env=env, start_new_session=True)
    os.close(read)
    os.write(write, contents)
    os.close(write)
    deadline = time.monotonic() + 30
    while subprocess.run(["xclip", "-o", "-selection", "clipboard"], env=env, capture_output=True,
                         timeout=10).stdout != text:
        if holder.poll() is not None or time.monotonic() > deadline:
            raise SystemExit(f"the holder did not take the clipboard: {holder.stderr.read() if holder.poll() is not None else ''}")
        time.sleep(0.05)
    time.sleep(1)  # the xclip that read it has gone; GDK has answered
    start = (switches(holder.pid), cpu_seconds(holder.pid))
    time.sleep(SECONDS)
    end = (switches(holder.pid), cpu_seconds(holder.pid))
    # The hand-over: from xclip's copy to the holder's exit, its wakeups counted by the kernel (wait4).
    copier = subprocess.Popen(["xclip", "-quiet", "-selection", "clipboard", "-i"], stdin=subprocess.PIPE,
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env, start_new_session=True)
    copied_at = time.monotonic()
    copier.stdin.write(b"copied since")
    copier.stdin.close()
    _, status, usage = os.wait4(holder.pid, 0)
    handed_over = time.monotonic() - copied_at
    holder.returncode = os.waitstatus_to_exitcode(status)
    copier.kill()
    copier.wait()
    if holder.returncode != 0:
        raise SystemExit(f"the holder exited with {holder.returncode}: {holder.stderr.read()!r}")
    return ((end[0] - start[0]) / SECONDS, (end[1] - start[1]) / SECONDS * 1000, handed_over * 1000,
            usage.ru_nvcsw + usage.ru_nivcsw - end[0])


def holder_main():
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    from desktop_popover import start_bus, start_xvfb
    work = tempfile.mkdtemp(prefix="translation-host-holder-idle-")
    server, display = start_xvfb()
    rows = []
    try:
        env = {"PATH": os.environ["PATH"], "HOME": work, "XDG_RUNTIME_DIR": work, "DISPLAY": display, "LANG": "C.UTF-8",
               "XDG_CONFIG_HOME": work + "/config", "XDG_CACHE_HOME": work + "/cache", "XDG_DATA_HOME": work + "/data"}
        os.chmod(work, 0o700)
        bus, address = start_bus(env)
        env["DBUS_SESSION_BUS_ADDRESS"] = address
        try:
            for host in HOSTS:
                holder_round(host, env)  # warms the page cache
                measured = [holder_round(host, env) for _ in range(ROUNDS)]
                rows.append((host, [statistics.median(m[i] for m in measured) for i in range(4)]))
        finally:
            bus.terminate()
            bus.wait(timeout=10)
    finally:
        server.terminate()
        server.wait(timeout=10)
        shutil.rmtree(work, ignore_errors=True)
    load = open("/proc/loadavg").read().split()[:3]
    print(f"Clipboard holder under Xvfb, {SECONDS:g} s idle, medians of {ROUNDS}; load average {' '.join(load)}\n")
    print("| build | idle wakeups/s | idle CPU ms/s | hand-over ms | hand-over wakeups |")
    print("|---|---:|---:|---:|---:|")
    for host, (wakeups, cpu, handed_over, handover_wakeups) in rows:
        print(f"| {host} | {wakeups:.1f} | {cpu:.2f} | {handed_over:.0f} | {handover_wakeups:.0f} |")


def main():
    if "--holder" in sys.argv:
        return holder_main()
    work = tempfile.mkdtemp(prefix="translation-host-popover-idle-")
    floor = os.path.join(work, "empty_screen")
    with open(floor + ".c", "w") as f:
        f.write(popover.FLOOR_SOURCE)
    subprocess.run(["cc", "-O2", "-o", floor, floor + ".c", "-lncursesw"], check=True)
    rows = []
    try:
        for host in HOSTS:
            popover.HOST = host
            service, env = popover.start_service(os.path.join(work, str(len(rows))))
            try:
                command = [host, "run", "--provider", "Reverse", "--text", popover.TEXT]
                idle(command, env, popover.SCENE_MARKER, service.pid, b"\x1b")  # warms the runner
                measured = [idle(command, env, popover.SCENE_MARKER, service.pid, b"\x1b") for _ in range(ROUNDS)]
                floors = [idle([floor], env, popover.FLOOR_MARKER, None, b"q") for _ in range(ROUNDS)]
            finally:
                service.terminate()
                service.wait(timeout=10)
            rows.append((host, [statistics.median(m[i] for m in measured) for i in range(3)],
                         [statistics.median(m[i] for m in floors) for i in range(2)]))
    finally:
        shutil.rmtree(work, ignore_errors=True)
    load = open("/proc/loadavg").read().split()[:3]
    print(f"Idle terminal popover (Reverse, service warm), {SECONDS:g} s idle, medians of {ROUNDS}; load average {' '.join(load)}\n")
    print("| build | popover wakeups/s | popover CPU ms/s | service CPU ms/s | floor wakeups/s | floor CPU ms/s |")
    print("|---|---:|---:|---:|---:|---:|")
    for host, (wakeups, cpu, service_cpu), (floor_wakeups, floor_cpu) in rows:
        print(f"| {host} | {wakeups:.1f} | {cpu * 1000:.2f} | {service_cpu * 1000:.2f} | {floor_wakeups:.1f} | {floor_cpu * 1000:.2f} |")


if __name__ == "__main__":
    main()
