#!/usr/bin/env python3
"""Where the service's threads sleep, and who wakes them, with 8 one-sentence clients.

Runs `host-benchmark BUILD throughput`; after its warm-up, records every
context switch and wake-up of the machine for a few seconds (`perf record -a
-g -e sched:sched_switch -e sched:sched_wakeup`, no build-id cache: nothing is
linked into ~/.debug), then prints, per request (the clients' waits for their
answers in the window), where the threads of `translation-host serve` slept
(the system call, and the innermost frame of the service's code) and who woke
them. `--comm translation-pro` does the same for the runners' threads.

    python3 Benchmarks/context_switches.py --build $PWD/build \\
        --host-benchmark $(swift build -c release --show-bin-path)/host-benchmark
"""
import argparse, collections, os, re, shutil, subprocess, sys, tempfile, time

KERNEL = ('__schedule', 'schedule', 'do_', '__x64', 'entry_', 'futex', 'poll_', '__wait', 'wait_', 'hrtimer',
          '[unknown]', 'unix_', 'sock_', '__sys', 'ksys', 'vfs_', 'pipe_', 'ep_', 'common_', '__do', 'sys_',
          'kernel_', '__futex', 'exit_', '__se', 'syscall_', 'irqentry', 'asm_', 'preempt', 'raw_', '__cond',
          'schedule_', '__skb', 'skb_', '__unix', 'sk_', 'inet', 'tcp', 'ip_', 'ttwu', 'try_to_wake')
OURS = ('TranslationCoalescer', 'ServiceConnection', 'ClientWatcher', 'RunnerPool', 'PoolRunners', 'RunnerClient',
        'RunnerLauncher', 'ServiceServer', 'ConnectionTable', 'BusEndpoint', 'ProviderOutput', 'ServiceClient',
        'Syscalls')
HEAD = re.compile(r'^(\S.*?)\s+(\d+)/(\d+)\s+sched:(sched_switch|sched_wakeup):\s*(.*)$')


def record(build, host_benchmark, seconds, delay, folder):
    bench = subprocess.Popen([host_benchmark, build, 'throughput'], stdout=subprocess.PIPE, text=True)
    serve = None
    for _ in range(600):
        found = subprocess.run(['pgrep', '-f', f'{build}/bin/translation-host serve'], capture_output=True, text=True)
        if found.stdout.split():
            serve = found.stdout.split()[0]
            break
        time.sleep(0.1)
    time.sleep(delay)
    data = os.path.join(folder, 'perf.data')
    subprocess.run(['perf', 'record', '-N', '-q', '-a', '-g', '-e', 'sched:sched_switch', '-e', 'sched:sched_wakeup',
                    '-o', data, '--', 'sleep', str(seconds)], check=True, stderr=subprocess.DEVNULL)
    output, _ = bench.communicate()
    script = subprocess.run(['perf', 'script', '-i', data, '-F', 'comm,pid,tid,event,trace,ip,sym'],
                            capture_output=True, text=True, errors='replace').stdout
    return serve, script, output


def parse(script):
    events, current = [], None
    for line in script.splitlines():
        if not line.strip():
            continue
        match = HEAD.match(line)
        if match:
            current = dict(comm=match[1], pid=match[2], tid=match[3], event=match[4], trace=match[5], stack=[])
            events.append(current)
        elif current is not None:
            parts = line.split(None, 1)
            if len(parts) == 2:
                current['stack'].append((parts[0], parts[1].strip()))
    return events


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument('--build', required=True)
    parser.add_argument('--host-benchmark', required=True)
    parser.add_argument('--seconds', type=float, default=6)
    parser.add_argument('--delay', type=float, default=8, help='seconds after the service starts (the warm-up)')
    parser.add_argument('--comm', help='the threads to split, by name prefix (default: the service\'s)')
    arguments = parser.parse_args()
    folder = tempfile.mkdtemp(prefix='context-switches-')
    try:
        serve, script, output = record(arguments.build, arguments.host_benchmark, arguments.seconds, arguments.delay,
                                       folder)
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    events = parse(script)
    symbols = sorted({s for e in events for _, s in e['stack'] if s.startswith('$s')})
    demangled = dict(zip(symbols, subprocess.run(['swift-demangle', '--simplified'], input='\n'.join(symbols),
                                                 capture_output=True, text=True).stdout.split('\n')))

    def site(stack):
        user = [s for address, s in stack if not address.startswith('ffffffff')]
        call = next((s for s in user if not s.startswith(KERNEL) and not s.startswith('$s')), '?')
        frames = [demangled.get(s, s) for s in user if s.startswith('$s')]
        ours = [f for f in frames if any(o in f for o in OURS)]
        where = re.sub(r'\(.*', '', ours[0] if ours else (frames[0] if frames else ''))[:90]
        return f'{call[:28]} @ {where}'

    chosen = (lambda e: e['comm'].startswith(arguments.comm)) if arguments.comm else (lambda e: e['pid'] == serve)
    threads = {e['tid']: e['comm'] for e in events if chosen(e)}
    sleeps, preempted, wakes, requests = collections.Counter(), collections.Counter(), collections.Counter(), 0
    for e in events:
        if e['event'] == 'sched_switch':
            state = re.search(r'prev_state=(\S+)', e['trace'])[1]
            if e['tid'] in threads:
                if state.startswith('R'):
                    preempted[e['comm']] += 1
                else:
                    sleeps[(e['comm'], site(e['stack']))] += 1
            elif e['pid'] != serve and not state.startswith('R') and 'ServiceClient.receiveReply' in site(e['stack']):
                requests += 1
        else:
            woken = re.search(r'comm=(.*?) pid=(\d+)', e['trace'])
            if woken and woken[2] in threads:
                by = e['comm'] + (' (service)' if e['pid'] == serve else '')
                wakes[(threads[woken[2]], by, site(e['stack']) if e['pid'] == serve else '')] += 1
    per = max(requests, 1)
    print('\n'.join(line for line in output.splitlines() if 'the bound' in line or 'bound: 2' in line))
    print(f'\nrequests in the window (client waits for an answer): {requests}; voluntary switches '
          f'{sum(sleeps.values()) / per:.2f} a request, preempted {sum(preempted.values()) / per:.2f}\n')
    print('| thread | slept in | per request |\n|---|---|---:|')
    for (comm, where), count in sleeps.most_common(15):
        print(f'| {comm} | {where} | {count / per:.2f} |')
    print('\n| thread woken | by | at | per request |\n|---|---|---|---:|')
    for (comm, by, where), count in wakes.most_common(15):
        print(f'| {comm} | {by} | {where} | {count / per:.2f} |')


if __name__ == '__main__':
    sys.exit(main())
