#!/usr/bin/env python3
"""One long request through the resident service (issue 30): `translate
--lines` of the distinct corpus with `serve` running (the CLI sends it to the
service, which cuts it into batches of at most 256 for its runners, one
batch of a request at a time) against the same lines cut in 8 requests sent
at once (whose batches keep the runner's two slots full, so its pipelines
never drain between batches), and against the same command with
`--no-service` (the CLI's own runner, started cold, takes it as one batch).
Runs in turn, medians.

Usage: Benchmarks/long_request.py [--lines N] [--runs N] [--serve "OPTIONS"]
"""
import os, resource, signal, statistics, subprocess, sys, tempfile, time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from translate import HOST, distinct_corpus, with_cpu_time  # noqa: E402


def option(name, default):
    return sys.argv[sys.argv.index(name) + 1] if name in sys.argv else default


LINES = int(option("--lines", 2000))
RUNS = int(option("--runs", 5))
SERVE = option("--serve", "").split()


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


def main():
    texts = distinct_corpus(LINES)
    stdin = ("\n".join(texts) + "\n").encode()
    words = len(stdin.split())
    with tempfile.TemporaryDirectory() as home:
        runtime = os.path.join(home, "run")
        os.mkdir(runtime, 0o700)
        environment = dict(os.environ, HOME=home, XDG_RUNTIME_DIR=runtime, XDG_CONFIG_HOME=home + "/config",
                           XDG_CACHE_HOME=home + "/cache", XDG_DATA_HOME=home + "/data")
        os.environ.update(environment)  # for with_cpu_time's commands: they must find the service
        service = subprocess.Popen([HOST, "serve"] + SERVE, env=environment, stdout=subprocess.DEVNULL,
                                   stderr=subprocess.DEVNULL, start_new_session=True)
        try:
            socket_path = os.path.join(runtime, "translation-host")
            for _ in range(600):
                if os.path.exists(os.path.join(socket_path, "socket")):
                    break
                time.sleep(0.1)
            command = [HOST, "translate", "--lines", "--provider", "Apertium", "--from", "en", "--to", "es"]
            ways = {"through the service": command, "--no-service": command + ["--no-service"],
                    "through the service, as 8 requests at once": command}
            # Warm: the service's runner and its pipelines; distinct lines each run
            # are not needed, as neither way keeps a memory across processes but
            # the service's runner: each run takes lines shifted by a suffix.
            subprocess.run(command, input=b"Warm up.\n", env=environment, check=True, stdout=subprocess.DEVNULL)
            times = {name: [] for name in ways}
            cpu = {name: [] for name in ways}
            outputs = {name: set() for name in ways}
            for run in range(RUNS):
                for way, (name, argv) in enumerate(ways.items()):
                    # Lines no runner has seen: the service's runner remembers what it translated.
                    marked = ("\n".join(f"{t} ({run}{'abc'[way]})" if t.strip() else t for t in texts) + "\n").encode()
                    before = tree_cpu(service.pid)
                    start = time.perf_counter()
                    if name.endswith("at once"):
                        # The same lines cut in 8, sent at once: the service's
                        # batches of them keep its runner's slots full.
                        lines = marked.split(b"\n")[:-1]
                        parts = [b"\n".join(lines[i::8]) + b"\n" for i in range(8)]
                        children = resource.getrusage(resource.RUSAGE_CHILDREN)
                        clients = [subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE) for _ in parts]
                        answers = [client.communicate(part)[0] for client, part in zip(clients, parts)]
                        after = resource.getrusage(resource.RUSAGE_CHILDREN)
                        out, seconds = b"".join(answers), (after.ru_utime + after.ru_stime
                                                            - children.ru_utime - children.ru_stime)
                    else:
                        out, seconds = with_cpu_time(argv, marked, home)
                    times[name].append(time.perf_counter() - start)
                    cpu[name].append((seconds or 0) + tree_cpu(service.pid) - before)
                    outputs[name].add(len(out.split(b"\n")))
        finally:
            os.killpg(service.pid, signal.SIGTERM)
            service.wait(timeout=20)
    load = " ".join(open("/proc/loadavg").read().split()[:3])
    print(f"One long request, {LINES:,} distinct lines ({words:,} words), medians of {RUNS} runs in turn (load {load})\n")
    print("| way | words/s | each run, s | CPU: the command, what it started and the service's process tree, s |")
    print("|---|---:|---|---:|")
    for name in ways:
        median = statistics.median(times[name])
        cpus = [c for c in cpu[name] if c is not None]
        print(f"| {name} | {words / median:,.0f} | {', '.join(f'{t:.2f}' for t in times[name])} | "
              + (f"{statistics.median(cpus):.2f}" if cpus else "—") + " |")
    one = statistics.median(times["through the service"])
    print(f"\nwords per second, one request through the service against: --no-service (a cold runner) "
          f"{statistics.median(times['--no-service']) / one:.2f}×, 8 requests at once "
          f"{statistics.median(times['through the service, as 8 requests at once']) / one:.2f}× (lines per output: {outputs})")


if __name__ == "__main__":
    main()
