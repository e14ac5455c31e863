"""QR codes only for addresses a phone can open (issue 24.3): opened as 127.0.0.1 (the demo,
or the laptop's own browser without venue mode), the join screen, the projector, the poster,
the table cards and the blank sheets say so plainly instead of showing a code no phone on
the Wi-Fi can use."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from scoring import links
from scoring.qr import reachable_by_phones

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("address", "reachable"),
    [
        ("http://127.0.0.1:8000/turnier/1/", False),
        ("http://127.8.9.1/turnier/1/", False),
        ("http://localhost:8000/turnier/1/", False),
        ("http://[::1]:8000/turnier/1/", False),
        ("/turnier/1/", False),
        ("http://192.168.1.20:8000/turnier/1/", True),
        ("http://turnier.local:8000/turnier/1/", True),
    ],
)
def test_which_addresses_a_phone_can_open(address, reachable):
    assert reachable_by_phones(address) is reachable


def test_join_screen_and_projector_on_the_laptop_address_show_no_code(tournament):
    laptop = Client(HTTP_HOST="127.0.0.1:8000")
    join = laptop.get(reverse("scoring:join", args=[tournament.pk])).content.decode()
    assert "Kein QR-Code" in join and "join-qr-large" not in join
    projector = laptop.get(reverse("scoring:projector", args=[tournament.pk])).content.decode()
    assert "join-corner" not in projector
    lan = Client(HTTP_HOST="192.168.1.20:8000")
    assert (
        "join-qr-large" in lan.get(reverse("scoring:join", args=[tournament.pk])).content.decode()
    )


def test_table_cards_and_blank_sheets_carry_no_code_for_a_loopback_address(tournament):
    from printing.documents import score_sheets, table_cards

    tournament.table_entry = "opponent"
    tournament.save()
    round_ = tournament.round_set.get(number=1)
    links.round_links(round_)
    cards = table_cards(round_, "http://127.0.0.1:8000")
    assert cards and all(c.unreachable and not c.link_qr for c in cards)
    assert all(not s.link_qr for s in score_sheets(round_, False, "http://127.0.0.1:8000"))
    cards = table_cards(round_, "http://192.168.1.20:8000")
    assert all(c.link_qr and not c.unreachable for c in cards)


def test_the_poster_for_a_loopback_address_names_no_address_to_type(tournament):
    import subprocess

    from printing.pdfs import poster_pdf

    def text(address):
        pdf = poster_pdf(tournament, address)
        return subprocess.run(
            ["pdftotext", "-", "-"], input=pdf, capture_output=True, check=True
        ).stdout.decode()

    loop = text("http://127.0.0.1:8000/turnier/1/")
    assert "Kein QR-Code" in loop and "127.0.0.1:8000/turnier" not in loop
    lan = text("http://192.168.1.20:8000/turnier/1/")
    assert "Kein QR-Code" not in lan and "192.168.1.20:8000/turnier/1/" in lan


def test_the_links_page_on_the_laptop_address_shows_the_note_and_no_codes(tournament, director):
    tournament.table_entry = "opponent"
    tournament.save()
    laptop = Client(HTTP_HOST="127.0.0.1:8000")
    laptop.force_login(director)
    page = laptop.get(reverse("table_entry:director", args=[tournament.pk])).content.decode()
    assert "Kein QR-Code" in page and "data:image/svg+xml" not in page
    lan = Client(HTTP_HOST="192.168.1.20:8000")
    lan.force_login(director)
    page = lan.get(reverse("table_entry:director", args=[tournament.pk])).content.decode()
    assert "Kein QR-Code" not in page and "data:image/svg+xml" in page
