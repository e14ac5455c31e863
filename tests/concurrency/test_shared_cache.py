"""Two app servers, one PostgreSQL, one Redis: a hand saved through one server is in the
other's standings fragment at the next poll (issue 12.3).

Two gunicorn instances (one worker each) on two loopback ports serve the pytest database,
committed by ``transactional_db``.  A clerk logs in on server A and posts a hand; the phone
polls server B with the ETag it had.  With ``REDIS_URL`` set, B answers 200 with the new
table at once; without it (a cache per process, the laptop default), B keeps its own
cached table for up to ``PUBLIC_CACHE_SECONDS`` and answers 304 — the staleness the shared
cache removes, checked here too so that the first test can fail.

Needs the PostgreSQL run (SQLite's test database lives in the test process's memory) and a
Redis server (``TEST_REDIS_URL``, default ``redis://127.0.0.1:6379/15``; only that database
number is flushed).  Skipped locally when either is missing; ``.ci/run`` sets
``BINOKEL_REQUIRE_SERVICES=1`` so CI fails instead of skipping.
"""

from __future__ import annotations

import http.cookiejar
import os
import random
import re
import subprocess
import sys
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

import pytest
from django.db import connection

from bench.app_bench import _wait_for
from bench.load_test import _free_port, hand_form_data
from scoring import services
from tests.factories.tournaments import make_tournament

ROOT = Path(__file__).resolve().parents[2]
REDIS_URL = os.environ.get("TEST_REDIS_URL", "redis://127.0.0.1:6379/15")
REQUIRED = os.environ.get("BINOKEL_REQUIRE_SERVICES") == "1"
PASSWORD = "pw-clerk-123"  # noqa: S105 - the conftest clerk's password, test database only

pytestmark = pytest.mark.django_db(transaction=True)


def _redis_or_skip():
    import redis

    client = redis.Redis.from_url(REDIS_URL, socket_connect_timeout=1)
    try:
        client.ping()
    except redis.RedisError as error:
        if REQUIRED:
            pytest.fail(f"Redis at {REDIS_URL} is needed: {error}")
        pytest.skip(f"no Redis at {REDIS_URL}")
    return client


@pytest.fixture
def postgres_url():
    if connection.vendor != "postgresql":
        pytest.skip("two app servers need a database both can reach (the PostgreSQL run)")
    s = connection.settings_dict
    user = urllib.parse.quote(s["USER"] or "postgres")
    password = f":{urllib.parse.quote(s['PASSWORD'])}" if s["PASSWORD"] else ""
    return f"postgres://{user}{password}@{s['HOST'] or '127.0.0.1'}:{s['PORT'] or 5432}/{s['NAME']}"


class Server:
    """One gunicorn instance (1 sync worker) of the app on 127.0.0.1:<port>."""

    def __init__(self, database_url: str, redis_url: str | None, log: Path):
        self.port = _free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        env = {
            **os.environ,
            "DJANGO_SETTINGS_MODULE": "config.settings",
            "DJANGO_DEBUG": "1",  # static files without collectstatic; caching is the same
            "DATABASE_URL": database_url,
            "PYTHONPATH": str(ROOT),
        }
        env.pop("REDIS_URL", None)
        if redis_url:
            env["REDIS_URL"] = redis_url
        command = [str(Path(sys.executable).parent / "gunicorn"), "config.wsgi"]
        command += ["--bind", f"127.0.0.1:{self.port}", "--workers", "1", "--timeout", "60"]
        self.log = log
        with open(log, "wb") as out:
            self.process = subprocess.Popen(
                command, cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT
            )

    def wait(self) -> None:
        try:
            _wait_for(f"{self.base}/accounts/login/")
        except RuntimeError:
            raise RuntimeError(self.log.read_text()[-3000:]) from None

    def stop(self) -> None:
        self.process.terminate()
        self.process.wait(timeout=20)


@pytest.fixture
def servers(postgres_url, tmp_path, request):
    """Start servers A and B; ``request.param`` is the Redis URL or None."""
    started = []

    def start(redis_url: str | None) -> tuple[Server, Server]:
        pair = tuple(
            Server(postgres_url, redis_url, tmp_path / f"gunicorn-{name}.log") for name in "AB"
        )
        started.extend(pair)
        for server in pair:
            server.wait()
        return pair

    yield start
    for server in started:
        server.stop()


def poll(server: Server, tournament_id: int, etag: str | None) -> tuple[int, str, str]:
    """GET the standings fragment as a phone's htmx poll does: (status, ETag, body)."""
    req = urllib.request.Request(f"{server.base}/turnier/{tournament_id}/rangliste/")
    if etag:
        req.add_header("If-None-Match", etag)
    try:
        with urllib.request.urlopen(req, timeout=30) as response:
            return response.status, response.headers["ETag"], response.read().decode()
    except urllib.error.HTTPError as error:
        if error.code == 304:
            return 304, error.headers["ETag"] or etag, ""
        raise


def post_hand_as_clerk(server: Server, username: str, url: str, data: dict) -> int:
    """Log in through the login form (CSRF token from the page) and post the hand form."""
    jar = http.cookiejar.CookieJar()
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar), _NoRedirect())

    def form_post(path: str, fields: dict) -> int:
        page = opener.open(f"{server.base}{path}", timeout=30).read().decode()
        token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page).group(1)
        body = urllib.parse.urlencode({**fields, "csrfmiddlewaretoken": token}).encode()
        req = urllib.request.Request(
            f"{server.base}{path}", data=body, headers={"Referer": f"{server.base}{path}"}
        )
        try:
            return opener.open(req, timeout=30).status
        except urllib.error.HTTPError as error:
            return error.code

    assert form_post("/accounts/login/", {"username": username, "password": PASSWORD}) == 302
    return form_post(url, data)


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None


def _save_through_a_and_poll_b(servers_pair, clerk) -> tuple[tuple, tuple]:
    """The scenario of both tests: B's fragment before, a hand posted on A, B's next poll."""
    from django.contrib.auth.hashers import make_password

    # the servers run with the real settings, which do not read the test process's fast
    # MD5 hashes (tests/conftest.py): the clerk logs in there with a PBKDF2 hash
    clerk.password = make_password(PASSWORD, hasher="pbkdf2_sha256")
    clerk.save(update_fields=["password"])
    a, b = servers_pair
    tournament = make_tournament(players=9)
    table = tournament.round_set.get(number=1).tables.order_by("number").first()
    seats = services.table_seats(table)

    status, etag, before = poll(b, tournament.pk, None)
    assert status == 200 and etag
    assert poll(b, tournament.pk, etag)[0] == 304  # unchanged: the phone's cache is good

    data = hand_form_data(tournament, table, len(seats), 1, random.Random(3))
    url = f"/turnier/{tournament.pk}/runde/1/tisch/{table.number}/"
    assert post_hand_as_clerk(a, clerk.username, url, data) == 302
    return (etag, before), poll(b, tournament.pk, etag)


def test_a_hand_saved_on_one_server_is_in_the_others_next_poll(servers, clerk):
    redis = _redis_or_skip()
    redis.flushdb()
    pair = servers(REDIS_URL)
    (etag, before), (status, new_etag, after) = _save_through_a_and_poll_b(pair, clerk)
    assert status == 200
    assert new_etag != etag
    assert after != before
    # the table changed because of the hand: it now says when the last entry was made
    assert "Stand " not in before and "Stand " in after
    redis.flushdb()


def test_without_redis_the_other_server_serves_its_own_cached_table(servers, clerk):
    """The contrast: a cache per process keeps server B on the old table until it expires."""
    pair = servers(None)
    (etag, _), (status, new_etag, _) = _save_through_a_and_poll_b(pair, clerk)
    assert status == 304
    assert new_etag == etag
