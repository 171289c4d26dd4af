#!/usr/bin/env python3
"""What the network namespace of a provider with the network key costs
(issue 24): the ApertiumAPY provider against Debian's apertium-apy on
loopback, through pasta (this build) and in the machine's network namespace
(a baseline build without it, given as the argument, e.g. the main
branch's), alternating in the same run. Medians. Usage:
Benchmarks/network_stack.py <baseline build folder> [--quick]

Cold: one `translate` (a runner started for it, pasta too). Warm: one
request more through a runner already started, from `translate --lines`
of 1 line and of 41 lines (the difference, over 40)."""
import os, socket, statistics, subprocess, sys, tempfile, time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BUILDS = {"pasta": os.path.join(ROOT, "build"), "baseline": os.path.abspath(sys.argv[1])}
RUNS = 5 if "--quick" in sys.argv else 21
SENTENCE = "The cat is on the table."


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def start_apy(folder):
    port = free_port()
    wrapper = os.path.join(ROOT, "Tests/Fixtures/apy_loopback.py")
    process = subprocess.Popen(
        ["/usr/bin/python3", wrapper, "-p", str(port), "-l", folder + "/langNames.db", "/usr/share/apertium/modes"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.time() + 30
    while time.time() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            return process, port
        except OSError:
            time.sleep(0.1)
    process.kill()
    sys.exit("apertium-apy did not listen")


def environment(home):
    return {"PATH": "/usr/bin:/bin", "HOME": home, "XDG_DATA_HOME": home + "/data", "XDG_CONFIG_HOME": home + "/config",
            "XDG_CACHE_HOME": home + "/cache", "LANG": "C.UTF-8"}


def timed(host, home, arguments, stdin=None):
    start = time.perf_counter()
    result = subprocess.run([host] + arguments, input=stdin, capture_output=True, text=True, env=environment(home))
    elapsed = time.perf_counter() - start
    if result.returncode != 0:
        sys.exit(f"{host} {arguments}: {result.stderr}")
    return elapsed


def main():
    folder = tempfile.mkdtemp()
    apy, port = start_apy(folder)
    try:
        homes = {}
        for name, build in BUILDS.items():
            homes[name] = tempfile.mkdtemp()
            host = build + "/bin/translation-host"
            subprocess.run([host, "config", "ApertiumAPY", "endpoint", f"http://127.0.0.1:{port}"], check=True,
                           capture_output=True, env=environment(homes[name]))
            timed(host, homes[name], ["translate", "--provider", "ApertiumAPY", "--from", "en", "--to", "es", SENTENCE])
        cold = {name: [] for name in BUILDS}
        one = {name: [] for name in BUILDS}
        many = {name: [] for name in BUILDS}
        lines = "\n".join([SENTENCE] * 41) + "\n"
        for _ in range(RUNS):
            for name, build in BUILDS.items():
                host = build + "/bin/translation-host"
                base = ["translate", "--provider", "ApertiumAPY", "--from", "en", "--to", "es"]
                cold[name].append(timed(host, homes[name], base + [SENTENCE]))
                one[name].append(timed(host, homes[name], base + ["--lines"], SENTENCE + "\n"))
                many[name].append(timed(host, homes[name], base + ["--lines"], lines))
        print(f"load: {os.getloadavg()[0]:.2f} {os.getloadavg()[1]:.2f}; {RUNS} runs each, medians")
        for name in BUILDS:
            warm = (statistics.median(many[name]) - statistics.median(one[name])) / 40
            print(f"{name:>9}: cold translate {statistics.median(cold[name]) * 1000:7.1f} ms, "
                  f"one request more through a warm runner {warm * 1000:6.2f} ms")
        ratio = statistics.median(cold["pasta"]) / statistics.median(cold["baseline"])
        print(f"cold ratio pasta/baseline: {ratio:.2f}")
    finally:
        apy.kill()


main()
