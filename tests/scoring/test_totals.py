"""Paper-sheet mode: clerks enter only each player's round total, checked for plausibility
by the engine, stored with history, and counted in the standings."""

from __future__ import annotations

import pytest
from django.urls import reverse

from rules.totals import hand_score_bounds
from scoring import selectors, services
from scoring.errors import EntryRefused
from scoring.models import Hand, RoundTotal
from tests.factories.tournaments import make_tournament
from tests.factories.web import table_url

pytestmark = pytest.mark.django_db


@pytest.fixture
def paper():
    return make_tournament(entry_mode="totals")


def totals_data(**kw):
    data = {
        "points_0": 1230, "won_0": 2, "lost_0": 1, "version_0": "",
        "points_1": -180, "won_1": 1, "lost_1": 2, "version_1": "",
        "points_2": 2450, "won_2": 4, "lost_2": 0, "version_2": "",
    }  # fmt: skip
    data.update(kw)
    return data


def test_clerk_enters_round_totals_and_standings_count_them(client, paper, clerk):
    client.force_login(clerk)
    url, table = table_url(paper)
    page = client.get(url).content.decode()
    assert 'name="points_0"' in page and "Papiermodus" in page and 'name="declarer"' not in page
    response = client.post(url, totals_data())
    assert response.status_code == 302
    seats = services.table_seats(table)
    stored = {t.registration_id: t for t in RoundTotal.objects.all()}
    assert [stored[s.registration_id].points for s in seats] == [1230, -180, 2450]
    assert stored[seats[2].registration_id].games_won == 4
    rows = {r.registration_id: r for r in selectors.standings(paper, public=False)}
    leader = rows[seats[2].registration_id]
    assert (leader.rank, leader.total, leader.won, leader.lost) == (1, 2450, 4, 0)
    assert rows[seats[1].registration_id].total == -180
    # the overview counts the table's players with a total
    overview = client.get(reverse("scoring:clerk", args=[paper.pk])).content.decode()
    assert "3 / 3" in overview


def test_implausible_totals_are_named_by_field_and_nothing_is_saved(client, paper, clerk):
    client.force_login(clerk)
    url, _ = table_url(paper)
    high = 12 * hand_score_bounds(paper.ruleset, 3).high
    response = client.post(
        url, totals_data(points_0=1235, points_1=high + 10, won_2=9, lost_2=4, points_2="")
    )
    assert response.status_code == 422
    html = response.content.decode()
    assert "1235 ist kein Vielfaches von 10" in html
    assert f"{high + 10} Punkte sind in dieser Runde nicht möglich" in html
    assert "9 gewonnene + 4 verlorene Spiele sind mehr als 12 Spiele" in html
    assert "Rundensumme fehlt" in html
    assert not RoundTotal.objects.exists()


def test_declarer_games_of_the_whole_table_cannot_exceed_the_games(client, paper, clerk):
    client.force_login(clerk)
    url, _ = table_url(paper)
    response = client.post(url, totals_data(won_0=5, lost_0=3, won_1=3))
    assert response.status_code == 422
    assert "Am Tisch wurden 17 Spiele als Spielführer eingetragen" in response.content.decode()
    assert not RoundTotal.objects.exists()


def test_a_correction_keeps_history_and_a_stale_form_is_refused(client, paper, clerk, director):
    client.force_login(clerk)
    url, table = table_url(paper)
    client.post(url, totals_data())
    # a second clerk (here the director) corrects player 0 from the current versions
    client.force_login(director)
    response = client.post(url, totals_data(points_0=1330, version_0=1, version_1=1, version_2=1))
    assert response.status_code == 302
    seat0 = services.table_seats(table)[0]
    total = RoundTotal.objects.get(registration_id=seat0.registration_id)
    assert (total.points, total.version, total.entered_by) == (1330, 2, director)
    assert [h.points for h in total.history.order_by("history_id")] == [1230, 1330]
    # unchanged totals keep their version
    assert set(RoundTotal.objects.exclude(pk=total.pk).values_list("version", flat=True)) == {1}
    # the first clerk still has the old form (versions 1): refused, nothing overwritten
    client.force_login(clerk)
    response = client.post(url, totals_data(points_0=990, version_0=1, version_1=1, version_2=1))
    assert response.status_code == 409
    assert "inzwischen von director geändert" in response.content.decode()
    total.refresh_from_db()
    assert total.points == 1330


def test_paper_mode_refuses_hand_entry_and_hand_mode_refuses_totals(paper, clerk):
    from tests.factories.tournaments import make_tournament as make

    _, table = table_url(paper)
    with pytest.raises(EntryRefused):
        services.save_hand(table, services.HandInput(1, 0, 1, 300, "played"), clerk)
    hands_tournament = make()
    _, other = table_url(hands_tournament)
    with pytest.raises(EntryRefused):
        services.save_round_totals(other, {0: services.TotalInput(100)}, clerk)
    assert not Hand.objects.exists() and not RoundTotal.objects.exists()


def test_public_cannot_post_totals(client, paper):
    url, _ = table_url(paper)
    response = client.post(url, totals_data())
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    assert not RoundTotal.objects.exists()


def test_closed_round_locks_totals(client, paper, clerk):
    client.force_login(clerk)
    url, _ = table_url(paper)
    services.close_round(paper.round_set.get(number=1), reason="Test: Runde ohne alle Spiele")
    assert client.post(url, totals_data()).status_code == 403
    assert not RoundTotal.objects.exists()


def test_a_first_entry_racing_another_is_refused_as_stale_not_a_500(
    client, paper, clerk, monkeypatch
):
    """Two first entries of one table: the unique constraint stops the second; the clerk
    gets the 409 page with the current totals, not a server error."""
    from django.db import IntegrityError

    def racing(*args, **kwargs):
        raise IntegrityError("one_total_per_player_per_round")

    monkeypatch.setattr(services.totals, "_store_round_totals", racing)
    client.force_login(clerk)
    url, _ = table_url(paper)
    response = client.post(url, totals_data())
    assert response.status_code == 409
