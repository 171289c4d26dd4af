#!/usr/bin/env python3
"""What an idle terminal popover costs: once its scene is drawn and nobody
presses a key, how often the popover wakes (context switches) and how much
CPU it and the warm service use over a few seconds. A popover that waits
on its descriptors wakes for nothing; one that polls wakes at its timer's
rate and asks the service each time. The floor is a curses program waiting
for a key (`getch`), in the same run.
Usage: Benchmarks/popover_idle.py [--rounds N] [--seconds S] [--host PATH]...
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


def main():
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
