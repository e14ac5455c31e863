"""Importing a club's member list (issue 41.5) through the pages: upload an XLSX or CSV
file, check the preview (column mapping, each row's result), import; files from Excel and
LibreOffice in their usual encodings and delimiters, known and registered players, rows
with errors named by row and column, refused files, and who may do it."""

from __future__ import annotations

from datetime import date

import lxml.html
import pytest
from django.urls import reverse

from tests.factories.member_lists import page, press, shown_form, upload, url, xlsx  # noqa: F401
from tournament import services
from tournament.models import Player, Registration

pytestmark = pytest.mark.django_db

HEADER = ["Nachname", "Vorname", "Verein", "Jahrgang", "Einwilligung"]


@pytest.fixture
def fresh(db):
    """A tournament without players."""
    return services.create_tournament(name="Vereinsmeisterschaft", date=date(2026, 11, 21))


@pytest.fixture
def director_client(client, director):
    client.force_login(director)
    return client


def results(response) -> list[list[str]]:
    """The preview table's rows: each cell's text, whitespace collapsed."""
    document = lxml.html.document_fromstring(page(response))
    return [
        [" ".join(td.text_content().split()) for td in tr.iter("td")]
        for tr in document.xpath("//table[contains(@class, 'preview-list')]/tbody/tr")
    ]


def registered(tournament) -> list[tuple]:
    return [
        (r.start_number, r.player.last_name, r.player.first_name, r.player.club,
         r.player.year_of_birth, r.consent_public)
        for r in tournament.registrations.select_related("player").order_by("start_number")
    ]  # fmt: skip


# --------------------------------------------------------------------------- files


def test_xlsx_with_header_and_umlauts(director_client, director, fresh):
    content = xlsx(
        [
            HEADER,
            ["Müller", "Jürgen", "SV Öhringen", 1965, "ja"],
            ["Bäuerle", "Käthe", "SV Öhringen", "1972", "nein"],
            ["Weiß", "Ömer", None, None, "x"],
        ]
    )
    players_before = Player.objects.count()
    response = upload(director_client, fresh, content)
    assert response.status_code == 200
    form = shown_form(response)
    assert {k: v for k, v in form.items() if k not in ("csrfmiddlewaretoken", "upload")} == {
        "last_name": "0", "first_name": "1", "full_name": "", "club": "2",
        "year_of_birth": "3", "consent": "4", "header": "on", "shown": "0,1,,2,3,4;1",
    }  # fmt: skip
    assert results(response) == [
        ["2", "Müller", "Jürgen", "SV Öhringen", "1965", "✓", "neuer Spieler"],
        ["3", "Bäuerle", "Käthe", "SV Öhringen", "1972", "—", "neuer Spieler"],
        ["4", "Weiß", "Ömer", "", "", "✓", "neuer Spieler"],
    ]
    # the preview alone stores nothing
    assert Registration.objects.count() == 0 and Player.objects.count() == players_before
    response = press(director_client, fresh, response)
    assert response.status_code == 302
    assert response["Location"] == reverse("tournament:registrations", args=[fresh.pk])
    assert registered(fresh) == [
        (1, "Müller", "Jürgen", "SV Öhringen", 1965, True),
        (2, "Bäuerle", "Käthe", "SV Öhringen", 1972, False),
        (3, "Weiß", "Ömer", "", None, True),
    ]
    assert Player.objects.get(last_name="Müller").last_consent_public
    shown = page(director_client.get(response["Location"]))
    assert "3 Spieler angemeldet (Startnummern 1–3)." in shown
    assert "Mitgliederliste importieren (Excel/CSV)" in shown
    created = Registration.history.filter(history_type="+").order_by("history_id")
    assert {(h.history_user, h.history_change_reason) for h in created} == {
        (director, "Aus Mitgliederliste importiert")
    }
    new_player = Player.history.get(history_type="+", last_name="Weiß")
    assert new_player.history_user == director


def test_windows_1252_semicolon_csv_without_header(director_client, fresh):
    content = "Müller;Jürgen;SV Öhringen;1965;ja\r\nSchäfer;Anna;TSV Weiß;1980;nein\r\n"
    response = upload(director_client, fresh, content.encode("cp1252"), "liste.csv")
    assert response.status_code == 200
    form = shown_form(response)
    assert "header" not in form  # no header row: the first row is a player
    assert results(response) == [
        ["1", "Müller", "Jürgen", "SV Öhringen", "1965", "✓", "neuer Spieler"],
        ["2", "Schäfer", "Anna", "TSV Weiß", "1980", "—", "neuer Spieler"],
    ]
    assert press(director_client, fresh, response).status_code == 302
    assert registered(fresh) == [
        (1, "Müller", "Jürgen", "SV Öhringen", 1965, True),
        (2, "Schäfer", "Anna", "TSV Weiß", 1980, False),
    ]


def test_tab_separated_paste_saved_as_csv(director_client, fresh):
    content = "Name\tVorname\tVerein\nMaier\tAnna\tSV Musterdorf\nHuber\tKarl\t\n"
    response = upload(director_client, fresh, content.encode(), "einfuegen.csv")
    form = shown_form(response)
    assert (form["last_name"], form["first_name"], form["club"]) == ("0", "1", "2")
    assert press(director_client, fresh, response).status_code == 302
    assert registered(fresh) == [
        (1, "Maier", "Anna", "SV Musterdorf", None, False),
        (2, "Huber", "Karl", "", None, False),
    ]


def test_utf8_bom_comma_csv_with_one_name_column(director_client, fresh):
    content = (
        "Name,Verein,Geburtsjahr,Veröffentlichung\r\n"
        '"Müller, Jürgen",SV Öhringen,1965,yes\r\n'
        '"Öztürk, Ayşe",,12.03.1990,\r\n'
    )
    response = upload(director_client, fresh, content.encode("utf-8-sig"), "export.csv")
    form = shown_form(response)
    assert (form["full_name"], form["last_name"], form["club"]) == ("0", "", "1")
    assert (form["year_of_birth"], form["consent"]) == ("2", "3")
    assert press(director_client, fresh, response).status_code == 302
    assert registered(fresh) == [
        (1, "Müller", "Jürgen", "SV Öhringen", 1965, True),
        (2, "Öztürk", "Ayşe", "", 1990, False),
    ]


# --------------------------------------------------------------------------- matching


def test_known_player_is_matched_not_doubled(director_client, fresh):
    known = Player.objects.create(first_name="Jürgen", last_name="Müller", club="SV Öhringen")
    content = xlsx([HEADER, ["Müller", "Jürgen", "SV Öhringen", 1965, "ja"]])
    response = upload(director_client, fresh, content)
    assert results(response)[0][-1] == f"bekannter Spieler Jürgen Müller (Spieler-Nr. {known.pk})"
    assert press(director_client, fresh, response).status_code == 302
    assert Player.objects.filter(last_name="Müller").count() == 1
    known.refresh_from_db()
    assert known.year_of_birth == 1965  # the year it lacked is stored
    assert fresh.registrations.get().player == known


def test_registered_player_is_not_registered_twice(director_client, fresh):
    player = Player.objects.create(first_name="Anna", last_name="Maier", club="TSV")
    services.register(fresh, player)
    gone = Player.objects.create(first_name="Gerd", last_name="Weg", club="TSV")
    services.withdraw(services.register(fresh, gone))
    content = xlsx(
        [
            HEADER,
            ["maier", "anna", "tsv", None, "ja"],  # as the pasted list: case ignored
            ["Huber", "Karl", "TSV", 1970, ""],
            ["Huber", "Karl", "TSV", 1970, ""],
            ["Weg", "Gerd", "TSV", None, ""],
        ]
    )
    response = upload(director_client, fresh, content)
    assert [r[-1] for r in results(response)] == [
        "schon angemeldet (Startnummer 1)",
        "neuer Spieler",
        "doppelt in der Datei (wie Zeile 3)",
        "Gerd Weg hat schon Startnummer 2 und ist abgemeldet vor Runde 1. Nicht neu "
        "anmelden, sondern in der Liste der Anmeldungen „wieder anmelden“ wählen.",
    ]
    assert (
        "Zeilen zum Anmelden: 1 von 4. Übersprungen (Fehler, doppelt oder schon angemeldet): 3."
        in page(response)
    )
    response = press(director_client, fresh, response)
    assert response.status_code == 302
    assert registered(fresh) == [
        (1, "Maier", "Anna", "TSV", None, False),
        (2, "Weg", "Gerd", "TSV", None, False),
        (3, "Huber", "Karl", "TSV", 1970, False),
    ]
    shown = page(director_client.get(response["Location"]))
    assert "Nicht angemeldete Zeilen (Fehler, doppelt oder schon angemeldet): 3." in shown


# --------------------------------------------------------------------------- errors


def test_bad_rows_are_named_by_row_and_column(director_client, fresh):
    content = xlsx(
        [
            HEADER,
            ["Müller", "Jürgen", "SV Öhringen", 1965, "ja"],
            ["Kurz", "Karl", "SV", "19x5", "ja"],
            ["Leer", None, "SV", 1970, "nein"],
            ["L" * 101, "Lang", "SV", 1970, "nein"],
            ["Vage", "Vera", "SV", 1970, "vielleicht"],
            [],
            ["Alt", "Adam", "SV", 1850, "ja"],
        ]
    )
    response = upload(director_client, fresh, content)
    assert response.status_code == 200
    errors = {r[0]: r[-1] for r in results(response)}
    assert errors == {
        "2": "neuer Spieler",
        "3": "Zeile 3, Spalte „Jahrgang“: „19x5“ ist kein Jahr.",
        "4": "Zeile 4, Spalte „Vorname“: Vorname fehlt.",
        "5": "Zeile 5, Spalte „Nachname“: mehr als 100 Zeichen.",
        "6": "Zeile 6, Spalte „Einwilligung“: „vielleicht“ ist weder ja noch nein.",
        "8": f"Zeile 8, Spalte „Jahrgang“: 1850 ist kein möglicher Jahrgang "
        f"(1900 bis {date.today().year}).",
    }
    response = press(director_client, fresh, response)
    assert response.status_code == 302
    assert registered(fresh) == [(1, "Müller", "Jürgen", "SV Öhringen", 1965, True)]


def test_errors_without_header_name_the_column_letter(director_client, fresh):
    content = "Müller,Jürgen,1965\nHuber,,1970\nSteuer\x0bzeichen,Sepp,1971\n"
    response = upload(director_client, fresh, content.encode(), "ohne.csv")
    assert [r[-1] for r in results(response)] == [
        "neuer Spieler",
        "Zeile 2, Spalte „B“: Vorname fehlt.",
        "Zeile 3, Spalte „A“: enthält das Zeichen U+000B (ein Steuer- oder Nichtzeichen), "
        "das in keiner Datei gespeichert werden kann.",
    ]


def test_a_full_name_without_comma_is_named(director_client, fresh):
    content = xlsx([["Name", "Verein"], ["Müller, Jürgen", "SV"], ["Huber Karl", "SV"]])
    response = upload(director_client, fresh, content)
    assert results(response)[1][-1] == (
        "Zeile 3, Spalte „Name“: „Huber Karl“ ist nicht „Nachname, Vorname“."
    )


@pytest.mark.parametrize(
    ("content", "name", "message"),
    [
        (b"x" * (2 * 1024 * 1024 + 1), "gross.csv", "Die Datei ist größer als 2 MB."),
        (
            "".join(f"N{i};V{i}\n" for i in range(2002)).encode(),
            "lang.csv",
            "Die Datei hat mehr als 2000 Zeilen.",
        ),
        (b"\xd0\xcf\x11\xe0" + b"\0" * 100, "alt.xls", "Alte Excel-Dateien (.xls)"),
        (b"PK\x03\x04kaputt", "kaputt.xlsx", "keine lesbare Excel-Datei (.xlsx)"),
        (b"\n\n;;\n", "leer.csv", "Die Datei enthält keine Zeile mit Daten."),
        ("Müller;Jürgen\n".encode("utf-16-be"), "x.csv", "weder UTF-8 noch Windows-1252"),
        (b"M\x81ller;J\x8drgen\n", "y.csv", "weder UTF-8 noch Windows-1252"),
        (b'"' + b"x" * 200_000 + b'"\n', "z.csv", "in Zeile 1 nicht lesbar (ein Feld ist zu lang)"),
    ],
)
def test_unreadable_files_are_refused_in_the_page(director_client, fresh, content, name, message):
    response = upload(director_client, fresh, content, name)
    assert response.status_code == 422
    assert message in page(response)
    assert Registration.objects.count() == 0


def test_mapping_is_changed_by_the_director(director_client, fresh):
    # a header the guess does not know: the first row is taken for a player
    content = xlsx([["Familie", "Ruf", "Ort"], ["Müller", "Jürgen", "Öhringen"]])
    response = upload(director_client, fresh, content)
    assert [r[0] for r in results(response)] == ["1", "2"]
    response = press(
        director_client, fresh, response, "preview", header="on", club="", first_name="0"
    )
    assert "Die Spalte „Familie“ ist mehreren Feldern zugeordnet." in page(response)
    response = press(director_client, fresh, response, "preview", first_name="1")
    assert results(response) == [["2", "Müller", "Jürgen", "", "", "—", "neuer Spieler"]]
    # the mapping changed after the preview: shown again, not imported
    response = press(director_client, fresh, response, club="2")
    assert response.status_code == 200 and Registration.objects.count() == 0
    assert "Die Zuordnung wurde geändert." in page(response)
    assert press(director_client, fresh, response).status_code == 302
    assert registered(fresh) == [(1, "Müller", "Jürgen", "Öhringen", None, False)]


def test_an_import_without_its_file_is_refused_in_the_page(director_client, fresh):
    response = upload(director_client, fresh, xlsx([HEADER, ["Müller", "Jürgen"]]))
    stale = shown_form(response)
    current = shown_form(upload(director_client, fresh, xlsx([HEADER, ["Huber", "Karl"]])))
    response = director_client.post(url(fresh), {**stale, "action": "import"})  # other window
    assert response.status_code == 422 and "nicht mehr da" in page(response)
    response = director_client.post(url(fresh), {**current, "action": "import", "club": "99"})
    assert response.status_code == 422 and "99 ist keine gültige Auswahl" in page(response)
    assert Registration.objects.count() == 0


def test_utf16_tab_text_from_excel(director_client, fresh):
    content = "Nachname\tVorname\nMüller\tJürgen\n".encode("utf-16")  # with its BOM
    response = upload(director_client, fresh, content, "unicode.txt")
    assert press(director_client, fresh, response).status_code == 302
    assert registered(fresh) == [(1, "Müller", "Jürgen", "", None, False)]


# --------------------------------------------------------------------------- access


def test_only_the_director_may_import(client, clerk, fresh):
    target = url(fresh)
    assert client.get(target).status_code == 302  # to the login
    client.force_login(clerk)
    assert client.get(target).status_code == 403
    content = xlsx([HEADER, ["Müller", "Jürgen", "SV", 1965, "ja"]])
    assert upload(client, fresh, content).status_code == 403
    response = client.post(target, {"action": "import", "upload": "x", "last_name": "0"})
    assert response.status_code == 403
    assert Registration.objects.count() == 0


# --------------------------------------------------------------------------- a club's list


def test_thirty_one_members_end_to_end(director_client, fresh):
    members = [
        [f"Müller{i}", f"Jürgen{i}", "SV Öhringen" if i % 2 else "TSV Weiß", 1950 + i,
         "ja" if i % 3 else "nein"]
        for i in range(1, 32)
    ]  # fmt: skip
    response = upload(director_client, fresh, xlsx([HEADER, *members]))
    assert "Zeilen zum Anmelden: 31 von 31." in page(response)
    response = press(director_client, fresh, response)
    assert response.status_code == 302
    assert fresh.registrations.count() == 31
    assert registered(fresh) == [
        (i, f"Müller{i}", f"Jürgen{i}", club, year, consent == "ja")
        for i, (_last, _first, club, year, consent) in enumerate(members, start=1)
    ]
    assert "31 Spieler angemeldet" in page(director_client.get(response["Location"]))
