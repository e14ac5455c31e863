"""Slow phones against the clerks: how long the clerk's table page takes while some
connections trickle their request a byte at a time (issue 38.2).

    .venv/bin/python -m bench.slow_clients [--server gunicorn waitress] [--slow 16]
        [--samples 20] [--interval 2]

For each server kind, on one SQLite database prepared as the load test prepares it
(``bench.load_test._prepare``) with the venue's settings (``DJANGO_DEBUG=0``,
``DJANGO_HTTPS=0``):

1. the server starts as the venue ran it (gunicorn: 2 gthread workers × 4 threads, as
   before issue 38; waitress: :mod:`operations.serve`, 2 processes × 4 threads, as the
   venue runs it now) and is proven to be
   this run's (:class:`bench.server.AppServer`: its instance marker on every answer);
2. a clerk logs in; ``--samples`` GETs of the clerk's table page, one after the other,
   give the latency with no slow connection;
3. ``--slow`` connections open: half send a request line and then one header byte every
   ``--interval`` seconds, half send whole headers announcing a 10,000-byte body and then
   one body byte every ``--interval`` seconds;
4. after 3 s, ``--samples`` GETs again, each given at most 20 s: the latency, and how
   many got no answer at all.

Prints one table: per server, before and during, p50 / max in ms and the count of
unanswered requests.  Fails (exit status 1) when an answer lacks the instance marker or
the server logged an error.
"""

from __future__ import annotations

import argparse
import http.cookiejar
import os
import re
import socket
import statistics
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

from bench.server import HOST, AppServer
from config.instance import HEADER as INSTANCE_HEADER

TIMEOUT = 20.0


class Trickler:
    """``count`` connections to ``port`` that send their request one byte per
    ``interval`` seconds (half in the headers, half in the body), until :meth:`stop`."""

    def __init__(self, port: int, count: int, interval: float) -> None:
        self.port, self.interval = port, interval
        self.stopping = threading.Event()
        self.sockets: list[socket.socket] = []
        header = f"GET /accounts/login/ HTTP/1.1\r\nHost: {HOST}\r\nX-Slow: ".encode()
        body = (
            f"POST /accounts/login/ HTTP/1.1\r\nHost: {HOST}\r\n"
            "Content-Type: application/x-www-form-urlencoded\r\n"
            "Content-Length: 10000\r\n\r\n"
        ).encode()
        for n in range(count):
            sock = socket.create_connection((HOST, port), timeout=5)
            sock.sendall(header if n % 2 == 0 else body)
            self.sockets.append(sock)
        self.thread = threading.Thread(target=self._trickle, daemon=True)
        self.thread.start()

    def _trickle(self) -> None:
        while not self.stopping.wait(self.interval):
            for sock in self.sockets:
                try:
                    sock.send(b"a")
                except OSError:
                    pass  # the server closed it: that is allowed

    def stop(self) -> None:
        self.stopping.set()
        self.thread.join(5)
        for sock in self.sockets:
            sock.close()


def _clerk(server: AppServer, username: str, password: str) -> urllib.request.OpenerDirector:
    """An opener logged in as the clerk (cookie jar; the login form's CSRF token)."""
    jar = http.cookiejar.CookieJar()
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))
    with opener.open(f"{server.base}/accounts/login/", timeout=TIMEOUT) as response:
        server.require_ours(response.headers, "login page")
        page = response.read().decode()
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page).group(1)
    data = urllib.parse.urlencode(
        {"csrfmiddlewaretoken": token, "username": username, "password": password}
    ).encode()
    request = urllib.request.Request(
        f"{server.base}/accounts/login/", data=data, headers={"Referer": server.base + "/"}
    )
    with opener.open(request, timeout=TIMEOUT) as response:
        server.require_ours(response.headers, "login")
        if "/accounts/login/" in response.url:
            raise RuntimeError("the clerk's login was refused")
    return opener


def _samples(server: AppServer, opener, path: str, count: int) -> tuple[list[float], int]:
    """``count`` sequential GETs of ``path``: latencies in ms of the answered ones, and
    the number that got no answer within :data:`TIMEOUT`."""
    times, unanswered = [], 0
    for _ in range(count):
        started = time.perf_counter()
        try:
            with opener.open(server.base + path, timeout=TIMEOUT) as response:
                response.read()
                server.require_ours(response.headers, path)
                if response.status != 200:
                    raise RuntimeError(f"{path} answered {response.status}")
        except (TimeoutError, urllib.error.URLError):
            unanswered += 1
            continue
        times.append((time.perf_counter() - started) * 1000)
    return times, unanswered


def _figures(times: list[float], unanswered: int) -> str:
    if not times:
        return f"{'–':>8}{'–':>9}{unanswered:>12}"
    return f"{statistics.median(times):>8.0f}{max(times):>9.0f}{unanswered:>12}"


def measure(kind: str, folder: Path, env: dict, config: dict, args) -> tuple[str, list[str]]:
    """One server kind: its report lines and its problems."""
    clerk = config["clerks"][0]
    path = f"/turnier/{config['tournament']}/runde/{config['round']}/tisch/{clerk['table']}/"
    server = AppServer(folder / kind, env, workers=2, threads=4, server=kind)
    (folder / kind).mkdir()
    with server.start(f"/turnier/{config['tournament']}/"):
        opener = _clerk(server, clerk["username"], clerk["password"])
        _samples(server, opener, path, 3)  # warm-up
        before = _samples(server, opener, path, args.samples)
        slow = Trickler(server.port, args.slow, args.interval)
        try:
            time.sleep(3)
            during = _samples(server, opener, path, args.samples)
        finally:
            slow.stop()
        server.check(f"/turnier/{config['tournament']}/")
        label = "waitress 2×4" if kind == "waitress" else "gunicorn 2×4 gthread"
        lines = [
            f"{label:<22}{'none':>6}{_figures(*before)}",
            f"{'':<22}{args.slow:>6}{_figures(*during)}",
        ]
        return lines, server.problems()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--server", nargs="+", choices=["gunicorn", "waitress"], default=["gunicorn", "waitress"]
    )
    parser.add_argument("--slow", type=int, default=16, help="slow connections (default 16)")
    parser.add_argument("--samples", type=int, default=20, help="page loads per phase")
    parser.add_argument("--interval", type=float, default=2.0, help="seconds between bytes")
    args = parser.parse_args(argv)

    from bench import load_test

    with tempfile.TemporaryDirectory(prefix="binokel-slow-") as tmp:
        folder = Path(tmp)
        env = load_test._environment(load_test._database_url("sqlite", folder))
        env["DJANGO_HTTPS"] = "0"  # the venue's plain HTTP on the hall's network
        os.environ.update(env)
        import django

        django.setup()
        from django.db import connections

        config = load_test._prepare(31, 12, 1)
        connections.close_all()
        lines = [
            f"clerk's table page while slow connections trickle a byte every {args.interval:g} s "
            f"({args.samples} loads per line, {TIMEOUT:.0f} s allowed each)",
            f"{'server':<22}{'slow':>6}{'p50 ms':>8}{'max ms':>9}{'unanswered':>12}",
        ]
        problems: list[str] = []
        for kind in args.server:
            report, found = measure(kind, folder, env, config, args)
            lines += report
            problems += [f"{kind}: {p}" for p in found]
    print("\n".join(lines))
    if problems:
        print("\nPROBLEMS (the figures above do not count):", *problems, sep="\n  ")
        return 1
    print(f"\nevery answer carried this run's {INSTANCE_HEADER}; no errors in the servers' logs")
    return 0


if __name__ == "__main__":
    sys.exit(main())
