"""A region's server, run as docs/operations.md describes it (issue 40.3): Debian's nginx
with TLS from ``deploy/nginx/binokel.conf`` in front of two gunicorn app servers on the
local PostgreSQL and Redis (:mod:`bench.region_server`).  Through it:

- the first-run page is refused on the new, empty server; the director's account is made
  as documented, with ``manage.py leitung_anlegen`` on the server's console;
- static files come from nginx itself (no app server's marker);
- a public page is answered from nginx's cache for ``s-maxage`` seconds, honouring
  ``Vary: Cookie`` (a visitor who chose English gets the English copy);
- a phone enters a hand through its table link, an opponent's phone confirms it; the
  standings poll answers 304 while nothing changed, and the new table within the cache's
  seconds after the hand;
- staff pages and table links are never kept: every request reaches an app server.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import time

import pytest

from bench.region_server import (
    DIRECTOR,
    PASSWORD,
    ROOT,
    Browser,
    RegionServer,
    nginx_binary,
    postgres_reachable,
)
from bench.server import INSTANCE_HEADER

REDIS_URL = "redis://127.0.0.1:6379/12"  # its own database: test_shared_cache empties 15
SHARED_SECONDS = 2  # settings.SHARED_CACHE_SECONDS, the default the servers run with

pytestmark = pytest.mark.skipif(
    nginx_binary() is None and not os.environ.get("CI"),
    reason="needs Debian's nginx (apt-get install nginx-light); CI installs it",
)


def _redis_reachable() -> bool:
    import redis

    try:
        return bool(redis.Redis.from_url(REDIS_URL, socket_connect_timeout=1).ping())
    except redis.RedisError:
        return False


@pytest.fixture(scope="module")
def region(tmp_path_factory):
    missing = [
        name
        for name, here in (("PostgreSQL", postgres_reachable()), ("Redis", _redis_reachable()))
        if not here
    ]
    if missing:
        if os.environ.get("CI") or os.environ.get("BINOKEL_REQUIRE_SERVICES"):
            pytest.fail(f"the region's server needs {' and '.join(missing)} on 127.0.0.1")
        pytest.skip(f"no {' and '.join(missing)} on 127.0.0.1")
    server = RegionServer(tmp_path_factory.mktemp("region"), REDIS_URL)
    # the new server before anyone has an account: what a stranger gets
    stranger = Browser(server)
    server.first_run = {
        "home": stranger.get("/"),
        "page": stranger.get("/einrichten/"),
        "login": stranger.get("/accounts/login/"),
    }
    server.first_run["post"] = stranger.post(
        "/einrichten/",
        {"username": "fremder", "password1": "Ochsen-Wirt-1987", "password2": "Ochsen-Wirt-1987"},
    )
    # then the director's account, as documented: on the server's console
    made = subprocess.run(
        [sys.executable, "manage.py", "leitung_anlegen", "--benutzer", DIRECTOR],
        input=f"{PASSWORD}\n{PASSWORD}\n",
        env={**os.environ, **server.env},
        cwd=ROOT,
        capture_output=True,
        text=True,
        start_new_session=True,  # no terminal: getpass reads the typed lines from stdin
        check=False,
    )
    server.director_made = made
    yield server
    problems = server.problems()
    server.stop()
    assert not problems, problems


def test_a_stranger_cannot_make_the_first_account_and_the_console_can(region):
    answers = region.first_run
    assert answers["home"].status == 200
    assert answers["login"].status == 200
    assert answers["page"].status == 403
    assert answers["post"].status == 403, answers["post"].text[:300]
    assert "am Laptop selbst" in answers["post"].text
    made = region.director_made
    assert made.returncode == 0, made.stderr
    assert f"Konto {DIRECTOR} für die Turnierleitung angelegt" in made.stdout
    director = Browser(region)
    director.log_in(DIRECTOR, PASSWORD)
    assert director.get("/turnier/neu/").status == 200


def test_static_files_come_from_nginx(region):
    page = Browser(region).get(f"/turnier/{region.data['tournament']}/")
    stylesheet = re.search(r'href="(/static/[^"]+\.css)"', page.text).group(1)
    answer = Browser(region).get(stylesheet)
    assert answer.status == 200
    assert answer.headers["Server"].startswith("nginx")
    assert answer.headers.get(INSTANCE_HEADER) is None  # no app server saw it
    assert answer.cache_status is None  # not proxied at all
    on_disk = region.static / stylesheet.removeprefix("/static/")
    assert answer.body == on_disk.read_bytes()


def test_a_public_page_is_served_from_nginx_cache_for_its_seconds(region):
    path = f"/turnier/{region.data['tournament']}/"
    time.sleep(SHARED_SECONDS + 1.5)  # whatever an earlier test left has expired
    first, second = Browser(region).get(path), Browser(region).get(path)
    assert first.status == second.status == 200
    assert first.cache_status in ("MISS", "EXPIRED")
    assert second.cache_status == "HIT"
    assert second.body == first.body
    # the copy came from the app: its marker is kept in the cached answer
    assert second.headers[INSTANCE_HEADER] == first.headers[INSTANCE_HEADER]
    cache_control = first.headers["Cache-Control"]
    assert "public" in cache_control and f"s-maxage={SHARED_SECONDS}" in cache_control
    assert "max-age=0" in cache_control  # a phone's browser asks again each time
    assert first.headers["Vary"] == "Cookie"
    # nginx counts whole seconds: a copy made at 10.9 s is kept until 13.0 s
    time.sleep(SHARED_SECONDS + 1.5)
    assert Browser(region).get(path).cache_status == "EXPIRED"  # rendered again


def test_a_visitor_who_chose_english_gets_the_english_copy(region):
    path = f"/turnier/{region.data['tournament']}/"
    german = Browser(region)
    english = Browser(region)
    english.cookies["django_language"] = "en"
    assert german.get(path).status == 200
    answer = english.get(path)
    assert answer.cache_status in ("MISS", "EXPIRED")  # not the German copy
    assert answer.headers["Content-Language"] == "en"
    assert "Standings" in answer.text
    again = german.get(path)
    assert again.headers["Content-Language"] == "de"
    assert "Rangliste" in again.text


def test_a_phone_enters_and_confirms_a_hand_and_the_poll_sees_it(region):
    tournament = region.data["tournament"]
    table = region.data["tables"][0]
    poll_path = f"/turnier/{tournament}/rangliste/"
    phone = Browser(region)
    before = phone.get(poll_path)
    assert before.status == 200
    unchanged = phone.get(poll_path, {"If-None-Match": before.headers["ETag"]})
    assert unchanged.status == 304

    page = f"/t/{table['token']}/"
    scorer, opponent = Browser(region), Browser(region)
    for browser in (scorer, opponent):
        answer = browser.get(page)
        assert answer.status == 200
        assert answer.cache_status != "HIT"
        assert "no-store" in answer.headers["Cache-Control"]
    form = {**table["hands"][0]}
    saved = scorer.post(page, form, {"Accept": "application/json"})
    if saved.status == 422 and set(json.loads(saved.text)["errors"]) == {"confirm_rare"}:
        saved = scorer.post(page, {**form, "confirm_rare": "on"}, {"Accept": "application/json"})
    assert saved.status == 200, saved.text[:500]
    assert json.loads(saved.text)["status"] == "saved"
    confirm = {"spiel": 1, "version": 1}
    if table.get("code"):
        confirm["code"] = table["code"]
    confirmed = opponent.post(f"{page}stimmt/", confirm)
    assert confirmed.status in (200, 302), confirmed.text[:500]
    assert "bestätigt" in opponent.get(page).text

    deadline = time.monotonic() + SHARED_SECONDS + 5
    while True:
        after = phone.get(poll_path, {"If-None-Match": before.headers["ETag"]})
        if after.status == 200 or time.monotonic() > deadline:
            break
        time.sleep(0.5)
    assert after.status == 200, "the saved hand never reached the standings poll"
    assert after.headers["ETag"] != before.headers["ETag"]
    assert after.body != before.body


def test_staff_pages_and_table_links_never_come_from_the_cache(region):
    tournament = region.data["tournament"]
    director = Browser(region)
    director.log_in(DIRECTOR, PASSWORD)
    for path in (f"/turnier/{tournament}/erfassung/", f"/turnier/{tournament}/"):
        answers = [director.get(path) for _ in range(2)]
        assert [a.status for a in answers] == [200, 200]
        assert [a.cache_status for a in answers] == ["BYPASS", "BYPASS"]
        assert all("no-store" in a.headers["Cache-Control"] for a in answers)
    # the director's copy of the public page was not kept for anyone
    anonymous = Browser(region).get(f"/turnier/{tournament}/")
    assert "Ausloggen" not in anonymous.text
    link = f"/t/{region.data['tables'][1]['token']}/"
    phone = Browser(region)
    answers = [phone.get(link) for _ in range(2)]
    # the first visit is passed on and not stored; the second carries the phone's session
    assert [a.cache_status for a in answers] == ["MISS", "BYPASS"]
    assert all("no-store" in a.headers["Cache-Control"] for a in answers)
