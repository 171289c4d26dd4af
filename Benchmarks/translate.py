#!/usr/bin/env python3
"""Translation benchmark: the Apertium provider through translation-host
against Debian's `apertium eng-spa`, in the same run. Medians. Usage:
Benchmarks/translate.py [--quick] [--lines-only] [--corpus FILE | --generated] [--host PATH]

--corpus FILE: distinct English sentences, one a line, instead of the
built-in distinct corpus (bring your own: the goal is for any such corpus);
--generated: issue 16's everyday sentences instead (every word known).
--host PATH: another build's translation-host, to compare builds.
--lines-only: only the distinct-corpus batch figures."""
import os, random, shutil, socket, statistics, subprocess, sys, tempfile, time, urllib.parse, urllib.request

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from summary import record  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def option(name, default=None):
    return sys.argv[sys.argv.index(name) + 1] if name in sys.argv else default


HOST = os.path.abspath(option("--host", os.path.join(ROOT, "build/bin/translation-host")))
CORPUS = option("--corpus")
QUICK = "--quick" in sys.argv
LINES_ONLY = "--lines-only" in sys.argv
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


# Distinct English as outsiders bring it (issue 30), made reproducibly, as
# Tests/ApertiumSupportTests/DistinctCorpus.swift makes its 2,000 lines: the
# sentences of the licence texts every Debian system has (base-files), then
# sentences drawn from word lists with names Apertium does not know, words
# that are nouns and verbs, quotes, dashes, and every ending a line may have
# (none, an abbreviation, a number); an empty line in fifty.
SUBJECTS = ["Conscience", "The old teacher", "Zorblat", "My neighbour Kwame", "A small dog", "The children", "Ingrid",
            "Nobody", "The committee", "Our new manager", "Everyone here", "The farmer's wife", "Xanthippe",
            "The licensee", "A stranger", "The software", "Her brother Olek", "This book", "The city council", "Grandma Ruth"]
VERBS = ["makes", "works on", "plays", "reads", "included", "used", "construed", "paints", "finds", "sells", "wants", "saw",
         "will bring", "has opened", "can't stand", "is addressed as", "runs", "lights", "books", "watches"]
OBJECTS = ["egotists of us all", "the red car", "three apples", "a good film", "the letter", "the modification",
           "their own behalf", "the blue door", "any warranty", "a small light", "the play", "his works", "the park",
           "the patent", "a glass of water", "the GNU GPL", "fresh bread", "the old bridge", "a long report", "the match"]
MIDDLES = ["", "", "", " at home", " every morning", " near the river", " (again)", " — or so they say", " - twice",
           ' in "the garden"', ", however", " without limitation", " on Sunday", " at 10:30", " by hand"]
FRAMES = ["_", "_", "_", "_", '"_"', "(_)", "Why _", "— _", "'_'", "Yes, _", "_ and then left"]
ENDINGS = [".", ".", ".", "", "", "!", "?", "...", '"', " -", " —", " Mr", " etc", " e.g", " 42", ";", ":", ".)", '!"', " 2024"]


def licence_sentences():
    folder = "/usr/share/common-licenses"
    found = []
    for name in sorted(os.listdir(folder)) if os.path.isdir(folder) else []:
        try:
            with open(os.path.join(folder, name), encoding="utf-8") as f:
                words = f.read().split()
        except (OSError, UnicodeDecodeError):
            continue
        sentence = []
        for word in words:
            sentence.append(word)
            if word[-1] in ".!?":
                if 3 <= len(sentence) <= 40:
                    found.append(" ".join(sentence))
                sentence = []
    return found


def distinct_corpus(count):
    seen, lines = {""}, []
    generator = random.Random(30)

    def add(line):
        if len(lines) % 50 == 49:
            lines.append("")
        if len(lines) < count and line not in seen:
            seen.add(line)
            lines.append(line)
    for sentence in licence_sentences():
        if len(lines) >= count:
            break
        add(sentence)
    while len(lines) < count:
        core = f"{generator.choice(SUBJECTS)} {generator.choice(VERBS)} {generator.choice(OBJECTS)}{generator.choice(MIDDLES)}"
        add(generator.choice(FRAMES).replace("_", core) + generator.choice(ENDINGS))
    return lines[:count]


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
        sys.exit(f"{HOST} is missing: run 'make build' first")
    host = [HOST, "translate", "--provider", "Apertium", "--from", "en", "--to", "es"]
    load = " ".join(open("/proc/loadavg").read().split()[:3])
    if CORPUS:
        with open(CORPUS) as f:
            texts = [line.rstrip("\n") for line in f]
        name = f"{len(texts):,} lines of {os.path.basename(CORPUS)}"
    elif "--generated" in sys.argv:  # the everyday sentences of issue 16's runs: every word known, each ends in "."
        count = 1000 if QUICK else 10000
        texts = sentences(count)
        name = f"{count:,} different everyday sentences"
    else:
        count = 1000 if QUICK else 10000
        texts = distinct_corpus(count)
        name = f"{count:,} distinct lines (licences and generated)"
    # Five runs, each the two side by side, so that load falls on both alike.
    runs = 2 if QUICK else 5
    distinct = batch_benchmark(host, texts, runs)
    print(f"Translation benchmark, medians (load average {load} at the start)\n")
    print("| measure | translation-host (Apertium provider) | apertium -u eng-spa | ratio |")
    print("|---|---:|---:|---:|")
    words, host_time, apertium_time, ratios, cpu, checked = distinct
    speed = apertium_time / host_time
    print(f"| {name} ({words:,} words), `--lines` vs a file | {words / host_time:,.0f} words/s | {words / apertium_time:,.0f} words/s | {speed:.2f}× speed |")
    print(f"| the same, each of {len(ratios)} runs (lowest {min(ratios):.2f}×) | | | {', '.join(f'{r:.2f}×' for r in ratios)} |")
    if cpu:
        print(f"| the same, CPU time of all their processes (perf task-clock) | {cpu[0]:.2f} s | {cpu[1]:.2f} s | {cpu[0] / cpu[1]:.2f}× |")
    print(f"| each line as if alone: {checked} |  |  | |")
    record(f"`translate --lines`, {name}", f"{words / host_time:,.0f} words/s", f"{words / apertium_time:,.0f} words/s (apertium -u)",
           speed, "≥ 1.2× speed, each line as if alone", speed >= 1.2 and not checked.startswith("NOT"),
           "Apertium's own CPU: both cores busy; see Benchmarks/README.md")
    if cpu:
        record("the same, CPU time (task-clock)", f"{cpu[0]:.2f} s", f"{cpu[1]:.2f} s", cpu[0] / cpu[1], "(less is better)", None)
    if LINES_ONLY:
        return

    runs = 5 if QUICK else 11
    cold_host = median_seconds(host + [SENTENCE], runs)
    cold_apertium = median_seconds(["apertium", "eng-spa"], runs, stdin=SENTENCE.encode())
    count = 1000 if QUICK else 10000
    runs = 2 if QUICK else 5
    repeated = lines_benchmark(host, recurring(count), runs)
    print(f"| one sentence, cold start | {cold_host * 1000:.1f} ms | {cold_apertium * 1000:.1f} ms (apertium eng-spa) | {cold_host / cold_apertium:.2f}× time |")
    record("cold `translate`, one sentence", f"{cold_host * 1000:.1f} ms", f"{cold_apertium * 1000:.1f} ms (apertium)",
           cold_host / cold_apertium, "≤ 1.1× time", cold_host / cold_apertium <= 1.1)
    words, host_time, apertium_time, ratios, cpu = repeated
    rname = f"{count:,} sentences, {len(set(recurring(count))):,} different (lines that recur)"
    print(f"| {rname} ({words:,} words), `--raw --lines` vs a file (output byte-identical) | {words / host_time:,.0f} words/s | {words / apertium_time:,.0f} words/s (apertium eng-spa) | {apertium_time / host_time:.2f}× speed |")
    print(f"| the same, each of {len(ratios)} runs (lowest {min(ratios):.2f}×) | | | {', '.join(f'{r:.2f}×' for r in ratios)} |")
    if cpu:
        print(f"| the same, CPU time of all their processes (perf task-clock) | {cpu[0]:.2f} s | {cpu[1]:.2f} s | {cpu[0] / cpu[1]:.2f}× |")
    apy_host, apy_plain, apy_count = apy_benchmark(sentences(200))
    print(f"| {apy_count} requests to apertium-apy on 127.0.0.1, ApertiumAPY `--lines` vs urllib | {apy_host * 1000:.2f} ms/request | {apy_plain * 1000:.2f} ms/request | {apy_host / apy_plain:.2f}× time |")
    print("\nGoals (DESIGN §9, issues 16 and 30): cold ≤ 1.1× apertium's time; --lines on distinct sentences ≥ 1.2× "
          "apertium -u's words per second (median of 5 alternating runs), each line translated as if alone.")


def batch_benchmark(host, texts, runs):
    """`translate --lines` (clean text, as `apertium -u` gives: no marks)
    against `apertium -u eng-spa` on the same file, `runs` times in turn.
    Every run's output must be the same, and must be each line translated as
    if alone: the lines in reverse order give the same translations, and a
    sample of lines, each translated by itself (`translate` with the line as
    its text), give what the batch gave. (`apertium -u` on the file is only a
    speed baseline: on a file its lines are not independent, issue 30.)
    Words, median times, each run's ratio, CPU medians, what was checked."""
    text = "\n".join(texts) + "\n"
    with tempfile.TemporaryDirectory() as folder:
        source, target = os.path.join(folder, "in.txt"), os.path.join(folder, "out.txt")
        with open(source, "w") as f:
            f.write(text)
        ratios, host_times, apertium_times, host_cpu, apertium_cpu, outputs = [], [], [], [], [], set()
        for _ in range(runs):
            start = time.perf_counter()
            translated, cpu = with_cpu_time(host + ["--lines"], text.encode(), folder)
            host_times.append(time.perf_counter() - start)
            host_cpu.append(cpu)
            outputs.add(translated)
            start = time.perf_counter()
            _, cpu = with_cpu_time(["apertium", "-u", "eng-spa", source, target], None, folder)
            apertium_times.append(time.perf_counter() - start)
            apertium_cpu.append(cpu)
            ratios.append(apertium_times[-1] / host_times[-1])
        problems = []
        if len(outputs) != 1:
            problems.append(f"{len(outputs)} different outputs in {runs} runs")
        lines = translated.decode().split("\n")[:-1]
        if len(lines) != len(texts):
            sys.exit(f"translate --lines gave {len(lines)} lines for {len(texts)}")
        backwards = subprocess.run(host + ["--lines"], input=("\n".join(reversed(texts)) + "\n").encode(),
                                   stdout=subprocess.PIPE, check=True).stdout.decode().split("\n")[:-1]
        differ = [i for i, (a, b) in enumerate(zip(lines, reversed(backwards))) if a != b]
        if differ:
            problems.append(f"{len(differ)} lines otherwise in reverse order (line {differ[0] + 1}: "
                            f"{lines[differ[0]]!r} / {list(reversed(backwards))[differ[0]]!r})")
        sample = sorted(random.Random(30).sample(range(len(texts)), min(25 if QUICK else 60, len(texts))))
        alone_differ = 0
        for index in sample:
            if not texts[index].strip():
                continue  # `translate` refuses an empty text; --lines gives an empty line
            alone = subprocess.run(host + ["--", texts[index]], stdout=subprocess.PIPE, check=True).stdout.decode()
            alone_differ += alone != lines[index] + "\n"
        if alone_differ:
            problems.append(f"{alone_differ} of {len(sample)} sampled lines otherwise alone")
    cpu = (statistics.median(host_cpu), statistics.median(apertium_cpu)) if None not in host_cpu + apertium_cpu else None
    checked = ("NOT: " + "; ".join(problems)) if problems else \
        f"yes ({runs} runs identical; reverse order identical; {len(sample)} sampled lines alone identical)"
    return len(text.split()), statistics.median(host_times), statistics.median(apertium_times), ratios, cpu, checked


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
