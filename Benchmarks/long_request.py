#!/usr/bin/env python3
"""One long request through the resident service (issue 30): `translate
--lines` of the distinct corpus with `serve` running (the CLI sends it to the
service, which cuts it into batches for its runners; a runner that streams is
sent a request's next batch before the last is answered) against the same
lines cut in 8 requests sent at once (whose batches keep the runner's two
slots full), and against the same command with `--no-service` (the CLI's own
runner, started cold, takes it as one batch). Runs in turn, medians.

With several `--host`s (builds to compare), each build gets a service of its
own and the runs go build by build in turn, way by way, so the load of a
shared machine falls on all alike; `--no-service` runs for the first only.

Usage: Benchmarks/long_request.py [--lines N] [--runs N] [--serve "OPTIONS"] [--host PATH]...
"""
import os, resource, signal, statistics, subprocess, sys, tempfile, time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from translate import HOST, distinct_corpus, with_cpu_time  # noqa: E402


def option(name, default):
    return sys.argv[sys.argv.index(name) + 1] if name in sys.argv else default


LINES = int(option("--lines", 2000))
RUNS = int(option("--runs", 5))
SERVE = option("--serve", "").split()
HOSTS = [os.path.abspath(sys.argv[i + 1]) for i, a in enumerate(sys.argv) if a == "--host"] or [HOST]


def tree_cpu(root):
    """CPU seconds (user + system, with reaped children's) of `root` and every process below it, from /proc."""
    children, times = {}, {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        children.setdefault(int(fields[1]), []).append(int(entry))
        times[int(entry)] = sum(int(x) for x in fields[11:15]) / os.sysconf("SC_CLK_TCK")
    total, stack = 0.0, [root]
    while stack:
        pid = stack.pop()
        total += times.get(pid, 0.0)
        stack += children.get(pid, [])
    return total


class Service:
    """`host serve` in a home of its own, stopped by process id."""

    def __init__(self, host, home):
        self.host = host
        runtime = os.path.join(home, "run")
        os.mkdir(runtime, 0o700)
        self.environment = dict(os.environ, HOME=home, XDG_RUNTIME_DIR=runtime, XDG_CONFIG_HOME=home + "/config",
                                XDG_CACHE_HOME=home + "/cache", XDG_DATA_HOME=home + "/data")
        self.process = subprocess.Popen([host, "serve"] + SERVE, env=self.environment, stdout=subprocess.DEVNULL,
                                        stderr=subprocess.DEVNULL, start_new_session=True)
        socket_path = os.path.join(runtime, "translation-host", "socket")
        for _ in range(600):
            if os.path.exists(socket_path):
                break
            time.sleep(0.1)
        self.command = [host, "translate", "--lines", "--provider", "Apertium", "--from", "en", "--to", "es"]
        # Warm: the service's runner and its pipelines.
        subprocess.run(self.command, input=b"Warm up.\n", env=self.environment, check=True, stdout=subprocess.DEVNULL)

    def stop(self):
        os.killpg(self.process.pid, signal.SIGTERM)
        self.process.wait(timeout=20)


def main():
    texts = distinct_corpus(LINES)
    words = len(("\n".join(texts)).split())
    names = [f"build {index + 1}" if len(HOSTS) > 1 else "" for index in range(len(HOSTS))]
    with tempfile.TemporaryDirectory() as folder:
        services = []
        try:
            for index, host in enumerate(HOSTS):
                home = os.path.join(folder, str(index))
                os.mkdir(home)
                services.append(Service(host, home))
            ways = []  # (label, service, kind)
            for name, service in zip(names, services):
                prefix = name + ", " if name else ""
                ways.append((prefix + "through the service", service, "one"))
                ways.append((prefix + "through the service, as 8 requests at once", service, "eight"))
            ways.append(("--no-service" + (f" ({names[0]})" if names[0] else ""), services[0], "direct"))
            times = {label: [] for label, _, _ in ways}
            cpu = {label: [] for label, _, _ in ways}
            outputs = {label: set() for label, _, _ in ways}
            for run in range(RUNS):
                for way, (label, service, kind) in enumerate(ways):
                    # Lines no runner has seen: the service's runner remembers what it translated.
                    marked = ("\n".join(f"{t} ({run}.{way})" if t.strip() else t for t in texts) + "\n").encode()
                    environment = service.environment
                    os.environ.update(environment)  # for with_cpu_time's commands: they must find the service
                    before = tree_cpu(service.process.pid)
                    start = time.perf_counter()
                    if kind == "eight":
                        # The same lines cut in 8, sent at once.
                        lines = marked.split(b"\n")[:-1]
                        parts = [b"\n".join(lines[i::8]) + b"\n" for i in range(8)]
                        children = resource.getrusage(resource.RUSAGE_CHILDREN)
                        clients = [subprocess.Popen(service.command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                                    env=environment) for _ in parts]
                        answers = [client.communicate(part)[0] for client, part in zip(clients, parts)]
                        after = resource.getrusage(resource.RUSAGE_CHILDREN)
                        out, seconds = b"".join(answers), (after.ru_utime + after.ru_stime
                                                            - children.ru_utime - children.ru_stime)
                    else:
                        argv = service.command + (["--no-service"] if kind == "direct" else [])
                        out, seconds = with_cpu_time(argv, marked, folder)
                    times[label].append(time.perf_counter() - start)
                    cpu[label].append((seconds or 0) + tree_cpu(service.process.pid) - before)
                    outputs[label].add(len(out.split(b"\n")))
        finally:
            for service in services:
                service.stop()
    load = " ".join(open("/proc/loadavg").read().split()[:3])
    print(f"One long request, {LINES:,} distinct lines ({words:,} words), medians of {RUNS} runs in turn (load {load})\n")
    for name, host in zip(names, HOSTS):
        if name:
            print(f"- {name}: {host}")
    print("\n| way | words/s | each run, s | CPU: the command, what it started and the service's process tree, s |")
    print("|---|---:|---|---:|")
    for label, _, _ in ways:
        median = statistics.median(times[label])
        print(f"| {label} | {words / median:,.0f} | {', '.join(f'{t:.2f}' for t in times[label])} | "
              f"{statistics.median(cpu[label]):.2f} |")
    print()
    for name in names:
        prefix = name + ", " if name else ""
        one = times[prefix + "through the service"]
        eight = times[prefix + "through the service, as 8 requests at once"]
        runs = ", ".join(f"{e / o:.2f}" for o, e in zip(one, eight))
        print(f"{name or 'words/s'}: one request against 8 requests at once "
              f"{statistics.median(eight) / statistics.median(one):.2f}× (each run {runs})")
    print(f"lines per output: {outputs}")


if __name__ == "__main__":
    main()
