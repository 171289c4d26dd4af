#!/usr/bin/env python3
"""Registry benchmark: `translation-host list` over 10 to 10,000 generated
bundles, cold (no cache) and warm, against a program that only stats the same
files, all in one run. Reports medians of wall time, the increment over an
empty folder, and the ratio of increments; and the same ratio in CPU time
(user + system of the child), which waiting for a busy machine's CPUs does
not inflate. Usage: Benchmarks/registry.py [--quick] [--sizes 1000,10000]
[--host PATH] (another build's translation-host, to compare builds)

The runs are interleaved round by round (cold and warm `list` and the
baseline, each on the empty folder and on the bundles), and each increment is
the median of the differences within a round, so that load on a shared
machine falls on both sides of every difference alike.
"""
import os, resource, shutil, statistics, subprocess, sys, tempfile, time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from summary import record  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
HOST = os.path.join(ROOT, "build/bin/translation-host")
LIBRARY = os.path.join(ROOT, "build/lib/translation-host/providers/Rot13.translationprovider/libRot13.so")
QUICK = "--quick" in sys.argv
SIZES = [10, 100, 1000] if QUICK else [10, 100, 1000, 10000]
if "--sizes" in sys.argv:
    SIZES = [int(size) for size in sys.argv[sys.argv.index("--sizes") + 1].split(",")]
if "--host" in sys.argv:
    HOST = os.path.abspath(sys.argv[sys.argv.index("--host") + 1])

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


with open(LIBRARY, "rb") as library:
    HEADER = library.read(4096)


def generate(folder, count):
    os.makedirs(folder, mode=0o755)
    for index in range(count):
        bundle = os.path.join(folder, f"Bench{index:05d}.translationprovider")
        os.mkdir(bundle, 0o755)
        with open(os.path.join(bundle, "Info.plist"), "w") as f:
            f.write(INFO.format(index=index))
        with open(os.path.join(bundle, "Bench.entitlements"), "w") as f:
            f.write(ENTITLEMENTS)
        # A copy of its own (a hard link is refused: the bundle would be measured as refused) of the ELF
        # header and a page after it, which is all `list` reads of a shared object.
        with open(os.path.join(bundle, "libBench.so"), "wb") as f:
            f.write(HEADER)


def run(command, env, before=None):
    """One run: (wall ms, CPU ms of the child)."""
    if before:
        before()
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
    wall = (time.perf_counter() - start) * 1000
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - usage.ru_utime + after.ru_stime - usage.ru_stime) * 1000
    return wall, cpu


def main():
    if not os.access(HOST, os.X_OK):
        sys.exit(f"{HOST} is missing: run 'make build' first")
    work = tempfile.mkdtemp(prefix="translation-host-bench-")
    try:
        baseline = os.path.join(work, "stat_baseline")
        subprocess.run(["cc", "-O2", "-o", baseline, os.path.join(ROOT, "Benchmarks/stat_baseline.c")], check=True)

        def environment(name, folder):
            # A real user has a home: without one the registry never writes its cache, and "warm" would be cold.
            # Each folder gets its own, so that listing one never rewrites the other's cache.
            home = os.path.join(work, "home-" + name)
            os.makedirs(home, 0o700, exist_ok=True)
            return dict(os.environ, HOME=home, XDG_CACHE_HOME=os.path.join(home, "cache"),
                        XDG_CONFIG_HOME=os.path.join(home, "config"), XDG_DATA_HOME=os.path.join(home, "data"),
                        TRANSLATION_HOST_PROVIDER_PATH=folder)

        def clearing(env):
            cache = os.path.join(env["XDG_CACHE_HOME"], "translation-host/registry-v1.cache")
            return lambda: os.path.exists(cache) and os.remove(cache)

        empty = os.path.join(work, "empty")
        os.mkdir(empty)
        empty_env = environment("empty", empty)
        rows = []
        for size in SIZES:
            folder = os.path.join(work, f"n{size}")
            generate(folder, size)
            env = environment(f"n{size}", folder)
            rounds = 7 if size >= 10000 else 11
            # name -> list of (empty, folder) pairs of (wall, cpu)
            samples = {"cold": [], "warm": [], "stat": []}
            for _ in range(rounds):
                samples["cold"].append((run([HOST, "list"], empty_env, clearing(empty_env)),
                                        run([HOST, "list"], env, clearing(env))))
            for e in (empty_env, env):
                subprocess.run([HOST, "list"], env=e, stdout=subprocess.DEVNULL, check=True)
            for _ in range(rounds):
                samples["warm"].append((run([HOST, "list"], empty_env), run([HOST, "list"], env)))
                samples["stat"].append((run([baseline, empty], empty_env), run([baseline, folder], env)))

            def median(name, side, index):
                return statistics.median(pair[side][index] for pair in samples[name])

            def increment(name, index):
                return statistics.median(pair[1][index] - pair[0][index] for pair in samples[name])

            rows.append((size, {name: (median(name, 0, 0), increment(name, 0), increment(name, 1)) for name in samples}))

        print("translation-host list, medians; rounds interleave the empty folder and the bundles, cold, warm and stat-only")
        print()
        print("| bundles | empty folder: cold / warm / stat-only | cold increment | warm increment | stat-only increment | warm / stat | warm / stat (CPU) | cold per bundle | warm per bundle |")
        print("|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
        for size, m in rows:
            cold, warm, stat = m["cold"][1], m["warm"][1], m["stat"][1]
            ratio = warm / stat if stat > 0.05 else float("nan")
            cpu_ratio = m["warm"][2] / m["stat"][2] if m["stat"][2] > 0.05 else float("nan")
            print(f"| {size} | {m['cold'][0]:.1f} / {m['warm'][0]:.1f} / {m['stat'][0]:.2f} ms | {cold:.2f} ms | {warm:.2f} ms | {stat:.2f} ms "
                  f"| {ratio:.2f}× | {cpu_ratio:.2f}× | {cold / size * 1000:.1f} µs | {warm / size * 1000:.1f} µs |")
            if size >= 1000:
                record(f"warm `list`, {size:,} bundles (increment over an empty folder)", f"{warm:.2f} ms",
                       f"{stat:.2f} ms (stat their files)", ratio, "≤ 1.5×", ratio <= 1.5)
        print()
        print(f"load average at the end: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
        print("Goals (DESIGN §9): 1,000 bundles warm ≤ 10 ms and ≤ 3× stat-only; cold ≤ 100 ms; linear growth.")
        print("Issue 16: warm ≤ 1.5× stat-only at 1,000 and at 10,000 bundles.")
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
