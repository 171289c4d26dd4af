#!/usr/bin/env python3
"""Start-up benchmark: wall and CPU time of `translation-host --help` (start
and exit, nothing else) and of `translation-host list` (the shipped providers,
warm registry cache) for one or more builds, and of an app that links the
`Translation` library (Examples/TranslateFile printing its usage: start and
exit), run in turn, round by round, so that load falls on each alike.
Medians; ratios against the first build.
Usage: Benchmarks/startup.py [--rounds N] [--host PATH]... [--app PATH]...
(--host: a build's translation-host; default this checkout's build/, and
several to compare builds: before/after a change, with the first as baseline.
--app: likewise, an app's binary; default this checkout's release TranslateFile.)
"""
import os, shutil, statistics, subprocess, sys, tempfile, time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
HOSTS = [os.path.abspath(sys.argv[i + 1]) for i, a in enumerate(sys.argv) if a == "--host"]
HOSTS = HOSTS or [os.path.join(ROOT, "build/bin/translation-host")]
APPS = [os.path.abspath(sys.argv[i + 1]) for i, a in enumerate(sys.argv) if a == "--app"]
APPS = APPS or [p for p in [os.path.join(ROOT, ".build/release/TranslateFile")] if os.access(p, os.X_OK)]
ROUNDS = int(sys.argv[sys.argv.index("--rounds") + 1]) if "--rounds" in sys.argv else 30
COMMANDS = [["--help"], ["list"]]
# TranslateFile without arguments prints its usage and exits with EX_USAGE.
APP_STATUS = 64


def timed(command, env, expected=0):
    """Wall and CPU seconds (user + system, of the process and its children) of one run."""
    start = time.perf_counter()
    pid = os.posix_spawn(command[0], command, env, file_actions=[
        (os.POSIX_SPAWN_OPEN, 1, os.devnull, os.O_WRONLY, 0), (os.POSIX_SPAWN_OPEN, 2, os.devnull, os.O_WRONLY, 0)])
    _, status, usage = os.wait4(pid, 0)
    wall = time.perf_counter() - start
    if os.waitstatus_to_exitcode(status) != expected:
        sys.exit(f"{' '.join(command)} failed ({status})")
    return wall, usage.ru_utime + usage.ru_stime


def main():
    for host in HOSTS:
        if not os.access(host, os.X_OK):
            sys.exit(f"{host} is missing: run 'make build' first")
    work = tempfile.mkdtemp(prefix="translation-host-startup-bench-")
    try:
        homes = {}
        for index, host in enumerate(HOSTS):
            home = os.path.join(work, f"home{index}")
            homes[host] = dict(PATH=os.environ.get("PATH", "/usr/bin:/bin"), HOME=home, LANG="C.UTF-8",
                               XDG_CONFIG_HOME=home + "/config", XDG_CACHE_HOME=home + "/cache",
                               XDG_DATA_HOME=home + "/data", XDG_RUNTIME_DIR=home + "/run")
            os.makedirs(home + "/run", mode=0o700)
        samples = {(host, c[0]): [] for host in HOSTS for c in COMMANDS}
        samples.update({(app, "app"): [] for app in APPS})
        for round in range(ROUNDS + 2):  # two rounds to warm the page cache and the registry cache
            for command in COMMANDS:
                for host in HOSTS:
                    result = timed([host] + command, homes[host])
                    if round >= 2:
                        samples[(host, command[0])].append(result)
            for app in APPS:
                result = timed([app], homes[HOSTS[0]], expected=APP_STATUS)
                if round >= 2:
                    samples[(app, "app")].append(result)
        load = open("/proc/loadavg").read().split()[:3]
        print(f"Start-up, medians of {ROUNDS} rounds, builds in turn (load average {' '.join(load)})\n")
        print("| command | build | wall | CPU | wall ratio | CPU ratio |")
        print("|---|---|---:|---:|---:|---:|")
        for command, builds in [(c[0], HOSTS) for c in COMMANDS] + [("app", APPS)]:
            base = None
            for host in builds:
                runs = samples[(host, command)]
                wall = statistics.median(w for w, _ in runs)
                cpu = statistics.median(c for _, c in runs)
                base = base or (wall, cpu)
                print(f"| `{command}` | {host} | {wall * 1000:.1f} ms | {cpu * 1000:.1f} ms "
                      f"| {wall / base[0]:.2f}× | {cpu / base[1]:.2f}× |")
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
