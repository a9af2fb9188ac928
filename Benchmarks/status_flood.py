#!/usr/bin/env python3
"""Status flood benchmark: the app in a real terminal (tmux, 80x24) while its `command`
controller sets the status FLOOD_RATE times a second for SECONDS, and a person presses keys.

Prints: status changes sent, key-to-screen latency (median and worst over every key press),
the app's RSS every 10 s (memory must stay flat), its CPU time, and how long after the flood
the screen shows the final status.

    python3 Benchmarks/status_flood.py [--seconds 60] [--rate 1000] [--binary PATH]
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


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--rate", type=int, default=1000)
    parser.add_argument("--binary", default=os.path.join(ROOT, ".build/release/paywall-tui"))
    args = parser.parse_args()

    scratch = tempfile.mkdtemp(prefix="paywall-tui-flood-")
    socket = "flood-%d" % os.getpid()
    report = os.path.join(scratch, "report")

    tmux = TmuxServer(socket)
    wait_for = tmux.wait_for

    app = (f"cd {ROOT} && FLOOD_RATE={args.rate} FLOOD_SECONDS={args.seconds} FLOOD_REPORT={report} "
           f"exec {args.binary} run paywalls --controller command "
           f"--controller-command 'python3 Benchmarks/flood_controller.py' --state-dir {scratch}/state --fresh")
    tmux("-f", "/dev/null", "new-session", "-d", "-s", "main", "-x", "80", "-y", "24", app)
    try:
        pane_pid = int(tmux("display-message", "-p", "-t", "main", "#{pane_pid}").strip())
        wait_for(lambda s: "Annual" in s, 10)
        began = time.monotonic()
        latencies, rss = [], []
        next_sample = began
        selected = "Annual"
        while not os.path.exists(report):
            now = time.monotonic()
            if now >= next_sample:
                with open(f"/proc/{pane_pid}/status") as f:
                    rss.append((now - began, next(int(l.split()[1]) for l in f if l.startswith("VmRSS"))))
                next_sample += 10
            key, selected = ("Right", "Monthly") if selected == "Annual" else ("Left", "Annual")
            tmux("send-keys", "-t", "main", key)
            latencies.append(wait_for(lambda s: "● " + selected in s, 10))
            time.sleep(0.2)
        flood_end = time.monotonic()
        settle = wait_for(lambda s: "status: active:done" in s, 10)
        sent, flood_seconds = open(report).read().split()
        with open(f"/proc/{pane_pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        cpu = (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
        with open(f"/proc/{pane_pid}/status") as f:
            rss.append((time.monotonic() - began, next(int(l.split()[1]) for l in f if l.startswith("VmRSS"))))
        print(f"status changes sent      {int(sent):,} in {float(flood_seconds):.1f} s ({int(sent) / float(flood_seconds):,.0f}/s)")
        print(f"key presses              {len(latencies)}")
        print(f"key to screen            median {statistics.median(latencies) * 1000:.1f} ms, "
              f"worst {max(latencies) * 1000:.1f} ms")
        print(f"final status on screen   {settle * 1000:.1f} ms after the flood's last line")
        print(f"app CPU time             {cpu:.1f} s over {flood_end - began:.0f} s")
        print("RSS (KiB) at              " + ", ".join(f"{t:.0f}s: {kb:,}" for t, kb in rss))
        print(f"RSS growth               {rss[-1][1] - rss[0][1]:+,} KiB from the first sample to the last")
    finally:
        tmux("kill-server", check=False)
        shutil.rmtree(scratch, ignore_errors=True)


if __name__ == "__main__":
    main()
