"""Venue mode as a director starts it on the club laptop: ``python -m operations.venue``
as a subprocess on a loopback address with its own data folder, and plain HTTP to it."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def http_get(url: str) -> tuple[int, dict, bytes]:
    """Status, headers and body of a GET of ``url`` (an error status is returned too)."""
    try:
        with urllib.request.urlopen(url, timeout=30) as response:
            return response.status, dict(response.headers), response.read()
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers), error.read()


class Venue:
    """``python -m operations.venue --data <data> --bind 127.0.0.1 --port <port>``
    (``--demo`` unless told otherwise), its output in ``log``."""

    def __init__(self, data: Path, port: int, log: Path, demo: bool = True):
        env = {
            k: v
            for k, v in os.environ.items()
            if not k.startswith(("DJANGO_", "DATABASE_", "REDIS_", "BINOKEL_"))
        }
        # its own static folder: venues of tests running in parallel (pytest-xdist) must
        # not run collectstatic into the same folder at once
        env["DJANGO_STATIC_ROOT"] = str(data.parent / "static")
        self.base = f"http://127.0.0.1:{port}"
        self.log = log
        command = [sys.executable, "-m", "operations.venue", "--data", str(data)]
        command += ["--bind", "127.0.0.1", "--port", str(port)]
        command += ["--demo"] if demo else []
        command += ["--backup-minutes", "0.02"]
        with open(log, "ab") as out:
            self.process = subprocess.Popen(
                command, cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT
            )

    def wait(self) -> None:
        for _ in range(600):
            if self.process.poll() is not None:
                raise AssertionError(self.log.read_text()[-3000:])
            try:
                if http_get(f"{self.base}/turnier/1/")[0] == 200:
                    return
            except OSError:
                pass
            time.sleep(0.2)
        raise AssertionError("venue did not answer: " + self.log.read_text()[-3000:])

    def stop(self) -> int:
        self.process.send_signal(signal.SIGTERM)
        return self.process.wait(timeout=60)
