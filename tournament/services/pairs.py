"""Fixed pairs of a pairs event: form a pair and split it again before the event starts
(:func:`form_pair`, :func:`split_pair`), and read the pairs for the draw
(:func:`pairs_of`, with what is wrong for a pairs draw).
"""

from __future__ import annotations

from collections.abc import Sequence

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Max
from django.utils.translation import gettext as _

from ..models import Registration, Round, Tournament


def pairs_of(registrations: Sequence[Registration]) -> tuple[list[tuple[int, int]], list[str]]:
    """The pairs among ``registrations`` (those with a ``pair`` number) as start numbers in
    pair-number order, and what is wrong for a pairs draw: players without a pair, pairs
    of whom only one plays."""
    by_pair: dict[int, list[int]] = {}
    single: list[int] = []
    for reg in registrations:
        if reg.pair is None:
            single.append(reg.start_number)
        else:
            by_pair.setdefault(reg.pair, []).append(reg.start_number)
    problems = []
    if single:
        problems.append(
            _("Ohne Partner: Startnummer %(numbers)s. Paare werden auf der Anmeldeseite gebildet.")
            % {"numbers": ", ".join(map(str, sorted(single)))}
        )
    for number, members in sorted(by_pair.items()):
        if len(members) != 2:
            problems.append(
                _("Paar %(pair)s ist nicht vollständig (Startnummer %(numbers)s).")
                % {"pair": number, "numbers": ", ".join(map(str, sorted(members)))}
            )
    pairs = [tuple(sorted(members)) for _n, members in sorted(by_pair.items()) if len(members) == 2]
    return pairs, problems


@transaction.atomic
def form_pair(tournament: Tournament, first: int, second: int) -> int:
    """Make the players with start numbers ``first`` and ``second`` a fixed pair of a pairs
    event: both get the next free pair number, which is returned.  Saved one by one, so the
    change is in each registration's history.

    Raises ``ValidationError`` on ``first``/``second`` for an unknown start number or a
    player already in a pair, and on ``__all__`` when the tournament is not a pairs event
    or a round has started (the pairs are fixed for the whole event; a planned round
    is simply drawn again)."""
    Tournament.objects.select_for_update().get(pk=tournament.pk)  # one pair-number sequence
    if tournament.event_type != Tournament.EventType.PAIRS:
        raise ValidationError(_("Paare gibt es nur bei einem Turnier mit Paarwertung."))
    if tournament.round_set.exclude(status=Round.Status.PLANNED).exists():
        raise ValidationError(
            _("Das Turnier hat begonnen; die Paare stehen für das ganze Turnier fest.")
        )
    found = {
        r.start_number: r for r in tournament.registrations.filter(start_number__in=[first, second])
    }
    errors: dict[str, list[str]] = {}
    for name, number in (("first", first), ("second", second)):
        reg = found.get(number)
        if reg is None:
            errors[name] = [_("Startnummer %(n)s ist nicht angemeldet.") % {"n": number}]
        elif reg.pair is not None:
            errors[name] = [
                _("Startnummer %(n)s spielt schon in Paar %(pair)s.")
                % {"n": number, "pair": reg.pair}
            ]
    if first == second:
        errors.setdefault("second", []).append(_("Bitte zwei verschiedene Startnummern angeben."))
    if errors:
        raise ValidationError(errors)
    number = (tournament.registrations.aggregate(m=Max("pair"))["m"] or 0) + 1
    for reg in (found[first], found[second]):
        reg.pair = number
        reg.save(update_fields=["pair"])
    return number


@transaction.atomic
def split_pair(tournament: Tournament, pair: int) -> None:
    """Undo pair number ``pair`` before the first draw (both partners are single again).
    Raises ``ValidationError`` once a round has started."""
    if tournament.round_set.exclude(status=Round.Status.PLANNED).exists():
        raise ValidationError(
            _("Das Turnier hat begonnen; die Paare stehen für das ganze Turnier fest.")
        )
    for reg in tournament.registrations.filter(pair=pair):
        reg.pair = None
        reg.save(update_fields=["pair"])
