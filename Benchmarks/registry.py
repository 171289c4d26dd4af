#!/usr/bin/env python3
"""Registry benchmark: `translation-host list` over 10 to 10,000 generated
bundles, cold (no cache) and warm, against a program that only stats the same
files, all in one run. Reports medians of wall time, the increment over an
empty folder, and the ratio of increments. Usage: Benchmarks/registry.py [--quick]
"""
import os, shutil, statistics, subprocess, sys, tempfile, time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
HOST = os.path.join(ROOT, "build/bin/translation-host")
LIBRARY = os.path.join(ROOT, "build/lib/translation-host/providers/Rot13.translationprovider/libRot13.so")
QUICK = "--quick" in sys.argv
SIZES = [10, 100, 1000] if QUICK else [10, 100, 1000, 10000]

INFO = """<?xml version="1.0" encoding="UTF-8"?>
<plist version="1.0"><dict>
<key>CFBundleIdentifier</key><string>org.bench.p{index}</string>
<key>CFBundleName</key><string>Bench {index}</string>
<key>CFBundleShortVersionString</key><string>1.0</string>
<key>CFBundleExecutable</key><string>libBench.so</string>
<key>EXAppExtensionAttributes</key><dict><key>EXExtensionPointIdentifier</key><string>com.apple.public.translation-ui-provider</string></dict>
</dict></plist>
"""
ENTITLEMENTS = """<?xml version="1.0" encoding="UTF-8"?>
<plist version="1.0"><dict><key>com.apple.developer.translation-app</key><true/></dict></plist>
"""


def generate(folder, count):
    os.makedirs(folder, mode=0o755)
    for index in range(count):
        bundle = os.path.join(folder, f"Bench{index:05d}.translationprovider")
        os.mkdir(bundle, 0o755)
        with open(os.path.join(bundle, "Info.plist"), "w") as f:
            f.write(INFO.format(index=index))
        with open(os.path.join(bundle, "Bench.entitlements"), "w") as f:
            f.write(ENTITLEMENTS)
        os.link(LIBRARY, os.path.join(bundle, "libBench.so"))


def timed(command, env, before=None, runs=15):
    samples = []
    for _ in range(runs):
        if before:
            before()
        start = time.perf_counter()
        subprocess.run(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
        samples.append((time.perf_counter() - start) * 1000)
    return statistics.median(samples)


def main():
    if not os.access(HOST, os.X_OK):
        sys.exit("build/bin/translation-host is missing: run 'make build' first")
    work = tempfile.mkdtemp(prefix="translation-host-bench-")
    try:
        baseline = os.path.join(work, "stat_baseline")
        subprocess.run(["cc", "-O2", "-o", baseline, os.path.join(ROOT, "Benchmarks/stat_baseline.c")], check=True)
        home = os.path.join(work, "home")
        # A real user has a home: without one the registry never writes its cache, and "warm" would be cold.
        os.mkdir(home, 0o700)
        env = dict(os.environ, HOME=home, XDG_CACHE_HOME=os.path.join(home, "cache"),
                   XDG_CONFIG_HOME=os.path.join(home, "config"), XDG_DATA_HOME=os.path.join(home, "data"))
        cache = os.path.join(home, "cache/translation-host/registry-v1.cache")

        def clear_cache():
            if os.path.exists(cache):
                os.remove(cache)

        def measure(folder, runs):
            env["TRANSLATION_HOST_PROVIDER_PATH"] = folder
            cold = timed([HOST, "list"], env, before=clear_cache, runs=runs)
            subprocess.run([HOST, "list"], env=env, stdout=subprocess.DEVNULL, check=True)
            warm = timed([HOST, "list"], env, runs=runs)
            stat = timed([baseline, folder], env, runs=runs)
            return cold, warm, stat

        empty = os.path.join(work, "empty")
        os.mkdir(empty)
        cold0, warm0, stat0 = measure(empty, 21)
        rows = []
        for size in SIZES:
            folder = os.path.join(work, f"n{size}")
            generate(folder, size)
            runs = 5 if size >= 10000 else 11
            cold, warm, stat = measure(folder, runs)
            rows.append((size, cold - cold0, warm - warm0, stat - stat0))

        print(f"translation-host list, medians; empty folder: cold {cold0:.2f} ms, warm {warm0:.2f} ms, stat-only {stat0:.2f} ms")
        print()
        print("| bundles | cold increment | warm increment | stat-only increment | warm / stat | cold per bundle | warm per bundle |")
        print("|---:|---:|---:|---:|---:|---:|---:|")
        for size, cold, warm, stat in rows:
            ratio = warm / stat if stat > 0.05 else float("nan")
            print(f"| {size} | {cold:.2f} ms | {warm:.2f} ms | {stat:.2f} ms | {ratio:.2f}× | {cold / size * 1000:.1f} µs | {warm / size * 1000:.1f} µs |")
        print()
        print("Goals (DESIGN §9): 1,000 bundles warm ≤ 10 ms and ≤ 3× stat-only; cold ≤ 100 ms; linear growth.")
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
