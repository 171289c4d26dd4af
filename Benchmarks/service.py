#!/usr/bin/env python3
"""Service benchmark: the resident service (`translation-host serve`) against
its baselines, in the same run, from the same Python client. Medians.
- warm per-sentence latency, client -> service -> Apertium provider, vs the
  same sentences through Apertium-APY over HTTP on 127.0.0.1;
- throughput of 8 concurrent clients vs the warm pipeline driven directly
  (`translate --lines --no-service`: one runner, one warm pipeline);
- the service's memory with three providers warm (Apertium, ApertiumAPY, Reverse).
Usage: Benchmarks/service.py [--quick]"""
import os, signal, socket, statistics, struct, subprocess, sys, tempfile, threading, time, urllib.parse, urllib.request

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
HOST = os.path.join(ROOT, "build/bin/translation-host")
QUICK = "--quick" in sys.argv
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from translate import sentences  # the same generated sentences as the translation benchmark


class ServiceClient:
    """The service protocol (Documentation/Service.md), as much as this benchmark needs."""

    def __init__(self, path):
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.connect(path)
        reply = self.request(bytes([1]) + struct.pack(">i", 1) + self.string(""))
        assert reply[0] == 1, reply

    @staticmethod
    def string(text):
        data = text.encode()
        return struct.pack(">i", len(data)) + data

    def request(self, payload):
        self.sock.sendall(struct.pack(">I", len(payload)) + payload)
        header = self.read(4)
        return self.read(struct.unpack(">I", header)[0])

    def read(self, count):
        data = b""
        while len(data) < count:
            chunk = self.sock.recv(count - len(data))
            if not chunk:
                raise ConnectionError("the service closed the connection")
            data += chunk
        return data

    def translate(self, provider, text):
        payload = (bytes([3, 1]) + self.string(provider) + struct.pack(">d", 30.0) + self.string("en") + self.string("es")
                   + struct.pack(">i", 1) + self.string(text))
        reply = self.request(payload)
        assert reply[0] == 3, reply
        length = struct.unpack(">i", reply[5:9])[0]
        return reply[9:9 + length].decode()

    def open_session(self, provider):
        reply = self.request(bytes([2, 1]) + self.string(provider) + struct.pack(">d", 30.0))
        assert reply[0] == 2, reply


def rss_kib(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


def children(pid):
    found = set()
    for task in os.listdir(f"/proc/{pid}/task"):
        with open(f"/proc/{pid}/task/{task}/children") as f:
            found.update(int(p) for p in f.read().split())
    return found


def descendants(pid):
    result, queue = [], list(children(pid))
    while queue:
        child = queue.pop()
        result.append(child)
        try:
            queue.extend(children(child))
        except OSError:
            pass
    return result


def main():
    if not os.access(HOST, os.X_OK):
        sys.exit("build/bin/translation-host is missing: run 'make build' first")
    texts = sentences(100 if QUICK else 300)
    with tempfile.TemporaryDirectory() as folder:
        runtime = os.path.join(folder, "run")
        os.mkdir(runtime, 0o700)
        env = dict(os.environ, HOME=folder, XDG_RUNTIME_DIR=runtime, XDG_CONFIG_HOME=os.path.join(folder, "config"),
                   XDG_CACHE_HOME=os.path.join(folder, "cache"), XDG_DATA_HOME=os.path.join(folder, "data"))
        probe = socket.socket()
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
        probe.close()
        apy = subprocess.Popen(
            ["/usr/bin/python3", os.path.join(ROOT, "Tests/Fixtures/apy_loopback.py"), "-p", str(port), "-l",
             os.path.join(folder, "langNames.db"), "/usr/share/apertium/modes"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
        subprocess.run([HOST, "config", "ApertiumAPY", "endpoint", f"http://127.0.0.1:{port}"], env=env, check=True,
                       stdout=subprocess.DEVNULL)
        service = subprocess.Popen([HOST, "serve"], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                   start_new_session=True)
        path = os.path.join(runtime, "translation-host/socket")
        try:
            for _ in range(200):
                try:
                    client = ServiceClient(path)
                    urllib.request.urlopen(f"http://127.0.0.1:{port}/listPairs", timeout=1).read()
                    break
                except OSError:
                    time.sleep(0.1)

            # Latency: warm both, then one request per sentence, each timed.
            for text in texts[:20]:
                client.translate("Apertium", text)
                urllib.request.urlopen(f"http://127.0.0.1:{port}/translate?" + urllib.parse.urlencode({"langpair": "eng|spa", "q": text})).read()
            service_times, apy_times = [], []
            for text in texts:
                start = time.perf_counter()
                client.translate("Apertium", text)
                service_times.append(time.perf_counter() - start)
                query = urllib.parse.urlencode({"langpair": "eng|spa", "q": text})
                start = time.perf_counter()
                urllib.request.urlopen(f"http://127.0.0.1:{port}/translate?{query}", timeout=10).read()
                apy_times.append(time.perf_counter() - start)
            latency, apy_latency = statistics.median(service_times), statistics.median(apy_times)

            # Throughput: 8 clients, each its share of the sentences, one request per sentence.
            bulk = sentences(800 if QUICK else 2400)
            words = sum(len(t.split()) for t in bulk)
            clients = [ServiceClient(path) for _ in range(8)]
            for c in clients:
                c.translate("Apertium", "Warm up.")

            def work(c, share):
                for text in share:
                    c.translate("Apertium", text)

            rates = []
            for _ in range(3):
                threads = [threading.Thread(target=work, args=(c, bulk[i::8])) for i, c in enumerate(clients)]
                start = time.perf_counter()
                for t in threads:
                    t.start()
                for t in threads:
                    t.join()
                rates.append(words / (time.perf_counter() - start))
            concurrent = statistics.median(rates)
            stdin = ("\n".join(bulk) + "\n").encode()
            direct = []
            for _ in range(3):
                start = time.perf_counter()
                subprocess.run([HOST, "translate", "--lines", "--no-service", "--provider", "Apertium", "--from", "en", "--to", "es"],
                               input=stdin, env=env, check=True, stdout=subprocess.DEVNULL)
                direct.append(words / (time.perf_counter() - start))
            pipeline = statistics.median(direct)

            # Memory with three providers warm.
            client.translate("ApertiumAPY", "The cat is on the table.")
            client.open_session("Reverse")
            time.sleep(0.5)
            own = rss_kib(service.pid)
            runners = sum(rss_kib(p) for p in descendants(service.pid) if os.path.exists(f"/proc/{p}"))
        finally:
            service.send_signal(signal.SIGTERM)
            service.wait(timeout=30)
            os.killpg(apy.pid, signal.SIGTERM)
            apy.wait(timeout=10)

    print("Service benchmark, medians\n")
    print("| measure | translation-host serve | baseline | ratio |")
    print("|---|---:|---:|---:|")
    print(f"| warm latency per sentence ({len(texts)} sentences), client → service → Apertium vs Apertium-APY over HTTP | "
          f"{latency * 1000:.2f} ms | {apy_latency * 1000:.2f} ms | {apy_latency / latency:.2f}× faster |")
    print(f"| throughput, 8 concurrent clients, one request per sentence ({len(bulk):,} sentences) vs the warm pipeline "
          f"driven directly (`translate --lines --no-service`) | {concurrent:,.0f} words/s | {pipeline:,.0f} words/s | "
          f"{concurrent / pipeline:.2f}× |")
    print(f"| memory with Apertium, ApertiumAPY and Reverse warm: the service (RSS) and its runners (RSS, all processes) | "
          f"{own / 1024:.1f} MiB | {runners / 1024:.1f} MiB | |")
    print("\nGoals (issue 7, DESIGN §9): warm latency ≤ 2.5 ms median and ≥ 4× faster than Apertium-APY.")


if __name__ == "__main__":
    main()
