"""What a region's server serves per second (issue 40.3): cached standings through nginx
against the same bytes as a static file through nginx, side by side in one run, and the
app servers themselves behind nginx.

Run: ``python -m bench.region_bench [--tables 40] [--seconds 10] [--rounds 3]
[--connections 64] [--json PATH]`` (needs Debian's nginx and wrk, the local PostgreSQL and
Redis).

1. :class:`bench.region_server.RegionServer`: nginx with TLS from the repository's files in
   front of two gunicorn app servers (2 workers × 4 threads each, as documented), a fresh
   PostgreSQL database with a tournament of ``3 × tables`` players, Redis.
2. The standings fragment (``/turnier/N/rangliste/``) is fetched through nginx; its bytes
   are written as a static file (``/static/bench/rangliste.html``) that nginx serves from
   disk.
3. wrk (HTTPS, ``--connections`` connections, 2 threads) loads, in turns, ``--rounds``
   times each for ``--seconds`` seconds:
   - **cached**: the fragment, answered from nginx's cache (a render every 2 s);
   - **static**: the same bytes as a file;
   - **app**: the fragment with a session cookie, which nginx passes to an app server
     every time (the app's own Redis cache still holds the table): what the two app
     processes serve.
4. Checks that it measured its own servers, else exit code 1: before each run the cached
   fragment answers with a cache HIT and one of this run's app markers, the static file
   with nginx's own answer and the same bytes, the app request with a marker; after each
   run nginx is still running, its access log grew by at least wrk's count of requests,
   wrk counted no socket error and no answer other than 2xx/3xx, and neither app server's
   log holds an error.

Not a test: it prints figures (docs/performance.md records them).  The load generator runs
on the same two cores as the servers; the ratio of the first two is what it is for.
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from bench.load_test import _cpu_seconds
from bench.region_server import HOST, Browser, RegionServer, ServerProblem

REDIS_URL = "redis://127.0.0.1:6379/14"
STATIC_COPY = "bench/rangliste.html"
SESSION_COOKIE = "sessionid=region-bench-no-such-session"  # bypasses nginx's cache


def wrk_binary() -> str | None:
    return shutil.which("wrk")


def run_wrk(port: int, path: str, seconds: int, connections: int, cookie: str | None) -> dict:
    """One wrk run against nginx on ``port``: requests, requests per second, latency
    percentiles, errors.  Raises :class:`ServerProblem` when wrk fails."""
    command = [wrk_binary(), "-t2", f"-c{connections}", f"-d{seconds}s", "--latency"]
    command += ["--timeout", "10s"]  # a request slower than that counts as a socket error
    command += ["-H", f"Host: {HOST}"]
    if cookie:
        command += ["-H", f"Cookie: {cookie}"]
    command.append(f"https://127.0.0.1:{port}{path}")
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise ServerProblem(f"wrk failed: {done.stderr or done.stdout}")
    return parse_wrk(done.stdout)


def parse_wrk(output: str) -> dict:
    """The figures of wrk's report (``--latency``): ``requests``, ``rps``, ``p50_ms``,
    ``p99_ms``, ``socket_errors``, ``bad_status``."""

    def milliseconds(label: str) -> float:
        match = re.search(rf"^\s*{label}\s+([\d.]+)(us|ms|s)\s*$", output, re.M)
        if match is None:
            return float("nan")
        value, unit = float(match.group(1)), match.group(2)
        return value / 1000 if unit == "us" else value * 1000 if unit == "s" else value

    requests = re.search(r"(\d+) requests in", output)
    rps = re.search(r"Requests/sec:\s+([\d.]+)", output)
    if requests is None or rps is None:
        raise ServerProblem("wrk printed no figures:\n" + output)
    socket = re.search(
        r"Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)", output
    )
    bad = re.search(r"Non-2xx or 3xx responses: (\d+)", output)
    return {
        "requests": int(requests.group(1)),
        "rps": float(rps.group(1)),
        "p50_ms": milliseconds("50%"),
        "p99_ms": milliseconds("99%"),
        "socket_errors": sum(int(n) for n in socket.groups()) if socket else 0,
        "bad_status": int(bad.group(1)) if bad else 0,
    }


def _check_before(server: RegionServer, kind: str, path: str, static_bytes: bytes) -> None:
    browser = Browser(server)
    if kind == "app":
        browser.cookies["sessionid"] = SESSION_COOKIE.split("=", 1)[1]
    answer = browser.get(path)  # Browser requires this run's marker on every app answer
    browser_hit = browser.get(path) if kind == "cached" else answer
    if answer.status != 200:
        raise ServerProblem(f"{kind}: {path} answered {answer.status}")
    if kind == "cached" and browser_hit.cache_status != "HIT":
        raise ServerProblem(f"cached: nginx did not answer {path} from its cache")
    if kind == "static" and (answer.cache_status is not None or answer.body != static_bytes):
        raise ServerProblem("static: the file did not come from nginx's disk as written")
    if kind == "app" and answer.cache_status != "BYPASS":
        raise ServerProblem("app: the request with a session cookie did not reach an app server")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=40)
    parser.add_argument("--seconds", type=int, default=10)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--connections", type=int, default=64)
    parser.add_argument("--json", type=Path)
    args = parser.parse_args(argv)
    if wrk_binary() is None:
        print("wrk is not installed (apt-get install wrk)", file=sys.stderr)
        return 1
    with tempfile.TemporaryDirectory() as folder:
        with RegionServer(Path(folder), REDIS_URL, tables=args.tables) as server:
            return _measure(server, args)


def _measure(server: RegionServer, args) -> int:
    tournament = server.data["tournament"]
    fragment = f"/turnier/{tournament}/rangliste/"
    body = Browser(server).get(fragment).body
    copy = server.static / STATIC_COPY
    copy.parent.mkdir(parents=True, exist_ok=True)
    copy.write_bytes(body)
    paths = {"cached": fragment, "static": f"/static/{STATIC_COPY}", "app": fragment}
    results: dict[str, list[dict]] = {kind: [] for kind in paths}
    problems: list[str] = []
    for round_number in range(args.rounds):
        for kind, path in paths.items():
            try:
                _check_before(server, kind, path, body)
                logged = server.nginx.access_lines()
                busy_before, _ = _cpu_seconds()
                figures = run_wrk(
                    server.nginx.port,
                    path,
                    args.seconds,
                    args.connections,
                    SESSION_COOKIE if kind == "app" else None,
                )
                busy_after, _ = _cpu_seconds()
                figures["cores_busy"] = (busy_after - busy_before) / args.seconds
                grew = server.nginx.access_lines() - logged
            except ServerProblem as exc:
                problems.append(str(exc))
                break
            if server.nginx.process.poll() is not None:
                problems.append("nginx ended during the run")
            if grew < figures["requests"]:
                problems.append(
                    f"{kind}: nginx logged {grew} requests, wrk counted {figures['requests']}: "
                    "wrk did not measure this run's nginx"
                )
            if figures["socket_errors"] or figures["bad_status"]:
                problems.append(f"{kind}: {figures['socket_errors']} socket errors, "
                                f"{figures['bad_status']} answers other than 2xx/3xx")  # fmt: skip
            results[kind].append(figures)
            print(
                f"round {round_number + 1} {kind:>6}: {figures['rps']:9.0f} req/s, "
                f"p50 {figures['p50_ms']:.1f} ms, p99 {figures['p99_ms']:.1f} ms, "
                f"cores busy {figures['cores_busy']:.2f}",
                flush=True,
            )
        if problems:
            break
    problems += server.problems()
    summary = _summary(results, len(body), args)
    print(json.dumps(summary, indent=2))
    if args.json:
        args.json.write_text(json.dumps({**summary, "runs": results}, indent=2))
    for problem in problems:
        print(f"PROBLEM: {problem}", file=sys.stderr)
    return 1 if problems else 0


def _summary(results: dict[str, list[dict]], size: int, args) -> dict:
    medians = {
        kind: statistics.median(r["rps"] for r in runs) for kind, runs in results.items() if runs
    }
    summary = {
        "players": 3 * args.tables,
        "fragment_bytes": size,
        "seconds_per_run": args.seconds,
        "rounds": args.rounds,
        "connections": args.connections,
        "median_rps": {kind: round(value) for kind, value in medians.items()},
    }
    if medians.get("static"):
        summary["cached_over_static"] = round(medians.get("cached", 0) / medians["static"], 3)
    return summary


if __name__ == "__main__":
    sys.exit(main())
