#!/usr/bin/env python3
"""Translation benchmark: the Apertium provider through translation-host
against Debian's `apertium eng-spa`, in the same run. Medians. Usage:
Benchmarks/translate.py [--quick]"""
import os, statistics, subprocess, sys, tempfile, time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
HOST = os.path.join(ROOT, "build/bin/translation-host")
QUICK = "--quick" in sys.argv
SENTENCE = "The cat is on the table."


def sentences(count):
    subjects = ["The cat", "My friend", "The old teacher", "A small dog", "Our neighbours", "The children"]
    verbs = ["reads", "buys", "sees", "likes", "finds", "wants"]
    objects = ["a book", "the red car", "three apples", "the new house", "a good film", "the letter"]
    places = ["at home", "in the park", "every morning", "near the station", "after school", "on Sunday"]
    return [f"{subjects[i % 6]} {verbs[(i // 6) % 6]} {objects[(i // 36) % 6]} {places[(i // 216) % 6]}." for i in range(count)]


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
    text = "\n".join(sentences(count)) + "\n"
    words = len(text.split())
    with tempfile.TemporaryDirectory() as folder:
        source = os.path.join(folder, "in.txt")
        with open(source, "w") as f:
            f.write(text)
        bulk_runs = 3
        lines_host = median_seconds(host + ["--lines"], bulk_runs, stdin=text.encode())
        lines_apertium = median_seconds(["apertium", "eng-spa", source, os.path.join(folder, "out.txt")], bulk_runs)

    print("Translation benchmark, medians\n")
    print("| measure | translation-host (Apertium provider) | apertium eng-spa | ratio |")
    print("|---|---:|---:|---:|")
    print(f"| one sentence, cold start | {cold_host * 1000:.1f} ms | {cold_apertium * 1000:.1f} ms | {cold_host / cold_apertium:.2f}× time |")
    print(f"| {count:,} sentences ({words:,} words), `--lines` vs a file | {words / lines_host:,.0f} words/s | {words / lines_apertium:,.0f} words/s | {lines_apertium / lines_host:.2f}× speed |")
    print("\nGoals (DESIGN §9): cold ≤ 1.1× apertium's time; --lines ≥ 0.9× apertium's words per second.")


if __name__ == "__main__":
    main()
