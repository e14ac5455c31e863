"""Name badges and running slips ("Laufzettel", issue 41 part 7): a badge and a slip for every
registered player, ten badges and four slips per A4 page; names and clubs only with
consent (as on the table plan and the table cards); on each slip the table and seat of
every round drawn so far, an empty box for a round not drawn yet and "–" for a round the
player does not play; for the director only."""

from __future__ import annotations

import pytest
from django.urls import reverse

from printing import documents
from tests.factories.pdf import layout, needs_pdftotext, pages, text_of
from tests.factories.tournaments import close_round_anyway, make_tournament
from tournament import services
from tournament.models import Player, Seat

pytestmark = [pytest.mark.django_db, needs_pdftotext]

LONG_LAST_NAME = "Übelhör-Schwäbisch" + "Langname" * 10
LONG_CLUB = "Binokelfreunde Köngen-Wendlingen am Neckar e. V. " * 4
#: a millimetre in PDF points
MM = 72 / 25.4
#: where the badges lie on an A4 page (the page's margins, printing/badges.html) and their
#: size, in mm: two columns of five
BADGES = {"left": 14, "top": 18, "width": 90, "height": 50, "columns": 2, "rows": 5}
#: the slips: four one above the other, 186 mm wide (printing/running_slips.html)
SLIPS = {"left": 12, "top": 16, "width": 186, "height": 64, "columns": 1, "rows": 4}


@pytest.fixture
def evening(db):
    """Eleven players (3, 6 and 9 without consent; 2 with a very long name and club); 5
    withdrawn after round 1; a late arrival, Käthe Spät (start number 12), from round 2;
    rounds 1 and 2 drawn, round 3 not yet."""
    tournament = make_tournament(players=11)
    player = Player.objects.get(last_name="Nachname2")
    player.first_name, player.last_name, player.club = "Jürgen", LONG_LAST_NAME, LONG_CLUB
    player.save()
    services.withdraw(tournament.registrations.get(start_number=5))
    late = Player.objects.create(first_name="Käthe", last_name="Spät", club="SV Öhringen")
    services.register(tournament, late, first_round=2, consent_public=True)
    close_round_anyway(tournament)
    services.draw_round(tournament.round_set.get(number=2), seed=3)
    return tournament


def _get_pdf(client, name, tournament) -> bytes:
    response = client.get(reverse(f"printing:{name}", args=[tournament.pk]))
    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
    return response.content


def _unspaced(text: str) -> str:
    """``text`` without any whitespace: a name wrapped anywhere reads as one word again."""
    return "".join(text.split())


def _expected_cell(registration, number: int) -> str:
    seat = Seat.objects.filter(registration=registration, round__number=number).first()
    if seat is not None:
        return f"Tisch {seat.table.number} Platz {seat.position + 1}"
    return "" if registration.plays_in(number) else "–"


def _boxes(pdf: bytes, grid: dict) -> list[list]:
    """The words of each badge (or slip) in ``grid``, page by page, left to right and top to
    bottom, each box's words in reading order; the head and foot of the page are left out.
    Asserts that every word lies wholly inside its box: nothing runs into the next one."""
    boxes = []
    for page in layout(pdf):
        cells: dict[tuple[int, int], list] = {}
        for word in page.words:
            column = int((word.centre - grid["left"] * MM) // (grid["width"] * MM))
            row = int((word.y0 - grid["top"] * MM) // (grid["height"] * MM))
            if not (0 <= column < grid["columns"] and 0 <= row < grid["rows"]):
                continue  # the page's head or foot
            left = (grid["left"] + column * grid["width"]) * MM
            top = (grid["top"] + row * grid["height"]) * MM
            assert left <= word.x0 and word.x1 <= left + grid["width"] * MM, word
            assert top <= word.y0 and word.y1 <= top + grid["height"] * MM, word
            cells.setdefault((row, column), []).append(word)
        for key in sorted(cells):
            boxes.append(sorted(cells[key], key=lambda w: (round(w.y0), w.x0)))
    return boxes


def _texts(pdf: bytes, grid: dict) -> list[str]:
    """The text of each box of :func:`_boxes`, its words joined by spaces."""
    return [" ".join(w.text for w in words) for words in _boxes(pdf, grid)]


def _slip_cells(words: list) -> list[str]:
    """The text in each round's box of a slip (its ``words``): each box lies under its
    "Runde k" heading."""
    heads = [w for w in words if w.text == "Runde"]
    width = heads[1].x0 - heads[0].x0
    cells = []
    for head in heads:
        left = head.centre - width / 2
        inside = [w for w in words if w.y0 > head.y1 + 1 and left <= w.centre < left + width]
        cells.append(" ".join(w.text for w in sorted(inside, key=lambda w: (w.y0, w.x0))))
    return cells


def test_only_the_director_prints_badges_and_slips(client, clerk, director, evening):
    for name, filename in (("badges", "namensschilder.pdf"), ("running_slips", "laufzettel.pdf")):
        url = reverse(f"printing:{name}", args=[evening.pk])
        client.logout()
        response = client.get(url)
        assert response.status_code == 302 and "/login/" in response["Location"]
        client.force_login(clerk)
        assert client.get(url).status_code == 403
        client.force_login(director)
        response = client.get(url)
        assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
        assert filename in response["Content-Disposition"]
        assert "no-store" in response["Cache-Control"]  # every name: never kept in a cache
        missing = reverse(f"printing:{name}", args=[evening.pk + 1000])
        assert client.get(missing).status_code == 404


def test_a_badge_for_every_player_ten_per_page_names_and_clubs_only_with_consent(
    as_director, evening
):
    pdf = _get_pdf(as_director, "badges", evening)
    assert len(pages(text_of(pdf))) == 2  # twelve badges
    badges = _texts(pdf, BADGES)
    registrations = list(evening.registrations.select_related("player"))
    assert len(badges) == len(registrations) == 12
    for reg, badge in zip(registrations, badges, strict=True):
        player = reg.player
        assert badge.startswith("Testturnier · 21.11.2026 "), badge
        if reg.consent_public:
            assert _unspaced(f"{player.first_name}{player.last_name}") in _unspaced(badge)
            assert _unspaced(player.club) in _unspaced(badge)
            assert badge.endswith(f"Nr. {reg.start_number}"), badge
        else:  # by start number only, as on the table plan and the table cards
            assert badge == f"Testturnier · 21.11.2026 Nr. {reg.start_number}"
    # umlauts, a very long name and club are printed whole, wrapped within their badge
    assert badges[11] == "Testturnier · 21.11.2026 Käthe Spät SV Öhringen Nr. 12"
    assert _unspaced(f"Jürgen {LONG_LAST_NAME}") in _unspaced(badges[1])
    assert _unspaced(LONG_CLUB) in _unspaced(badges[1])


def test_each_slip_shows_its_players_table_in_every_drawn_round(as_director, evening):
    pdf = _get_pdf(as_director, "running_slips", evening)
    assert len(pages(text_of(pdf))) == 3  # twelve slips, four per page
    slips = _boxes(pdf, SLIPS)
    registrations = list(evening.registrations.select_related("player"))
    assert len(slips) == len(registrations)
    cells = {}
    for reg, words in zip(registrations, slips, strict=True):
        text = " ".join(w.text for w in words)
        assert f"Nr. {reg.start_number}" in text
        cells[reg.start_number] = _slip_cells(words)
        assert cells[reg.start_number] == [_expected_cell(reg, n) for n in (1, 2, 3)], reg
    # round 3 is not drawn: an empty box for everyone who plays it
    assert all(cells[r.start_number][2] == "" for r in registrations if r.start_number != 5)
    # withdrawn after round 1: seated in round 1, "–" after; the late arrival: "–" before
    assert cells[5][0].startswith("Tisch ") and cells[5][1:] == ["–", "–"]
    assert cells[12][0] == "–" and cells[12][1].startswith("Tisch ")


def test_slips_name_only_players_who_consented(as_director, evening):
    slips = _texts(_get_pdf(as_director, "running_slips", evening), SLIPS)
    registrations = list(evening.registrations.select_related("player"))
    for reg, slip in zip(registrations, slips, strict=True):
        name = _unspaced(f"{reg.player.first_name}{reg.player.last_name}")
        assert (name in _unspaced(slip)) == reg.consent_public, slip
        assert reg.player.club not in slip  # the slip carries no club
    for i in (3, 6, 9):  # by start number only: the head of the slip holds nothing else
        head = slips[i - 1].split(" Runde 1 ")[0]
        assert sorted(head.split()) == sorted(
            f"Laufzettel Nr. {i} · Testturnier · 21.11.2026".split()
        )
    # umlauts and a very long name are printed whole, within the slip
    assert "Käthe Spät" in slips[11]
    assert _unspaced(f"Jürgen {LONG_LAST_NAME}") in _unspaced(slips[1])


def test_the_rows_for_the_documents(evening):
    """The data behind both documents, in start number order (one and two queries)."""
    badges = documents.badge_rows(evening)
    assert [b.start_number for b in badges] == list(range(1, 13))
    assert badges[2].name == badges[2].club == ""  # no consent
    assert badges[0].name == "\u2068Vorname1\u2069 \u2068Nachname1\u2069"
    assert badges[1].name_size == "longer" and badges[1].club_size == "longer"
    slips = documents.running_slip_rows(evening)
    late = slips[11]
    assert [(r.number, r.plays, r.table is None) for r in late.rounds] == [
        (1, False, True),
        (2, True, False),
        (3, True, True),
    ]
    assert documents.in_pages(list(range(11)), 4) == [[0, 1, 2, 3], [4, 5, 6, 7], [8, 9, 10]]
