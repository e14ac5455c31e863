"""What is done at the door: check a player in (or take it back), mark the start fee, and
the director's settings.  Each raises ``ValidationError`` (German, keyed by field) for
what cannot be done and then writes nothing."""

from __future__ import annotations

from decimal import Decimal

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from tournament.models import Registration, Round, Tournament
from tournament.services import may_enter


def may_work_door(user, tournament: Tournament) -> bool:
    """Whether ``user`` may check players of ``tournament`` in and mark fees: the director
    (``tournament.change_tournament``), or one of its clerks when
    ``tournament.clerks_at_door``."""
    if user is None or not user.is_authenticated:
        return False
    if user.has_perm("tournament.change_tournament"):
        return True
    return tournament.clerks_at_door and may_enter(user, tournament)


@transaction.atomic
def check_in(registration: Registration) -> bool:
    """The player has arrived.  Returns whether this changed anything (a second tap on
    another device changes nothing).  With check-in on, a player who arrives after rounds
    have started plays from the next round on (``first_round``): the rounds he was not
    drawn for count as missed, as the club's ``missed_rounds`` says, not as 0 points."""
    locked = Registration.objects.select_for_update().get(pk=registration.pk)
    if locked.checked_in_at is not None:
        return False
    fields = ["checked_in_at"]
    tournament = locked.tournament
    started = tournament.round_set.exclude(status=Round.Status.PLANNED).order_by("-number")
    last_started = started.values_list("number", flat=True).first()
    if tournament.check_in and last_started and locked.first_round <= last_started:
        if not locked.seats.filter(round__number__lte=last_started).exists():
            locked.first_round = last_started + 1
            fields.append("first_round")
    locked.checked_in_at = timezone.now()
    locked.save(update_fields=fields)  # through save(): the history
    registration.checked_in_at, registration.first_round = locked.checked_in_at, locked.first_round
    return True


def undo_check_in(registration: Registration) -> bool:
    """Take a check-in back (tapped on the wrong name).  Refused once the player has a
    seat in a drawn round: then the draw must be repeated or the player withdrawn.
    Returns whether it was checked in."""
    if registration.checked_in_at is None:
        return False
    if registration.seats.exists():
        raise ValidationError(
            _(
                "%(name)s ist schon ausgelost; zurücknehmen geht nur über eine neue Auslosung "
                "oder eine Abmeldung."
            )
            % {"name": registration.player}
        )
    registration.checked_in_at = None
    registration.save(update_fields=["checked_in_at"])
    return True


def set_fee(registration: Registration, status: str) -> None:
    """Mark the start fee ``status`` (:class:`Registration.Fee`: ``""`` open, ``"paid"``,
    ``"waived"``).  Raises ``ValidationError`` keyed ``fee`` for another value."""
    if status not in Registration.Fee.values:
        raise ValidationError({"fee": _("Startgeld: bitte offen, bezahlt oder erlassen wählen.")})
    if registration.fee != status:
        registration.fee = status
        registration.save(update_fields=["fee"])


@transaction.atomic
def set_door(
    tournament: Tournament, *, check_in: bool, start_fee: Decimal | None, clerks_at_door: bool
) -> None:
    """The director's door settings (see :class:`tournament.models.Tournament`).  Raises
    ``ValidationError`` keyed by the field (the model's bounds)."""
    tournament.check_in = check_in
    tournament.start_fee = start_fee
    tournament.clerks_at_door = clerks_at_door
    fields = ["check_in", "start_fee", "clerks_at_door"]
    tournament.full_clean(exclude=[f.name for f in Tournament._meta.fields if f.name not in fields])
    tournament.save(update_fields=fields)
