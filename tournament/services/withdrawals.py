"""Withdrawals: withdraw a player ("abmelden") after the last round that has started, undo
it ("wieder anmelden") while no later round has started without them, and say beforehand
which planned rounds lose their draw by either (:func:`draws_cleared_by_withdrawal`,
:func:`draws_cleared_by_reinstating`).
"""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Max
from django.utils.translation import gettext as _

from ..models import Registration, Round, Tournament
from .rounds import lock_round

# --------------------------------------------------------------------------- withdrawals
#
# A registration plays one unbroken stretch of rounds, ``first_round`` to
# ``withdrawn_after_round`` (``Registration.plays_in``); the draw and the standings rely on
# it.  A withdrawal ends the stretch after the last round that has started.  It can be
# undone ("wieder anmelden") as long as no round after it has started without the player:
# a mistake, or a player who comes back before the next round begins.  A round after it
# that is drawn but not started loses its draw on the undo (it must be drawn again, now
# with the player).  Once such a round has started without the player, coming back would
# leave a gap in the stretch, so the undo is refused; the results so far stay.


def withdrawal_round(tournament: Tournament) -> int:
    """The round a withdrawal made now comes after: the highest round that has started
    (running or closed), ``0`` while no round has started.  The player still plays a running
    round; later draws skip them."""
    started = tournament.round_set.exclude(status=Round.Status.PLANNED)
    return started.aggregate(last=Max("number"))["last"] or 0


def withdrawal_text(after_round: int) -> str:
    """``withdrawn_after_round`` in words: "nach Runde 2", or "vor Runde 1" for ``0``."""
    if after_round < 1:
        return _("vor Runde 1")
    return _("nach Runde %(n)s") % {"n": after_round}


def draws_cleared_by_withdrawal(registration: Registration) -> list[Round]:
    """The planned rounds after :func:`withdrawal_round` that are already drawn with the
    player seated, in order (usually none): a withdrawal now deletes their draw."""
    after = withdrawal_round(registration.tournament)
    return list(
        registration.tournament.round_set.filter(
            number__gt=after, status=Round.Status.PLANNED, seats__registration=registration
        )
        .distinct()
        .order_by("number")
    )


def draws_cleared_by_reinstating(registration: Registration) -> list[Round]:
    """What undoing the withdrawal of ``registration`` would do: the planned rounds after
    the withdrawal already drawn without the player, in order (usually none), whose draw
    the undo deletes so that they are drawn again with the player.

    Raises ``ValidationError`` when the player is not withdrawn, or when a round after the
    withdrawal (that the player would play) has started without them: then the player
    cannot come back (see the comment above :func:`withdrawal_round`)."""
    after = registration.withdrawn_after_round
    if after is None:
        raise ValidationError(_("%(name)s ist nicht abgemeldet.") % {"name": registration.player})
    rounds = registration.tournament.round_set.filter(
        number__gt=max(after, registration.first_round - 1)
    ).order_by("number")
    seated = set(registration.seats.values_list("round_id", flat=True))
    cleared = []
    for round_ in rounds:
        if round_.pk in seated:  # drawn with the player before the withdrawal
            continue
        if round_.status != Round.Status.PLANNED:
            raise ValidationError(
                _(
                    "„Wieder anmelden“ ist nicht mehr möglich: Runde %(n)s hat ohne %(name)s "
                    "begonnen, und eine Teilnahme mit Lücke kennt die Wertung nicht. %(name)s "
                    "bleibt abgemeldet %(when)s; die Ergebnisse bis dahin bleiben in der "
                    "Rangliste."
                )
                % {"n": round_.number, "name": registration.player, "when": withdrawal_text(after)}
            )
        if round_.tables.exists():
            cleared.append(round_)
    return cleared


def _clear_draw(round_: Round) -> None:
    """Delete the draw of a planned round (its tables, seats and seed); it must be drawn
    again.  Raises ``ValidationError`` when the round has started meanwhile."""
    locked = lock_round(round_.pk)
    if locked.status != Round.Status.PLANNED:
        raise ValidationError(
            _("Runde %(n)s hat inzwischen begonnen; bitte die Seite neu laden.")
            % {"n": locked.number}
        )
    locked.tables.all().delete()
    locked.seed = None
    locked.save(update_fields=["seed"])


def _lock_rounds(tournament_id: int) -> None:
    """Lock every round of the tournament for the rest of the transaction (in id order, as
    every locker of several rounds does): a draw or a round start, which lock their round
    (:func:`lock_round`), then waits for a withdrawal or its undoing and sees it, and they
    wait for a draw in progress and clear it (PostgreSQL; SQLite's immediate transactions
    already serialize writers)."""
    list(Round.objects.select_for_update().filter(tournament_id=tournament_id).order_by("pk"))


@transaction.atomic
def withdraw(registration: Registration) -> list[Round]:
    """Withdraw a player after :func:`withdrawal_round`: later draws skip them, their
    results so far stay.  A planned round already drawn with the player seated loses its
    draw (:func:`draws_cleared_by_withdrawal`; to be drawn again); those rounds are returned.
    The change is kept in the registration's history with the reason "Abgemeldet …".

    Raises ``ValidationError`` when the player is already withdrawn (a second click, an
    old form), so an earlier withdrawal is never moved to a later round."""
    _lock_rounds(registration.tournament_id)
    reg = Registration.objects.select_for_update().select_related("player").get(pk=registration.pk)
    if reg.withdrawn_after_round is not None:
        raise ValidationError(
            _("%(name)s ist schon abgemeldet (%(when)s).")
            % {"name": reg.player, "when": withdrawal_text(reg.withdrawn_after_round)}
        )
    after = withdrawal_round(reg.tournament)
    cleared = draws_cleared_by_withdrawal(reg)
    for round_ in cleared:
        _clear_draw(round_)
    reg.withdrawn_after_round = after
    reg._change_reason = _("Abgemeldet %(when)s") % {"when": withdrawal_text(after)}
    reg.save(update_fields=["withdrawn_after_round"])
    registration.withdrawn_after_round = after
    return cleared


@transaction.atomic
def reinstate(registration: Registration, *, clear_draws: bool = False) -> list[Round]:
    """Undo the withdrawal of ``registration`` ("wieder anmelden"): the player plays every
    round from ``first_round`` on again.  A planned round after the withdrawal that is
    already drawn without the player loses its draw (it must be drawn again, now with
    them), but only with ``clear_draws``; those rounds are returned.  The change is kept in
    the registration's history with the reason "Wieder angemeldet …".

    Raises ``ValidationError`` when :func:`draws_cleared_by_reinstating` does (not
    withdrawn, or a later round has started without the player), and when a draw would be
    deleted without ``clear_draws``."""
    _lock_rounds(registration.tournament_id)
    reg = Registration.objects.select_for_update().select_related("player").get(pk=registration.pk)
    cleared = draws_cleared_by_reinstating(reg)
    if cleared and not clear_draws:
        raise ValidationError(
            _(
                "Runde %(n)s ist schon ohne %(name)s ausgelost; beim Wieder-Anmelden wird "
                "diese Auslosung gelöscht. Bitte bestätigen."
            )
            % {"n": cleared[0].number, "name": reg.player}
        )
    for round_ in cleared:
        _clear_draw(round_)
    was = reg.withdrawn_after_round
    reg.withdrawn_after_round = None
    reg._change_reason = _("Wieder angemeldet (war abgemeldet %(when)s)") % {
        "when": withdrawal_text(was)
    }
    reg.save(update_fields=["withdrawn_after_round"])
    registration.withdrawn_after_round = None
    return cleared
