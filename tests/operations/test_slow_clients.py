"""Slow phones cannot stop the clerks (issue 38.2): with 16 connections that trickle their
request a byte every second (half in the headers, half in the body), the clerk's table
page of the venue still answers at once.

Before the fix the venue ran gunicorn's threaded workers, which give a thread to a
connection as soon as it is accepted: 16 such connections held all 8 threads and the
clerk's page got no answer in 20 s.  The venue's server (operations.serve, waitress) reads
each request whole before a thread serves it.  ``python -m bench.slow_clients`` measures
both side by side (docs/performance.md)."""

from __future__ import annotations

import http.cookiejar
import re
import time
import urllib.parse
import urllib.request

import pytest

from bench.load_test import _free_port
from bench.slow_clients import Trickler
from tests.factories.venue import Venue

pytestmark = pytest.mark.usefixtures("venue_on_sqlite")  # SQLite only, as the venue

TABLE = "/turnier/1/runde/3/tisch/1/"


def _log_in(base: str) -> urllib.request.OpenerDirector:
    jar = http.cookiejar.CookieJar()
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))
    page = opener.open(f"{base}/accounts/login/", timeout=20).read().decode()
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page).group(1)
    form = {"csrfmiddlewaretoken": token, "username": "schreiber", "password": "schreiber-demo"}
    request = urllib.request.Request(
        f"{base}/accounts/login/",
        data=urllib.parse.urlencode(form).encode(),
        headers={"Referer": f"{base}/"},
    )
    assert "/accounts/login/" not in opener.open(request, timeout=20).url
    return opener


def _load(opener, url: str) -> float:
    started = time.perf_counter()
    with opener.open(url, timeout=10) as response:
        assert response.status == 200
        assert "Spiel" in response.read().decode()
    return time.perf_counter() - started


def test_sixteen_slow_connections_do_not_stop_the_clerks_page(tmp_path):
    port = _free_port()
    venue = Venue(tmp_path / "daten", port, tmp_path / "venue.log")
    try:
        venue.wait()
        opener = _log_in(venue.base)
        _load(opener, venue.base + TABLE)
        slow = Trickler(port, 16, 1.0)
        try:
            time.sleep(2.5)
            # each load must answer within 10 s (urlopen's timeout); it takes tens of ms
            times = [_load(opener, venue.base + TABLE) for _ in range(5)]
            # a further slow connection is still accepted while the page keeps answering
            more = Trickler(port, 4, 1.0)
            times.append(_load(opener, venue.base + TABLE))
            more.stop()
        finally:
            slow.stop()
        assert max(times) < 10
    finally:
        assert venue.stop() == 0
