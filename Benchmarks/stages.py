#!/usr/bin/env python3
"""Where the batch goal's CPU goes, stage by stage (issue 30): the distinct
corpus of translate.py through `apertium -u eng-spa`'s own pipeline, and
through the pipeline as the Apertium provider's engine runs it, each process
started here so that its CPU time (user + system, from wait4) is its own.

- `apertium -u`: what /usr/bin/apertium runs for a text file: apertium-destxt,
  cat, gawk (the AP_SETVAR wrapper), the mode's stages (lt-proc -n at
  generation), gawk, apertium-retxt; its output is compared with `apertium -u
  eng-spa` on the same file.
- the engine's way: the mode's stages in null-flush mode (`apertium-wblank-mode
  -z`, lt-proc -n) but the word-bound blank ones, as ApertiumPipeline runs
  them, with the provider's stage libraries (ApertiumStagePreload),
  each line its own null flush, `--window` flushes in flight (512, as
  ApertiumEngine), the deformatting done here as the engine does it in Swift.

Usage: Benchmarks/stages.py [--lines N] [--window N] [--runs N]
Prints a table: each stage's CPU in both, its share, and the wall time and
CPU/wall of each whole pipeline (how many cores it kept busy).
"""
import os, selectors, statistics, subprocess, sys, tempfile, time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from translate import distinct_corpus  # noqa: E402
from feeding import stage_environment  # noqa: E402


def option(name, default):
    return int(sys.argv[sys.argv.index(name) + 1]) if name in sys.argv else default


LINES = option("--lines", 10000)
WINDOW = option("--window", 512)
RUNS = option("--runs", 3)
MODE = "/usr/share/apertium/modes/eng-spa.mode"


def stages(null_flush):
    arguments = ["apertium-wblank-mode"] + (["-z"] if null_flush else []) + [MODE]
    mode = subprocess.run(arguments, capture_output=True, text=True, check=True).stdout.strip()
    # $1: lt-proc's generation option (`apertium -u` passes -n); $2: the tagger's extra option (none).
    return [stage.strip().replace("$1", "-n").replace("$2", "") for stage in mode.split(" | ")]


def name(command):
    words = command.split()
    flags = [w for w in words[1:] if w.startswith("-") and w not in ("-z",)]
    return " ".join([words[0]] + flags)


def start(commands, stdin, stdout, environment=None):
    """The commands as a pipeline of processes of their own (bash execs each)."""
    processes, previous = [], stdin
    for index, command in enumerate(commands):
        last = index == len(commands) - 1
        process = subprocess.Popen(["bash", "-c", "exec " + command], stdin=previous,
                                   stdout=stdout if last else subprocess.PIPE, env=environment)
        if previous not in (stdin, None):
            previous.close()
        previous = process.stdout
        processes.append(process)
    return processes


def reap(processes):
    """CPU seconds (user + system) of each process, by wait4."""
    seconds = []
    for process in processes:
        _, status, usage = os.wait4(process.pid, 0)
        process.returncode = os.waitstatus_to_exitcode(status)
        seconds.append(usage.ru_utime + usage.ru_stime)
    return seconds


def apertium_u(source, target):
    """`apertium -u eng-spa source target`'s processes, one by one: wall seconds and each one's CPU."""
    commands = (["apertium-destxt " + source, "cat", "gawk -v var= 'BEGIN{RS=\"\\0|\\n\"} {printf \"%s%s\", $0, RT} RT==\"\\0\"{fflush()}'"]
                + stages(False)
                + ["gawk -v var= 'BEGIN{RS=\"\\0|\\n\"} {printf \"%s%s\", $0, RT} RT==\"\\0\"{fflush()}'", "apertium-retxt"])
    with open(target, "wb") as out:
        began = time.perf_counter()
        processes = start(commands, subprocess.DEVNULL, out)
        cpu = reap(processes)
        wall = time.perf_counter() - began
    return wall, [name(c) if " " in c and not c.startswith("gawk") else c.split()[0] for c in commands], cpu


def deformat(text):
    """ApertiumText.deformat: reserved characters escaped, blanks other than one
    space in superblanks, a sentence break before two line breaks and at the end."""
    out, blank = [], None

    def flush(blank, at_end):
        if at_end or blank.count("\n") >= 2:
            out.append(".[]")
        if blank == " ":
            out.append(" ")
        elif blank:
            out.append("[" + blank + "]")
    for c in text:
        if c in " \t\n\r":
            blank = (blank or "") + c
            continue
        if blank is not None:
            flush(blank, False)
            blank = None
        if c == "\0":
            continue
        out.append("\\" + c if c in "\\[]^$@/<>{}" else c)
    flush(blank or "", True)
    return "".join(out)


def engine_way(texts):
    """One pipeline fed as the engine feeds it: each text its own null flush,
    WINDOW in flight, refilled when half have come back, written whenever the
    first stage can take more (ApertiumPipeline.stream), without the
    word-bound blank stages."""
    commands = [c for c in stages(True) if c not in ("apertium-wblank-attach", "apertium-wblank-detach")]
    environment = stage_environment()
    began = time.perf_counter()
    processes = start(commands, subprocess.PIPE, subprocess.PIPE, environment)
    first_in, last_out = processes[0].stdin.fileno(), processes[-1].stdout.fileno()
    os.set_blocking(first_in, False)
    selector = selectors.DefaultSelector()
    selector.register(last_out, selectors.EVENT_READ, "answers")
    pending = [deformat(t).encode() + b"\0" for t in texts]
    sent = answered = 0
    payload, writing = b"", False
    while answered < len(texts):
        if sent - answered <= WINDOW // 2:
            while sent < len(texts) and sent - answered < WINDOW:
                payload += pending[sent]
                sent += 1
        if payload and not writing:
            selector.register(first_in, selectors.EVENT_WRITE, "texts")
            writing = True
        for key, _ in selector.select():
            if key.data == "texts":
                try:
                    payload = payload[os.write(first_in, payload):]
                except BlockingIOError:
                    pass
                if not payload:
                    selector.unregister(first_in)
                    writing = False
            else:
                chunk = os.read(last_out, 1 << 16)
                if not chunk:
                    sys.exit("the pipeline ended")
                answered += chunk.count(b"\0")
    if writing:
        selector.unregister(first_in)
    processes[0].stdin.close()
    processes[-1].stdout.close()
    cpu = reap(processes)
    wall = time.perf_counter() - began
    return wall, [name(c) for c in commands], cpu


def main():
    texts = distinct_corpus(LINES)
    with tempfile.TemporaryDirectory() as folder:
        source, target, check = (os.path.join(folder, n) for n in ("in.txt", "out.txt", "check.txt"))
        with open(source, "w") as f:
            f.write("\n".join(texts) + "\n")
        subprocess.run(["apertium", "-u", "eng-spa", source, check], check=True)
        raw_runs, engine_runs = [], []
        for _ in range(RUNS):
            raw_runs.append(apertium_u(source, target))
            engine_runs.append(engine_way(texts))
        with open(target, "rb") as a, open(check, "rb") as b:
            same = a.read() == b.read()
    load = " ".join(open("/proc/loadavg").read().split()[:3])
    print(f"Stages of eng-spa, {LINES:,} distinct lines, medians of {RUNS} runs in turn (load average {load})\n")
    print(f"(`apertium -u`'s processes started one by one give the same output as `apertium -u`: {'yes' if same else 'NO'})\n")
    raw_names, engine_names = raw_runs[0][1], engine_runs[0][1]
    raw_cpu = [statistics.median(run[2][i] for run in raw_runs) for i in range(len(raw_names))]
    engine_cpu = [statistics.median(run[2][i] for run in engine_runs) for i in range(len(engine_names))]
    print("| process | apertium -u: CPU s | share | engine's way (1 pipeline): CPU s | share | engine / apertium |")
    print("|---|---:|---:|---:|---:|---:|")
    engine_by_name = dict(zip(engine_names, engine_cpu))
    raw_total, engine_total = sum(raw_cpu), sum(engine_cpu)
    for stage, cpu in zip(raw_names, raw_cpu):
        mine = engine_by_name.pop(stage, None)
        print(f"| {stage} | {cpu:.2f} | {cpu / raw_total:.0%} | "
              + (f"{mine:.2f} | {mine / engine_total:.0%} | {mine / cpu:.2f}× |" if mine is not None else "— | | |"))
    for stage, mine in engine_by_name.items():
        print(f"| {stage} | — | | {mine:.2f} | {mine / engine_total:.0%} | |")
    raw_wall = statistics.median(run[0] for run in raw_runs)
    engine_wall = statistics.median(run[0] for run in engine_runs)
    print(f"| all processes | {raw_total:.2f} | | {engine_total:.2f} | | {engine_total / raw_total:.2f}× |")
    print(f"| wall time; CPU / wall (cores kept busy) | {raw_wall:.2f} s; {raw_total / raw_wall:.2f} | | "
          f"{engine_wall:.2f} s; {engine_total / engine_wall:.2f} | | |")
    bottleneck = max(raw_cpu)
    print(f"\nThe slowest process of apertium -u takes {bottleneck:.2f} s of CPU: on two idle cores its wall time "
          f"is at least max(that, all / 2) = {max(bottleneck, raw_total / 2):.2f} s; the engine's two pipelines "
          f"need at least max({max(engine_cpu) / 2:.2f}, {engine_total / 2:.2f}) s plus translation-host's own CPU.")


if __name__ == "__main__":
    main()
