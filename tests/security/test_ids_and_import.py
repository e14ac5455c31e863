"""Ids validated as ids, and malformed import files refused with the command's message
(red-team round, two LOW findings).

A. A number too big for the database's id column (``999999999999999999999``: SQLite raised
   ``OverflowError: Python int too large to convert to SQLite INTEGER``, which Django's
   choice fields do not catch) posted to a director's form made a 500: the player merge
   (``keep``, ``duplicate``), a new series (``tournaments``), a new tournament (``clerks``)
   and the registrations page (``consent``, category ticks, ``pair``).  Now every id field
   takes ASCII digits 1 … 2**63-1 only (:func:`tournament.params.id_value`,
   :class:`tournament.forms.IdField` and friends) and the registrations page checks its
   start numbers: a form error naming the field (422, the project's status for a refused
   form) or a 400 naming it, and nothing is changed.

B. ``import_tournament`` printed a traceback for a file nested 200,000 deep
   (``RecursionError``) or holding a 5,000-digit number (``ValueError: Exceeds the limit
   (4300 digits) for integer string conversion``); now it is the command's German message
   (``CommandError``) and nothing is written.  There is no import through the web.
"""

from __future__ import annotations

import json
from io import StringIO

import pytest
from django.core.exceptions import ValidationError
from django.core.management import call_command
from django.core.management.base import CommandError
from django.test import Client
from django.urls import reverse
from django.utils import translation

from prizes.models import Prize
from tests.factories.backups import exported, model_row_counts
from tests.factories.tournaments import make_tournament, partnership_tournament
from tournament import services as tournament_services
from tournament.forms import IdField, IdMultipleChoiceField
from tournament.models import Category, Player, Registration, Series, Tournament
from tournament.params import MAX_ID, BadNumber, id_value, parse_number

pytestmark = pytest.mark.django_db

#: Values that are no id: too big for any id column (the first is a valid 64-bit number
#: but no row's id), one above 2**63-1, far beyond it, negative and zero.
NO_IDS = ["999999999999999", "9223372036854775808", "99999999999999999999999", "-1", "0"]
#: The ones the old code sent to the database (``pk__in``) and got a 500 for on SQLite.
OVERFLOWING = ["9223372036854775808", "99999999999999999999999"]


@pytest.fixture(autouse=True)
def _german():
    """Each test starts in German and leaves German behind (a request in English leaves
    its language active in this thread)."""
    with translation.override("de"):
        yield


@pytest.fixture
def director_client(director) -> Client:
    client = Client(raise_request_exception=False)  # a 500 is a status, not an exception
    client.force_login(director)
    return client


def page(response) -> str:
    return response.content.decode()


# --------------------------------------------------------------------------- A: the parsers


@pytest.mark.parametrize("value", [*NO_IDS[1:], "", " 5", "5 ", "+5", "1.0", "1e3", "٣", "²"])
def test_id_value_refuses_what_is_no_id(value):
    assert id_value(value) is None


def test_id_value_reads_ids_in_the_bigint_range():
    assert id_value("1") == 1
    assert id_value("999999999999999") == 999999999999999
    assert id_value(str(MAX_ID)) == MAX_ID == 2**63 - 1
    assert id_value(MAX_ID + 1) is None
    assert id_value(True) is None


def test_parse_number_names_the_maximum_for_a_long_number():
    with pytest.raises(BadNumber, match="„spiel“: höchstens 60"):
        parse_number("9" * 5_000, "spiel", 60)  # refused before int() reads it
    with pytest.raises(BadNumber, match="„spiel“: bitte eine ganze Zahl"):
        parse_number("-1", "spiel", 60)
    assert parse_number("0007", "spiel", 60) == 7


def test_id_fields_refuse_no_ids_without_a_query(django_assert_num_queries):
    field = IdMultipleChoiceField(queryset=Tournament.objects.all(), label="Turniere")
    for value in NO_IDS[1:]:
        with django_assert_num_queries(0), pytest.raises(ValidationError) as exc:
            field.clean([value])
        assert exc.value.messages == [f"„Turniere“: {value} ist keine gültige Auswahl."]
    with pytest.raises(ValidationError) as exc:
        IdField(label="Spieler-Nr.").clean("99999999999999999999999")
    assert exc.value.messages == [
        "„Spieler-Nr.“: 99999999999999999999999 ist keine gültige Nummer."
    ]
    with pytest.raises(ValidationError) as exc:
        IdField(label="Spieler-Nr.").clean("9" * 5_000)
    assert exc.value.messages == [f"„Spieler-Nr.“: {'9' * 24}… ist keine gültige Nummer."]


# --------------------------------------------------------------------------- A: player merge


def shown(value: str) -> str:
    """``value`` as an error message shows it (cut after 24 characters)."""
    return value if len(value) <= 24 else f"{value[:24]}…"


@pytest.mark.parametrize("value", NO_IDS)
@pytest.mark.parametrize(
    ("field", "label"),
    [("keep", "Behalten: Spieler-Nr."), ("duplicate", "Zusammenführen: Spieler-Nr.")],
)
def test_player_merge_refuses_no_ids_naming_the_field(director_client, field, label, value):
    keep = Player.objects.create(first_name="Anna", last_name="Maier", club="TSV")
    twin = Player.objects.create(first_name="Anna", last_name="Maier", club="")
    data = {"keep": keep.pk, "duplicate": twin.pk, field: value}
    response = director_client.post(reverse("tournament:players"), data)
    assert response.status_code == 422
    if value == "999999999999999":  # a valid id that no player has
        expected = f"Spieler-Nr. {value} gibt es nicht."
    else:
        expected = f"„{label}“: {shown(value)} ist keine gültige Nummer."
    assert f'id="err-{field}">{expected}</div>' in page(response)
    assert set(Player.objects.values_list("pk", flat=True)) == {keep.pk, twin.pk}  # no merge


# --------------------------------------------------------------------------- A: series


@pytest.mark.parametrize("value", NO_IDS)
def test_new_series_refuses_no_ids_naming_the_field(director_client, value):
    evening = make_tournament(players=4)
    response = director_client.post(
        reverse("series:create"),
        {"name": "Winter-Cup", "season": "2026", "tournaments": [evening.pk, value]},
    )
    assert response.status_code == 422
    assert f"„Turniere (Abende)“: {shown(value)} ist keine gültige Auswahl." in page(response)
    assert not Series.objects.exists()


def test_editing_a_series_refuses_no_ids(director_client):
    evening = make_tournament(players=4)
    series = Series.objects.create(name="Winter-Cup", season="2026")
    series.tournaments.add(evening)
    response = director_client.post(
        reverse("series:edit", args=[series.pk]),
        {"name": "Umbenannt", "season": "2026", "tournaments": [OVERFLOWING[1]]},
    )
    assert response.status_code == 422
    assert "„Turniere (Abende)“: 99999999999999999999999 ist keine gültige Auswahl." in page(
        response
    )
    series.refresh_from_db()
    assert series.name == "Winter-Cup" and list(series.tournaments.all()) == [evening]


# --------------------------------------------------------------------------- A: tournament


NEW_TOURNAMENT = {
    "name": "Herbstbinokel",
    "date": "2026-11-28",
    "venue": "Esslingen",
    "preset": "club-tournament",
    "rounds": 3,
    "games_per_round": 12,
    "four_table_mode": "sit-out",
    "entry_mode": "hands",
}


@pytest.mark.parametrize("value", NO_IDS)
def test_new_tournament_refuses_clerks_that_are_no_ids(director_client, clerk, value):
    response = director_client.post(
        reverse("tournament:create"), {**NEW_TOURNAMENT, "clerks": [clerk.pk, value]}
    )
    assert response.status_code == 422
    assert f"„Schreiber dieses Turniers“: {shown(value)} ist keine gültige Auswahl." in page(
        response
    )
    assert not Tournament.objects.exists()


def test_new_tournament_with_a_valid_clerk_is_created(director_client, clerk):
    response = director_client.post(
        reverse("tournament:create"), {**NEW_TOURNAMENT, "clerks": [clerk.pk]}
    )
    assert response.status_code == 302
    assert list(Tournament.objects.get().clerks.all()) == [clerk]


# --------------------------------------------------------------------------- A: registrations


@pytest.fixture
def evening(db):
    return make_tournament(players=6, consent=lambda i: False)


def consents(tournament) -> dict[int, bool]:
    return dict(tournament.registrations.values_list("start_number", "consent_public"))


@pytest.mark.parametrize("value", NO_IDS)
def test_consent_refuses_what_is_no_start_number(director_client, evening, value):
    url = reverse("tournament:registrations", args=[evening.pk])
    before = consents(evening)
    response = director_client.post(url, {"action": "consent", "consent": ["2", value]})
    assert response.status_code == 400
    if value == "0":
        expected = "„Zustimmung“: Startnummer 0 ist nicht angemeldet."
    elif value == "-1":
        expected = "Ungültige Angabe für „Zustimmung“: bitte eine ganze Zahl aus den Ziffern 0–9."
    else:
        expected = "Ungültige Angabe für „Zustimmung“: höchstens 99999."
    assert expected in page(response)
    assert consents(evening) == before  # start number 2 not ticked either: all or nothing


def test_consent_refuses_a_start_number_that_is_not_registered(director_client, evening):
    url = reverse("tournament:registrations", args=[evening.pk])
    response = director_client.post(url, {"action": "consent", "consent": ["2", "77"]})
    assert response.status_code == 400
    assert "„Zustimmung“: Startnummer 77 ist nicht angemeldet." in page(response)
    assert not any(consents(evening).values())
    response = director_client.post(url, {"action": "consent", "consent": ["2"]})
    assert response.status_code == 302 and consents(evening)[2]


@pytest.mark.parametrize("value", NO_IDS)
def test_category_ticks_refuse_what_is_no_start_number(director_client, evening, value):
    youth = tournament_services.add_category(evening, "Jugend")
    youth.registrations.add(evening.registrations.get(start_number=1))
    url = reverse("tournament:registrations", args=[evening.pk])
    response = director_client.post(url, {"action": "categories", f"cat-{youth.pk}": ["3", value]})
    assert response.status_code == 400
    assert "Ungültige Angabe für „Kategorie Jugend“" in page(response) or (
        "„Kategorie Jugend“: Startnummer 0 ist nicht angemeldet." in page(response)
    )
    assert [r.start_number for r in youth.registrations.all()] == [1]


@pytest.mark.parametrize("value", NO_IDS)
def test_unpairing_refuses_what_is_no_pair(director_client, value):
    tournament = partnership_tournament(4, Tournament.EventType.PAIRS)
    url = reverse("tournament:registrations", args=[tournament.pk])
    response = director_client.post(url, {"action": "unpair", "pair": value})
    assert response.status_code == 400
    assert "„Paar“" in page(response)
    assert Registration.objects.filter(pair=1).count() == 2
    response = director_client.post(url, {"action": "unpair", "pair": "3"})
    assert response.status_code == 400
    assert "„Paar“: Paar 3 gibt es nicht." in page(response)
    response = director_client.post(url, {"action": "unpair", "pair": "1"})
    assert response.status_code == 302
    assert not Registration.objects.filter(pair=1).exists()


@pytest.mark.parametrize("value", OVERFLOWING + ["-1", "0"])
def test_registration_refuses_a_chosen_player_that_is_no_id(director_client, evening, value):
    url = reverse("tournament:registrations", args=[evening.pk])
    before = model_row_counts()
    response = director_client.post(
        url,
        {
            "action": "one",
            "first_name": "Neu",
            "last_name": "Spieler",
            "first_round": "1",
            "player_id": value,
        },
    )
    assert response.status_code == 422
    # the hidden field's error is shown on the page
    assert f'id="err-player_id">„Spieler-Nr.“: {shown(value)} ist keine gültige Nummer.' in page(
        response
    )
    assert model_row_counts() == before


# --------------------------------------------------------------------------- A: prizes


def prize_post(**line) -> dict:
    data = {
        "action": "prizes",
        "prize-TOTAL_FORMS": "1",
        "prize-INITIAL_FORMS": "0",
        "prize-0-kind": "place",
        "prize-0-place": "1",
        "prize-0-cash": "50",
    }
    data.update({f"prize-0-{name}": value for name, value in line.items()})
    return data


@pytest.mark.parametrize("value", NO_IDS)
def test_prize_list_refuses_ids_that_are_no_ids(director_client, evening, value):
    url = reverse("prizes:setup", args=[evening.pk])
    response = director_client.post(url, prize_post(id=value))
    assert response.status_code == 422
    assert f"„Preis-Nr.“: {shown(value)} ist keine gültige Auswahl." in page(response)
    category = Category.objects.create(tournament=evening, name="Damen", slug="damen")
    response = director_client.post(url, prize_post(kind="category", category=value))
    assert response.status_code == 422
    assert f"„Kategorie“: {shown(value)} ist keine gültige Auswahl." in page(response)
    assert not Prize.objects.exists()
    response = director_client.post(url, prize_post(kind="category", category=category.pk))
    assert response.status_code == 302 and Prize.objects.get().category == category


# --------------------------------------------------------------------------- A: addresses


@pytest.mark.parametrize("value", OVERFLOWING)
def test_huge_numbers_in_addresses_are_not_found(director_client, evening, value):
    pk = evening.pk
    urls = [
        f"/turnier/{value}/",
        f"/turnier/{value}/anmeldungen/",
        f"/turnier/{pk}/anmeldungen/{value}/",
        f"/turnier/{pk}/runde/{value}/plan/",
        f"/turnier/{pk}/preise/festlegen/?x={value}",
        f"/serie/{value}/",
        f"/serie/{value}/bearbeiten/",
        f"/turnier/{pk}/?kategorie={value}",
        f"/turnier/{pk}/rangliste/?kategorie={value}",
        f"/spieler/?q={value}",
        f"/turnier/{pk}/erfassung/",
        f"/turnier/{pk}/runde/1/tisch/{value}/",
        f"/turnier/{pk}/runde/{value}/tisch/1/",
        f"/turnier/{pk}/runde/1/tisch/1/?spiel={value}",
        f"/turnier/{pk}/runde/1/tisch/1/entscheidung/?spiel={value}",
        f"/turnier/{pk}/druck/runde/{value}/spielliste.pdf",
        f"/turnier/{value}/druck/rangliste.pdf",
        f"/serie/{value}/druck/rangliste.pdf",
        f"/turnier/{value}/tischlinks/",
    ]
    statuses = {url: director_client.get(url).status_code for url in urls}
    assert all(status in (200, 400, 404) for status in statuses.values()), statuses
    response = director_client.get(f"/turnier/{pk}/?runde={value}")
    assert response.status_code == 400
    assert "Ungültige Angabe für „runde“: höchstens" in page(response)


def test_messages_are_translated(director_client, evening):
    director_client.post(reverse("set_language"), {"language": "en", "next": "/"})
    response = director_client.post(
        reverse("tournament:players"), {"keep": OVERFLOWING[0], "duplicate": "1"}
    )
    assert response.status_code == 422
    assert "“Keep: player no.”: 9223372036854775808 is not a valid number." in page(response)
    response = director_client.post(
        reverse("tournament:registrations", args=[evening.pk]),
        {"action": "consent", "consent": ["77"]},
    )
    assert response.status_code == 400
    assert "“Consent”: start number 77 is not registered." in page(response)


# --------------------------------------------------------------------------- B: import


def refused_text(tmp_path, text: str) -> str:
    """The message of ``import_tournament`` refusing a file holding ``text``; asserts that
    nothing was written."""
    path = tmp_path / "turnier.json"
    path.write_text(text, encoding="utf-8")
    before = model_row_counts()
    with pytest.raises(CommandError) as exc:
        call_command("import_tournament", str(path), stdout=StringIO())
    assert model_row_counts() == before
    return str(exc.value)


@pytest.mark.parametrize(
    "text",
    [
        "[" * 200_000 + "]" * 200_000,
        '{"a": ' * 200_000 + "1" + "}" * 200_000,
        "[" * 200_000,  # and not even closed
    ],
    ids=["list", "object", "unclosed"],
)
def test_deeply_nested_json_is_refused_with_the_commands_message(tmp_path, text):
    message = refused_text(tmp_path, text)
    assert "ist keine gültige JSON-Datei" in message


@pytest.mark.parametrize(
    "text",
    [
        "9" * 5_000,
        '{"format": "binokel-turnier", "version": ' + "1" * 5_000 + "}",
        "-" + "9" * 5000,
    ],
    ids=["bare", "in-object", "negative"],
)
def test_an_endless_number_is_refused_with_the_commands_message(tmp_path, text):
    message = refused_text(tmp_path, text)
    assert "ist keine gültige JSON-Datei: eine Zahl ist zu lang oder die Schachtelung zu tief." in (
        message
    )


def test_the_import_message_is_translated(tmp_path):
    with translation.override("en"):
        message = refused_text(tmp_path, "[" * 200_000)
    assert "is not a valid JSON file: a number is too long or the nesting too deep." in message


def test_an_endless_number_inside_a_real_export_is_refused(small, tmp_path):
    text = json.dumps(exported(small))
    text = text.replace('"rounds": 3', '"rounds": ' + "7" * 5_000, 1)
    assert "7" * 5_000 in text
    assert "eine Zahl ist zu lang" in refused_text(tmp_path, text)


def test_nesting_just_below_the_parsers_limit_is_refused_cleanly(small, tmp_path):
    """Nesting the parser still reads, inside the export: refused by the checks, whether
    they recurse or not."""
    data = exported(small)
    deep: object = 1
    for _ in range(900):
        deep = [deep]
    tournament = next(o for o in data["objects"] if o["model"] == "tournament.tournament")
    tournament["fields"]["ruleset_json"] = deep
    refused_text(tmp_path, json.dumps(data))
    data["migrations"] = {"scoring": [[["0001_initial"]]], "tournament": {"a": deep}}
    message = refused_text(tmp_path, json.dumps(data))
    assert "migrations" in message


@pytest.mark.parametrize(
    ("key", "value"),
    [
        ("migrations", {"scoring": [["0001_initial"]]}),
        ("migrations", {"scoring": {"0001_initial": 1}}),
        ("migrations", {"scoring": [None]}),
        ("counts", {"tournament.tournament": [1]}),
        ("counts", []),
        ("tournament", [1]),
        ("tournament", 10**30),
        ("version", 10**4000),
    ],
)
def test_malformed_top_level_values_are_refused_with_a_message(small, tmp_path, key, value):
    data = exported(small)
    data[key] = value
    message = refused_text(tmp_path, json.dumps(data))
    assert message.strip()
