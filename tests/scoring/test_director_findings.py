"""Findings of a real evening at the director's desk: closing a round with unconfirmed
hands asks like it does for missing ones (and the standings keep marking them), an empty
reason is the app's own German message at the field, a correction needs its reason, the
draw's seed box speaks German, and ``scripts/venue --help`` is German with help for every
option."""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
from pathlib import Path

import pytest
from django.urls import reverse

from operations import venue
from scoring import links, selectors, services
from scoring.models import Hand
from table_entry import services as table_entry_services
from tests.factories.hands import acting_as, entry, hand_entry, play_round
from tests.factories.tournaments import make_tournament, three_table
from tests.factories.web import action_url, form_data, table_url
from tournament.models import Round

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[2]


def field_error(page: str, name: str) -> str:
    """The text of the error element ``err-<name>`` on ``page`` ("" when empty)."""
    match = re.search(rf'id="err-{name}"[^>]*>(.*?)</div>', page, re.S)
    assert match, f"no error element for {name}"
    return match.group(1).strip()


@pytest.fixture
def one_hand_unconfirmed(clerk):
    """Table entry on, three tables of three, three games each: every hand entered by the
    clerk except game 3 of table 1, typed on the table's phone and not yet confirmed by an
    opponent (provisional)."""
    tournament = make_tournament(players=9, games_per_round=3)
    tournament.table_entry = "opponent"
    tournament.save()
    first = tournament.round_set.get(number=1)
    play_round(first, clerk, [1, 2])
    for table in first.tables.order_by("number"):
        if table.number == 1:
            source = table_entry_services.source(links.live_link(table), "a1b2c3d4e5f60718")
            hand, evaluation = services.save_hand(table, hand_entry(table, 3), None, via=source)
        else:
            with acting_as(clerk):
                hand, evaluation = services.save_hand(table, hand_entry(table, 3), clerk)
        assert hand is not None, evaluation.errors
    return tournament


def shown_provisional(html: str) -> dict[int, str]:
    """Start number → the "unbestätigt" cell of each row of a rendered standings table."""
    cell = r'<td class="[^"]*\b{}\b[^"]*">([^<]*)</td>'
    rows = re.findall(r"<tr[^>]*>(.*?)</tr>", html, re.S)
    shown = {}
    for row in rows:
        number = re.search(cell.format("c-no"), row)
        provisional = re.search(cell.format("c-provisional"), row)
        if number and provisional:
            shown[int(number.group(1))] = provisional.group(1).strip()
    return shown


def _table_one_players(tournament) -> set[int]:
    table = tournament.round_set.get(number=1).tables.get(number=1)
    return set(table.seats.values_list("registration__start_number", flat=True))


# ------------------------------------------------ 1. closing with unconfirmed hands


def test_closing_with_an_unconfirmed_hand_needs_a_reason_and_stores_it(one_hand_unconfirmed):
    tournament = one_hand_unconfirmed
    first = tournament.round_set.get(number=1)
    assert services.missing_entries(first) == []
    expected = [services.MissingEntries(table=1, games=(3,), unconfirmed=True)]
    assert services.unconfirmed_entries(first) == expected

    with pytest.raises(services.RoundIncomplete) as refused:
        services.close_round(first)
    assert refused.value.unconfirmed == expected and refused.value.missing == []
    assert refused.value.messages == [
        "Runde 1 kann nicht abgeschlossen werden, Eingaben sind unbestätigt: Tisch 1 (Spiel 3)."
    ]
    first.refresh_from_db()
    assert first.status == Round.Status.RUNNING

    services.close_round(first, reason="Gegenspieler schon gegangen")
    first.refresh_from_db()
    assert first.status == Round.Status.CLOSED
    assert first.forced_close_reason == "Gegenspieler schon gegangen"
    assert first.forced_close_missing == [
        {"table": 1, "games": [3], "players": [], "unconfirmed": True}
    ]
    first.full_clean()  # the stored list passes the model's own check (and an import's)
    assert services.forced_close_notes(tournament) == [
        "Runde 1 mit unbestätigten Eingaben abgeschlossen (Tisch 1 (Spiel 3)): "
        "Gegenspieler schon gegangen"
    ]


def test_missing_and_unconfirmed_entries_are_named_together(one_hand_unconfirmed):
    first = one_hand_unconfirmed.round_set.get(number=1)
    first.tables.get(number=2).hands.filter(number=2).delete()
    with pytest.raises(services.RoundIncomplete) as refused:
        services.close_round(first)
    assert refused.value.messages == [
        "Runde 1 kann nicht abgeschlossen werden, es fehlen Eingaben: Tisch 2 (Spiel 2); "
        "unbestätigt sind: Tisch 1 (Spiel 3)."
    ]
    services.close_round(first, reason="Saal schließt")
    assert services.forced_close_notes(one_hand_unconfirmed) == [
        "Runde 1 mit fehlenden und unbestätigten Eingaben abgeschlossen (fehlend: Tisch 2 "
        "(Spiel 2); unbestätigt: Tisch 1 (Spiel 3)): Saal schließt"
    ]


def test_paper_totals_awaiting_confirmation_are_named_by_start_number(clerk):
    paper = make_tournament(players=9, entry_mode="totals", confirmation_required=True)
    first = paper.round_set.get(number=1)
    table = first.tables.order_by("number").first()
    inputs = {
        0: services.TotalInput(1230, 2, 1),
        1: services.TotalInput(-180, 1, 2),
        2: services.TotalInput(2450, 4, 0),
    }
    _saved, errors = services.save_round_totals(table, inputs, clerk)
    assert not errors
    numbers = tuple(sorted(table.seats.values_list("registration__start_number", flat=True)))
    assert services.unconfirmed_entries(first) == [
        services.MissingEntries(table=table.number, players=numbers, unconfirmed=True)
    ]


def test_close_page_lists_unconfirmed_hands_and_asks_for_a_reason(
    client, director, one_hand_unconfirmed
):
    tournament = one_hand_unconfirmed
    client.force_login(director)
    asked = client.post(action_url(tournament, 1, "abschliessen"))
    page = asked.content.decode()
    assert asked.status_code == 200
    assert "Noch nicht bestätigt" in page and "<li>Tisch 1 (Spiel 3)</li>" in page
    assert "Es fehlen noch Eingaben" not in page
    assert "Grund für den Abschluss trotz unbestätigter Eingaben" in page
    assert 'name="grund"' in page and "Trotzdem abschließen" in page

    refused = client.post(action_url(tournament, 1, "abschliessen"), {"bestaetigt": "1"})
    assert refused.status_code == 422
    assert "Grund: bitte angeben" in field_error(refused.content.decode(), "grund")
    assert tournament.round_set.get(number=1).status == Round.Status.RUNNING

    done = client.post(
        action_url(tournament, 1, "abschliessen"), {"bestaetigt": "1", "grund": "Handy leer"}
    )
    assert done.status_code == 302
    assert tournament.round_set.get(number=1).status == Round.Status.CLOSED


def test_standings_keep_marking_hands_that_were_unconfirmed_at_the_close(
    client, director, one_hand_unconfirmed
):
    tournament = one_hand_unconfirmed
    first = tournament.round_set.get(number=1)
    at_table_one = _table_one_players(tournament)

    def marked() -> dict[int, int]:
        rows = selectors.standings(tournament, public=True)
        return {r.start_number: r.provisional for r in rows if r.provisional}

    assert marked() == dict.fromkeys(at_table_one, 1)
    services.close_round(first, reason="Handy leer")
    # closed with the hand unconfirmed: still marked, not "—" as if it had been confirmed
    assert marked() == dict.fromkeys(at_table_one, 1)
    fragment = client.get(reverse("scoring:standings_fragment", args=[tournament.pk]))
    assert shown_provisional(fragment.content.decode()) == {
        n: "1" if n in at_table_one else "—" for n in range(1, 10)
    }

    # the table page of the closed round says so too
    table = first.tables.get(number=1)
    client.force_login(director)
    page_url = reverse("scoring:table", args=[tournament.pk, 1, 1])
    mark = '<span class="unconfirmed">unbestätigt</span>'
    assert client.get(page_url).content.decode().count(mark) == 1

    # the director's adjustment after the close is the director's decision: not marked
    hand = table.hands.get(number=3)
    adjusted, evaluation = services.save_hand(
        table,
        hand_entry(table, 3, bid=310),
        director,
        expected_version=hand.version,
        reason="Reizwert laut Spielliste",
    )
    assert adjusted is not None, evaluation.errors
    assert marked() == {}
    assert mark not in client.get(page_url).content.decode()


# ------------------------------------------------ 2. an empty reason, said by the app


def test_empty_reason_for_a_close_is_the_apps_german_message_at_the_field(client, director):
    tournament = make_tournament(players=9, games_per_round=3)
    client.force_login(director)
    asked = client.post(action_url(tournament, 1, "abschliessen")).content.decode()
    form = re.search(r"<form[^>]*abschliessen[^>]*>", asked).group(0)
    assert "novalidate" in form  # no browser bubble in the browser's language first
    assert 'aria-describedby="err-grund"' in asked

    for empty in ("", "   "):
        response = client.post(
            action_url(tournament, 1, "abschliessen"), {"bestaetigt": "1", "grund": empty}
        )
        page = response.content.decode()
        assert response.status_code == 422
        assert field_error(page, "grund") == (
            "Grund: bitte angeben, warum die Runde trotz fehlender oder unbestätigter "
            "Eingaben abgeschlossen wird; ohne Grund bleibt sie offen."
        )
        assert re.search(r'<textarea[^>]*aria-invalid="true"', page)
        assert tournament.round_set.get(number=1).status == Round.Status.RUNNING

    too_long = client.post(
        action_url(tournament, 1, "abschliessen"), {"bestaetigt": "1", "grund": "x" * 501}
    )
    assert too_long.status_code == 422
    assert field_error(too_long.content.decode(), "grund") == "Grund: höchstens 500 Zeichen."
    assert tournament.round_set.get(number=1).status == Round.Status.RUNNING


# ------------------------------------------------ 3. a correction needs its reason


def test_a_correction_without_a_reason_is_refused_by_the_service(tournament, clerk):
    table = three_table(tournament)
    hand, _ = services.save_hand(table, entry(), clerk)
    for empty in ("", "  "):
        refused, evaluation = services.save_hand(
            table, entry(bid=310), clerk, expected_version=1, reason=empty
        )
        assert refused is None
        assert evaluation.errors == {
            "reason": ["Grund der Korrektur fehlt: bitte angeben, warum das Spiel geändert wird."]
        }
    # with other errors too, the reason is named among them (all at once)
    _, evaluation = services.save_hand(table, entry(bid=305), clerk, expected_version=1)
    assert "bid" in evaluation.errors and "reason" in evaluation.errors
    hand.refresh_from_db()
    assert hand.version == 1 and hand.bid == 300 and hand.history.count() == 1
    # a stale version is still told first (the clerk must see the new values)
    services.save_hand(table, entry(bid=310), clerk, expected_version=1, reason="Reizwert 310")
    with pytest.raises(services.StaleEntry):
        services.save_hand(table, entry(bid=320), clerk, expected_version=1)
    # a new hand needs no reason
    created, evaluation = services.save_hand(table, entry(number=2), clerk)
    assert created is not None, evaluation.errors


def test_a_correction_without_a_reason_is_refused_at_the_field(client, tournament, clerk):
    client.force_login(clerk)
    url, table = table_url(tournament)
    assert client.post(url, form_data(table)).status_code == 302
    response = client.post(url, form_data(table, bid=310, version=1, reason=" "))
    page = response.content.decode()
    assert response.status_code == 422
    assert field_error(page, "reason") == (
        "Grund der Korrektur fehlt: bitte angeben, warum das Spiel geändert wird."
    )
    assert Hand.objects.get().version == 1
    saved = client.post(url, form_data(table, bid=310, version=1, reason="Reizwert 310"))
    assert saved.status_code == 302
    hand = Hand.objects.get()
    assert hand.version == 2 and hand.history.latest("history_date").history_change_reason == (
        "Reizwert 310"
    )


def test_a_correction_from_the_tables_phone_needs_a_reason_too(client, tournament):
    tournament.table_entry = "opponent"
    tournament.save()
    _, table = table_url(tournament)
    page = reverse("table_entry:page", args=[links.live_link(table).token])
    assert client.post(page, form_data(table)).status_code == 302
    response = client.post(
        page, form_data(table, bid=310, version=1), HTTP_ACCEPT="application/json"
    )
    assert response.status_code == 422
    assert "Grund der Korrektur fehlt" in " ".join(response.json()["errors"]["reason"])
    assert Hand.objects.get().version == 1


# ------------------------------------------------ 4. the draw's seed box


def test_seed_box_has_a_german_label_and_help(client, director):
    tournament = make_tournament(players=9)
    services.close_round(tournament.round_set.get(number=1), reason="Test")
    client.force_login(director)
    page = client.get(reverse("scoring:clerk", args=[tournament.pk])).content.decode()
    box = re.search(r'<input[^>]*name="seed"[^>]*>', page).group(0)
    assert 'placeholder="Seed"' not in box and 'aria-label="Seed"' not in box
    box_id = re.search(r'id="([^"]+)"', box).group(1)
    assert f'<label for="{box_id}">Startwert (Seed)</label>' in page
    help_id = re.search(r'aria-describedby="([^"]+)"', box).group(1)
    help_text = re.search(rf'id="{help_id}">([^<]+)<', page).group(1)
    assert help_text.startswith("Freiwillig.") and "wiederholen" in help_text

    wrong = client.post(action_url(tournament, 2, "auslosen"), {"seed": "abc"}, follow=True)
    assert "Startwert (Seed): bitte eine ganze Zahl" in wrong.content.decode()
    assert not tournament.round_set.get(number=2).tables.exists()


# ------------------------------------------------ 5. scripts/venue --help


ENGLISH = re.compile(r"\b(usage|options|show this help|the|with|address to|load the)\b")


def test_venue_help_is_german_with_help_for_every_option(capsys):
    parser = venue.build_parser()
    options = [a for a in parser._actions if a.option_strings]
    assert len(options) == 14  # --workers became --processes and --threads; --befehl (37.28)
    for action in options:
        assert action.help and action.help != argparse.SUPPRESS, action.option_strings
    with pytest.raises(SystemExit) as done:
        venue.main(["--help"])
    assert done.value.code == 0
    text = capsys.readouterr().out
    assert text.startswith("Aufruf: scripts/venue")
    assert "\nOptionen:\n" in text and "Turnierabend auf dem Vereins-Laptop" in text
    assert "diese Hilfe zeigen und beenden" in text
    assert not ENGLISH.search(text), ENGLISH.search(text)
    # every option is listed with its help right after it (no option listed bare)
    flat = re.sub(r"\s+", "", text.split("\nOptionen:\n", 1)[1])
    for action in options:
        option = flat.index(action.option_strings[-1])
        help_text = re.sub(r"\s+", "", action.help % {"default": action.default})
        assert flat.find(help_text, option) > option, action.option_strings


def test_venue_help_from_the_command_line_and_a_german_error():
    shown = subprocess.run(
        [sys.executable, "-m", "operations.venue", "--help"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert shown.returncode == 0 and shown.stdout.startswith("Aufruf: scripts/venue")
    wrong = subprocess.run(
        [sys.executable, "-m", "operations.venue", "--port", "acht"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert wrong.returncode == 2
    assert "scripts/venue: Fehler: Option --port: keine ganze Zahl: 'acht'" in wrong.stderr
