"""Bounded load test on loopback: phones polling the public standings while clerks enter hands.

Run: ``python -m bench.load_test [--users 200] [--clerks 10] [--duration 120]
[--database sqlite|postgres] [--workers 2] [--threads 4] [--no-validate] [--publish]
[--json PATH]`` (needs the ``bench`` extra: ``pip install -e '.[bench]'`` for locust).
``--publish`` uploads the results site to a folder back to back during the run, in the
bench's own process, as the venue's publisher thread does (:class:`_Publisher`).

1. A fresh database (a temporary SQLite file, or the database ``binokel_load`` on the local
   PostgreSQL, created and dropped here) is migrated with production settings
   (``DJANGO_DEBUG=0``) and the static files are collected for WhiteNoise.
2. A tournament is made through the services (``create_tournament``, ``register``,
   ``draw_round``, ``start_round``): ``3 × clerks + 1`` players, so round 1 has one table per
   clerk (one of them a table of 4 where the dealer sits out), and 60 games per round, more
   than a clerk enters in 2 minutes.  Each clerk gets an account in the "Schreiber" group.
   Every hand a clerk will type is dealt and played out by the rules engine beforehand
   (:func:`hand_form_data`), so bids, melds and tricks are real and valid.
3. gunicorn (gthread) serves the app on 127.0.0.1 with WhiteNoise serving the static files
   (:class:`bench.server.AppServer`: a port nothing else listens on, every answer checked
   for this run's ``X-Binokel-Instance``, the app's errors read from its log file).
4. locust (:mod:`bench.locustfile`, a child process: gevent patches the process it runs in)
   starts ``--users`` phones and ``--clerks`` clerks, runs ``--duration`` seconds and stops by
   itself:

   - a **phone** loads the standings page and its CSS and JS once, then polls the htmx
     fragment ``/turnier/<id>/rangliste/`` every 10 s with the ETag it last got
     (``If-None-Match``), as a browser's cache revalidates; 200 and 304 are successes;
   - a **clerk** logs in through ``/accounts/login/`` (CSRF token from the form), then loops:
     load its table page, type the next hand for 3–5 s (the browser's live check posts the
     partly filled form to ``…/pruefen/`` after each field, as htmx does), post it.  Only a
     302 counts as success; a 422 means the test's own data was refused and is a failure.
     When a table has all its games, the clerk corrects a random hand with its version.

5. Summary: requests, failures, requests/s and p50/p95/p99 per request type, and a check in
   the database that the hands stored (and their versions) match the successful posts.
   The exit code is non-zero on any failure or mismatch, any answer not from the bench's
   own server, and any error in the server's log.

Everything stays on 127.0.0.1.  ``DJANGO_DEBUG=0`` makes the session and CSRF cookies
*Secure*; the clients act as if a TLS proxy stood in front of gunicorn (as in production):
they send ``X-Forwarded-Proto: https`` (the settings' ``SECURE_PROXY_SSL_HEADER``), ``Origin``
and ``Referer`` as ``https://127.0.0.1:<port>`` and send the Secure cookies over the loopback
hop themselves.
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
from datetime import date
from pathlib import Path

from bench.app_bench import PG_ADMIN_URL
from bench.server import INSTANCE_HEADER, AppServer, free_port

ROOT = Path(__file__).resolve().parent.parent
PG_LOAD_DB = "binokel_load"
PASSWORD = "Last-Test-Schreiber-2026"  # noqa: S105 - throwaway accounts in a throwaway database
TOURNAMENT_SEED = 2026

#: the order a clerk fills the form in (after number and dealer, which the page fills in)
TYPING_ORDER = ("declarer", "bid", "trump", "outcome", "melds", "tricks")


# ------------------------------------------------------------------------- test data


def hand_form_data(tournament, table, size: int, number: int, rng: random.Random) -> dict:
    """The HandForm POST data (strings) for game ``number`` of ``table`` (``size`` seats),
    dealt and played out by the rules engine.

    The dealer and the active seats come from :mod:`scoring.services` (a dealer at a table of
    4 may sit out); the declarer, bid, trump, outcome, melds and tricks from
    :func:`rules.simulate.simulate_hand`.  Like a clerk, it leaves the last trick field blank
    every other time (the engine computes it from 250).  Seats that do not play, and fields
    not used by the outcome, are sent as empty strings, as a browser sends empty inputs.
    """
    from rules.simulate import simulate_hand
    from scoring import services

    ruleset = tournament.ruleset
    dealer = services.dealer_for(table, size, number)
    positions = services.active_positions(tournament, size, dealer)
    # engine seat 0 is the player after the dealer; a sitting-out dealer is "before" it
    engine_dealer = positions.index(dealer) if dealer in positions else len(positions) - 1
    sim = simulate_hand(ruleset, len(positions), engine_dealer, rng)
    record = sim.record
    data = {
        "number": str(number),
        "version": "",
        "dealer": str(dealer),
        "declarer": str(positions[record.declarer]),
        "bid": str(record.bid),
        "trump": sim.trump or "",
        "outcome": record.outcome,
        "won": "",
        "penalty_type": "",
        "penalty_seat": "",
        "reason": "",
    }
    for pos in range(size):
        data[f"melds_{pos}"] = ""
        data[f"tricks_{pos}"] = ""
    for i, pos in enumerate(positions):
        if record.melds:
            data[f"melds_{pos}"] = str(record.melds[i])
        if record.tricks:
            data[f"tricks_{pos}"] = str(record.tricks[i])
    if record.tricks and rng.random() < 0.5:
        data[f"tricks_{positions[-1]}"] = ""
    return data


def _prepare(players: int, games: int, clerks: int) -> dict:
    """Migrate, collect static files, create the tournament, the clerks and their hands;
    returns the locust configuration (without host)."""
    from django.contrib.auth import get_user_model
    from django.contrib.auth.models import Group
    from django.core.management import call_command

    from operations.management.commands.generate_tournament import register_random_players
    from scoring import services
    from tournament import services as tournament_services
    from tournament.roles import CLERK_GROUP

    call_command("migrate", verbosity=0)
    call_command("collectstatic", interactive=False, verbosity=0)  # manifest for DEBUG=0
    rng = random.Random(TOURNAMENT_SEED)
    tournament = tournament_services.create_tournament(
        name="Lasttest",
        date=date(2026, 11, 21),
        venue="127.0.0.1",
        games_per_round=games,
    )
    register_random_players(tournament, players, rng)
    round_ = tournament.round_set.get(number=1)
    tournament_services.draw_round(round_, seed=TOURNAMENT_SEED)
    tournament_services.start_round(round_)

    group = Group.objects.get(name=CLERK_GROUP)
    User = get_user_model()
    tables = list(round_.tables.order_by("number"))
    config_clerks = []
    for index in range(clerks):
        table = tables[index % len(tables)]
        user = User.objects.create_user(f"schreiber{index + 1:02d}", password=PASSWORD)
        user.groups.add(group)
        if hasattr(tournament, "clerks"):  # clerks are named per tournament
            tournament.clerks.add(user)
        size = len(services.table_seats(table))
        config_clerks.append(
            {
                "username": user.username,
                "password": PASSWORD,
                "table": table.number,
                "size": size,
                "hands": [
                    hand_form_data(tournament, table, size, n, rng) for n in range(1, games + 1)
                ],
            }
        )
    return {
        "tournament": tournament.pk,
        "round": round_.number,
        "tables": len(tables),
        "table_sizes": [t.seats.count() for t in tables],
        "games": games,
        "clerks": config_clerks,
    }


def _check_database(tournament_id: int, counts: dict) -> list[str]:
    """Compare the hands stored with the clerks' successful posts; returns problems."""
    from django.db.models import Sum

    from scoring.models import Hand

    hands = Hand.objects.filter(table__round__tournament_id=tournament_id)
    stored = hands.count()
    corrections = (hands.aggregate(s=Sum("version"))["s"] or 0) - stored
    problems = []
    if stored != counts["hands_created"]:
        problems.append(f"{stored} hands stored, {counts['hands_created']} new-hand posts got 302")
    if corrections != counts["hands_corrected"]:
        problems.append(
            f"{corrections} corrections stored, {counts['hands_corrected']} correction posts got 302"
        )
    return problems


# --------------------------------------------------------------------------- servers

_free_port = free_port  # the name the tests' own servers import


def _database_url(kind: str, folder: Path) -> str:
    if kind == "sqlite":
        return f"sqlite:///{folder / 'load.sqlite3'}"
    _postgres(f"DROP DATABASE IF EXISTS {PG_LOAD_DB} WITH (FORCE)", f"CREATE DATABASE {PG_LOAD_DB}")
    return f"postgres://postgres@127.0.0.1:5432/{PG_LOAD_DB}"


def _postgres(*statements: str) -> None:
    import psycopg

    with psycopg.connect(PG_ADMIN_URL, autocommit=True) as conn:
        for statement in statements:
            conn.execute(statement)


def _environment(database_url: str, redis_url: str | None = None) -> dict:
    extra = {"REDIS_URL": redis_url} if redis_url else {}
    return {
        **extra,
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "DJANGO_DEBUG": "0",
        "DJANGO_SECRET_KEY": "load-test-only-not-secret-" + "x" * 40,
        "DJANGO_ALLOWED_HOSTS": "127.0.0.1",
        "DJANGO_SECURE_SSL_REDIRECT": "0",
        "DATABASE_URL": database_url,
    }


def _cpu_seconds() -> tuple[float, float]:
    """(busy CPU seconds of the whole machine, CPU seconds of this process's finished
    children): the difference over the run tells what else kept the cores busy."""
    import resource

    fields = [int(v) for v in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    idle = fields[3] + fields[4]  # idle + iowait
    busy = (sum(fields[:8]) - idle) / os.sysconf("SC_CLK_TCK")
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return busy, children.ru_utime + children.ru_stime


def _database_backends_cpu() -> dict[int, float]:
    """CPU seconds so far of each PostgreSQL backend serving the load test's database."""
    out = {}
    tick = os.sysconf("SC_CLK_TCK")
    for proc in Path("/proc").iterdir():
        if not proc.name.isdigit():
            continue
        try:
            if f" {PG_LOAD_DB} ".encode() not in (proc / "cmdline").read_bytes().replace(
                b"\0", b" "
            ):
                continue
            fields = (proc / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        out[int(proc.name)] = (int(fields[11]) + int(fields[12])) / tick  # utime + stime
    return out


class _Publisher:
    """Publishes ``tournament_id``'s results site to ``target`` (a folder) back to back in
    a thread of this process until :meth:`stop`: the worst case of the venue's publisher
    thread (a round closed every few seconds), on the same cores as the server."""

    def __init__(self, tournament_id: int, target: Path) -> None:
        self.tournament_id, self.target = tournament_id, target
        self.done = threading.Event()
        self.runs, self.files, self.seconds = 0, 0, 0.0
        self.errors: list[str] = []
        self.thread = threading.Thread(target=self._loop, daemon=True)
        self.thread.start()

    def _loop(self) -> None:
        from django.db import connection

        from archive.publish import publish_tournament
        from archive.publish.targets import parse_target
        from tournament.models import Tournament

        try:
            while not self.done.is_set():
                started = time.perf_counter()
                try:
                    tournament = Tournament.objects.get(pk=self.tournament_id)
                    report, _key = publish_tournament(tournament, parse_target(str(self.target)))
                except Exception as exc:  # noqa: BLE001 - a failure is a figure here
                    self.errors.append(repr(exc)[:200])
                    return
                self.runs += 1
                self.files += len(report.uploaded)
                self.seconds += time.perf_counter() - started
        finally:
            connection.close()

    def stop(self) -> dict:
        self.done.set()
        self.thread.join(timeout=300)
        return {
            "runs": self.runs,
            "seconds_each": self.seconds / self.runs if self.runs else 0.0,
            "files_uploaded": self.files,
            "errors": self.errors,
        }


class _BackendSampler:
    """Samples the PostgreSQL backends' CPU once a second in a thread (Django closes and
    reopens connections during the run, and an ended backend's time is gone)."""

    def __init__(self) -> None:
        import threading

        self.first = _database_backends_cpu()
        self.last = dict(self.first)
        self.done = threading.Event()
        self.thread = threading.Thread(target=self._loop, daemon=True)
        self.thread.start()

    def _loop(self) -> None:
        while not self.done.wait(1.0):
            self.last.update(_database_backends_cpu())

    def stop(self) -> float:
        """CPU seconds the backends used since the start (up to the last sample)."""
        self.done.set()
        self.thread.join()
        self.last.update(_database_backends_cpu())
        return sum(t - self.first.get(pid, 0.0) for pid, t in self.last.items())


def _warm_up(server: AppServer, tournament_id: int, rounds: int = 3, parallel: int = 8) -> None:
    """A few parallel requests, so every worker has loaded the URLs, views and templates
    before the phones come (a venue's server runs long before that); each answer must be
    the bench's own server's."""
    from concurrent.futures import ThreadPoolExecutor

    paths = [f"/turnier/{tournament_id}/", "/accounts/login/"] * parallel

    def get(path: str) -> None:
        server.require_ours(server.get(path)[1], path)

    with ThreadPoolExecutor(parallel) as pool:
        for _ in range(rounds):
            list(pool.map(get, paths))


# --------------------------------------------------------------------------- summary

ORDER = (
    "standings page",
    "static file",
    "fragment poll",
    "login page",
    "login POST",
    "table page",
    "table page (correction)",
    "validate (htmx)",
    "hand POST",
)


def _report(result: dict, config: dict, args, problems: list[str]) -> str:
    duration = result["duration_s"]
    lines = [
        f"load test: {args.database}{' + Redis cache' if args.redis else ''}, {args.users} phones + {args.clerks} clerks, "
        f"{duration:.0f} s, "
        + (
            f"waitress {args.workers} processes × {args.threads} threads"
            if args.server == "waitress"
            else f"gunicorn {args.workers} workers × {args.threads} threads (gthread)"
        )
        + f" + WhiteNoise, locust {result['locust_version']}, loopback",
        f"tournament: {sum(config['table_sizes'])} players, {config['tables']} tables "
        f"(sizes {','.join(map(str, config['table_sizes']))}), {config['games']} games per round",
        "",
        f"{'':<26}{'whole run':^55}  {'from ' + format(result['steady_from_s'], '.0f') + ' s on':^23}",
        f"{'request':<26}{'count':>8}{'fails':>7}{'req/s':>8}{'p50':>8}{'p95':>8}{'p99':>8}"
        f"{'max':>8}  {'req/s':>7}{'p50':>8}{'p95':>8}  (ms)",
    ]
    steady_s = duration - result["steady_from_s"]
    names = sorted(result["stats"], key=lambda n: ORDER.index(n) if n in ORDER else len(ORDER))
    for name in [*names, "total"]:
        row = result["stats"][name] if name != "total" else result["total"]
        late = result["steady"][name]
        steady = (
            f"  {late['count'] / steady_s:>7.1f}{late['p50']:>8.1f}{late['p95']:>8.1f}"
            if late["count"]
            else f"  {'–':>7}{'–':>8}{'–':>8}"
        )
        lines.append(
            f"{name:<26}{row['count']:>8}{row['failures']:>7}{row['count'] / duration:>8.1f}"
            f"{row['p50']:>8.1f}{row['p95']:>8.1f}{row['p99']:>8.1f}{row['max']:>8.1f}{steady}"
        )
    counts = result["counts"]
    polls = counts["poll_200"] + counts["poll_304"]
    lines += [
        "",
        f"fragment polls: {counts['poll_200']} × 200 (of them {counts['poll_200_unchanged']} "
        f"with the standings the phone already had), {counts['poll_304']} × 304 "
        f"({counts['poll_304'] / polls:.0%} not modified)"
        if polls
        else "fragment polls: none",
        f"longest run of 304s for one phone: {counts['max_304_streak']} polls; "
        f"runs of 3 or more (30 s without new standings): {counts['phones_304_streak_3']}",
        f"ETags that stood for different standings (render time ignored): "
        f"{counts['etag_reused']} of {counts['etags']}",
        f"clerks logged in: {counts['logins']}; hands posted (302): {counts['hands_created']} new "
        f"+ {counts['hands_corrected']} corrections; live checks: {counts['validations']}",
        "database: "
        + ("; ".join(problems) if problems else "hands and versions match the successful posts"),
        f"CPU (cores, mean over the run): gunicorn + locust {result['cpu_cores']['test']:.2f}"
        + (
            f", PostgreSQL backends {result['cpu_cores']['database']:.2f}"
            if args.database == "postgres"
            else ""
        )
        + f", other processes {result['cpu_cores']['other']:.2f}"
        f" (of {result['cpu_cores']['available']} cores)",
    ]
    for error in result["errors"]:
        lines.append(f"FAILURE {error['occurrences']} × {error['name']}: {error['error']}")
    return "\n".join(lines)


# ------------------------------------------------------------------------------ main


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--users", type=int, default=200, help="phones (default 200)")
    parser.add_argument("--clerks", type=int, default=10, help="clerks = tables (default 10)")
    parser.add_argument("--duration", type=int, default=120, help="seconds (default 120)")
    parser.add_argument("--database", choices=["sqlite", "postgres"], default="sqlite")
    parser.add_argument("--games", type=int, default=60, help="games per round (default 60)")
    parser.add_argument("--workers", type=int, default=2, help="gunicorn workers (default 2)")
    parser.add_argument("--threads", type=int, default=4, help="threads per worker (default 4)")
    parser.add_argument(
        "--server",
        choices=["gunicorn", "waitress"],
        default="gunicorn",
        help="gunicorn (gthread), or the venue's waitress (workers processes × threads)",
    )
    parser.add_argument(
        "--no-validate", action="store_true", help="clerks skip the live check while typing"
    )
    parser.add_argument(
        "--redis",
        metavar="URL",
        help="shared Redis cache for the workers (REDIS_URL), e.g. redis://127.0.0.1:6379/14",
    )
    parser.add_argument(
        "--publish",
        action="store_true",
        help="publish the results site to a folder back to back during the run, in the "
        "bench's own process, as the venue's publisher thread does (issue 40)",
    )
    parser.add_argument("--json", type=Path, help="also write the figures as JSON here")
    args = parser.parse_args(argv)
    if args.clerks < 1 or args.users < 0:
        parser.error("need at least one clerk")

    with tempfile.TemporaryDirectory(prefix="binokel-load-") as tmp:
        folder = Path(tmp)
        database_url = _database_url(args.database, folder)
        env = _environment(database_url, args.redis)
        if args.server == "waitress":
            # the venue's settings: plain HTTP on the hall's network.  waitress drops the
            # X-Forwarded-Proto the clients send (no proxy is trusted), so with HTTPS on
            # every login would fail the CSRF check against its Secure cookie.
            env["DJANGO_HTTPS"] = "0"
        os.environ.update(env)
        try:
            return _run(args, folder, env)
        finally:
            from django.db import connections

            connections.close_all()
            if args.database == "postgres":
                _postgres(f"DROP DATABASE IF EXISTS {PG_LOAD_DB} WITH (FORCE)")


def _run(args, folder: Path, env: dict) -> int:
    import django

    django.setup()
    from django.db import connections

    started = time.perf_counter()
    config = _prepare(3 * args.clerks + 1, args.games, args.clerks)
    connections.close_all()
    print(f"prepared in {time.perf_counter() - started:.1f} s", file=sys.stderr)

    server = AppServer(folder, env, workers=args.workers, threads=args.threads, server=args.server)
    with server.start(f"/turnier/{config['tournament']}/"):
        _warm_up(server, config["tournament"])
        config.update(
            host=server.base,
            instance=server.instance,
            instance_header=INSTANCE_HEADER,
            phones=args.users,
            duration=args.duration,
            validate=not args.no_validate,
            plain_http=args.server == "waitress",
        )
        (folder / "config.json").write_text(json.dumps(config))
        cpu_before, wall_before = _cpu_seconds(), time.perf_counter()
        database = _BackendSampler() if args.database == "postgres" else None
        publisher = (
            _Publisher(config["tournament"], folder / "vereinsseite") if args.publish else None
        )
        done = subprocess.run(
            [sys.executable, "-m", "bench.locustfile", str(folder / "config.json")],
            cwd=ROOT,
            env={**os.environ, **env},
            stdout=subprocess.PIPE,
            text=True,
        )
        database_cores = database.stop() / (time.perf_counter() - wall_before) if database else 0.0
        if publisher is not None:
            result_publishing = publisher.stop()
        server.check(f"/turnier/{config['tournament']}/")  # still ours at the end
    cpu_after, wall = _cpu_seconds(), time.perf_counter() - wall_before
    if done.returncode:
        sys.stderr.write(server.output.read_text()[-4000:])
        raise SystemExit("locust failed")
    result = json.loads(done.stdout.strip().splitlines()[-1])
    ours = (cpu_after[1] - cpu_before[1]) / wall
    result["cpu_cores"] = {
        "test": ours,
        "database": database_cores,
        "other": max(0.0, (cpu_after[0] - cpu_before[0]) / wall - ours - database_cores),
        "available": os.cpu_count(),
    }

    problems = _check_database(config["tournament"], result["counts"])
    if publisher is not None:
        result["publishing"] = result_publishing
        print(
            f"publishing: {result_publishing['runs']} uploads of the whole site to a folder, "
            f"{result_publishing['seconds_each']:.1f} s each, "
            f"{result_publishing['files_uploaded']} files written in all",
        )
        if result_publishing["errors"]:
            problems += [f"publishing failed: {e}" for e in result_publishing["errors"]]
    if not result["counts"]["hands_created"]:
        problems.append("no hand was saved")
    # locust checked the marker on every answer it got
    server.add_checked(result["counts"]["answers_checked"], result["counts"]["foreign_answers"])
    server_problems = server.problems()
    print(_report(result, config, args, problems))
    print(server.summary())
    for problem in server_problems:
        print(f"FAILURE {problem}", file=sys.stderr)
    if args.json:
        args.json.write_text(json.dumps({"args": vars(args) | {"json": None}, **result}, indent=2))
    return 1 if result["total"]["failures"] or problems or server_problems else 0


if __name__ == "__main__":
    sys.exit(main())
