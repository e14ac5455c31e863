"""Printed documents with hostile names (issue 16, item 1).

A tournament name, venue or player name is text a director or clerk typed; in a PDF it is
printed as typed and nothing else.  Earlier the running head was written into the CSS of
the ``@page`` margin boxes, and a carriage return or form feed ended the CSS string: the
rest of the name became style rules that fetched local files into the PDF.  Now no user
text is in CSS at all, and the URL fetcher serves only the project's ``static/`` files and
``data:`` URLs.  Each PDF is checked for its HTTP status, for images the template did not
put there (pypdf) and for the text (pdftotext, Debian poppler-utils).
"""

from __future__ import annotations

import base64
import re
from datetime import date
from io import BytesIO

import pytest
from django.urls import reverse
from django.utils import timezone
from pypdf import PdfReader
from pypdf.generic import IndirectObject

from printing.render import STATIC_DIR, LocalOnlyFetcher, render_pdf
from tests.factories.pdf import HOSTILE_NAMES, PIXEL, needs_pdftotext, text_of
from tests.factories.tournaments import running_event
from tournament import services
from tournament.models import Player, Tournament

pytestmark = [needs_pdftotext]

# U+202E shows what follows right to left (and only up to the end of the name)
SEEN = {"rtl-override": "Herbst NOVIER"}


def seen(case: str, text: str) -> str:
    """What a reader sees of ``text``, white space aside: control characters print as
    spaces (:func:`printing.render.printable`)."""
    return letters(SEEN.get(case) or re.sub("[\x00-\x08\x0b-\x1f\x7f]", " ", text))


def squash(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


def letters(text: str) -> str:
    """``text`` without white space: a long name wraps in the running head, at spaces or
    after ``/`` or ``-``, so its characters are compared in order, not its line breaks."""
    return re.sub(r"\s+", "", text)


def page_texts(pdf: bytes) -> list[str]:
    """The text of each page in the order WeasyPrint wrote it, box by box (pypdf): a name
    that wraps in a margin box or a column stays in one piece."""
    return [squash(page.extract_text()) for page in PdfReader(BytesIO(pdf)).pages]


def images_in(pdf: bytes) -> int:
    """Image XObjects anywhere in the PDF (pages, patterns, forms), counted with pypdf."""
    reader = PdfReader(BytesIO(pdf))
    numbers = set(reader.xref_objStm)
    for generation in reader.xref.values():
        numbers |= set(generation)
    count = 0
    for number in numbers:
        obj = reader.get_object(IndirectObject(number, 0, reader))
        if hasattr(obj, "get") and obj.get("/Subtype") == "/Image":
            count += 1
    return count


@pytest.fixture(scope="module")
def bait(tmp_path_factory) -> str:
    """A PNG outside the project: a PDF that embeds it has fetched a local file."""
    path = tmp_path_factory.mktemp("b") / "x.png"
    path.write_bytes(base64.b64decode(PIXEL.split(",", 1)[1]))
    return path.as_uri()


def make_event(name: str, venue: str, player_name: str, user) -> Tournament:
    """A running tournament of 6 named players (``player_name`` is the first name of the
    first and the last name of the second), one hand entered at table 1 by ``user``."""
    people = [
        (
            player_name[:100] if i == 1 else f"Vorname{i}",
            player_name[:100] if i == 2 else f"Nachname{i}",
            venue,
        )
        for i in range(1, 7)
    ]
    return running_event(people, user, name=name, venue=venue)


def every_pdf(client, tournament: Tournament, variants: bool = True) -> dict[str, bytes]:
    """Every PDF of ``tournament`` as downloaded (the client is logged in as director);
    without ``variants`` one of each kind (not the round's results, nor English rules:
    the same templates again)."""
    pk = tournament.pk
    urls = {
        "score sheets": reverse("printing:score_sheets", args=[pk, 1]),
        "blank sheets": reverse("printing:score_sheets", args=[pk, 1]) + "?leer=1",
        "table plan": reverse("printing:table_plan", args=[pk, 1]),
        "results": reverse("printing:results", args=[pk]),
        "rules": reverse("printing:rules", args=[pk]),
        "poster": reverse("printing:poster", args=[pk]),
    }
    if variants:
        urls["round results"] = reverse("printing:results", args=[pk]) + "?runde=1"
        urls["rules en"] = reverse("printing:rules", args=[pk]) + "?sprache=en"
        urls["prize-giving"] = reverse("printing:results", args=[pk]) + "?fassung=siegerehrung"
    pdfs = {}
    for what, url in urls.items():
        response = client.get(url)
        assert response.status_code == 200, what
        assert response["Content-Type"] == "application/pdf", what
        pdfs[what] = response.content
    return pdfs


@pytest.fixture(scope="module")
def baseline_images(django_db_setup, django_db_blocker) -> dict[str, int]:
    """Images in each PDF of a tournament with plain names (none today)."""
    from django.contrib.auth import get_user_model
    from django.contrib.auth.models import Group
    from django.test import Client

    from tournament.roles import DIRECTOR_GROUP

    with django_db_blocker.unblock():
        from django.db import transaction

        with transaction.atomic():
            user = get_user_model().objects.create_user("baseline-director")
            user.groups.add(Group.objects.get(name=DIRECTOR_GROUP))
            client = Client()
            client.force_login(user)
            tournament = make_event("Herbstturnier", "Plochingen", "Müller", user)
            counts = {what: images_in(pdf) for what, pdf in every_pdf(client, tournament).items()}
            transaction.set_rollback(True)
    return counts


@pytest.mark.django_db
@pytest.mark.parametrize("case", HOSTILE_NAMES)
def test_hostile_names_print_as_typed_and_fetch_nothing(
    client, director, bait, baseline_images, case
):
    hostile = HOSTILE_NAMES[case].replace("{bait}", bait)
    assert len(hostile) <= 197
    tournament = make_event(hostile, f"in {hostile}", hostile, director)  # players: [:100]
    client.force_login(director)
    name = seen(case, hostile)
    for what, pdf in every_pdf(client, tournament, variants=False).items():
        assert images_in(pdf) == baseline_images[what], f"{what}: an image was fetched"
        pages = [letters(page) for page in page_texts(pdf)]
        assert pages, what
        for page in pages:  # the running head of every page: name and venue
            assert name in page, f"{what}: name not shown as typed"
            assert f"in{name}" in page, f"{what}: venue not shown as typed"
        if what not in ("rules", "rules en", "poster"):  # these name no player
            player = seen(case, hostile[:100])
            # name and venue in each running head, then the players in the body
            assert "".join(pages).count(player) > 2 * len(pages), f"{what}: player not shown"
        if case == "rtl-override" and what == "table plan":
            # the override ends with the last name: the first name and what follows it
            # read left to right ("Nachname, Vorname" on the table plan)
            assert re.search(r"HerbstNOVIER,Vorname2\(\d+\)Tisch\d+,Platz\d+", "".join(pages))


@pytest.mark.django_db
def test_longest_names_the_forms_allow_print_in_full(client, director, baseline_images):
    name = ("Herbstturnier des Binokel-Clubs " * 8)[:200].strip()
    venue = ("Gemeindehalle Plochingen-Stumpenhof " * 8)[:200].strip()
    player = ("Hohenstaufen-Wäschenbeuren " * 4)[:100].strip()
    tournament = make_event(name, venue, player, director)
    client.force_login(director)
    for what, pdf in every_pdf(client, tournament).items():
        assert images_in(pdf) == baseline_images[what], what
        for page in page_texts(pdf):
            assert letters(name) in letters(page) and letters(venue) in letters(page), what


def test_a_10000_character_name_renders_without_images():
    """Longer than any form accepts (see below), straight through the renderer: the
    running head takes any length of text."""
    long_name = ("Binokel\r\f" * 1100)[:10_000]
    tournament = Tournament(name=long_name, venue="\u202e" + long_name, date=date(2026, 11, 21))
    pdf = render_pdf("printing/base.html", {"tournament": tournament, "printed_at": timezone.now()})
    assert images_in(pdf) == 0
    assert "BinokelBinokelBinokel" in letters(text_of(pdf, layout=False))


def post_tournament(client, **fields):
    data = {
        "name": "Herbstbinokel", "date": "2026-11-28", "venue": "Esslingen",
        "preset": "club-tournament", "overrides": "", "rounds": 3, "games_per_round": 12,
        "four_table_mode": "sit-out", "entry_mode": "hands", "lost_game_fee": "0.50",
    }  # fmt: skip
    return client.post(reverse("tournament:create"), {**data, **fields})


@pytest.mark.django_db
@pytest.mark.parametrize("field", ["name", "venue"])
@pytest.mark.parametrize(
    "value, message",
    [("Herbst\x00binokel", "Nullzeichen"), ("B" * 10_000, "höchstens 200 Zeichen")],
    ids=["NUL", "10000-chars"],
)
def test_tournament_form_refuses_nul_and_overlong_text_with_a_message(
    client, director, field, value, message
):
    client.force_login(director)
    response = post_tournament(client, **{field: value})
    assert response.status_code == 422
    assert message in response.content.decode()
    assert not Tournament.objects.exists()


@pytest.mark.django_db
@pytest.mark.parametrize("field", ["first_name", "last_name", "club"])
@pytest.mark.parametrize(
    "value, message",
    [("Mül\x00ler", "Nullzeichen"), ("M" * 10_000, "höchstens")],
    ids=["NUL", "10000-chars"],
)
def test_registration_form_refuses_nul_and_overlong_text_with_a_message(
    client, director, field, value, message
):
    tournament = services.create_tournament(name="Herbst", date=date(2026, 11, 21))
    client.force_login(director)
    data = {"first_name": "Anna", "last_name": "Müller", "club": "TSV", field: value}
    response = client.post(reverse("tournament:registrations", args=[tournament.pk]), data)
    assert response.status_code == 422
    assert message in response.content.decode()
    assert not Player.objects.exists()


# --------------------------------------------------------------------------- the fetcher


def refused(fetcher: LocalOnlyFetcher, url: str) -> bool:
    try:
        fetcher.fetch(url).close()
    except ValueError:
        return True
    return False


def test_fetcher_serves_static_files_and_data_urls():
    fetcher = LocalOnlyFetcher()
    response = fetcher.fetch((STATIC_DIR / "print" / "print.css").as_uri())
    assert response.read() == (STATIC_DIR / "print" / "print.css").read_bytes()
    response.close()
    response = fetcher.fetch("data:text/plain;charset=utf-8,Binokel")
    assert response.read() == b"Binokel"
    response.close()


@pytest.mark.parametrize(
    "url",
    [
        "file:///etc/passwd",
        "file://localhost/etc/passwd",
        STATIC_DIR.as_uri() + "/../config/settings.py",
        STATIC_DIR.as_uri() + "/%2e%2e/config/settings.py",
        STATIC_DIR.as_uri() + "/print/../../config/settings.py",
        STATIC_DIR.as_uri() + "/print",  # a folder, not a file
        STATIC_DIR.as_uri() + "/print/nothing-here.css",
        STATIC_DIR.parent.as_uri() + "/static-other/x.css",  # only a common prefix
        "file://example.org" + STATIC_DIR.as_posix() + "/print/print.css",
        "http://127.0.0.1:9/style.css",
        "https://example.org/font.woff",
        "ftp://example.org/x.png",
        "javascript:alert(1)",
        "relative/path.css",
    ],
)
def test_fetcher_refuses_everything_else(url):
    assert refused(LocalOnlyFetcher(), url)


def test_fetcher_refuses_a_symlink_out_of_its_folder(tmp_path):
    root = tmp_path / "static"
    root.mkdir()
    (root / "ok.css").write_text("p {}")
    secret = tmp_path / "secret.txt"
    secret.write_text("geheim")
    (root / "link.txt").symlink_to(secret)
    (root / "dir").symlink_to(tmp_path)
    fetcher = LocalOnlyFetcher(root)
    assert not refused(fetcher, (root / "ok.css").as_uri())
    assert refused(fetcher, (root / "link.txt").as_uri())
    assert refused(fetcher, (root / "dir" / "secret.txt").as_uri())
    assert refused(fetcher, STATIC_DIR.joinpath("print", "print.css").as_uri())


def test_a_refused_url_stops_the_pdf(bait):
    """A refused URL stops the rendering (``fail_on_errors``): nothing outside static/ gets
    into a PDF, and a template that tried would fail its tests loudly."""
    from weasyprint import HTML
    from weasyprint.urls import FatalURLFetchingError

    for html in (f'<p style="background: url({bait})">x</p>', f'<img src="{bait}">'):
        with pytest.raises(FatalURLFetchingError):
            HTML(string=html, url_fetcher=LocalOnlyFetcher()).write_pdf()
    allowed = HTML(string=f'<img src="{PIXEL}">', url_fetcher=LocalOnlyFetcher()).write_pdf()
    assert images_in(allowed) >= 1  # the counter does see images
