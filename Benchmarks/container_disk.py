#!/usr/bin/env python3
"""What the container's size-limited view costs (issue 24): a provider's
writes into its container through the FUSE view that keeps the disk budget,
against the same provider with the view off (TRANSLATION_HOST_LIMIT_DISK_MIB=0:
the container bound as a plain folder), and the same writes by a program
outside any sandbox into a folder on the same file system. The writer
(`disk_writer.c`) times its own writes (open, <MiB> MiB in writes of <KiB>
KiB, close), so the runner's start is not in the throughput. The start cost
is the median wall time of a whole `translation-host run` that writes
nothing, view on against view off (the view mounts, and measures the
container, at each start). Runs alternate round by round, each way first in turn;
medians, and the load average before and after.
Usage: Benchmarks/container_disk.py [--rounds N] [--mib N] [--kib N] [--host PATH]
"""
import os, plistlib, shutil, statistics, subprocess, sys, tempfile, time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
HOST = os.path.join(ROOT, "build/bin/translation-host")
def option(name, default):
    return sys.argv[sys.argv.index(name) + 1] if name in sys.argv else default
ROUNDS = int(option("--rounds", "9"))
MIB = int(option("--mib", "256"))
KIB = int(option("--kib", "128"))
if "--host" in sys.argv:
    HOST = os.path.abspath(option("--host", HOST))
IDENTIFIER = "org.translationhost.bench.disk-writer"


def build(work):
    source = os.path.join(ROOT, "Benchmarks/disk_writer.c")
    bundle = os.path.join(work, "providers/DiskWriter.translationprovider")
    os.makedirs(bundle)
    subprocess.run(["cc", "-std=c11", "-O2", "-shared", "-fPIC", "-fvisibility=hidden",
                    "-I" + os.path.join(ROOT, "Tests/Fixtures/abi-v1"), source,
                    "-o", os.path.join(bundle, "libDiskWriter.so")], check=True, stderr=subprocess.DEVNULL)
    program = os.path.join(work, "disk_writer")
    subprocess.run(["cc", "-std=c11", "-O2", "-DSTANDALONE", source, "-o", program], check=True)
    with open(os.path.join(bundle, "Info.plist"), "wb") as f:
        plistlib.dump({
            "CFBundleIdentifier": IDENTIFIER, "CFBundleName": "DiskWriter", "CFBundleShortVersionString": "1.0",
            "CFBundleExecutable": "libDiskWriter.so",
            "EXAppExtensionAttributes": {"EXExtensionPointIdentifier": "com.apple.public.translation-ui-provider"},
        }, f)
    with open(os.path.join(bundle, "DiskWriter.entitlements"), "wb") as f:
        plistlib.dump({"com.apple.developer.translation-app": True}, f)
    for folder in (work, os.path.join(work, "providers"), bundle):
        os.chmod(folder, 0o755)
    return program


def environment(work, disk_mib):
    home = os.path.join(work, "home")
    return dict(os.environ, HOME=home, XDG_DATA_HOME=home + "/data", XDG_CONFIG_HOME=home + "/config",
                XDG_CACHE_HOME=home + "/cache", TRANSLATION_HOST_PROVIDER_PATH=os.path.join(work, "providers"),
                TRANSLATION_HOST_LIMIT_DISK_MIB=str(disk_mib))


def press(env, text):
    start = time.perf_counter()
    out = subprocess.run([HOST, "run", "--text", text, "--replace", "--press", "Go", "--provider", IDENTIFIER],
                         env=env, capture_output=True, text=True)
    wall = (time.perf_counter() - start) * 1000
    if out.returncode != 0 or "wrote" not in out.stdout:
        sys.exit(f"the run failed: {out.stdout} {out.stderr}")
    return out.stdout, wall


def throughput(line):
    words = line.split()
    done, micros = int(words[1]), int(words[4])
    return done / (1 << 20) / (micros / 1e6)


def main():
    if not os.access(HOST, os.X_OK):
        sys.exit(f"{HOST} is missing: run 'make build' first")
    work = tempfile.mkdtemp(prefix="translation-host-disk-")
    try:
        program = build(work)
        view, plain = environment(work, 4096), environment(work, 0)
        info = subprocess.run([HOST, "info", IDENTIFIER], env=view, capture_output=True, text=True).stdout
        if "disk-budget" not in info:
            print("note: the view is not in force here (no /dev/fuse for this user): both ways are the plain folder")
        outside = os.path.join(work, "outside")
        os.makedirs(outside)
        load_before = os.getloadavg()
        speeds = {"view": [], "plain": [], "outside": []}
        starts = {"view": [], "plain": []}
        def outside_line():
            return subprocess.run([program, outside, str(MIB), str(KIB)], capture_output=True, text=True).stdout
        ways = [("view", lambda: press(view, f"{MIB} {KIB}")[0]), ("plain", lambda: press(plain, f"{MIB} {KIB}")[0]),
                ("outside", outside_line)]
        for round in range(ROUNDS):
            # Each way first in turn: the dirty pages one leaves are written back during the next.
            for name, way in ways[round % 3:] + ways[:round % 3]:
                speeds[name].append(throughput(way()))
            starts["view"].append(press(view, "0")[1])
            starts["plain"].append(press(plain, "0")[1])
        load_after = os.getloadavg()
        median = {k: statistics.median(v) for k, v in speeds.items()}
        print(f"writes of {KIB} KiB, {MIB} MiB per file, {ROUNDS} rounds; load {load_before[0]:.1f} -> {load_after[0]:.1f}")
        for name in ("view", "plain", "outside"):
            print(f"  {name:8} {median[name]:8.0f} MiB/s  ({median[name] / median['plain']:.2f}x the plain folder)")
        view_start, plain_start = statistics.median(starts["view"]), statistics.median(starts["plain"])
        differences = statistics.median(a - b for a, b in zip(starts["view"], starts["plain"]))
        print(f"  run that writes nothing: view {view_start:.1f} ms, plain {plain_start:.1f} ms, "
              f"median difference {differences:+.1f} ms")
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
