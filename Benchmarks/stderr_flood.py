#!/usr/bin/env python3
"""Stderr flood benchmark: the app in a real terminal (tmux, 80x24) while its `command`
controller (Benchmarks/stderr_flood_controller.py) writes 100-character lines to stderr as fast
as it can, and a person presses a key every 200 ms.

Prints: the app's RSS every 2 s (it must stay flat), key-to-screen latency (median and worst),
the app's CPU time, how long `q` takes to end it, and whether the controller and its child are
gone afterwards; then the same flood under `play --keys enter`: how long it takes and how many
controller_error events it records.

    python3 Benchmarks/stderr_flood.py [--seconds 20] [--binary PATH]
"""
import argparse
import os
import shutil
import statistics
import subprocess
import tempfile
import time

from tmux_pane import TmuxServer

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def rss_kib(pid):
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
    except OSError:
        return 0
    return 0


def cpu_seconds(pid):
    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except OSError:
        return 0.0


def alive(pid):
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--seconds", type=float, default=20)
    parser.add_argument("--binary", default=os.path.join(ROOT, ".build/release/paywall-tui"))
    args = parser.parse_args()

    scratch = tempfile.mkdtemp(prefix="paywall-tui-stderr-flood-")
    socket = "stderr-flood-%d" % os.getpid()
    pids_file = os.path.join(scratch, "pids")

    tmux = TmuxServer(socket)
    wait_for = tmux.wait_for

    app = (f"cd {ROOT} && FLOOD_PIDS={pids_file} {args.binary} run paywalls --controller command "
           f"--controller-command 'python3 Benchmarks/stderr_flood_controller.py' --state-dir {scratch}/state --fresh")
    env = dict(os.environ, SWIFT_BACKTRACE="enable=no")
    try:
        subprocess.run(["tmux", "-L", socket, "-f", "/dev/null", "new-session", "-d", "-s", "main", "-x", "80", "-y", "24",
                        f"{app}; echo exit=$? > {scratch}/exit; sleep 600"], check=True, env=env)
        wait_for(lambda s: "● Annual" in s, 20)
        shell = int(tmux("display-message", "-p", "-t", "main", "#{pane_pid}").strip())
        with open(f"/proc/{shell}/task/{shell}/children") as f:
            pid = int(f.read().split()[0])  # the app: the pane's shell waits for it
        while not os.path.exists(pids_file):
            time.sleep(0.01)
        controller, child = (int(x) for x in open(pids_file).read().split())
        start = time.monotonic()
        latencies, samples, next_sample, right = [], [], start, True
        while time.monotonic() - start < args.seconds:
            if time.monotonic() >= next_sample:
                samples.append((round(time.monotonic() - start), rss_kib(pid)))
                next_sample += 2
            key, want = ("Right", "● Monthly") if right else ("Left", "● Annual")
            tmux("send-keys", "-t", "main", key)
            latencies.append(wait_for(lambda s: want in s, 10))
            right = not right
            time.sleep(0.2)
        cpu = cpu_seconds(pid)
        quit_start = time.monotonic()
        tmux("send-keys", "-t", "main", "q")
        tmux("send-keys", "-t", "main", "q")
        while not os.path.exists(f"{scratch}/exit") and time.monotonic() - quit_start < 20:
            time.sleep(0.005)
        quit_time = time.monotonic() - quit_start
        time.sleep(0.2)
        print(f"run: {args.seconds:.0f} s of stderr flood, {len(latencies)} key presses")
        print("  RSS (KiB) at second: " + ", ".join(f"{t}s={kib}" for t, kib in samples))
        print(f"  key to screen: median {statistics.median(latencies) * 1000:.1f} ms, worst {max(latencies) * 1000:.1f} ms")
        print(f"  CPU time of the app: {cpu:.1f} s over {args.seconds:.0f} s")
        print(f"  q to exit: {quit_time * 1000:.0f} ms ({open(f'{scratch}/exit').read().strip() if os.path.exists(f'{scratch}/exit') else 'did not exit'})")
        print(f"  controller alive afterwards: {alive(controller)}, its child alive: {alive(child)}")
    finally:
        subprocess.run(["tmux", "-L", socket, "kill-server"], capture_output=True)

    play_start = time.monotonic()
    result = subprocess.run([args.binary, "play", "paywalls", "--controller", "command", "--controller-command",
                             "python3 Benchmarks/stderr_flood_controller.py", "--keys", "enter", "--fresh",
                             "--state-dir", f"{scratch}/play-state"], cwd=ROOT, capture_output=True, text=True,
                            env=env, timeout=120)
    play_time = time.monotonic() - play_start
    lines = result.stdout.splitlines()
    errors = sum('"controller_error"' in line for line in lines)
    print(f"play --keys enter: exit {result.returncode} in {play_time:.2f} s, {errors} controller_error events, "
          f"last line {lines[-1] if lines else '(none)'}")
    shutil.rmtree(scratch, ignore_errors=True)


if __name__ == "__main__":
    main()
