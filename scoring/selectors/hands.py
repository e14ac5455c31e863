"""A table's hands as the entry pages list them: in order, with running totals, and each
hand's history of versions."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

from django.db.models import Q
from django.utils.translation import gettext as _

from tournament.models import Table

from ..models import Hand, account_label


def table_hands(table: Table) -> list[Hand]:
    """The table's hands in game order."""
    return list(table.hands.order_by("number"))


def running_totals(hands: list[Hand], size: int) -> list[list[int]]:
    """Running total per table position after each of ``hands`` (game points)."""
    totals = [0] * size
    out = []
    for hand in hands:
        totals = [t + s for t, s in zip(totals, hand.scores, strict=True)]
        out.append(list(totals))
    return out


@dataclass
class HandVersion:
    """One saved version of a hand: ``version``, who saved it and when, and what changed
    against the version before (``changes``: ``(field label, old, new)``, the values as
    text by :func:`shown_value`; empty for the first entry).  ``reason`` is the reason given with the save; ``adjustment`` says it
    was saved after the round was closed (a director's adjustment); ``confirmed_by`` names
    the second account that confirmed this version, if any."""

    version: int
    user: str
    when: object
    scores: list
    changes: list[tuple[str, str | None, str | None]]
    reason: str = ""
    adjustment: bool = False
    confirmed_by: str = ""


def shown_value(field: str, value) -> str | None:
    """A stored value of the hand's ``field`` as the correction history shows it, in the
    active language: ``True``/``False`` as "ja"/"nein", a choice by its label ("Herz"),
    a list of points per seat as "0 / 40 / 150" (an empty seat "–"), a negative number
    with a real minus sign; ``None`` stays ``None`` (shown as "–").  Issue 37.27: the
    history read "True → False; [0, 40, 160] → [0, 40, 150]"."""
    from django.core.exceptions import FieldDoesNotExist

    if value is None:
        return None
    if isinstance(value, bool):
        return _("ja") if value else _("nein")
    if isinstance(value, list | tuple):
        return " / ".join("–" if v is None else shown_value(field, v) for v in value)
    if isinstance(value, int):
        return str(value).replace("-", "\u2212")
    try:
        model_field = Hand._meta.get_field(field)
    except FieldDoesNotExist:  # a field the model no longer has: shown as stored
        model_field = None
    if model_field is not None and model_field.choices and value != "":
        return str(dict(model_field.flatchoices).get(value, value))
    return str(value)


def hand_history(hands, closed_at=None) -> dict[int, list[HandVersion]]:
    """Every version of the corrected ones among ``hands`` (a queryset of one round's
    hands: a table's on its page, the round's for the score sheets), oldest first, by hand
    id; one query.  ``closed_at`` is when the round was closed (``None`` while it runs): a
    hand saved after it is listed even at its first version, as an adjustment.

    Uses django-simple-history's records (``history_change_reason`` holds the reason) and
    ``diff_against`` for the changed fields; a record that only confirms a version is folded
    into that version's ``confirmed_by``.
    """
    records: dict[int, list] = defaultdict(list)
    listed = Q(version__gt=1)
    if closed_at is not None:
        listed |= Q(updated_at__gt=closed_at)
    corrected = hands.filter(listed).values_list("pk", flat=True)
    for record in (
        Hand.history.filter(id__in=list(corrected))
        .select_related("history_user", "entered_by", "confirmed_by")
        .order_by("id", "history_date", "history_id")
    ):
        records[record.id].append(record)
    labels = {
        f.name: str(f.verbose_name) for f in Hand._meta.get_fields() if hasattr(f, "verbose_name")
    }
    ignored = [
        "version",
        "updated_at",
        "entered_by",
        "entered_by_name",
        "confirmed_by",
        "confirmed_by_name",
        "confirmed_at",
    ]
    out: dict[int, list[HandVersion]] = {}
    for hand_id, versions in records.items():
        entries: list[HandVersion] = []
        previous = None
        for record in versions:
            if previous is not None and record.version == previous.version:
                # the same version saved again: a confirmation (or its removal)
                entries[-1].confirmed_by = account_label(
                    record.confirmed_by, record.confirmed_by_name
                )
                previous = record
                continue
            changes = []
            if previous is not None:
                delta = record.diff_against(previous, excluded_fields=ignored)
                changes = [
                    (
                        labels.get(c.field, c.field),
                        shown_value(c.field, c.old),
                        shown_value(c.field, c.new),
                    )
                    for c in delta.changes
                ]
            entries.append(
                HandVersion(
                    version=record.version,
                    user=record.history_user_label
                    or account_label(record.entered_by, record.entered_by_name),
                    when=record.history_date,
                    scores=record.scores,
                    changes=changes,
                    reason=record.history_change_reason or "",
                    adjustment=closed_at is not None and record.history_date > closed_at,
                    confirmed_by=account_label(record.confirmed_by, record.confirmed_by_name),
                )
            )
            previous = record
        out[hand_id] = entries
    return out
