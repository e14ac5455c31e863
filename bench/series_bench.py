"""Benchmark of a series' standings: 10 evenings × 600 players, cold.

Run: ``python -m bench.series_bench [--evenings 10] [--players 600] [--repeat 5]
[--database-url URL]``.  A child process gets a fresh database (a temporary SQLite file
unless ``--database-url`` names another) and production settings (``DJANGO_DEBUG=0``),
then writes the results of ``evenings`` finished tournaments straight into the tables
(3 rounds × 12 games, tables of 3, three seat scores per hand, about 500 of the 600
players the same people each evening) with ``bulk_create`` — the hands are not played
out by the engine here, as the series only reads the seat scores — and measures:

- the series standings selector (:func:`series.selectors.series_standings`) alone, ms;
- the public series page ``/serie/1/`` through Django's test client, ms and SQL queries
  (the page is not cached: every request computes the standings and renders them; the
  very first request of the process, which also loads the templates, is shown apart);
- the series CSV file, ms.

With SQLite the database work runs in the same process, so the page's CPU time (also
printed) is the figure to compare on a machine busy with other work.

Figures are medians with the spread (min–max) in brackets over ``--repeat`` runs.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import date, timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _fill(evenings: int, players: int) -> int:
    """Write the finished evenings and the series; returns the number of seat scores."""
    from scoring.models import Hand, SeatScore
    from series.services import save_series
    from tournament.models import Player, Registration, Round, Table, Tournament
    from tournament.services import create_tournament

    rng = random.Random(600)
    pool = Player.objects.bulk_create(
        Player(first_name=f"Vorname{i}", last_name=f"Nachname{i}", club=f"Verein {i % 40}")
        for i in range(players + players // 4)
    )
    regulars = pool[: players * 5 // 6]
    tournaments, scores = [], 0
    for n in range(evenings):
        t = create_tournament(name=f"Abend {n + 1}", date=date(2026, 1, 3) + timedelta(weeks=n))
        tournaments.append(t)
        guests = rng.sample(pool[len(regulars) :], players - len(regulars))
        regs = Registration.objects.bulk_create(
            Registration(tournament=t, player=p, start_number=i, consent_public=rng.random() < 0.9)
            for i, p in enumerate(regulars + guests, start=1)
        )
        for round_ in t.round_set.all():
            order = regs[:]
            rng.shuffle(order)
            tables = Table.objects.bulk_create(
                Table(round=round_, number=k + 1) for k in range(players // 3)
            )
            hands, seats = [], []
            for k, table in enumerate(tables):
                at_table = order[3 * k : 3 * k + 3]
                for g in range(1, 13):
                    points = [rng.randrange(-60, 80) * 10 for _ in range(3)]
                    hands.append(
                        Hand(
                            table=table,
                            number=g,
                            dealer=g % 3,
                            declarer=(g + 1) % 3,
                            bid=150,
                            outcome="played",
                            melds=[0, 0, 0],
                            tricks=[100, 100, 50],
                            scores=points,
                            declarer_won=points[(g + 1) % 3] > 0,
                        )
                    )
                    seats.append((at_table, points, (g + 1) % 3))
            hands = Hand.objects.bulk_create(hands, batch_size=2000)
            SeatScore.objects.bulk_create(
                (
                    SeatScore(
                        hand=hand,
                        tournament=t,
                        round_number=round_.number,
                        registration=reg,
                        points=points[pos],
                        declarer=pos == declarer,
                        declarer_won=pos == declarer and points[pos] > 0,
                    )
                    for hand, (at_table, points, declarer) in zip(hands, seats, strict=True)
                    for pos, reg in enumerate(at_table)
                ),
                batch_size=5000,
            )
            scores += 3 * len(hands)
        Round.objects.filter(tournament=t).update(status=Round.Status.CLOSED)
    save_series(
        name="Jahreswertung",
        season="2026",
        tournaments=tournaments,
        counting="points",
        best_of=max(1, evenings - 2),
        min_evenings=max(1, evenings // 2),
    )
    assert Tournament.objects.count() == evenings
    return scores


def _child(evenings: int, players: int, repeat: int) -> dict:
    import django

    django.setup()
    from django.core.management import call_command
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    from series.selectors import series_standings
    from tournament.models import Series

    call_command("migrate", verbosity=0)
    call_command("collectstatic", interactive=False, verbosity=0)  # manifest for DEBUG=0
    from scoring.models import SeatScore

    start = time.perf_counter()
    if not Series.objects.exists():  # a --database-url kept from an earlier run is reused
        _fill(evenings, players)
    result: dict = {
        "fill_s": time.perf_counter() - start,
        "seat_scores": SeatScore.objects.count(),
    }
    series = Series.objects.get()
    client = Client()
    timings: dict[str, list[float]] = {"selector": [], "page": [], "page_cpu": [], "csv": []}
    queries = []
    rows = 0
    # the first request of a fresh process also imports and compiles templates
    start = time.perf_counter()
    assert client.get(f"/serie/{series.pk}/").status_code == 200
    result["first_request_ms"] = (time.perf_counter() - start) * 1000
    for _ in range(repeat):
        start = time.perf_counter()
        rows = len(series_standings(Series.objects.get(pk=series.pk)).rows)
        timings["selector"].append((time.perf_counter() - start) * 1000)
        with CaptureQueriesContext(connection) as ctx:
            start, cpu = time.perf_counter(), time.process_time()
            response = client.get(f"/serie/{series.pk}/")
            timings["page"].append((time.perf_counter() - start) * 1000)
            timings["page_cpu"].append((time.process_time() - cpu) * 1000)
        assert response.status_code == 200, response.status_code
        queries.append(len(ctx.captured_queries))
        start = time.perf_counter()
        assert client.get(f"/serie/{series.pk}/export.csv").status_code == 200
        timings["csv"].append((time.perf_counter() - start) * 1000)
    result["rows"] = rows
    result["queries"] = max(queries)
    for name, values in timings.items():
        result[name] = {
            "median": statistics.median(values),
            "min": min(values),
            "max": max(values),
        }
    return result


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--evenings", type=int, default=10)
    parser.add_argument("--players", type=int, default=600)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--database-url", help="default: a temporary SQLite file")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        sys.path.insert(0, str(ROOT))
        print(json.dumps(_child(args.evenings, args.players, args.repeat)))
        return
    with tempfile.TemporaryDirectory() as folder:
        env = {
            **os.environ,
            "DJANGO_SETTINGS_MODULE": "config.settings",
            "DJANGO_DEBUG": "0",
            "DJANGO_SECRET_KEY": "bench-only-not-secret",
            "DJANGO_SECURE_SSL_REDIRECT": "0",
            "DJANGO_ALLOWED_HOSTS": "127.0.0.1,localhost,testserver",
            "DATABASE_URL": args.database_url or f"sqlite:///{folder}/series-bench.sqlite3",
        }
        command = [sys.executable, "-m", "bench.series_bench", "--child"]
        command += ["--evenings", str(args.evenings), "--players", str(args.players)]
        command += ["--repeat", str(args.repeat)]
        done = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True)
    if done.returncode:
        sys.stderr.write(done.stderr)
        raise SystemExit("series benchmark failed")
    r = json.loads(done.stdout.strip().splitlines()[-1])

    def fmt(s: dict) -> str:
        return f"{s['median']:.1f} [{s['min']:.1f}–{s['max']:.1f}]"

    print(
        f"series: {args.evenings} evenings × {args.players} players, {r['seat_scores']} seat scores"
    )
    print(f"{'rows (players listed)':<34}{r['rows']:>22}")
    print(f"{'write the data (s, bulk)':<34}{r['fill_s']:>22.1f}")
    print(f"{'selector series_standings (ms)':<34}{fmt(r['selector']):>22}")
    print(f"{'page /serie/1/, first request (ms)':<34}{r['first_request_ms']:>22.1f}")
    print(f"{'page /serie/1/ cold (ms)':<34}{fmt(r['page']):>22}")
    print(f"{'page /serie/1/ cold, CPU (ms)':<34}{fmt(r['page_cpu']):>22}")
    print(f"{'page /serie/1/ (queries)':<34}{r['queries']:>22}")
    print(f"{'CSV export (ms)':<34}{fmt(r['csv']):>22}")


if __name__ == "__main__":
    main()
