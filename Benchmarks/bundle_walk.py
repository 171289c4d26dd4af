#!/usr/bin/env python3
"""What inspecting a bundle's declared folders costs (issue 24): the host
looks at every entry below each TPReadOnlyPaths folder for sockets, devices
and pipes, each time it reads the bundle: a cold `list`, and before every
run (`run`, `translate` re-read the bundle and check the paths again for
the sandbox's policy). The Apertium bundle declares /var/lib/dpkg (about
3,500 entries on Debian) and three apt folders.

Provider folders, each with one bundle, are listed cold (the registry cache
removed before each run), round by round in turn: the Apertium bundle as
built with the walks remembered (`CleanFolders`, kept between runs: an
unchanged tree costs one lstat per folder), the same with nothing
remembered (its file removed too: every entry walked), the same
bundle without TPReadOnlyPaths (no walk), and an empty folder. Reports medians of wall and
CPU time (user + system of the child), the walk's cost as the median of the
per-round differences, and the load average.
Usage: Benchmarks/bundle_walk.py [--rounds N] [--host PATH]
"""
import os, plistlib, resource, shutil, statistics, subprocess, sys, tempfile, time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
HOST = os.path.join(ROOT, "build/bin/translation-host")
BUNDLE = os.path.join(ROOT, "build/lib/translation-host/providers/Apertium.translationprovider")
ROUNDS = int(sys.argv[sys.argv.index("--rounds") + 1]) if "--rounds" in sys.argv else 31
if "--host" in sys.argv:
    HOST = os.path.abspath(sys.argv[sys.argv.index("--host") + 1])
    BUNDLE = os.path.join(os.path.dirname(os.path.dirname(HOST)),
                          "lib/translation-host/providers/Apertium.translationprovider")


def run(command, env, before):
    before()
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
    wall = (time.perf_counter() - start) * 1000
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - usage.ru_utime + after.ru_stime - usage.ru_stime) * 1000


def entries(paths):
    count = 0
    for path in paths:
        for _, folders, files in os.walk(path):
            count += len(folders) + len(files)
    return count


def main():
    if not os.access(HOST, os.X_OK) or not os.path.isdir(BUNDLE):
        sys.exit(f"{HOST} or {BUNDLE} is missing: run 'make build' first")
    work = tempfile.mkdtemp(prefix="translation-host-walk-")
    try:
        # A copy of the executable in a prefix of its own: its providers folder
        # (found beside it) is empty, so only the bundle below is read.
        host = os.path.join(work, "prefix/bin/translation-host")
        os.makedirs(os.path.dirname(host))
        os.makedirs(os.path.join(work, "prefix/lib/translation-host/providers"))
        shutil.copy2(HOST, host)
        with open(os.path.join(BUNDLE, "Info.plist"), "rb") as f:
            info = plistlib.load(f)
        declared = info.get("TPReadOnlyPaths", [])
        folders = {}
        for name in ("remembered", "walked", "unwalked", "empty"):
            folder = os.path.join(work, name)
            os.mkdir(folder, 0o755)
            folders[name] = folder
            if name == "empty":
                continue
            # A copy, not hard links: the identity rule refuses a file with two names.
            copy = os.path.join(folder, "Apertium.translationprovider")
            shutil.copytree(BUNDLE, copy, symlinks=True)
            if name == "unwalked":
                stripped = dict(info)
                stripped.pop("TPReadOnlyPaths", None)
                with open(os.path.join(copy, "Info.plist"), "wb") as f:
                    plistlib.dump(stripped, f)
        envs = {}
        for name, folder in folders.items():
            home = os.path.join(work, "home-" + name)
            os.makedirs(home, 0o700)
            envs[name] = dict(os.environ, HOME=home, XDG_CACHE_HOME=os.path.join(home, "cache"),
                              XDG_CONFIG_HOME=os.path.join(home, "config"), XDG_DATA_HOME=os.path.join(home, "data"),
                              TRANSLATION_HOST_PROVIDER_PATH=folder)
        for name in folders:
            listed = subprocess.run([host, "list"], env=envs[name], capture_output=True, text=True)
            if name != "empty" and "Apertium" not in listed.stdout:
                sys.exit(f"the copied bundle is not listed: {listed.stdout} {listed.stderr}")

        def clearing(env, forgetting):
            # The registry's cache always; the remembered walks (CleanFolders) too unless kept.
            folder = os.path.join(env["XDG_CACHE_HOME"], "translation-host")
            names = ["registry-v1.cache"] + (["read-only-folders-v1"] if forgetting else [])
            paths = [os.path.join(folder, name) for name in names]
            return lambda: [os.remove(path) for path in paths if os.path.exists(path)]

        samples = {name: [] for name in folders}
        for _ in range(ROUNDS):
            for name in folders:
                samples[name].append(run([host, "list"], envs[name], clearing(envs[name], name != "remembered")))

        def median(name, index):
            return statistics.median(sample[index] for sample in samples[name])

        def difference(a, b, index):
            return statistics.median(x[index] - y[index] for x, y in zip(samples[a], samples[b]))

        print(f"cold `translation-host list`, one Apertium bundle, medians of {ROUNDS} rounds")
        print(f"declared folders: {', '.join(declared)} ({entries(declared)} entries below them)")
        print()
        print("| folder | wall | CPU |")
        print("|---|---:|---:|")
        for name in folders:
            print(f"| {name} | {median(name, 0):.2f} ms | {median(name, 1):.2f} ms |")
        print()
        walk_wall, walk_cpu = difference("walked", "unwalked", 0), difference("walked", "unwalked", 1)
        kept_wall, kept_cpu = difference("remembered", "unwalked", 0), difference("remembered", "unwalked", 1)
        bundle_wall = difference("unwalked", "empty", 0)
        print(f"the walk (walked − unwalked, median of differences): {walk_wall:.2f} ms wall, {walk_cpu:.2f} ms CPU")
        print(f"the remembered walk (remembered − unwalked): {kept_wall:.2f} ms wall, {kept_cpu:.2f} ms CPU")
        print(f"the rest of reading the bundle (unwalked − empty): {bundle_wall:.2f} ms wall")
        print(f"load average at the end: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
