"""Bounded load test on loopback for table entry: every table enters its own hands through
its private link while phones poll the public standings.

Run: ``python -m bench.table_entry_load [--tables 100] [--phones 300] [--duration 300]
[--interval 20] [--database sqlite|postgres] [--workers 2] [--threads 8] [--json PATH]``
(standard library only on the client side: one thread per table and per phone, urllib).

1. A fresh database (temporary SQLite file, or ``binokel_load`` on the local PostgreSQL,
   created and dropped here), production settings (``DJANGO_DEBUG=0``), a tournament of
   ``3 × tables`` players with table entry switched on ("ein Gegenspieler bestätigt"), round 1
   drawn and started, one live link per table.  Every hand is dealt and played out by the
   rules engine beforehand (:func:`bench.load_test.hand_form_data`).
2. gunicorn (gthread) on 127.0.0.1, as in :mod:`bench.load_test`.
3. Each **table** thread opens its link once (session and CSRF cookies), then every
   ``--interval`` seconds (start times spread over the first interval) posts its next hand
   to ``/t/<token>/`` with ``Accept: application/json`` — as the phone's script does — and
   counts only ``{"status": "saved"}`` as success (a 422 that only asks "Ja, wirklich" for
   a rare meld is answered as a player would: the hand is sent again with it ticked);
   every third hand an opponent's session of the same table taps "stimmt".  Each **phone** thread polls the standings fragment
   every 10 s with its ETag (200 and 304 are successes).
4. Afterwards the database is checked: the hands stored equal the "saved" answers, no game
   number twice at a table, each hand saved exactly once (one history record per version
   1 hand, plus confirmations).  Figures: requests, errors, p50/p95/p99 per kind.
   Exit code 1 on any error or mismatch.

Not a test: it prints figures (docs/performance.md records them).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from datetime import date
from http.cookies import SimpleCookie
from pathlib import Path

from bench.app_bench import _wait_for
from bench.load_test import (
    PG_LOAD_DB,
    TOURNAMENT_SEED,
    _database_url,
    _environment,
    _free_port,
    _postgres,
    _start_gunicorn,
    hand_form_data,
)

TIMEOUT = 30


def _prepare(tables: int, games: int) -> dict:
    from django.core.management import call_command

    from scoring import services
    from scoring import table_entry_services as links
    from scoring.management.commands.generate_tournament import register_random_players
    from tournament import services as tournament_services

    call_command("migrate", verbosity=0)
    call_command("collectstatic", interactive=False, verbosity=0)
    rng = random.Random(TOURNAMENT_SEED)
    tournament = tournament_services.create_tournament(
        name="Lasttest Tisch", date=date(2026, 11, 21), games_per_round=games
    )
    tournament.table_entry = "opponent"
    tournament.save(update_fields=["table_entry"])
    register_random_players(tournament, 3 * tables, rng)
    round_ = tournament.round_set.get(number=1)
    tournament_services.draw_round(round_, seed=TOURNAMENT_SEED)
    tournament_services.start_round(round_)
    config = {"tournament": tournament.pk, "tables": []}
    for table in round_.tables.order_by("number"):
        size = len(services.table_seats(table))
        config["tables"].append(
            {
                "token": links.live_link(table).token,
                "hands": [
                    hand_form_data(tournament, table, size, n, rng) for n in range(1, games + 1)
                ],
            }
        )
    return config


class Client:
    """One browser: its cookies (sent by hand: they are Secure, the hop is plain HTTP
    behind an assumed TLS proxy, as in :mod:`bench.load_test`)."""

    def __init__(self, base: str):
        self.base = base
        self.cookies: dict[str, str] = {}

    def request(self, path: str, data: dict | None = None, headers: dict | None = None):
        body = urllib.parse.urlencode(data).encode() if data is not None else None
        request = urllib.request.Request(self.base + path, data=body)
        request.add_header("X-Forwarded-Proto", "https")
        request.add_header("Origin", self.base.replace("http://", "https://"))
        if self.cookies:
            request.add_header("Cookie", "; ".join(f"{k}={v}" for k, v in self.cookies.items()))
        for key, value in (headers or {}).items():
            request.add_header(key, value)
        try:
            response = urllib.request.urlopen(request, timeout=TIMEOUT)
        except urllib.error.HTTPError as exc:
            response = exc
        with response:
            text = response.read().decode("utf-8", "replace")
            for header in response.headers.get_all("Set-Cookie") or []:
                cookie = SimpleCookie(header)
                for key, morsel in cookie.items():
                    self.cookies[key] = morsel.value
            return response.status, response.headers, text


class Stats:
    def __init__(self):
        self.lock = threading.Lock()
        self.times: dict[str, list[float]] = {}
        self.errors: dict[str, list[str]] = {}
        self.saved = 0
        self.confirmed = 0
        self.rare_asked = 0

    def record(self, kind: str, seconds: float, error: str | None = None) -> None:
        with self.lock:
            self.times.setdefault(kind, []).append(seconds)
            if error:
                self.errors.setdefault(kind, []).append(error)


def _timed(stats: Stats, kind: str, call, ok) -> tuple | None:
    started = time.perf_counter()
    try:
        result = call()
    except Exception as exc:  # noqa: BLE001 - a failed request is a figure, not a crash
        stats.record(kind, time.perf_counter() - started, repr(exc)[:200])
        return None
    error = ok(result)
    stats.record(kind, time.perf_counter() - started, error)
    return None if error else result


def table_loop(base, table, interval, stop_at, stats: Stats, delay: float) -> None:
    scorer, opponent = Client(base), Client(base)
    page = f"/t/{table['token']}/"
    time.sleep(delay)
    for client in (scorer, opponent):
        _timed(
            stats,
            "table page",
            lambda c=client: c.request(page),
            lambda r: None if r[0] == 200 else f"status {r[0]}",
        )
    for number, data in enumerate(table["hands"], start=1):
        if time.time() >= stop_at:
            return
        started = time.time()
        form = {**data, "csrfmiddlewaretoken": scorer.cookies.get("csrftoken", "")}
        result = _post_hand(stats, scorer, page, form, "hand POST")
        if result is not None and result[0] == 422:
            # a rare meld total: the phone asks "Ja, wirklich?" and the player ticks it
            # (the engine dealt that meld, so it is real) and sends the hand again
            result = _post_hand(
                stats, scorer, page, {**form, "confirm_rare": "on"}, "hand POST", again=True
            )
        if result is not None and result[0] == 200:
            with stats.lock:
                stats.saved += 1
            if number % 3 == 0:
                confirm = {
                    "spiel": number,
                    "version": 1,
                    "csrfmiddlewaretoken": opponent.cookies.get("csrftoken", ""),
                }
                done = _timed(
                    stats,
                    "stimmt POST",
                    lambda c=confirm: opponent.request(f"{page}stimmt/", c),
                    lambda r: None if r[0] in (200, 302) else f"status {r[0]}",  # 302 → page
                )
                if done is not None:
                    with stats.lock:
                        stats.confirmed += 1
        time.sleep(max(0.0, interval - (time.time() - started)))


def _asks_rare_meld(answer: tuple) -> bool:
    """Whether ``answer`` is the 422 that only asks for "Ja, wirklich" on a rare meld."""
    if answer[0] != 422:
        return False
    try:
        errors = json.loads(answer[2]).get("errors", {})
    except ValueError:
        return False
    return set(errors) == {"confirm_rare"}


def _post_hand(
    stats: Stats, client: Client, page: str, form: dict, kind: str, again: bool = False
) -> tuple | None:
    """POST one hand as the phone's script does; the answer when saved or when it asks for
    the rare-meld confirmation (not an error the first time; ``again=True``, the send with
    it ticked, counts any 422 as an error), else None."""
    answer = _timed(
        stats,
        kind,
        lambda: client.request(
            page,
            form,
            {"Accept": "application/json", "X-CSRFToken": client.cookies.get("csrftoken", "")},
        ),
        lambda r: (
            None
            if (r[0] == 200 and json.loads(r[2]).get("status") == "saved")
            or (not again and _asks_rare_meld(r))
            else f"status {r[0]} {r[2][:200]}"
        ),
    )
    if answer is not None and answer[0] == 422:
        with stats.lock:
            stats.rare_asked += 1
    return answer


def phone_loop(base, tournament_id, stop_at, stats: Stats, delay: float) -> None:
    client = Client(base)
    path = f"/turnier/{tournament_id}/rangliste/"
    etag = ""
    time.sleep(delay)
    while time.time() < stop_at:
        started = time.time()
        result = _timed(
            stats,
            "standings poll",
            lambda etag=etag: client.request(path, headers={"If-None-Match": etag} if etag else {}),
            lambda r: None if r[0] in (200, 304) else f"status {r[0]}",
        )
        if result is not None and result[1].get("ETag"):
            etag = result[1]["ETag"]
        time.sleep(max(0.0, 10 - (time.time() - started)))


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000 if ordered else 0.0


def _check(tournament_id: int, stats: Stats) -> list[str]:
    from scoring.models import Hand

    hands = Hand.objects.filter(table__round__tournament_id=tournament_id)
    problems = []
    if hands.count() != stats.saved:
        problems.append(f"{hands.count()} hands stored, {stats.saved} saved answers")
    if hands.values("table", "number").distinct().count() != hands.count():
        problems.append("a game number stored twice at a table")
    records = Hand.history.model.objects.filter(table__round__tournament_id=tournament_id)
    resaved = records.filter(history_type="~", confirmed_at__isnull=True).count()
    if records.filter(history_type="+").count() != hands.count() or resaved:
        problems.append(f"hands saved more than once ({resaved} second saves)")
    confirmed = hands.filter(confirmed_at__isnull=False).count()
    if confirmed != stats.confirmed:
        problems.append(f"{confirmed} hands confirmed, {stats.confirmed} stimmt answers")
    return problems


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=100)
    parser.add_argument("--phones", type=int, default=300)
    parser.add_argument("--duration", type=int, default=300, help="seconds (default 300)")
    parser.add_argument("--interval", type=float, default=20.0, help="s between a table's hands")
    parser.add_argument("--database", choices=["sqlite", "postgres"], default="sqlite")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--threads", type=int, default=8)
    parser.add_argument("--json", type=Path)
    args = parser.parse_args(argv)
    games = 3 * (int(args.duration / args.interval) // 3 + 2)
    with tempfile.TemporaryDirectory(prefix="binokel-table-load-") as tmp:
        folder = Path(tmp)
        env = _environment(_database_url(args.database, folder))
        os.environ.update(env)
        import django

        django.setup()
        from django.db import connections

        try:
            config = _prepare(args.tables, games)
            connections.close_all()
            port = _free_port()
            log = folder / "gunicorn.log"
            server = _start_gunicorn(port, args.workers, args.threads, log)
            base = f"http://127.0.0.1:{port}"
            try:
                _wait_for(f"{base}/turnier/{config['tournament']}/")
                stats = Stats()
                stop_at = time.time() + args.duration
                threads = [
                    threading.Thread(
                        target=table_loop,
                        args=(
                            base,
                            t,
                            args.interval,
                            stop_at,
                            stats,
                            i * args.interval / args.tables,
                        ),
                        daemon=True,
                    )
                    for i, t in enumerate(config["tables"][: args.tables])
                ] + [
                    threading.Thread(
                        target=phone_loop,
                        args=(
                            base,
                            config["tournament"],
                            stop_at,
                            stats,
                            i * 10 / max(1, args.phones),
                        ),
                        daemon=True,
                    )
                    for i in range(args.phones)
                ]
                started = time.perf_counter()
                for thread in threads:
                    thread.start()
                for thread in threads:
                    thread.join(timeout=args.duration + 2 * TIMEOUT + 30)
                wall = time.perf_counter() - started
                busy = sum(thread.is_alive() for thread in threads)
            finally:
                server.terminate()
                try:
                    server.wait(timeout=30)
                except subprocess.TimeoutExpired:  # requests still queued: stop it hard
                    server.kill()
                    server.wait(timeout=30)
            problems = _check(config["tournament"], stats)
            if busy:
                problems.append(f"{busy} clients still waiting for an answer at the end")
            figures = {
                kind: {
                    "requests": len(times),
                    "errors": len(stats.errors.get(kind, [])),
                    "p50_ms": round(_percentile(times, 0.50), 1),
                    "p95_ms": round(_percentile(times, 0.95), 1),
                    "p99_ms": round(_percentile(times, 0.99), 1),
                }
                for kind, times in sorted(stats.times.items())
            }
            print(
                f"table entry load: {args.database}, {args.tables} tables (a hand every "
                f"{args.interval:.0f} s) + {args.phones} phones polling every 10 s, {wall:.0f} s, "
                f"gunicorn {args.workers}×{args.threads} gthread, loopback"
            )
            for kind, f in figures.items():
                print(
                    f"  {kind:15} {f['requests']:6} requests {f['errors']:4} errors  "
                    f"p50 {f['p50_ms']:7.1f} ms  p95 {f['p95_ms']:7.1f} ms  p99 {f['p99_ms']:7.1f} ms"
                )
            print(
                f"  hands saved {stats.saved}, confirmed {stats.confirmed}, rare meld asked "
                f"and sent again {stats.rare_asked}; database check: "
                f"{'; '.join(problems) or 'ok (none lost, none twice)'}"
            )
            for kind, errors in stats.errors.items():
                print(f"  first {kind} errors: {errors[:3]}", file=sys.stderr)
            if args.json:
                args.json.write_text(
                    json.dumps(
                        {
                            "args": vars(args) | {"json": None},
                            "figures": figures,
                            "saved": stats.saved,
                            "rare_asked": stats.rare_asked,
                            "problems": problems,
                        },
                        indent=2,
                    )
                )
            failed = problems or any(f["errors"] for f in figures.values())
            if "Traceback" in log.read_text():
                sys.stderr.write(log.read_text()[-4000:])
                failed = True
            return 1 if failed else 0
        finally:
            connections.close_all()
            if args.database == "postgres":
                _postgres(f"DROP DATABASE IF EXISTS {PG_LOAD_DB} WITH (FORCE)")


if __name__ == "__main__":
    sys.exit(main())
