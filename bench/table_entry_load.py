"""Bounded load test on loopback for table entry: every table enters its own hands through
its private link while phones poll the public standings.

Run: ``python -m bench.table_entry_load [--tables 100] [--phones 300] [--duration 300]
[--interval 20] [--database sqlite|postgres] [--workers 2] [--threads 8] [--json PATH]
[--close-rounds N] [--backup-seconds S]``
(standard library only on the client side: one thread per table and per phone, urllib).

1. A fresh database (temporary SQLite file, or ``binokel_load`` on the local PostgreSQL,
   created and dropped here), production settings (``DJANGO_DEBUG=0``), a tournament of
   ``3 × tables`` players with table entry switched on ("ein Gegenspieler bestätigt"), round 1
   drawn and started, one live link per table.  Every hand is dealt and played out by the
   rules engine beforehand (:func:`bench.load_test.hand_form_data`).
2. gunicorn (gthread) on 127.0.0.1 (:class:`bench.server.AppServer`: a port nothing else
   listens on; every answer must carry this run's ``X-Binokel-Instance``, else it is an
   error; the app's errors are read from its log file afterwards).
3. Each **table** thread opens its link once (session and CSRF cookies), then every
   ``--interval`` seconds (start times spread over the first interval) posts its next hand
   to ``/t/<token>/`` with ``Accept: application/json`` — as the phone's script does — and
   counts only ``{"status": "saved"}`` as success (a 422 that only asks "Ja, wirklich" for
   a rare meld is answered as a player would: the hand is sent again with it ticked);
   every third hand an opponent's session of the same table taps "stimmt" (with the
   confirmation ``code`` when :mod:`scoring.links` has
   ``confirmation_code``).  Each **phone** thread polls the standings fragment every 10 s
   with its ETag (200 and 304 are successes).
4. Afterwards the database is checked: the hands stored equal the "saved" answers, no game
   number twice at a table, each hand saved exactly once (one history record per version
   1 hand, plus confirmations).  Figures: requests, errors, p50/p95/p99 per kind.
   Exit code 1 on any error or mismatch, and on any error in the server's log.

**Soak** (SQLite, venue mode: ``BINOKEL_BACKUP_DIR`` is set for the server):

- ``--close-rounds N`` plays N rounds of ``duration / N`` seconds each: a round has as many
  games as a table enters in that time; when every table has entered them, the director
  (logged in through the app) closes the round through the app — the server backs up the
  database at the close, in its own process — then draws and starts the next one, whose
  tables get their new links.  The phones poll throughout.
- ``--backup-seconds S`` runs a separate process that makes an automatic backup every S
  seconds (:func:`archive.backup.automatic_backup`, as the venue command's timer does),
  stopped at the end.
- At the end, while the server still runs, the database's ``-wal`` file must still be
  there (no other process's exit removed it); after the server stopped,
  ``PRAGMA integrity_check`` must say ``ok`` with the journal still in WAL mode, and every
  backup must pass its integrity check.  Exit code 1 when a check fails.

Not a test: it prints figures (docs/performance.md records them).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import signal
import sqlite3
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

from bench.load_test import (
    PG_LOAD_DB,
    ROOT,
    TOURNAMENT_SEED,
    _database_url,
    _environment,
    _postgres,
    hand_form_data,
)
from bench.server import AppServer, ServerProblem

TIMEOUT = 30
DIRECTOR = "turnierleitung"
PASSWORD = "Last-Test-Leitung-2026"  # noqa: S105 - a throwaway account in a throwaway database
BACKUP_FOLDER = "sicherungen"


def _prepare(tables: int, games: int, rounds: int = 3, director: bool = False) -> dict:
    from django.core.management import call_command

    from operations.management.commands.generate_tournament import register_random_players
    from tournament import services as tournament_services

    call_command("migrate", verbosity=0)
    call_command("collectstatic", interactive=False, verbosity=0)
    rng = random.Random(TOURNAMENT_SEED)
    tournament = tournament_services.create_tournament(
        name="Lasttest Tisch", date=date(2026, 11, 21), games_per_round=games, rounds=rounds
    )
    tournament.table_entry = "opponent"
    tournament.save(update_fields=["table_entry"])
    register_random_players(tournament, 3 * tables, rng)
    round_ = tournament.round_set.get(number=1)
    tournament_services.draw_round(round_, seed=TOURNAMENT_SEED)
    tournament_services.start_round(round_)
    if director:
        from django.contrib.auth import get_user_model
        from django.contrib.auth.models import Group

        from tournament.roles import DIRECTOR_GROUP

        user = get_user_model().objects.create_user(DIRECTOR, password=PASSWORD)
        user.groups.add(Group.objects.get(name=DIRECTOR_GROUP))
    return {"tournament": tournament.pk, "tables": _round_tables(round_, games, rng), "rng": rng}


def _round_tables(round_, games: int, rng: random.Random) -> list[dict]:
    """Per table of the running ``round_``: its live link and the hands it will enter."""
    from scoring import links, services

    tables = []
    for table in round_.tables.order_by("number"):
        size = len(services.table_seats(table))
        link = links.live_link(table)
        tables.append(
            {
                "token": link.token,
                "link": link,
                "hands": [
                    hand_form_data(round_.tournament, table, size, n, rng)
                    for n in range(1, games + 1)
                ],
            }
        )
    return tables


class _KeepRedirects(urllib.request.HTTPRedirectHandler):
    """A redirect is the answer (a login's 302 sets the session cookie)."""

    def redirect_request(self, *args, **kwargs):
        return None


_NO_REDIRECTS = urllib.request.build_opener(_KeepRedirects)


class Client:
    """One browser: its cookies (sent by hand: they are Secure, the hop is plain HTTP
    behind an assumed TLS proxy, as in :mod:`bench.load_test`).  Every answer must come
    from ``server`` (its run's marker), else the request fails with :class:`ServerProblem`."""

    def __init__(self, server: AppServer):
        self.server = server
        self.base = server.base
        self.cookies: dict[str, str] = {}

    def request(
        self,
        path: str,
        data: dict | None = None,
        headers: dict | None = None,
        follow: bool = True,
    ):
        body = urllib.parse.urlencode(data).encode() if data is not None else None
        request = urllib.request.Request(self.base + path, data=body)
        request.add_header("X-Forwarded-Proto", "https")
        request.add_header("Origin", self.base.replace("http://", "https://"))
        if self.cookies:
            request.add_header("Cookie", "; ".join(f"{k}={v}" for k, v in self.cookies.items()))
        for key, value in (headers or {}).items():
            request.add_header(key, value)
        try:
            open_ = urllib.request.urlopen if follow else _NO_REDIRECTS.open
            response = open_(request, timeout=TIMEOUT)
        except urllib.error.HTTPError as exc:
            response = exc
        with response:
            text = response.read().decode("utf-8", "replace")
            self.server.require_ours(response.headers, path)
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


def _confirmation_code(link) -> str | None:
    """The code an opponent's "stimmt" carries, once the app asks for one."""
    from scoring import links

    code = getattr(links, "confirmation_code", None)
    return None if code is None else str(code(link))


def table_loop(server, table, interval, stop_at, stats: Stats, delay: float) -> None:
    try:
        _enter_hands(server, table, interval, stop_at, stats, delay)
    finally:
        from django.db import connection

        connection.close()  # this thread's, if the confirmation code read the database


def _enter_hands(server, table, interval, stop_at, stats: Stats, delay: float) -> None:
    scorer, opponent = Client(server), Client(server)
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
                code = _confirmation_code(table["link"]) if "link" in table else None
                if code is not None:
                    confirm["code"] = code
                done = _timed(
                    stats,
                    "stimmt POST",
                    lambda c=confirm: opponent.request(f"{page}stimmt/", c),
                    lambda r: None if r[0] in (200, 302) else f"status {r[0]}",  # 302 → page
                )
                if done is not None:
                    with stats.lock:
                        stats.confirmed += 1
        if number < len(table["hands"]):
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


def phone_loop(server, tournament_id, stop_at, stats: Stats, delay: float, done=None) -> None:
    """Poll the standings fragment every 10 s until ``stop_at`` (or ``done`` is set)."""
    done = done or threading.Event()
    client = Client(server)
    path = f"/turnier/{tournament_id}/rangliste/"
    etag = ""
    if done.wait(delay):
        return
    while time.time() < stop_at and not done.is_set():
        started = time.time()
        result = _timed(
            stats,
            "standings poll",
            lambda etag=etag: client.request(path, headers={"If-None-Match": etag} if etag else {}),
            lambda r: None if r[0] in (200, 304) else f"status {r[0]}",
        )
        if result is not None and result[1].get("ETag"):
            etag = result[1]["ETag"]
        done.wait(max(0.0, 10 - (time.time() - started)))


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


# ------------------------------------------------------------------------------ soak


class Soak:
    """The soak's director, backup process and checks (``--close-rounds``,
    ``--backup-seconds``); ``notes`` are printed, ``problems`` fail the run."""

    def __init__(self, server: AppServer, config: dict, args, folder: Path, env: dict):
        self.server, self.config, self.args = server, config, args
        self.database = folder / "load.sqlite3"
        self.backups = folder / BACKUP_FOLDER
        self.env = env
        self.director = Client(server)
        self.notes: list[str] = []
        self.problems: list[str] = []
        self.closed = 0
        self.backup_process: subprocess.Popen | None = None

    def start(self) -> None:
        if self.args.close_rounds:
            self._login()
        if self.args.backup_seconds:
            command = [sys.executable, "-m", "bench.table_entry_load"]
            command += ["--backup-child", str(self.args.backup_seconds)]
            self.backup_process = subprocess.Popen(
                command,
                cwd=ROOT,
                env={**os.environ, **self.env},
                stdout=subprocess.PIPE,
                text=True,
            )

    def _login(self) -> None:
        login = "/accounts/login/"
        self.director.request(login)
        status, _headers, _text = self.director.request(
            login,
            {
                "username": DIRECTOR,
                "password": PASSWORD,
                "csrfmiddlewaretoken": self.director.cookies.get("csrftoken", ""),
                "next": "/",
            },
            follow=False,
        )
        if status != 302 or "sessionid" not in self.director.cookies:
            raise ServerProblem(f"the director's login failed (status {status})")

    def _round_action(self, number: int, action: str, **extra: str) -> None:
        path = f"/turnier/{self.config['tournament']}/runde/{number}/{action}/"
        data = {
            "bestaetigt": "1",
            "csrfmiddlewaretoken": self.director.cookies.get("csrftoken", ""),
            **extra,
        }
        status, _headers, text = self.director.request(path, data, follow=False)
        if status != 302:
            self.problems.append(f"round {number} {action}: status {status} {text[:200]}")

    def close_round(self, number: int) -> None:
        """Close round ``number`` through the app (a missing hand — a failed post — is
        given a reason, so the soak goes on), then see the server's backup of it."""
        from django.db import connections

        from tournament.models import Round

        self._round_action(number, "abschliessen", grund="Lasttest: Eingabe fehlgeschlagen")
        round_ = Round.objects.get(tournament_id=self.config["tournament"], number=number)
        connections.close_all()
        if round_.status != Round.Status.CLOSED:
            self.problems.append(f"round {number} is not closed ({round_.status})")
            return
        self.closed += 1
        # closing with hands still unconfirmed (the soak confirms every third) is expected;
        # a missing hand is a failed post
        if any(not item.get("unconfirmed") for item in round_.forced_close_missing):
            self.problems.append(f"round {number} closed with games missing")
        made = sorted(self.backups.glob(f"*-runde-{number}.sqlite3"))
        if made:
            self.notes.append(
                f"round {number} closed through the app; server's backup {made[-1].name}"
            )
        else:
            self.problems.append(f"no backup of round {number} after its close")
        self.check_wal(f"after closing round {number}")

    def next_round(self, number: int, games: int) -> list[dict]:
        """Draw and start round ``number`` through the app; its tables' links and hands."""
        from django.db import connections

        from tournament.models import Round

        self._round_action(number, "auslosen", seed=str(TOURNAMENT_SEED + number))
        self._round_action(number, "starten")
        round_ = Round.objects.select_related("tournament").get(
            tournament_id=self.config["tournament"], number=number
        )
        if round_.status != Round.Status.RUNNING:
            self.problems.append(f"round {number} did not start ({round_.status})")
        tables = _round_tables(round_, games, self.config["rng"])
        connections.close_all()
        return tables

    def check_wal(self, when: str) -> None:
        """The server runs: its database must still have its ``-wal`` beside it."""
        wal = Path(f"{self.database}-wal")
        if wal.exists():
            self.notes.append(f"-wal present {when} ({wal.stat().st_size} bytes)")
        else:
            self.problems.append(f"-wal missing {when} while the server runs")

    def stop_backups(self) -> None:
        """End the backup process (it finishes a backup under way) and read its figures;
        then the ``-wal`` must still be there."""
        if self.backup_process is None:
            return
        self.backup_process.send_signal(signal.SIGTERM)
        out, _err = self.backup_process.communicate(timeout=120)
        try:
            result = json.loads(out.strip().splitlines()[-1])
        except (ValueError, IndexError):
            self.problems.append(f"the backup process ended without figures ({out[-300:]!r})")
            return
        self.notes.append(
            f"backup process: {result['made']} timer backups every {self.args.backup_seconds:g} s "
            f"(longest {result['max_s']:.2f} s), {len(result['failed'])} failed"
        )
        self.problems += [f"timer backup failed: {error}" for error in result["failed"]]
        if self.backup_process.returncode:
            self.problems.append(f"backup process exit status {self.backup_process.returncode}")
        self.check_wal("after the backup process ended")

    def check_files(self) -> None:
        """After the server stopped: the database and every backup pass integrity_check."""
        from archive import backup

        if self.args.close_rounds and self.closed != self.args.close_rounds:
            self.problems.append(f"{self.closed} of {self.args.close_rounds} rounds closed")
        conn = sqlite3.connect(self.database)
        try:
            integrity = [row[0] for row in conn.execute("PRAGMA integrity_check")]
            journal = conn.execute("PRAGMA journal_mode").fetchone()[0]
        finally:
            conn.close()
        self.notes.append(
            f"database: integrity_check {'; '.join(integrity[:3])}, journal {journal}"
        )
        if integrity != ["ok"]:
            self.problems.append(f"integrity_check of the database: {integrity[:5]}")
        if journal != "wal":
            self.problems.append(f"the database's journal is {journal}, not wal")
        kept = backup.automatic_backups(self.backups) if self.backups.exists() else []
        bad = []
        for path in kept:
            try:
                backup.inspect_database(path)
            except backup.BackupError as exc:
                bad.append(f"{path.name}: {exc}")
        self.notes.append(f"{len(kept)} automatic backups kept, {len(bad)} fail integrity_check")
        self.problems += bad


def _backup_loop(seconds: float) -> int:
    """``--backup-child S``: an automatic backup every S seconds into
    ``BINOKEL_BACKUP_DIR``, as the venue command's timer makes them, until SIGTERM (a
    backup under way is finished first); prints one JSON line."""
    import django

    django.setup()
    from django.conf import settings

    from archive import backup

    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    made, failed, longest = 0, [], 0.0
    while not stop.wait(seconds):
        started = time.perf_counter()
        try:
            backup.automatic_backup(settings.BACKUP_DIR, "timer")
            made += 1
        except (backup.BackupError, OSError) as exc:
            failed.append(str(exc))
        longest = max(longest, time.perf_counter() - started)
    print(json.dumps({"made": made, "failed": failed, "max_s": longest}), flush=True)
    return 1 if failed else 0


# ------------------------------------------------------------------------------ main


def _play(server: AppServer, config: dict, args, games: int, soak: Soak | None) -> tuple:
    """Run the tables (round by round with ``--close-rounds``) and the phones; returns
    (stats, wall seconds, threads still waiting at the end)."""
    stats = Stats()
    rounds = max(1, args.close_rounds)
    round_seconds = args.duration / rounds
    # without --close-rounds the phones stop with the tables; with it after the last close
    phones_done = threading.Event()
    phones_stop = time.time() + (args.duration if not args.close_rounds else 10 * args.duration)
    phones = [
        threading.Thread(
            target=phone_loop,
            args=(server, config["tournament"], phones_stop, stats, i * 10 / max(1, args.phones)),
            kwargs={"done": phones_done},
            daemon=True,
        )
        for i in range(args.phones)
    ]
    started = time.perf_counter()
    busy = 0
    tables = config["tables"]
    for thread in phones:
        thread.start()
    try:
        for number in range(1, rounds + 1):
            if number > 1:
                tables = soak.next_round(number, games)
            # with --close-rounds a round lasts until its hands are in (at most 3 × its time)
            stop_at = time.time() + (round_seconds if not args.close_rounds else 3 * round_seconds)
            threads = [
                threading.Thread(
                    target=table_loop,
                    args=(
                        server,
                        t,
                        args.interval,
                        stop_at,
                        stats,
                        i * args.interval / args.tables,
                    ),
                    daemon=True,
                )
                for i, t in enumerate(tables[: args.tables])
            ]
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join(timeout=max(0.0, stop_at - time.time()) + 2 * TIMEOUT + 30)
            busy += sum(thread.is_alive() for thread in threads)
            if args.close_rounds:
                soak.close_round(number)
    finally:
        if args.close_rounds:
            phones_done.set()
        for thread in phones:
            thread.join(timeout=max(0.0, phones_stop - time.time()) + 2 * TIMEOUT + 30)
    busy += sum(thread.is_alive() for thread in phones)
    return stats, time.perf_counter() - started, busy


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
    parser.add_argument(
        "--close-rounds",
        type=int,
        default=0,
        metavar="N",
        help="soak: play N rounds, each closed through the app (a backup in the server)",
    )
    parser.add_argument(
        "--backup-seconds",
        type=float,
        default=0,
        metavar="S",
        help="soak: a separate process makes an automatic backup every S seconds",
    )
    parser.add_argument("--backup-child", type=float, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.backup_child:
        return _backup_loop(args.backup_child)
    soaking = bool(args.close_rounds or args.backup_seconds)
    if soaking and args.database != "sqlite":
        parser.error("--close-rounds and --backup-seconds test SQLite: use --database sqlite")
    if args.close_rounds:
        # as many games as a table enters in its round's share of the time (a multiple of
        # 3, so that everyone deals equally often)
        games = 3 * max(1, int(args.duration / args.close_rounds / args.interval) // 3)
    else:
        games = 3 * (int(args.duration / args.interval) // 3 + 2)
    with tempfile.TemporaryDirectory(prefix="binokel-table-load-") as tmp:
        folder = Path(tmp)
        env = _environment(_database_url(args.database, folder))
        if soaking:
            env["BINOKEL_BACKUP_DIR"] = str(folder / BACKUP_FOLDER)  # as in venue mode
        os.environ.update(env)
        import django

        django.setup()
        from django.db import connections

        try:
            config = _prepare(
                args.tables, games, max(3, args.close_rounds), director=bool(args.close_rounds)
            )
            connections.close_all()
            server = AppServer(folder, env, workers=args.workers, threads=args.threads)
            soak = Soak(server, config, args, folder, env) if soaking else None
            with server.start(f"/turnier/{config['tournament']}/"):
                if soak:
                    soak.start()
                try:
                    stats, wall, busy = _play(server, config, args, games, soak)
                finally:
                    if soak:
                        soak.stop_backups()
            if soak:
                soak.check_files()
            return _report(args, config, stats, wall, busy, server, soak, games)
        finally:
            connections.close_all()
            if args.database == "postgres":
                _postgres(f"DROP DATABASE IF EXISTS {PG_LOAD_DB} WITH (FORCE)")


def _report(args, config, stats, wall, busy, server, soak, games) -> int:
    """Check the database, print the figures; the exit status."""
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
    plural = "s" if args.close_rounds != 1 else ""
    rounds = f", {args.close_rounds} round{plural} of {games} games" if args.close_rounds else ""
    print(
        f"table entry load: {args.database}, {args.tables} tables (a hand every "
        f"{args.interval:.0f} s{rounds}) + {args.phones} phones polling every 10 s, "
        f"{wall:.0f} s, gunicorn {args.workers}×{args.threads} gthread, loopback"
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
    print(f"  {server.summary()}")
    server_problems = server.problems()
    soak_problems = soak.problems if soak else []
    for note in soak.notes if soak else []:
        print(f"  soak: {note}")
    for kind, errors in stats.errors.items():
        print(f"  first {kind} errors: {errors[:3]}", file=sys.stderr)
    for problem in server_problems + soak_problems:
        print(f"FAILURE {problem}", file=sys.stderr)
    if args.json:
        args.json.write_text(
            json.dumps(
                {
                    "args": vars(args) | {"json": None},
                    "figures": figures,
                    "saved": stats.saved,
                    "rare_asked": stats.rare_asked,
                    "problems": problems + server_problems + soak_problems,
                },
                indent=2,
            )
        )
    failed = problems or server_problems or soak_problems
    return 1 if failed or any(f["errors"] for f in figures.values()) else 0


if __name__ == "__main__":
    sys.exit(main())
