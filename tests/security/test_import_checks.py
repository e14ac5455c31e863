"""An imported tournament file is checked like typed input (issue 16, item 3): each bad
file is refused with a message naming what is wrong, and nothing is written."""

from __future__ import annotations

import json
from io import StringIO

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.core.management.base import CommandError
from django.test import Client

from archive import transfer
from scoring import services
from scoring.models import Hand, RoundTotal
from tests.factories.backups import exported, model_row_counts, objects_of, page_statuses
from tests.factories.hands import acting_as
from tests.factories.tournaments import make_tournament
from tournament.models import Tournament


def import_file(tmp_path, data, *options) -> str:
    """Run ``manage.py import_tournament`` on ``data``; its output."""
    path = tmp_path / "turnier.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    out = StringIO()
    call_command("import_tournament", str(path), *options, stdout=out)
    return out.getvalue()


def refused(tmp_path, data, *options) -> str:
    """The message of the refused import of ``data``; asserts nothing was written."""
    before = model_row_counts()
    with pytest.raises(CommandError) as exc:
        import_file(tmp_path, data, *options)
    assert model_row_counts() == before
    return str(exc.value)


def tournament_fields(data):
    return objects_of(data, "tournament.tournament")[0]["fields"]


def first_hand(data, number=1):
    return next(o for o in objects_of(data, "scoring.hand") if o["fields"]["number"] == number)


def test_garbage_ruleset_is_refused(small, tmp_path):
    data = exported(small)
    tournament_fields(data)["ruleset_json"] = {"melds": [], "min_bid": "viel"}
    message = refused(tmp_path, data)
    assert "Regelwerk des Turniers in der Datei ist ungültig" in message
    tournament_fields(data)["ruleset_json"] = "kein Regelwerk"
    assert "ungültig" in refused(tmp_path, data)


def test_ruleset_whose_fingerprint_does_not_match_is_refused(small, tmp_path):
    data = exported(small)
    ruleset = tournament_fields(data)["ruleset_json"]
    ruleset["min_bid"] = ruleset["min_bid"] + 50
    ruleset.pop("fingerprint")  # consistent in itself, but not the frozen ruleset
    assert "Fingerabdruck" in refused(tmp_path, data)
    ruleset["fingerprint"] = tournament_fields(data)["ruleset_fingerprint"]  # claimed inside
    assert "Fingerabdruck" in refused(tmp_path, data)


def test_altered_hand_points_are_refused_naming_the_hand(small, tmp_path):
    data = exported(small)
    hand = first_hand(data)
    table = next(
        o for o in objects_of(data, "tournament.table") if o["pk"] == hand["fields"]["table"]
    )
    stored = hand["fields"]["scores"]
    declarer = hand["fields"]["declarer"]
    altered = list(stored)
    altered[declarer] += 500
    hand["fields"]["scores"] = altered
    message = refused(tmp_path, data)
    assert (
        f"Runde 1, Tisch {table['fields']['number']}, Spiel 1: in der Datei "
        f"{' / '.join(map(str, altered))}, nach den Regeln {' / '.join(map(str, stored))}"
    ) in message
    assert "--rescore" in message


def test_altered_seat_scores_are_refused(small, tmp_path):
    data = exported(small)
    objects_of(data, "scoring.seatscore")[0]["fields"]["points"] += 10
    assert "passen nicht zu den Spielen" in refused(tmp_path, data)


def test_rescore_imports_the_engines_points_and_lists_what_changed(small, tmp_path):
    data = exported(small)
    hand = first_hand(data)
    stored = list(hand["fields"]["scores"])
    hand["fields"]["scores"] = [p + 1000 for p in stored]
    out = import_file(tmp_path, data, "--rescore")
    assert "Nach den Regeln neu berechnet (1):" in out
    assert f"nach den Regeln {' / '.join(map(str, stored))}" in out
    copy = Tournament.objects.exclude(pk=small.pk).get()
    imported = Hand.objects.get(table__round__tournament=copy, pk__in=_hand_ids(copy), number=1)
    original = Hand.objects.filter(table__round__tournament=small, number=1)
    assert imported.scores == stored
    assert imported.scores in [h.scores for h in original]
    # the correction is history: a new version saying why
    latest = imported.history.order_by("-history_date", "-history_id").first()
    assert latest.version == imported.version
    assert "neu berechnet" in latest.history_change_reason
    assert _standings(copy) == _standings(small)


def _hand_ids(tournament):
    tables = {}
    for hand in Hand.objects.filter(table__round__tournament=tournament).order_by("table__number"):
        tables.setdefault(hand.number, hand.pk)
    return [tables[1]]


def _standings(tournament):
    from scoring import selectors

    return [(r.start_number, r.total) for r in selectors.standings(tournament, public=False)]


def test_altered_round_totals_are_refused(clerk, director, tmp_path):
    tournament = make_tournament(entry_mode="totals")
    table = tournament.round_set.get(number=1).tables.order_by("number").first()
    seats = services.table_seats(table)
    entries = {s.position: services.TotalInput(points=120, won=1, lost=0) for s in seats}
    with acting_as(clerk):
        services.save_round_totals(table, entries, clerk)
    data = exported(tournament)
    total = objects_of(data, "scoring.roundtotal")[0]
    total["fields"]["points"] = 1_000_005  # no evening of hands gives that
    assert "Runde 1, Tisch" in refused(tmp_path, data)
    total["fields"]["points"] = 120
    total["fields"]["games_won"] = 40  # more declarer games than games
    assert "Runde 1, Tisch" in refused(tmp_path, data)


def test_round_totals_in_a_tournament_that_enters_hands_are_refused(small, tmp_path):
    data = exported(small)
    hand_total = {
        "model": "scoring.roundtotal",
        "pk": 1,
        "fields": {
            "round": objects_of(data, "tournament.round")[0]["pk"],
            "registration": objects_of(data, "tournament.registration")[0]["pk"],
            "points": 5000,
            "games_won": 0,
            "games_lost": 0,
            "version": 1,
            "entered_by": "clerk",
            "updated_at": "2026-11-21T20:00:00+00:00",
        },
    }
    data["objects"].append(hand_total)
    data["counts"]["scoring.roundtotal"] = 1
    assert "Rundensummen in einem Turnier, das jedes Spiel erfasst" in refused(tmp_path, data)
    assert not RoundTotal.objects.exists()


@pytest.mark.parametrize(
    ("label", "field", "value"),
    [
        ("scoring.hand", "bid", 2**31),
        ("scoring.hand", "bid", 10**30),
        ("tournament.round", "seed", 2**70),
        ("tournament.registration", "start_number", 2**40),
        ("tournament.tournament", "rounds", 40_000),
        ("scoring.hand", "number", -1),
    ],
)
def test_numbers_too_large_for_the_database_are_refused(small, tmp_path, label, field, value):
    data = exported(small)
    objects_of(data, label)[0]["fields"][field] = value
    message = refused(tmp_path, data)
    assert f"Feld »{field}«" in message and "liegt nicht zwischen" in message


@pytest.mark.parametrize(
    ("label", "field", "length"),
    [
        ("tournament.player", "first_name", 101),
        ("tournament.tournament", "name", 10_000),
        ("scoring.ruling", "claim", 2001),
        ("scoring.historicalhand", "history_change_reason", 20_000),
    ],
)
def test_over_long_strings_are_refused(small, tmp_path, label, field, length):
    data = exported(small)
    objects_of(data, label)[-1]["fields"][field] = "x" * length
    message = refused(tmp_path, data)
    assert f"Feld »{field}«" in message and "zu lang" in message


def test_nul_characters_and_wrong_types_are_refused(small, tmp_path):
    data = exported(small)
    objects_of(data, "tournament.player")[0]["fields"]["club"] = "TSV\x00"
    assert "Nullzeichen" in refused(tmp_path, data)
    data = exported(small)
    objects_of(data, "tournament.tournament")[0]["fields"]["confirmation_required"] = "ja"
    assert "true oder false" in refused(tmp_path, data)
    data = exported(small)
    first_hand(data)["fields"]["melds"] = [[1], {"a": 2}]
    assert "Feld »melds«" in refused(tmp_path, data)


def test_unknown_user_names_create_no_account_and_are_kept_as_text(small, tmp_path):
    data = exported(small)
    hand = first_hand(data)
    hand["fields"]["entered_by"] = "fremde-schreiberin"
    hand["fields"]["confirmed_by"] = "fremder-pruefer"
    for record in objects_of(data, "scoring.historicalhand"):
        if record["fields"]["id"] == hand["pk"]:
            record["fields"]["history_user"] = "fremde-schreiberin"
    tournament_fields(data)["clerks"] = ["clerk", "fremde-schreiberin"]
    accounts = get_user_model().objects.count()

    out = import_file(tmp_path, data)

    assert get_user_model().objects.count() == accounts
    assert not get_user_model().objects.filter(username__startswith="fremd").exists()
    assert "fremde-schreiberin, fremder-pruefer" in out
    assert (
        "Schreiber in der Datei: clerk, fremde-schreiberin; Rechte bitte von Hand vergeben" in out
    )
    copy = Tournament.objects.exclude(pk=small.pk).get()
    assert not copy.clerks.exists()  # nobody is granted anything, known accounts neither
    imported = Hand.objects.get(table__round__tournament=copy, entered_by_name="fremde-schreiberin")
    assert imported.entered_by is None and imported.enterer == "fremde-schreiberin"
    assert imported.confirmed and imported.confirmer == "fremder-pruefer"
    history = imported.history.order_by("history_date", "history_id")
    assert {r.history_user_label for r in history} == {"fremde-schreiberin"}
    assert all(status < 500 for status in page_statuses(copy).values())
    # the clerk's page names the enterer and confirmer as typed
    client = Client()
    client.force_login(get_user_model().objects.get(username="director"))
    page = client.get(f"/turnier/{copy.pk}/runde/1/tisch/{imported.table.number}/")
    assert page.status_code == 200
    assert "fremder-pruefer" in page.content.decode()


def test_a_valid_file_imports_and_every_page_answers(small, tmp_path):
    out = import_file(tmp_path, exported(small))
    copy = Tournament.objects.exclude(pk=small.pk).get()
    assert f"Nr. {copy.pk}" in out
    assert set(page_statuses(copy).values()) == {200}
    assert _standings(copy) == _standings(small)


def test_refusals_are_translated(small):
    from django.utils import translation

    data = exported(small)
    first_hand(data)["fields"]["bid"] = 2**40
    with translation.override("en"), pytest.raises(transfer.TransferError) as exc:
        transfer.run_import(data)
    assert "field “bid”: 1099511627776 is not between 0 and 100000." in str(exc.value)


@pytest.mark.parametrize("value", ["9999-12-31T23:59:59+00:00", "0001-01-01T00:00:00+00:00"])
def test_far_dates_are_refused(small, tmp_path, value):
    data = exported(small)
    tournament_fields(data)["created_at"] = value
    message = refused(tmp_path, data)
    assert "Feld »created_at«: das Jahr muss zwischen 1900 und 2999 liegen." in message


def test_control_characters_in_names_are_refused(small, tmp_path):
    """Found by the fuzz: a player name with a control character made the XLSX export
    answer 500; an imported file may not bring one."""
    data = exported(small)
    objects_of(data, "tournament.player")[0]["fields"]["last_name"] = "Nach\x1bname"
    assert "Feld »last_name«: enthält ein Steuerzeichen." in refused(tmp_path, data)
