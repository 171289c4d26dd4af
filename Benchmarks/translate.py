#!/usr/bin/env python3
"""Translation benchmark: the Apertium provider through translation-host
against Debian's `apertium eng-spa`, in the same run. Medians. Usage:
Benchmarks/translate.py [--quick]"""
import os, shutil, socket, statistics, subprocess, sys, tempfile, time, urllib.parse, urllib.request

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
HOST = os.path.join(ROOT, "build/bin/translation-host")
QUICK = "--quick" in sys.argv
SENTENCE = "The cat is on the table."
PERF = shutil.which("perf")


WORDS = [
    ["The cat", "My friend", "The old teacher", "A small dog", "Our neighbours", "The children", "His brother",
     "The young doctor", "My mother", "The farmer"],
    ["reads", "buys", "sees", "likes", "finds", "wants", "sells", "paints", "opens", "brings"],
    ["a book", "the red car", "three apples", "the new house", "a good film", "the letter", "a big table",
     "the white bread", "two chairs", "the blue door"],
    ["at home", "in the park", "every morning", "near the river", "after school", "on Sunday", "in the garden",
     "before dinner", "at night", "in the city"],
    ["today", "again", "now", "later", "this week", "every day", "last year", "tomorrow", "at once", "too"],
]


def sentences(count, start=0):
    """`count` sentences from the `start`th on, all different up to the
    100,000th; the same as ServiceBenchmark.sentences in HostBenchmark."""
    return [" ".join(WORDS[part][(i // 10**part) % 10] for part in range(5)) + "." for i in range(start, start + count)]


def recurring(count, distinct=1296):
    """`count` lines of which `distinct` are different, each recurring in
    turn, as the lines of a table, a log or subtitles do."""
    lines = sentences(distinct)
    return [lines[i % distinct] for i in range(count)]


def median_seconds(command, runs, stdin=None):
    samples = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run(command, input=stdin, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
        samples.append(time.perf_counter() - start)
    return statistics.median(samples)


def main():
    if not os.access(HOST, os.X_OK):
        sys.exit("build/bin/translation-host is missing: run 'make build' first")
    runs = 5 if QUICK else 11
    host = [HOST, "translate", "--provider", "Apertium", "--from", "en", "--to", "es"]

    cold_host = median_seconds(host + [SENTENCE], runs)
    cold_apertium = median_seconds(["apertium", "eng-spa"], runs, stdin=SENTENCE.encode())

    count = 1000 if QUICK else 10000
    # Five runs, each the two side by side, so that load falls on both alike;
    # the goal must hold in every one of them, not only in the median.
    runs = 2 if QUICK else 5
    distinct = lines_benchmark(host, sentences(count), runs)
    repeated = lines_benchmark(host, recurring(count), runs)

    print("Translation benchmark, medians\n")
    print("| measure | translation-host (Apertium provider) | apertium eng-spa | ratio |")
    print("|---|---:|---:|---:|")
    print(f"| one sentence, cold start | {cold_host * 1000:.1f} ms | {cold_apertium * 1000:.1f} ms | {cold_host / cold_apertium:.2f}× time |")
    for name, result in [(f"{count:,} different sentences", distinct),
                         (f"{count:,} sentences, {len(set(recurring(count))):,} different (lines that recur)", repeated)]:
        words, host_time, apertium_time, ratios, cpu = result
        print(f"| {name} ({words:,} words), `--raw --lines` vs a file (output byte-identical) | {words / host_time:,.0f} words/s | {words / apertium_time:,.0f} words/s | {apertium_time / host_time:.2f}× speed |")
        print(f"| the same, each of {len(ratios)} runs (lowest {min(ratios):.2f}×) | | | {', '.join(f'{r:.2f}×' for r in ratios)} |")
        if cpu:
            print(f"| the same, CPU time of all their processes (perf task-clock) | {cpu[0]:.2f} s | {cpu[1]:.2f} s | {cpu[0] / cpu[1]:.2f}× |")
    apy_host, apy_plain, apy_count = apy_benchmark(sentences(200))
    print(f"| {apy_count} requests to apertium-apy on 127.0.0.1, ApertiumAPY `--lines` vs urllib | {apy_host * 1000:.2f} ms/request | {apy_plain * 1000:.2f} ms/request | {apy_host / apy_plain:.2f}× time |")
    print("\nGoals (DESIGN §9, issue 16): cold ≤ 1.1× apertium's time; --lines ≥ 1.2× apertium's words per second in every run.")


def lines_benchmark(host, texts, runs):
    """`translate --raw --lines` against `apertium eng-spa` on the same file,
    `runs` times side by side, each output compared byte for byte (with --raw
    the provider gives Apertium's exact output, marks and blanks; without it,
    clean text, issue 14). Words, median times, and each run's ratio."""
    text = "\n".join(texts) + "\n"
    with tempfile.TemporaryDirectory() as folder:
        source, target = os.path.join(folder, "in.txt"), os.path.join(folder, "out.txt")
        with open(source, "w") as f:
            f.write(text)
        ratios, host_times, apertium_times, host_cpu, apertium_cpu = [], [], [], [], []
        for _ in range(runs):
            start = time.perf_counter()
            translated, cpu = with_cpu_time(host + ["--raw", "--lines"], text.encode(), folder)
            host_times.append(time.perf_counter() - start)
            host_cpu.append(cpu)
            start = time.perf_counter()
            _, cpu = with_cpu_time(["apertium", "eng-spa", source, target], None, folder)
            apertium_times.append(time.perf_counter() - start)
            apertium_cpu.append(cpu)
            ratios.append(apertium_times[-1] / host_times[-1])
            with open(target, "rb") as f:
                if translated != f.read():
                    sys.exit("translate --lines did not give byte for byte what apertium eng-spa gives for the same file")
    cpu = (statistics.median(host_cpu), statistics.median(apertium_cpu)) if None not in host_cpu + apertium_cpu else None
    return len(text.split()), statistics.median(host_times), statistics.median(apertium_times), ratios, cpu


def with_cpu_time(command, stdin, folder):
    """Runs `command`; its stdout, and the CPU time (task-clock) of it and
    every process it started, by `perf stat` (None without perf): less swayed
    than wall time by other work on a shared machine."""
    if not PERF:
        return subprocess.run(command, input=stdin, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, check=True).stdout, None
    report = os.path.join(folder, "perf.csv")
    output = subprocess.run([PERF, "stat", "-x,", "-e", "task-clock", "-o", report, "--"] + command, input=stdin,
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, check=True).stdout
    with open(report) as f:
        rows = [line.split(",") for line in f if "task-clock" in line]
    return output, float(rows[0][0]) / 1000 if rows else None


def apy_benchmark(texts):
    """The ApertiumAPY provider and a plain HTTP client against one apertium-apy
    that this function starts on 127.0.0.1 and stops by its process id."""
    with tempfile.TemporaryDirectory() as folder:
        probe = socket.socket()
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
        probe.close()
        server = subprocess.Popen(
            ["/usr/bin/python3", os.path.join(ROOT, "Tests/Fixtures/apy_loopback.py"), "-p", str(port), "-l",
             os.path.join(folder, "langNames.db"), "/usr/share/apertium/modes"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
        try:
            base = f"http://127.0.0.1:{port}"
            for _ in range(200):
                try:
                    urllib.request.urlopen(base + "/listPairs", timeout=1).read()
                    break
                except OSError:
                    time.sleep(0.1)
            env = dict(os.environ, XDG_CONFIG_HOME=os.path.join(folder, "config"), XDG_CACHE_HOME=os.path.join(folder, "cache"))
            subprocess.run([HOST, "config", "ApertiumAPY", "endpoint", base], env=env, check=True, stdout=subprocess.DEVNULL)
            command = [HOST, "translate", "--lines", "--provider", "ApertiumAPY", "--from", "en", "--to", "es"]
            stdin = ("\n".join(texts) + "\n").encode()
            subprocess.run(command, input=stdin, env=env, check=True, stdout=subprocess.DEVNULL)  # warm the server's pipeline
            host = statistics.median(
                timed_once(lambda: subprocess.run(command, input=stdin, env=env, check=True, stdout=subprocess.DEVNULL))
                for _ in range(3)) / len(texts)

            def plain():
                for text in texts:
                    query = urllib.parse.urlencode({"langpair": "eng|spa", "q": text})
                    urllib.request.urlopen(f"{base}/translate?{query}", timeout=10).read()

            plain_time = statistics.median(timed_once(plain) for _ in range(3)) / len(texts)
            return host, plain_time, len(texts)
        finally:
            os.killpg(server.pid, 15)
            server.wait(timeout=10)


def timed_once(action):
    start = time.perf_counter()
    action()
    return time.perf_counter() - start


if __name__ == "__main__":
    main()
