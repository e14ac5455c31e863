"""Benchmark of the whole app for tournaments of N players, side by side in one run.

Run: ``python -m bench.app_bench [--sizes 60,180,600] [--repeat 5] [--database sqlite|postgres]
[--no-wrk]``.  For each N a child process gets a fresh database (a temporary SQLite file, or
the database ``binokel_bench`` on the local PostgreSQL), generates a complete tournament
(3 rounds × 12 games, the last round half entered) by dealing and playing every hand with
the engine, and measures, with production settings (``DJANGO_DEBUG=0``):

- generating the tournament (s);
- saving one hand through the service layer (validate + score + store; a correction of an
  entered hand of the last round), p50 and p95 in ms;
- the public standings page, cold (empty cache) and cached: ms and SQL queries;
- requests per second of the public standings under wrk (50 connections, 10 s, loopback,
  gunicorn with 2 workers) next to the same bytes served as a static file by the same
  server (whitenoise), and their ratio — for the page and for the polled fragment (the
  server is :class:`bench.server.AppServer`: a port nothing else held, checked to answer as
  this run's before and after each wrk run; an error in its log fails the benchmark);
- seconds for round 1's filled score sheets PDF (N/3 tables) as printed (the grid laid out
  once, each table's text stamped on: printing/sheets.py), the same sheets laid out wholly by
  WeasyPrint on every core as before issue 27 (bench/weasyprint_sheets.py) and the ratio,
  the blank sheets, the overall results list PDF (N players), and the results as a static
  website in a ZIP (``archive.site``, every standings page, the rules PDF); each run in a forked
  process of its own, in turns, with its peak resident memory (MB; for the WeasyPrint way
  the larger of the process and its workers).

The engine's best-meld and scoring time per hand (which do not depend on N) come last.
Figures are medians over ``--repeat`` runs with the spread (min–max) in brackets.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bench.rules_bench import _percentile

ROOT = Path(__file__).resolve().parent.parent
PG_ADMIN_URL = "postgres://postgres@127.0.0.1:5432/postgres"
PG_BENCH_DB = "binokel_bench"


def _summary(values: list[float]) -> dict:
    return {"median": statistics.median(values), "min": min(values), "max": max(values)}


# ------------------------------------------------------------------------------ child


def _child(players: int, repeat: int, wrk: bool) -> dict:
    import django

    django.setup()
    from django.core.cache import cache
    from django.core.management import call_command
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    from printing import pdfs
    from scoring import services
    from scoring.forms import HandForm
    from scoring.models import Hand
    from tournament.models import Tournament

    result: dict = {"players": players}
    call_command("migrate", verbosity=0)
    call_command("collectstatic", interactive=False, verbosity=0)  # manifest for DEBUG=0
    start = time.perf_counter()
    call_command("generate_tournament", players=players, seed=players, stdout=open(os.devnull, "w"))
    result["generate_s"] = time.perf_counter() - start
    tournament = Tournament.objects.get()
    result["tables"] = tournament.round_set.get(number=1).tables.count()

    # hand save through the service layer
    hands = list(
        Hand.objects.filter(table__round__number=tournament.rounds)
        .select_related("table__round__tournament", "entered_by")
        .order_by("pk")[:200]
    )
    timings = []
    for hand in hands:
        form_data = HandForm.initial_from(hand)
        form_data["confirm_rare"] = True  # re-saving stored hands: rare melds were real
        form_data["reason"] = "Messung"  # a correction says why
        seats = services.table_seats(hand.table)
        form = HandForm(form_data, seats=seats, ruleset=tournament.ruleset)
        assert form.is_valid(), form.errors
        entry = form.to_input()
        begin = time.perf_counter()
        saved, evaluation = services.save_hand(
            hand.table, entry, hand.entered_by, expected_version=hand.version, reason="Messung"
        )
        timings.append((time.perf_counter() - begin) * 1000)
        assert saved is not None, evaluation.errors
    result["save_ms"] = {"p50": _percentile(timings, 0.5), "p95": _percentile(timings, 0.95)}

    # standings page, cold and cached
    client = Client()
    url = f"/turnier/{tournament.pk}/"
    cold, warm = [], []
    for _ in range(repeat):
        cache.clear()
        with CaptureQueriesContext(connection) as cold_queries:
            begin = time.perf_counter()
            response = client.get(url)
            cold.append((time.perf_counter() - begin) * 1000)
        assert response.status_code == 200
        with CaptureQueriesContext(connection) as warm_queries:
            begin = time.perf_counter()
            client.get(url)
            warm.append((time.perf_counter() - begin) * 1000)
    result["standings_cold_ms"] = _summary(cold)
    result["standings_cached_ms"] = _summary(warm)
    result["standings_cold_queries"] = len(cold_queries)
    result["standings_cached_queries"] = len(warm_queries)

    # PDFs
    from archive import site
    from bench import weasyprint_sheets

    round_1 = tournament.round_set.get(number=1)
    pdfs.score_sheets_pdf(round_1, filled=True)  # fonts registered, templates compiled
    connection.close()  # each measurement runs in a process of its own (peak memory)
    ways = {
        "sheets": lambda: pdfs.score_sheets_pdf(round_1, filled=True),
        "sheets_weasyprint": lambda: weasyprint_sheets.score_sheets_pdf(round_1, filled=True),
        "blank_sheets": lambda: pdfs.score_sheets_pdf(round_1, filled=False),
        "results": lambda: pdfs.results_pdf(tournament),
        "site": lambda: site.site_zip(site.export_site(tournament)),
    }
    measured: dict[str, list[tuple[float, float]]] = {name: [] for name in ways}
    for _ in range(max(1, min(repeat, 3))):
        for name, function in ways.items():  # in turns, so drift hits each the same
            measured[name].append(_in_child(function))
    for name, runs in measured.items():
        result[f"{name}_pdf_s"] = _summary([seconds for seconds, _peak in runs])
        result[f"{name}_peak_mb"] = max(peak for _seconds, peak in runs)

    if wrk:
        result["wrk"] = _wrk_runs(tournament.pk, client)
    return result


def _in_child(function) -> tuple[float, float]:
    """Run ``function`` in a forked process: its wall time in seconds and the peak resident
    memory in MB of that process and of any worker processes it started (the larger)."""
    import multiprocessing
    import resource

    def measure(pipe) -> None:
        begin = time.perf_counter()
        function()
        seconds = time.perf_counter() - begin
        peak = max(
            resource.getrusage(resource.RUSAGE_SELF).ru_maxrss,
            resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss,
        )
        pipe.send((seconds, peak / 1024))  # ru_maxrss is in KB on Linux

    context = multiprocessing.get_context("fork")
    receiver, sender = context.Pipe(duplex=False)
    process = context.Process(target=measure, args=(sender,))
    process.start()
    sender.close()  # the child holds the only writer: a failure ends recv with EOFError
    try:
        outcome = receiver.recv()
    except EOFError:
        outcome = None
    process.join()
    if process.exitcode or outcome is None:
        raise SystemExit(f"measuring {function} failed with exit code {process.exitcode}")
    return outcome


def _wrk_runs(tournament_id: int, client) -> dict:
    """Throughput of the page and the fragment against the same bytes as static files."""
    from django.conf import settings

    targets = {
        "page": f"/turnier/{tournament_id}/",
        "fragment": f"/turnier/{tournament_id}/rangliste/",
    }
    static_dir = Path(settings.STATIC_ROOT) / "bench"
    static_dir.mkdir(parents=True, exist_ok=True)
    for name, path in targets.items():
        (static_dir / f"{name}.html").write_bytes(client.get(path).content)
    from bench.server import AppServer

    with tempfile.TemporaryDirectory(prefix="binokel-wrk-") as folder:
        server = AppServer(Path(folder), {}, workers=2, worker_class="sync")
        try:
            with server.start(targets["page"]):
                out: dict = {}
                for name, path in targets.items():
                    # wrk cannot look at headers: the server is checked before and after
                    server.check(path)
                    dynamic = _wrk(f"{server.base}{path}")
                    static = _wrk(f"{server.base}/static/bench/{name}.html")
                    server.check(path)
                    out[name] = {"dynamic": dynamic, "static": static}
            out["server"] = {"summary": server.summary(), "problems": server.problems()}
            return out
        finally:
            shutil.rmtree(static_dir, ignore_errors=True)


def _wait_for(url: str) -> None:
    import urllib.request

    for _ in range(100):
        try:
            with urllib.request.urlopen(url, timeout=2) as response:
                if response.status == 200:
                    return
        except OSError:
            time.sleep(0.2)
    raise RuntimeError(f"gunicorn did not answer {url}")


def _wrk(url: str) -> dict:
    """wrk for 10 s with 50 connections (plus 2 s warm-up): requests/s, latency p50/p99
    in ms and the count of non-2xx responses and socket errors."""
    subprocess.run(["wrk", "-t2", "-c50", "-d2s", url], capture_output=True, check=True)
    text = subprocess.run(
        ["wrk", "-t2", "-c50", "-d10s", "--latency", url],
        capture_output=True,
        check=True,
        text=True,
    ).stdout
    rps = float(next(line for line in text.splitlines() if "Requests/sec" in line).split()[1])
    latency = {}
    for line in text.splitlines():
        parts = line.split()
        if len(parts) == 2 and parts[0] in ("50%", "99%"):
            latency[parts[0]] = _ms(parts[1])
    errors = 0
    for line in text.splitlines():
        if "Non-2xx" in line:
            errors += int(line.split()[-1])
        if "Socket errors" in line:
            errors += sum(int(p.strip(",")) for p in line.split()[3::2])
    return {
        "rps": rps,
        "p50_ms": latency.get("50%"),
        "p99_ms": latency.get("99%"),
        "errors": errors,
    }


def _ms(text: str) -> float:
    for unit, factor in (("us", 0.001), ("ms", 1.0), ("s", 1000.0)):
        if text.endswith(unit):
            return float(text[: -len(unit)]) * factor
    return float(text)


# ----------------------------------------------------------------------------- parent


def _database_url(kind: str, folder: Path, players: int) -> str:
    if kind == "sqlite":
        return f"sqlite:///{folder / f'bench-{players}.sqlite3'}"
    import psycopg

    with psycopg.connect(PG_ADMIN_URL, autocommit=True) as conn:
        conn.execute(f"DROP DATABASE IF EXISTS {PG_BENCH_DB} WITH (FORCE)")
        conn.execute(f"CREATE DATABASE {PG_BENCH_DB}")
    return f"postgres://postgres@127.0.0.1:5432/{PG_BENCH_DB}"


def _run_size(players: int, args, folder: Path) -> dict:
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "DJANGO_DEBUG": "0",
        "DJANGO_SECRET_KEY": "bench-only-not-secret",
        "DJANGO_SECURE_SSL_REDIRECT": "0",
        "DJANGO_ALLOWED_HOSTS": "127.0.0.1,localhost,testserver",
        "DATABASE_URL": _database_url(args.database, folder, players),
    }
    command = [sys.executable, "-m", "bench.app_bench", "--child", str(players)]
    command += ["--repeat", str(args.repeat)] + (["--no-wrk"] if args.no_wrk else [])
    done = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True)
    if done.returncode:
        sys.stderr.write(done.stderr)
        raise SystemExit(f"benchmark for {players} players failed")
    return json.loads(done.stdout.strip().splitlines()[-1])


def _fmt(summary: dict, digits: int = 1) -> str:
    return (
        f"{summary['median']:.{digits}f} [{summary['min']:.{digits}f}–{summary['max']:.{digits}f}]"
    )


def _table(results: list[dict], wrk: bool) -> list[tuple[str, list[str]]]:
    rows = [
        ("tables in round 1", [str(r["tables"]) for r in results]),
        ("generate tournament (s)", [f"{r['generate_s']:.1f}" for r in results]),
        ("save hand p50 (ms)", [f"{r['save_ms']['p50']:.1f}" for r in results]),
        ("save hand p95 (ms)", [f"{r['save_ms']['p95']:.1f}" for r in results]),
        ("standings cold (ms)", [_fmt(r["standings_cold_ms"]) for r in results]),
        ("standings cold (queries)", [str(r["standings_cold_queries"]) for r in results]),
        ("standings cached (ms)", [_fmt(r["standings_cached_ms"], 2) for r in results]),
        ("standings cached (queries)", [str(r["standings_cached_queries"]) for r in results]),
    ]
    if wrk:
        for name in ("page", "fragment"):
            rows += [
                (
                    f"{name}: req/s dynamic",
                    [f"{r['wrk'][name]['dynamic']['rps']:.0f}" for r in results],
                ),
                (
                    f"{name}: req/s same bytes static",
                    [f"{r['wrk'][name]['static']['rps']:.0f}" for r in results],
                ),
                (
                    f"{name}: dynamic / static",
                    [
                        f"{r['wrk'][name]['dynamic']['rps'] / r['wrk'][name]['static']['rps']:.0%}"
                        for r in results
                    ],
                ),
                (
                    f"{name}: latency p50/p99 (ms)",
                    [
                        f"{r['wrk'][name]['dynamic']['p50_ms']:.1f}/{r['wrk'][name]['dynamic']['p99_ms']:.1f}"
                        for r in results
                    ],
                ),
                (
                    f"{name}: errors (non-2xx, socket)",
                    [str(r["wrk"][name]["dynamic"]["errors"]) for r in results],
                ),
            ]
    rows += [
        ("score sheets PDF, round 1 (s)", [_fmt(r["sheets_pdf_s"], 2) for r in results]),
        (
            "  the same wholly by WeasyPrint (s)",
            [_fmt(r["sheets_weasyprint_pdf_s"], 2) for r in results],
        ),
        (
            "  stamped: times faster",
            [
                f"{r['sheets_weasyprint_pdf_s']['median'] / r['sheets_pdf_s']['median']:.1f}"
                for r in results
            ],
        ),
        ("  blank sheets, stamped (s)", [_fmt(r["blank_sheets_pdf_s"], 2) for r in results]),
        (
            "  peak memory MB: stamped / WeasyPrint",
            [f"{r['sheets_peak_mb']:.0f} / {r['sheets_weasyprint_peak_mb']:.0f}" for r in results],
        ),
        ("results list PDF (s)", [_fmt(r["results_pdf_s"], 2) for r in results]),
        ("results website, ZIP (s)", [_fmt(r["site_pdf_s"], 2) for r in results]),
    ]
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="60,180,600", help="player counts (default 60,180,600)")
    parser.add_argument("--repeat", type=int, default=5, help="repeats per figure (default 5)")
    parser.add_argument("--database", choices=["sqlite", "postgres"], default="sqlite")
    parser.add_argument("--no-wrk", action="store_true", help="skip the throughput runs")
    parser.add_argument("--child", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)

    if args.child:
        sys.path.insert(0, str(ROOT))
        print(json.dumps(_child(args.child, args.repeat, not args.no_wrk)))
        return 0

    wrk = not args.no_wrk and shutil.which("wrk") is not None
    if not args.no_wrk and not wrk:
        print("wrk not found (Debian package wrk): throughput runs skipped")
        args.no_wrk = True
    sizes = [int(s) for s in args.sizes.split(",")]
    with tempfile.TemporaryDirectory() as folder:
        results = [_run_size(n, args, Path(folder)) for n in sizes]
    header = ["players", *[str(n) for n in sizes]]
    rows = _table(results, wrk)
    width = max(len(label) for label, _ in rows) + 2
    cols = [max(len(h), *(len(v[i]) for _, v in rows)) + 2 for i, h in enumerate(header[1:])]
    print(
        f"{header[0]:<{width}}"
        + "".join(f"{h:>{c}}" for h, c in zip(header[1:], cols, strict=True))
    )
    for label, values in rows:
        print(f"{label:<{width}}" + "".join(f"{v:>{c}}" for v, c in zip(values, cols, strict=True)))
    print(
        f"database: {args.database}; medians over {args.repeat} runs [min–max]; PDFs over "
        f"{max(1, min(args.repeat, 3))}"
        + ("; wrk: 50 connections, 10 s, 2 gunicorn workers, loopback" if wrk else "")
    )
    print("\nengine (per hand, independent of N):")
    from bench import rules_bench

    rules_bench.main(["--hands", "1000", "--repeat", "3"])
    failed = False
    for n, r in zip(sizes, results, strict=True):
        if "wrk" in r:
            print(f"{n} players, {r['wrk']['server']['summary']}")
            for problem in r["wrk"]["server"]["problems"]:
                print(f"FAILURE ({n} players) {problem}", file=sys.stderr)
                failed = True
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
