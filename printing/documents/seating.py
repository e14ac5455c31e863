"""The documents of a round's seating: the card on each table (:func:`table_cards`: its
number, seats, first dealer and private entry link) and the table plan for the door
(:func:`table_plan`); both name only players who consented."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

from scoring import links
from scoring.qr import qr_data_uri, reachable_by_phones
from tournament.formatting import name_sort_key
from tournament.models import Round, Seat

from .common import _link_address, _live_links, _seats_by_table, consents, isolate


@dataclass
class CardSeat:
    """A seat on a table card: ``position`` (1-based), start number, and the name as
    "Vorname Nachname", empty when the player did not consent to being named."""

    position: int
    start_number: int
    name: str


@dataclass
class TableCard:
    """The card that stands on one table for one round: the table number in large type,
    who sits where, who deals first and, with table entry on, the table's private link as
    a QR code and as text."""

    number: int
    seats: list[CardSeat]
    first_dealer: int
    link_address: str = ""
    link_qr: str = ""
    #: the link's address is the laptop's loopback: no QR code, the card says why
    unreachable: bool = False
    #: the four digits an opponent types once before "stimmt" (only where the players
    #: confirm at the table: :func:`scoring.links.confirmation_code`)
    confirm_code: str = ""


def table_cards(round_: Round, link_base: str | None = None, user=None) -> list[TableCard]:
    """One :class:`TableCard` per table of ``round_``, in table order.

    Where the players confirm each other's hands, the card also carries the table's
    confirmation code (:attr:`TableCard.confirm_code`).

    The card stands on the table where everyone in the hall can read it, so it names only
    players who consented (:func:`consents`), like the table plan; the others by start
    number.  While the round is not closed and the tournament has table entry on, each card
    carries its table's live link (created if missing, :func:`scoring.links.
    round_links`, by ``user``) with ``link_base`` (scheme and host) or ``PUBLIC_BASE_URL``
    before the path.  Queries: a fixed number once the round has started (the start issues
    every link); before it, one insert per table whose link is made here."""
    seats_by_table = _seats_by_table(round_)
    live_links = _live_links(round_, user)
    cards = []
    for table in round_.tables.order_by("number"):
        seats = seats_by_table[table.pk]
        card = TableCard(
            number=table.number,
            seats=[
                CardSeat(
                    position=s.position + 1,
                    start_number=s.registration.start_number,
                    name=(
                        f"{isolate(s.registration.player.first_name)} "
                        f"{isolate(s.registration.player.last_name)}"
                        if consents(s.registration)
                        else ""
                    ),
                )
                for s in seats
            ],
            first_dealer=table.first_dealer + 1,
        )
        if table.pk in live_links:
            card.link_address = _link_address(live_links[table.pk], link_base)
            if reachable_by_phones(card.link_address):
                card.link_qr = qr_data_uri(card.link_address)
            else:
                card.unreachable = True
            if links.confirms_at_table(round_.tournament):
                card.confirm_code = links.confirmation_code(live_links[table.pk])
        cards.append(card)
    return cards


@dataclass
class PlanEntry:
    """A player in the table plan: ``name`` as printed ("Nachname, Vorname"; empty without
    consent), start number, table and seat (1-based)."""

    name: str
    start_number: int
    table: int
    seat: int
    named: bool


def table_plan(round_: Round) -> dict:
    """A round's seating for posting at the door.

    Returns ``tables`` (table number → entries in seat order), ``by_name`` (players who
    consented, "Nachname, Vorname" in German alphabetical order, :func:`name_sort_key`),
    ``unnamed`` (players who did not consent, by start number and without a name) and
    ``players`` (how many are seated).  One query."""
    entries: list[tuple[tuple, PlanEntry]] = []
    for seat in (
        Seat.objects.filter(round=round_)
        .select_related("registration__player", "table")
        .order_by("table__number", "position")
    ):
        reg = seat.registration
        named = consents(reg)
        player = reg.player
        entry = PlanEntry(
            # each part isolated (U+2068/U+2069): a right-to-left override typed in the
            # last name must not run on into the first name
            name=f"{isolate(player.last_name)}, {isolate(player.first_name)}" if named else "",
            start_number=reg.start_number,
            table=seat.table.number,
            seat=seat.position + 1,
            named=named,
        )
        key = (*name_sort_key(player.last_name, player.first_name), reg.start_number)
        entries.append((key, entry))
    tables: dict[int, list[PlanEntry]] = defaultdict(list)
    for _key, entry in entries:
        tables[entry.table].append(entry)
    by_name = [e for _key, e in sorted(entries, key=lambda x: x[0]) if e.named]
    unnamed = sorted((e for _key, e in entries if not e.named), key=lambda e: e.start_number)
    return {
        "tables": sorted(tables.items()),
        "by_name": by_name,
        "unnamed": unnamed,
        "players": len(entries),
    }
