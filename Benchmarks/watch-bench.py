#!/usr/bin/env python3
"""`run --watch` in a real pty: save -> redraw latency (median of 20) and idle CPU over 10 s.

Each save writes the demo's onboarding paywall with a new title to a temporary file and renames
it over the old one (as editors do); the clock starts just before the rename and stops when the
new title is on the emulated screen (pyte). Idle CPU is utime+stime from /proc/PID/stat over 10 s
with nothing happening, the watcher and the app both waiting.

    python3 Benchmarks/watch-bench.py [BINARY]     (default .build/release/paywall-tui; needs pyte)
"""
import os, pty, select, shutil, signal, statistics, sys, tempfile, time

import pyte

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BIN = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, ".build/release/paywall-tui"))
SAVES = 20
COLS, ROWS = 80, 24


def main():
    work = tempfile.mkdtemp(prefix="watch-bench-")
    project = os.path.join(work, "p")
    shutil.copytree(os.path.join(ROOT, "paywalls"), project)
    paywall = os.path.join(project, "onboarding.json")
    original = open(paywall).read()
    screen = pyte.Screen(COLS, ROWS)
    stream = pyte.ByteStream(screen)
    env = dict(os.environ, TERM="xterm-256color", LANG="C.UTF-8", SWIFT_BACKTRACE="enable=no",
               XDG_STATE_HOME=os.path.join(work, "xdg"), LINES=str(ROWS), COLUMNS=str(COLS))
    pid, fd = pty.fork()
    if pid == 0:
        os.chdir(work)
        os.execve(BIN, [BIN, "run", "p", "--watch", "--controller", "scripted",
                        "--state-dir", os.path.join(work, "state"), "--fresh"], env)
    import fcntl, struct, termios
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", ROWS, COLS, 0, 0))
    os.kill(pid, signal.SIGWINCH)

    def wait_for(text, seconds=10.0):
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            if any(text in line for line in screen.display):
                return time.monotonic()
            ready, _, _ = select.select([fd], [], [], 0.05)
            if ready:
                try:
                    stream.feed(os.read(fd, 65536))
                except OSError:
                    break
        sys.exit(f"timed out waiting for {text!r}; screen:\n" + "\n".join(screen.display))

    try:
        wait_for("Unlock Acme Pro")
        # Idle: the first frame is out, nothing changes for 10 s.
        time.sleep(1)
        def cpu():
            fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
            return (int(fields[11]) + int(fields[12])) * 1000 / os.sysconf("SC_CLK_TCK")
        before = cpu()
        time.sleep(10)
        idle = cpu() - before

        latencies = []
        for n in range(SAVES):
            title = f"Saved title number {n:02d} {'ABCDEFGHIJKLMNOPQRST'[n]}"
            temporary = paywall + ".tmp"
            with open(temporary, "w") as f:
                f.write(original.replace("Unlock Acme Pro", title))
            start = time.monotonic()
            os.rename(temporary, paywall)
            latencies.append((wait_for(title) - start) * 1000)
            time.sleep(0.1)
        latencies.sort()
        print(f"reload latency, save -> redraw (median of {SAVES}, 80x24): {statistics.median(latencies):.1f} ms "
              f"(min {latencies[0]:.1f}, max {latencies[-1]:.1f}; debounce 40 ms; target <= 100)")
        print(f"idle CPU with --watch over 10 s: {idle:.0f} ms (target 0)")
    finally:
        os.kill(pid, signal.SIGTERM)
        os.waitpid(pid, 0)
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
