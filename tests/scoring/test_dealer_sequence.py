"""Who deals and who bids first in each of a round's 12 games, written out by hand.

The other dealer tests compute the expected dealer with :func:`scoring.services.dealer_for`,
the very function the product uses, so a rotation running the wrong way would pass them
(issue 29).  Here the sequences are literal, derived from the seed rule texts and the seat
numbering the score sheet prints:

- Seats are numbered in the direction of play ("Platz 2 sitzt links von Platz 1" when play
  goes clockwise, "rechts" when counter-clockwise), so the deal passing one player on in
  the direction of play always goes from Platz n to Platz n+1 (after the last, Platz 1).
- Clockwise presets: seed 000 (``partnership-250``: "dann geht das Geben im Uhrzeigersinn
  um den Tisch … Der Spieler links vom Geber macht das erste Gebot") and seed 003
  (``dabb-app``: "Der Geber wechselt jede Runde im Uhrzeigersinn … Der Spieler nach dem
  Geber beginnt das Reizen").
- Counter-clockwise presets: seed 001 (``swabian-traditional``: "Gegeben wird im
  Gegenuhrzeigersinn … Der Spieler rechts vom Geber beginnt mit dem Reizen") and seed 002
  (``club-tournament``: "beginnt der rechte Spieler vom Kartengeber mit dem Reizen").

So in every preset the first bidder is the next player in the direction of play — on the
dealer's left clockwise, on his right counter-clockwise.  Every table below has Platz 2 as
its first dealer, so a rotation that starts at the wrong seat or runs backwards shows.
"""

from __future__ import annotations

import re
import subprocess

import pytest

import rules
from printing import pdfs
from scoring.services import dealer_for, first_bidder_for, seating_text
from tests.factories.pdf import needs_pdftotext
from tests.factories.tournaments import make_tournament
from tournament.models import Table

# the seeds' direction of play (module docstring)
DIRECTION = {
    "club-tournament": "counter-clockwise",
    "swabian-traditional": "counter-clockwise",
    "dabb-app": "clockwise",
    "partnership-250": "clockwise",
}

# Platz of the dealer and of the first bidder in games 1 … 12, Platz 2 dealing first
DEALERS = {
    3: [2, 3, 1, 2, 3, 1, 2, 3, 1, 2, 3, 1],
    4: [2, 3, 4, 1, 2, 3, 4, 1, 2, 3, 4, 1],
}
FIRST_BIDDERS = {
    3: [3, 1, 2, 3, 1, 2, 3, 1, 2, 3, 1, 2],
    4: [3, 4, 1, 2, 3, 4, 1, 2, 3, 4, 1, 2],
}

# The same at a table of four seen from above, Platz 1 sitting South.  Clockwise (seen from
# above) the seats follow S → W → N → E; for a player facing the middle that is "to the
# left".  Clockwise play numbers the seats that way (Platz 2 left of Platz 1), counter-
# clockwise the other way (Platz 2 right of Platz 1).
COMPASS = {
    "clockwise": {1: "S", 2: "W", 3: "N", 4: "E"},
    "counter-clockwise": {1: "S", 2: "E", 3: "N", 4: "W"},
}
COMPASS_DEALERS = {
    # the deal goes to the left: W → N → E → S (clockwise seen from above)
    "clockwise": "W N E S W N E S W N E S".split(),
    # the deal goes to the right: E → N → W → S (counter-clockwise seen from above)
    "counter-clockwise": "E N W S E N W S E N W S".split(),
}
COMPASS_FIRST_BIDDERS = {
    "clockwise": "N E S W N E S W N E S W".split(),  # left of each dealer
    "counter-clockwise": "N W S E N W S E N W S E".split(),  # right of each dealer
}
LEFT_OF = {"S": "W", "W": "N", "N": "E", "E": "S"}  # for a player facing the middle
RIGHT_OF = {v: k for k, v in LEFT_OF.items()}

CASES = [
    (preset_id, deal.seats)
    for preset_id, ruleset in rules.PRESETS.items()
    for deal in ruleset.deals
    if deal.seats in (3, 4)
]


def test_every_preset_and_table_size_is_covered():
    assert set(DIRECTION) == set(rules.PRESETS)
    assert sorted(CASES) == [
        ("club-tournament", 3),
        ("club-tournament", 4),
        ("dabb-app", 3),
        ("dabb-app", 4),
        ("partnership-250", 4),
        ("swabian-traditional", 3),
        ("swabian-traditional", 4),
    ]


def test_the_compass_sequences_pass_the_deal_to_the_seeds_side():
    """The literal compass sequences say what the seeds say: clockwise the next dealer and
    the first bidder sit on the left, counter-clockwise on the right."""
    for direction, side in (("clockwise", LEFT_OF), ("counter-clockwise", RIGHT_OF)):
        dealers, bidders = COMPASS_DEALERS[direction], COMPASS_FIRST_BIDDERS[direction]
        assert all(side[a] == b for a, b in zip(dealers, dealers[1:], strict=False))
        assert all(side[d] == b for d, b in zip(dealers, bidders, strict=True))
        by_platz = COMPASS[direction]
        assert [by_platz[p] for p in DEALERS[4]] == dealers
        assert [by_platz[p] for p in FIRST_BIDDERS[4]] == bidders


@pytest.mark.parametrize(("preset_id", "size"), CASES)
def test_presets_play_in_the_seeds_direction(preset_id, size):
    ruleset = rules.PRESETS[preset_id]
    assert ruleset.direction == DIRECTION[preset_id]
    side = "links" if DIRECTION[preset_id] == "clockwise" else "rechts"
    text = seating_text(ruleset)
    assert f"Platz 2 sitzt {side} von Platz 1" in text
    assert f"es reizt zuerst der Spieler {side} vom Geber" in text


@pytest.mark.parametrize(("preset_id", "size"), CASES)
def test_dealer_for_passes_the_deal_in_the_direction_of_play(preset_id, size):
    table = Table(first_dealer=1)  # Platz 2 deals first
    dealers = [dealer_for(table, size, n) + 1 for n in range(1, 13)]
    assert dealers == DEALERS[size]
    if size == 4:
        compass = COMPASS[DIRECTION[preset_id]]
        assert [compass[p] for p in dealers] == COMPASS_DEALERS[DIRECTION[preset_id]]


@pytest.mark.parametrize(("preset_id", "size"), CASES)
def test_first_bidder_for_is_the_next_player_after_the_dealer(preset_id, size):
    ruleset = rules.PRESETS[preset_id]
    bidders = [first_bidder_for(ruleset, size, dealer - 1) + 1 for dealer in DEALERS[size]]
    assert bidders == FIRST_BIDDERS[size]
    if size == 4:
        compass = COMPASS[DIRECTION[preset_id]]
        assert [compass[p] for p in bidders] == COMPASS_FIRST_BIDDERS[DIRECTION[preset_id]]


def test_first_bidder_for_follows_a_changed_side():
    """A house rule "the player before the dealer bids first" (club tournament with the
    first bidder on the left while play goes counter-clockwise) counts one seat back."""
    club = rules.PRESETS["club-tournament"].with_overrides({"first_bidder": "left"})
    bidders = [first_bidder_for(club, 3, dealer - 1) + 1 for dealer in DEALERS[3]]
    assert bidders == [1, 2, 3, 1, 2, 3, 1, 2, 3, 1, 2, 3]


# ----------------------------------------------------------------- the printed sheet

SHEETS = [
    # preset, players, what a table of four does, table size
    ("club-tournament", 9, "sit-out", 3),
    ("dabb-app", 9, "sit-out", 3),
    ("club-tournament", 8, "sit-out", 4),
    ("partnership-250", 8, "kreuz", 4),
]
SEAT = re.compile(r"(\d+) Vorname\d+ Nachname\d+")


@pytest.mark.django_db
@needs_pdftotext
@pytest.mark.parametrize(("preset_id", "players", "mode", "size"), SHEETS)
def test_blank_score_sheet_prints_the_dealers_in_order(preset_id, players, mode, size):
    """The blank score sheet's dealer column, read from the PDF: the start number of the
    player at Platz 2, 3, … as the literal sequence says (seats read from the sheet's own
    head), and the direction and first bidder in words."""
    tournament = make_tournament(players=players, preset=preset_id, four_table_mode=mode)
    round_ = tournament.round_set.get(number=1)
    assert Table.objects.filter(round=round_).update(first_dealer=1) >= 2
    pdf = pdfs.score_sheets_pdf(round_, filled=False)
    text = subprocess.run(
        ["pdftotext", "-layout", "-", "-"], input=pdf, capture_output=True, check=True
    ).stdout.decode()
    text = text.replace("\u2068", "").replace("\u2069", "")
    sheets = text.split("\f")[:-1]
    assert len(sheets) == round_.tables.count()
    side = "links" if DIRECTION[preset_id] == "clockwise" else "rechts"
    way = "im Uhrzeigersinn" if DIRECTION[preset_id] == "clockwise" else "gegen den Uhrzeigersinn"
    for sheet in sheets:
        squashed = re.sub(r"\s+", " ", sheet)
        assert f"{way}, Platz 2 {side} von Platz 1" in squashed
        assert f"Reizt zuerst {side} vom Geber" in squashed
        # the seat head: "Platz 1 … Platz n", then the players in that order
        assert " ".join(f"Platz {p}" for p in range(1, size + 1)) in re.sub(
            r" · Partei [AB]", "", squashed
        )
        head = next(
            line
            for line in sheet.splitlines()
            if len(SEAT.findall(line)) == size and "Unterschrift" not in line
        )
        by_platz = dict(enumerate((int(n) for n in SEAT.findall(head)), start=1))
        first = re.search(r"Gibt zuerst (\d+) Vorname", squashed).group(1)
        assert int(first) == by_platz[2]
        # the game number, then the dealer's start number and name on its line; where the
        # name does not fit the column at 8 pt (tables of four, issue 37.24) the number
        # stands above the game number's line and the name under it
        rows = re.findall(r"^\s*(\d+)\s+(\d+) Vorname\d+", sheet, re.M) or [
            (game, dealer) for dealer, game in re.findall(r"^\s+(\d+)\s*\n\s+(\d+)\b", sheet, re.M)
        ]
        assert [int(n) for n, _ in rows] == list(range(1, 13))
        assert [int(s) for _, s in rows] == [by_platz[p] for p in DEALERS[size]]
