#!/usr/bin/env python3
"""Feeding benchmark: what Apertium's warm pipelines give, with nothing of
translation-host in between, when they are fed the way 8 concurrent clients
with one sentence each can feed them, against the same pipelines fed the
same number of sentences as one batch. It bounds the service's coalescing
(issue 16, goal 2): no service can give the engine more than its clients'
8 sentences at once.

Rounds in turn, each way of a round with the same sentences: those the 8
clients of `host-benchmark build throughput` translate in its round of the
same number (2,400 a round, as there); medians.
Usage: Benchmarks/feeding.py [--rounds N] [--sentences N]

Each way is (clients, pipelines, texts per flush, flushes in flight): a
client has one sentence in flight and sends its next as soon as its answer
is back; a pipeline writes the texts ready for it as one null flush (up to
the flush size) whenever fewer flushes than the window are in it.
"""
import os, selectors, statistics, subprocess, sys, time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from translate import sentences  # noqa: E402  (the same generated sentences)
from summary import record  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ROUNDS = int(sys.argv[sys.argv.index("--rounds") + 1]) if "--rounds" in sys.argv else 5
COUNT = int(sys.argv[sys.argv.index("--sentences") + 1]) if "--sentences" in sys.argv else 2400
# The first sentence of host-benchmark throughput's measured rounds (three warm-up runs of COUNT before them).
SERVICE_FIRST = 3 * COUNT
ALL_AT_ONCE = 10**9
# Since issue 30 every text is a null flush of its own (texts sharing a flush
# are not independent: ApertiumEngine.textsPerFlush), so the bound of the
# service's coalescing is the second way; the last is what shared flushes gave.
WAYS = [
    ("one batch: 2 pipelines, each text its own flush, 512 in flight (the engine's way)", (ALL_AT_ONCE, 2, 1, 512)),
    ("8 clients: 2 pipelines, 4 clients each, each sentence its own flush (the bound)", (8, 2, 1, 4)),
    ("8 clients: 1 pipeline, each sentence its own flush", (8, 1, 1, 8)),
    ("8 clients: 2 pipelines, 4 clients each, a shared flush per round trip (before issue 30)", (8, 2, 16, 1)),
]
BOUND = WAYS[1][0]


def pipeline_command():
    mode = subprocess.run(["apertium-wblank-mode", "-z", "/usr/share/apertium/modes/eng-spa.mode"],
                          capture_output=True, text=True, check=True).stdout.strip()
    # The mode's $1 is lt-proc's generation option (`apertium` passes -g); $2 the tagger's extra one.
    return mode.replace("$1", "-g").replace("$2", "")


def stage_environment():
    """The Apertium provider's stages: C.UTF-8 and its libraries (ApertiumStagePreload)."""
    environment = dict(os.environ, LC_ALL="C.UTF-8")
    bundle = os.path.join(ROOT, "build/lib/translation-host/providers/Apertium.translationprovider/")
    libraries = [bundle + "libApertiumTaggerOpenClass.so", bundle + "libApertiumIntegerScan.so",
                 bundle + "libApertiumMatchCache.so", "/usr/lib/x86_64-linux-gnu/libmimalloc.so.2"]
    environment["LD_PRELOAD"] = ":".join(path for path in libraries if os.path.exists(path))
    return environment


def feed(pipelines, texts, clients, count, per_flush, window):
    """Words per second translating `texts` the given way. A text goes with
    its sentence end `.[]`, texts sharing a flush with the engine's text break."""
    used = pipelines[:count]
    ready = [[] for _ in used]      # (client, text) waiting for its pipeline
    in_flight = [[] for _ in used]  # per pipeline, the clients of each flush in it
    received = [b"" for _ in used]
    pending = iter(texts)
    for client in range(min(clients, len(texts))):
        ready[client % count].append((client, next(pending)))

    def write(index):
        while ready[index] and len(in_flight[index]) < window:
            flush, ready[index][:] = ready[index][:per_flush], ready[index][per_flush:]
            used[index].stdin.write("[|]".join(text + ".[]" for _, text in flush).encode() + b"\0")
            in_flight[index].append([client for client, _ in flush])

    selector = selectors.DefaultSelector()
    for index, pipeline in enumerate(used):
        selector.register(pipeline.stdout, selectors.EVENT_READ, index)
        write(index)
    answered, start = 0, time.perf_counter()
    while answered < len(texts):
        for key, _ in selector.select():
            index = key.data
            received[index] += os.read(used[index].stdout.fileno(), 1 << 16)
            while b"\0" in received[index]:
                _, received[index] = received[index].split(b"\0", 1)
                for client in in_flight[index].pop(0):
                    answered += 1
                    text = next(pending, None)
                    if text is not None:
                        ready[client % count].append((client, text))
            write(index)
    selector.close()
    seconds = time.perf_counter() - start
    return sum(len(text.split()) for text in texts) / seconds


def main():
    command, environment = pipeline_command(), stage_environment()
    pipelines = [subprocess.Popen(["bash", "-c", command], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  env=environment, bufsize=0) for _ in range(2)]
    try:
        start = 90_000  # sentences the runs do not translate
        for _, way in WAYS:  # warm-up: every stage of both pipelines
            feed(pipelines, sentences(64, start), *way)
            start += 64
        rates = {name: [] for name, _ in WAYS}
        for round_ in range(ROUNDS):
            # Every way translates the same sentences (the stages keep no
            # memory of what they translated): those the 8 clients of
            # `host-benchmark build throughput` translate in its round of the
            # same number, so that its figure and this bound count words of
            # the same sentences. (The generator's later words change length
            # every 1,000 and 10,000 sentences: sentences from 50,000 on, as
            # this script took before, have 12% more words than those, and
            # gave a bound 8% higher in words/s at the same sentences/s.)
            texts = sentences(COUNT * 5, SERVICE_FIRST + COUNT * 5 * round_)[0::5]
            for name, way in WAYS:
                rates[name].append(feed(pipelines, texts, *way))
        load = " ".join(open("/proc/loadavg").read().split()[:3])
        print(f"Feeding Apertium's pipelines, {COUNT} sentences, medians of {ROUNDS} rounds (load average {load})\n")
        print("| way | words/s | vs one batch | each round vs its batch |")
        print("|---|---:|---:|---|")
        batch = rates[WAYS[0][0]]
        for name, _ in WAYS:
            median = statistics.median(rates[name])
            rounds = ", ".join(f"{rate / base:.2f}×" for rate, base in zip(rates[name], batch))
            print(f"| {name} | {median:,.0f} | {median / statistics.median(batch):.2f}× | {rounds} |")
        bound = statistics.median(rates[BOUND])
        record("Apertium fed as 8 one-sentence clients (feeding.py, the bound)", f"{bound:,.0f} words/s",
               f"{statistics.median(batch):,.0f} words/s (one batch)", bound / statistics.median(batch),
               "(the baseline of the coalescing goal)", None, key="feeding-bound", number=bound)
    finally:
        for pipeline in pipelines:
            pipeline.stdin.close()
            pipeline.wait(timeout=10)


if __name__ == "__main__":
    main()
