"""The benches' own app server: gunicorn or the venue's waitress (:mod:`operations.serve`)
on a loopback port, proven to be this run's app, with the errors it logged read afterwards.

A bench measures only its own server, so :class:`AppServer`

1. refuses a port that something already listens on (:func:`port_taken`), before starting;
2. starts gunicorn with a random ``BINOKEL_INSTANCE`` (echoed by
   :class:`config.instance.InstanceMarker` as ``X-Binokel-Instance`` on every answer)
   and ``BINOKEL_LOG_FILE`` in a temporary folder (the app's error log, as in venue mode,
   and gunicorn's own errors through :class:`config.logs.GunicornLogger`);
3. waits until the child process is alive, gunicorn says it listens on that port and the
   port answers with the marker; an answer without it is another program
   (:class:`ServerProblem`);
4. counts every answer the bench checks with :meth:`AppServer.note` (all of them, or some
   at intervals) that lacks the marker: a bench with any such answer failed;
5. afterwards reads the error log (:meth:`AppServer.problems`): every ERROR or CRITICAL
   record there, and a traceback in gunicorn's own output, fails the bench.

Standard library only (the locust child imports nothing of this).
"""

from __future__ import annotations

import os
import secrets
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

from config.instance import HEADER as INSTANCE_HEADER
from config.instance import VARIABLE as INSTANCE_VARIABLE
from config.logs import LOG_FILE_VARIABLE, PROBLEM_LINE

ROOT = Path(__file__).resolve().parent.parent
HOST = "127.0.0.1"


class ServerProblem(RuntimeError):
    """The bench's own server did not start, ended, or another program answers its port."""


def free_port() -> int:
    """A port no one listens on now (the system's choice)."""
    with socket.socket() as sock:
        sock.bind((HOST, 0))
        return sock.getsockname()[1]


def port_taken(port: int, host: str = HOST) -> bool:
    """Whether something already listens on ``host:port`` (a connection is accepted) or the
    port cannot be bound (another socket holds it, say on all addresses)."""
    with socket.socket() as probe:
        probe.settimeout(2)
        if probe.connect_ex((host, port)) == 0:
            return True
    with socket.socket() as sock:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as gunicorn binds
        try:
            sock.bind((host, port))
        except OSError:
            return True
    return False


def log_records(path: Path, levels: tuple[str, ...] = ("ERROR", "CRITICAL")) -> list[str]:
    """The records at ``levels`` in the log file ``path`` and its rotated files (oldest
    first), each with its traceback lines; none when there is no file."""
    files = [Path(f"{path}.{n}") for n in range(9, 0, -1)] + [path]
    records: list[str] = []
    keep = False
    for file in files:
        if not file.exists():
            continue
        for line in file.read_text(errors="replace").splitlines():
            match = PROBLEM_LINE.match(line)
            if match:
                keep = match["level"] in levels
                if keep:
                    records.append(line)
            elif keep and records:
                records[-1] += "\n" + line
    return records


class AppServer:
    """gunicorn (gthread unless told) serving this app on ``127.0.0.1:<port>`` for one run;
    ``env`` is the app's environment (settings, database).  A context manager: stopped on
    leaving.  ``base`` is the address, ``instance`` the run's marker."""

    def __init__(
        self,
        folder: Path,
        env: dict,
        *,
        workers: int = 2,
        threads: int = 4,
        worker_class: str = "gthread",
        port: int | None = None,
        server: str = "gunicorn",
    ) -> None:
        self.port = port or free_port()
        self.base = f"http://{HOST}:{self.port}"
        self.instance = secrets.token_hex(16)
        self.log_file = Path(folder) / "binokel.log"
        self.output = Path(folder) / "gunicorn.log"
        self.env = {
            **os.environ,
            **env,
            INSTANCE_VARIABLE: self.instance,
            LOG_FILE_VARIABLE: str(self.log_file),
        }
        self.server = server
        if server == "waitress":
            # the venue's server: workers processes of threads threads on one socket
            self.command = [sys.executable, "-m", "operations.serve"]
            self.command += ["--listen", f"{HOST}:{self.port}"]
            self.command += ["--processes", str(workers), "--threads", str(threads)]
            self.listening = f"Server lauscht auf {self.base}"
        else:
            self.command = [str(Path(sys.executable).parent / "gunicorn"), "config.wsgi"]
            self.command += ["--bind", f"{HOST}:{self.port}", "--workers", str(workers)]
            self.command += ["--worker-class", worker_class]
            self.command += ["--threads", str(threads)] if worker_class == "gthread" else []
            self.command += ["--timeout", "60", "--logger-class", "config.logs.GunicornLogger"]
            self.listening = f"Listening at: {self.base}"
        self.process: subprocess.Popen | None = None
        self.checked = 0
        self.foreign = 0
        self._lock = threading.Lock()

    # ------------------------------------------------------------------ start, stop

    def start(self, ready_path: str = "/", timeout: float = 60.0) -> AppServer:
        """Start gunicorn on the free port and wait until it answers ``ready_path`` (200)
        as this run's server; raises :class:`ServerProblem` otherwise."""
        if port_taken(self.port):
            raise ServerProblem(
                f"port {self.port} is taken by another program before the bench's server "
                "started: refusing to measure it"
            )
        with open(self.output, "wb") as out:
            self.process = subprocess.Popen(
                self.command, cwd=ROOT, env=self.env, stdout=out, stderr=subprocess.STDOUT
            )
        try:
            self._wait_ready(ready_path, timeout)
        except BaseException:
            self.stop()
            raise
        return self

    def _wait_ready(self, path: str, timeout: float) -> None:
        deadline = time.monotonic() + timeout
        while True:
            self.require_alive()
            try:
                status, headers = self.get(path)
            except OSError:
                if time.monotonic() > deadline:
                    raise ServerProblem(f"the bench's server did not answer {path}") from None
                time.sleep(0.2)
                continue
            self.require_ours(headers, path)
            if status != 200:
                raise ServerProblem(f"the bench's server answered {path} with {status}")
            break
        if self.listening not in self._output_text():
            raise ServerProblem(f"{self.server} did not say it listens at {self.base}")
        if not self.log_file.exists():
            raise ServerProblem(f"the app did not open its log file {self.log_file}")

    def stop(self) -> None:
        """Stop gunicorn (hard after 30 s: requests still queued)."""
        if self.process is None or self.process.poll() is not None:
            return
        self.process.terminate()
        try:
            self.process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait(timeout=30)

    def __enter__(self) -> AppServer:
        return self

    def __exit__(self, *exc) -> None:
        self.stop()

    # ---------------------------------------------------------------------- checks

    def get(self, path: str) -> tuple[int, dict]:
        """One GET of ``path`` (with the proxy header the production settings expect):
        status and headers; raises ``OSError`` when nothing answers."""
        request = urllib.request.Request(self.base + path, headers={"X-Forwarded-Proto": "https"})
        try:
            with urllib.request.urlopen(request, timeout=30) as response:
                response.read()
                return response.status, response.headers
        except urllib.error.HTTPError as exc:
            return exc.code, exc.headers

    def is_ours(self, headers) -> bool:
        return headers is not None and headers.get(INSTANCE_HEADER) == self.instance

    def note(self, headers) -> bool:
        """Count one answer; whether it came from this run's server."""
        ours = self.is_ours(headers)
        with self._lock:
            self.checked += 1
            self.foreign += not ours
        return ours

    def add_checked(self, checked: int, foreign: int) -> None:
        """Count answers another process checked (locust's phones and clerks)."""
        with self._lock:
            self.checked += checked
            self.foreign += foreign

    def require_ours(self, headers, what: str = "") -> None:
        if not self.note(headers):
            raise ServerProblem(
                f"port {self.port} answered {what} without this run's {INSTANCE_HEADER}: "
                "another program is answering, not the bench's server"
            )

    def require_alive(self) -> None:
        if self.process is None or self.process.poll() is not None:
            code = None if self.process is None else self.process.returncode
            raise ServerProblem(
                f"the bench's gunicorn is not running (exit status {code}):\n"
                + self._output_text()[-3000:]
            )

    def check(self, path: str) -> None:
        """Between measurements: the server still runs and still answers as this run's."""
        self.require_alive()
        _status, headers = self.get(path)
        self.require_ours(headers, path)

    def _output_text(self) -> str:
        return self.output.read_text(errors="replace") if self.output.exists() else ""

    def problems(self) -> list[str]:
        """What went wrong on the server's side, for the summary: answers without the
        marker, every ERROR/CRITICAL record in the app's log (with its traceback), and a
        traceback in gunicorn's own output (a crash before logging was set up)."""
        found = []
        if self.foreign:
            found.append(
                f"{self.foreign} of {self.checked} checked answers came from another program "
                f"(no {INSTANCE_HEADER} of this run)"
            )
        logged = log_records(self.log_file)
        found += [f"server log: {record}" for record in logged]
        output = self._output_text()
        if "Traceback" in output and not logged:
            found.append("gunicorn's output holds a traceback:\n" + output[-3000:])
        return found

    def summary(self) -> str:
        """One line for the bench's report."""
        errors = len(log_records(self.log_file))
        warnings = len(log_records(self.log_file, ("WARNING",)))
        return (
            f"server: pid {self.process.pid if self.process else '-'} on {self.base}, "
            f"{self.checked - self.foreign} of {self.checked} checked answers marked as this "
            f"run's; log {self.log_file.name}: {errors} errors, {warnings} warnings"
        )
