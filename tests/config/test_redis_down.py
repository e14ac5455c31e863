"""A Redis that is down (restarting, gone) must not take the app down with it: with
``REDIS_URL`` pointing at a port where nothing listens, the public standings, the clerk's
save and the table link all answer as without a cache (``config.cache``), and the
outage is logged, once a minute rather than once a request."""

from __future__ import annotations

import logging
import socket

import pytest
from django.core.cache import cache
from django.test import Client, override_settings
from django.urls import reverse

from config import cache as tolerant
from scoring import links
from scoring.models import Hand
from tests.factories.tournaments import three_table
from tests.factories.web import form_data

pytestmark = pytest.mark.django_db


def _closed_port() -> int:
    """A loopback port nobody listens on (bound, then released)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
def redis_down(monkeypatch):
    monkeypatch.setattr(tolerant.TolerantRedisCache, "_last_warning", 0.0)
    backend = {
        "default": {
            "BACKEND": "config.cache.TolerantRedisCache",
            "LOCATION": f"redis://127.0.0.1:{_closed_port()}/0",
            "OPTIONS": {"socket_connect_timeout": 1, "socket_timeout": 1},
        }
    }
    with override_settings(CACHES=backend):
        yield


def test_the_cache_answers_empty_while_redis_is_down(redis_down, caplog):
    with caplog.at_level(logging.WARNING, logger="binokel.cache"):
        assert cache.get("x", "default") == "default"
        assert cache.add("x", 1) is False
        cache.set("x", 1)
        assert cache.get_or_set("x", 5) == 5
        assert cache.get_many(["x", "y"]) == {}
        assert cache.set_many({"x": 1, "y": 2}) == ["x", "y"]
        with pytest.raises(ValueError):
            cache.incr("x")
    warnings = [r for r in caplog.records if r.name == "binokel.cache"]
    assert len(warnings) == 1 and "unreachable" in warnings[0].getMessage()


def test_standings_entry_and_table_link_work_while_redis_is_down(
    redis_down, tournament, clerk, client
):
    standings = reverse("scoring:standings", args=[tournament.pk])
    assert Client().get(standings).status_code == 200
    # the clerk's save: stored, answered with the redirect, in the next standings at once
    table = three_table(tournament)
    client.force_login(clerk)
    url = reverse("scoring:table", args=[tournament.pk, 1, table.number])
    response = client.post(url, form_data(table))
    assert response.status_code == 302
    hand = Hand.objects.get()
    seat = table.seats.select_related("registration__player").get(position=1)
    page = Client().get(standings).content.decode()
    assert str(hand.scores[1]) in page and seat.registration.player.first_name in page
    # the table link opens: its throttle cannot count, and lets the table in (fail open)
    tournament.table_entry = "opponent"
    tournament.save()
    link = links.live_link(table)
    phone = Client()
    assert phone.get(reverse("table_entry:page", args=[link.token])).status_code == 200
