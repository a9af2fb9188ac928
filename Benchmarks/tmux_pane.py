"""One tmux server of a benchmark's own (its own socket), with the pane helpers the tmux
benchmarks share: run a tmux command, read the screen, wait for it with a deadline."""

import subprocess
import time


class TmuxServer:
    def __init__(self, socket):
        self.socket = socket

    def __call__(self, *command, check=True):
        """Runs `tmux -L SOCKET COMMAND…` and returns its stdout."""
        return subprocess.run(["tmux", "-L", self.socket, *command],
                              capture_output=True, text=True, check=check).stdout

    def screen(self, target="main"):
        return self("capture-pane", "-p", "-t", target, check=False)

    def wait_for(self, predicate, limit):
        """Seconds until `predicate(screen)` holds; exits with the screen after `limit` seconds."""
        start = time.monotonic()
        while time.monotonic() - start < limit:
            if predicate(self.screen()):
                return time.monotonic() - start
            time.sleep(0.002)
        raise SystemExit("timed out; the screen was:\n" + self.screen())
