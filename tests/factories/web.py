"""What the web tests send and read: form data, addresses, clients and tables of a page."""

from __future__ import annotations

import lxml.html
from django.test import Client
from django.urls import reverse

from tests.factories.tournaments import three_table

#: the set-up form of a new tournament (``tournament:create``), valid as it is
NEW_TOURNAMENT = {
    "name": "Herbstbinokel",
    "date": "2026-11-28",
    "venue": "Esslingen",
    "preset": "club-tournament",
    "overrides": "",
    "rounds": 3,
    "games_per_round": 12,
    "four_table_mode": "sit-out",
    "entry_mode": "hands",
    "lost_game_fee": "0.50",
}


def table_url(tournament, name="scoring:table", table_number=None):
    """The address ``name`` of round 1's first table of three (or of table
    ``table_number``), and that table."""
    table = three_table(tournament)
    return reverse(name, args=[tournament.pk, 1, table_number or table.number]), table


def action_url(tournament, number, action):
    """The address of round ``number``'s action ``action`` ("auslosen", "starten" …)."""
    return reverse("scoring:round_action", args=[tournament.pk, number, action])


def form_data(table, **kw):
    """The hand entry form of hand 1 at a table of three as :func:`tests.factories.hands.entry`
    (position 1 bids 300, melds 140, takes 175); ``kw`` changes fields."""
    data = {
        "number": 1,
        "dealer": 0,
        "declarer": 1,
        "bid": 300,
        "trump": "H",
        "outcome": "played",
        "melds_0": 20,
        "melds_1": 140,
        "melds_2": 60,
        "tricks_0": 30,
        "tricks_1": 175,
        "tricks_2": 45,
        "won": "",
        "penalty_type": "",
        "penalty_seat": "",
        "version": "",
    }
    data.update(kw)
    return data


def enter_partnership_hand(client, tournament, table, **kw):
    """Post hand 1 at ``table`` of four (dealer 3 sits out; position 0 bids 300 with partner
    2) to the clerk's table page; ``kw`` changes fields."""
    data = {
        "number": 1,
        "dealer": 3,
        "declarer": 0,
        "bid": 300,
        "trump": "H",
        "outcome": "played",
        "melds_0": 100,
        "melds_1": 20,
        "melds_2": 40,
        "melds_3": 0,
        "tricks_0": 100,
        "tricks_1": 50,
        "tricks_2": 60,
        "tricks_3": "",
        "won": "",
        "penalty_type": "",
        "penalty_seat": "",
        "version": "",
    }
    data.update(kw)
    url = reverse("scoring:table", args=[tournament.pk, 1, table.number])
    return client.post(url, data)


def link_page(link):
    """The address of a table link's entry page."""
    return reverse("table_entry:page", args=[link.token])


def phone() -> Client:
    """A new phone: a client without a session."""
    return Client()


def standings_rows(html: str) -> list[list[str]]:
    """The rows of the standings table: each cell's text, whitespace collapsed."""
    document = lxml.html.document_fromstring(html)
    return [
        [" ".join(cell.text_content().split()) for cell in row.iter("td", "th")]
        for table in document.iter("table")
        for row in table.iter("tr")
    ]
