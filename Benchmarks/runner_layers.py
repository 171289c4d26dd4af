#!/usr/bin/env python3
"""Runner start-up layer by layer (issue 29): a cold `translate` through the
sandboxed runner (Rot13, a C provider: what is timed is the runner, not the
provider) for each build given, in configurations that leave out one of
issue 24's layers each, run in turn round by round so that load falls on
each alike. Wall and CPU (user + system of the host and every process it
started) medians, and each configuration's difference from the first
build's full run.

Configurations:
  all layers      the runner as it runs for users
  no view         TRANSLATION_HOST_LIMIT_DISK_MIB=0: the container bound as
                  it is (no FUSE view; no per-file limit either)
  no group        /sys/fs/cgroup hidden (an empty tmpfs over it, in a mount
                  namespace of its own), the view off too, so that root's
                  provider does not become `nobody` (unprivileged-user)
Every run, the full one included, starts in a mount namespace of its own, so
that the only difference is the layer.

Then, where this user may write cgroup v1's pids hierarchy (root), the
kernel's cost of moving a process into a new control group, both ways, 25
moves each, 50 ms apart (a move right after another skips the wait below):
  cgroup.procs  its PID written there: the kernel's global lock against
                forks, which waits out an RCU grace period
  tasks "0"     cgroup v1 only: the calling thread alone, without that lock

Usage: Benchmarks/runner_layers.py [--rounds N] [--build PATH]...
(--build: a build folder, as `make build` lays out; several to compare, the
first is the baseline; default this checkout's build/. Must be run as root for
the `no group` row and the moves: otherwise they are left out.)
"""
import ctypes, os, shutil, statistics, sys, tempfile, time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BUILDS = [os.path.abspath(sys.argv[i + 1]) for i, a in enumerate(sys.argv) if a == "--build"]
BUILDS = BUILDS or [os.path.join(ROOT, "build")]
ROUNDS = int(sys.argv[sys.argv.index("--rounds") + 1]) if "--rounds" in sys.argv else 21
CGROUP_V1_PIDS = "/sys/fs/cgroup/pids"

LIBC = ctypes.CDLL(None, use_errno=True)
CLONE_NEWNS = 0x00020000
MS_REC, MS_PRIVATE = 0x4000, 0x40000


def own_mount_namespace(hide_groups):
    """In the child, before exec: a mount namespace of its own, /sys/fs/cgroup hidden with `hide_groups`."""
    def prepare():
        if LIBC.unshare(CLONE_NEWNS) != 0:
            os._exit(120)
        if LIBC.mount(None, b"/", None, MS_REC | MS_PRIVATE, None) != 0:
            os._exit(121)
        if hide_groups and LIBC.mount(b"none", b"/sys/fs/cgroup", b"tmpfs", 0, b"size=4k") != 0:
            os._exit(122)
    return prepare


def timed(build, environment, hide_groups):
    command = [build + "/bin/translation-host", "translate", "--provider",
               build + "/lib/translation-host/providers/Rot13.translationprovider",
               "--from", "en", "--to", "en-x-rot13", "Hello"]
    start = time.perf_counter()
    pid = os.fork()
    if pid == 0:
        try:
            own_mount_namespace(hide_groups)()
            null = os.open(os.devnull, os.O_WRONLY)
            os.dup2(null, 1)
            os.execve(command[0], command, environment)
        finally:
            os._exit(127)
    _, status, usage = os.wait4(pid, 0)
    wall = time.perf_counter() - start
    if os.waitstatus_to_exitcode(status) != 0:
        sys.exit(f"{' '.join(command)} failed ({status})")
    return wall, usage.ru_utime + usage.ru_stime


def moves(way, count, gap=0.05):
    """Milliseconds to move a new single-threaded process into a new group under cgroup v1's pids hierarchy."""
    samples = []
    for _ in range(count):
        reading, writing = os.pipe()
        child = os.fork()
        if child == 0:
            os.close(reading)
            group = f"{CGROUP_V1_PIDS}/runner-layers-bench-{os.getpid()}"
            os.mkdir(group)
            with open(group + "/pids.max", "w") as limit:
                limit.write("64")
            file, text = ("cgroup.procs", str(os.getpid())) if way == "cgroup.procs" else ("tasks", "0")
            fd = os.open(f"{group}/{file}", os.O_WRONLY)
            start = time.perf_counter()
            os.write(fd, text.encode())
            elapsed = time.perf_counter() - start
            os.close(fd)
            lines = open("/proc/self/cgroup").read().splitlines()
            inside = any(line.split(":", 2)[1:] == ["pids", group[len(CGROUP_V1_PIDS):]] for line in lines)
            os.write(writing, f"{elapsed} {int(inside)}".encode())
            os._exit(0)
        os.close(writing)
        reply = os.read(reading, 64).decode().split()
        os.close(reading)
        os.waitpid(child, 0)
        os.rmdir(f"{CGROUP_V1_PIDS}/runner-layers-bench-{child}")
        if reply[1] != "1":
            sys.exit(f"the process was not moved into its group by {way}")
        samples.append(float(reply[0]) * 1000)
        time.sleep(gap)
    return samples


def main():
    for build in BUILDS:
        if not os.access(build + "/bin/translation-host", os.X_OK):
            sys.exit(f"{build}/bin/translation-host is missing: run 'make build' first")
    root = os.geteuid() == 0
    configurations = [("all layers", None, False), ("no view", "0", False)]
    if root:
        configurations.append(("no group, no view", "0", True))
    work = tempfile.mkdtemp(prefix="translation-host-runner-layers-")
    try:
        environments = {}
        for index, build in enumerate(BUILDS):
            home = os.path.join(work, f"home{index}")
            os.makedirs(home + "/run", mode=0o700)
            environments[build] = dict(PATH=os.environ.get("PATH", "/usr/bin:/bin"), HOME=home, LANG="C.UTF-8",
                                       XDG_CONFIG_HOME=home + "/config", XDG_CACHE_HOME=home + "/cache",
                                       XDG_DATA_HOME=home + "/data", XDG_RUNTIME_DIR=home + "/run")
        samples = {(build, name): [] for build in BUILDS for name, _, _ in configurations}
        loads = []
        for round in range(ROUNDS + 2):  # two rounds to warm the page cache and the registry cache
            for name, disk, hide in configurations:
                for build in BUILDS:
                    environment = dict(environments[build])
                    if disk is not None:
                        environment["TRANSLATION_HOST_LIMIT_DISK_MIB"] = disk
                    result = timed(build, environment, hide)
                    if round >= 2:
                        samples[(build, name)].append(result)
            loads.append(os.getloadavg()[0])
        print(f"Runner start-up by layer: cold `translate` (Rot13), medians of {ROUNDS} rounds, in turn "
              f"(load average {min(loads):.2f}-{max(loads):.2f})\n")
        print("| configuration | build | wall | CPU | wall − first build's all layers |")
        print("|---|---|---:|---:|---:|")
        base = statistics.median(w for w, _ in samples[(BUILDS[0], "all layers")])
        for name, _, _ in configurations:
            for build in BUILDS:
                runs = samples[(build, name)]
                wall = statistics.median(w for w, _ in runs)
                cpu = statistics.median(c for _, c in runs)
                print(f"| {name} | {build} | {wall * 1000:.2f} ms | {cpu * 1000:.2f} ms | {(wall - base) * 1000:+.2f} ms |")
        if root and os.access(CGROUP_V1_PIDS, os.W_OK):
            print("\nMoving a process into a new control group (cgroup v1 pids), 25 moves 50 ms apart, "
                  f"in turn (load average {os.getloadavg()[0]:.2f}):\n")
            print("| way | median | min | max |")
            print("|---|---:|---:|---:|")
            results = {"cgroup.procs": [], "tasks \"0\"": []}
            for _ in range(5):
                results["cgroup.procs"] += moves("cgroup.procs", count=5)
                results["tasks \"0\""] += moves("tasks", count=5)
            for way, values in results.items():
                print(f"| {way} | {statistics.median(values):.3f} ms | {min(values):.3f} ms | {max(values):.3f} ms |")
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
