"""What the door page and the cash summary show."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from decimal import Decimal

from django.db.models import Q

from scoring import selectors as scoring_selectors
from tournament.models import Registration, Tournament

#: at most this many rows answer a search at the door (a full list has its own link)
SEARCH_LIMIT = 40


def door_rows(tournament: Tournament, query: str = "") -> list[Registration]:
    """The registrations of ``tournament`` matching ``query`` (a start number, or a part of
    a first or last name or the club), by start number; all of them without a query.  At
    most :data:`SEARCH_LIMIT` with a query."""
    rows = tournament.registrations.select_related("player").order_by("start_number")
    # a NUL is what PostgreSQL refuses in a text; "²" passes isdigit() but not int()
    query = query.replace("\x00", "").strip()
    if not query:
        return list(rows)
    if re.fullmatch(r"[0-9]{1,6}", query):
        return list(rows.filter(start_number=int(query)))
    condition = Q()
    for word in query.replace(",", " ").split():  # "Müller, Hans" as the list shows it
        condition &= (
            Q(player__last_name__icontains=word)
            | Q(player__first_name__icontains=word)
            | Q(player__club__icontains=word)
        )
    return list(rows.filter(condition)[:SEARCH_LIMIT])


@dataclass(frozen=True)
class DoorCounts:
    """``registered``, ``checked_in``, and the start fees ``paid``, ``open`` and
    ``waived`` (players)."""

    registered: int
    checked_in: int
    paid: int
    open: int
    waived: int


def door_counts(tournament: Tournament) -> DoorCounts:
    """The door's figures for ``tournament``; one query."""
    values = list(tournament.registrations.values_list("checked_in_at", "fee"))
    fees = [fee for _at, fee in values]
    return DoorCounts(
        registered=len(values),
        checked_in=sum(1 for at, _fee in values if at is not None),
        paid=fees.count(Registration.Fee.PAID),
        open=fees.count(Registration.Fee.OPEN),
        waived=fees.count(Registration.Fee.WAIVED),
    )


@dataclass(frozen=True)
class CashRow:
    """One player in the cash summary: ``start_number``, ``name``, the start fee ``fee``
    status (:class:`Registration.Fee`), ``start_fee`` received in EUR (0 when open or
    waived), ``lost_fee`` the lost-game fee in EUR (0 without one) and ``total``."""

    start_number: int
    name: str
    fee: str
    fee_label: str
    start_fee: Decimal
    lost_fee: Decimal

    @property
    def total(self) -> Decimal:
        return self.start_fee + self.lost_fee


@dataclass
class CashSummary:
    """The treasurer's sheet: ``rows`` by start number and the sums in EUR:
    ``start_fees`` received, ``outstanding`` (start fees still open), ``waived`` (players),
    ``lost_fees`` and ``total`` (start fees received + lost-game fees)."""

    start_fee: Decimal | None
    rows: list[CashRow] = field(default_factory=list)
    start_fees: Decimal = Decimal("0.00")
    outstanding: Decimal = Decimal("0.00")
    waived: int = 0
    lost_fees: Decimal = Decimal("0.00")

    @property
    def total(self) -> Decimal:
        return self.start_fees + self.lost_fees


def cash_summary(tournament: Tournament) -> CashSummary:
    """Start fees and lost-game fees per player of ``tournament`` (the lost-game fee as the
    standings count it, also for players the standings leave out:
    :func:`scoring.selectors.lost_game_fees`).  Every registration
    is listed, present or not; full names (the treasurer's sheet is not public)."""
    lost = scoring_selectors.lost_game_fees(tournament)
    amount = tournament.start_fee or Decimal("0.00")
    summary = CashSummary(tournament.start_fee)
    for registration in tournament.registrations.select_related("player").order_by("start_number"):
        received = amount if registration.fee == Registration.Fee.PAID else Decimal("0.00")
        row = CashRow(
            registration.start_number,
            str(registration.player),
            registration.fee,
            registration.get_fee_display(),
            received,
            lost.get(registration.start_number, Decimal("0.00")),
        )
        summary.rows.append(row)
        summary.start_fees += row.start_fee
        summary.lost_fees += row.lost_fee
        if registration.fee == Registration.Fee.OPEN:
            summary.outstanding += amount
        elif registration.fee == Registration.Fee.WAIVED:
            summary.waived += 1
    return summary
