"""Registration: register one player (chosen by type-ahead, found by name and club, or
new) or a pasted list at the door, correct a registration, tick consent, the tournament's
categories and their members; and the players' register across tournaments (type-ahead
search, merging two records of one person).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Count, Max, Q
from django.utils.text import slugify
from django.utils.translation import gettext as _

from ..models import Category, Player, Registration, Tournament
from .withdrawals import draws_cleared_by_reinstating, withdrawal_text


def register(
    tournament: Tournament,
    player: Player,
    start_number: int | None = None,
    first_round: int = 1,
    *,
    consent_public: bool = False,
) -> Registration:
    """Register ``player``; without ``start_number`` the next free number is given.

    ``consent_public``: the player agrees to be named on this tournament's public pages,
    exports and printed lists (only this tournament's; FIELD-NOTES: players must consent).
    It is also kept on the player as the last answer, to pre-fill the next registration."""
    if start_number is None:
        start_number = (tournament.registrations.aggregate(m=Max("start_number"))["m"] or 0) + 1
    if player.last_consent_public != consent_public:
        player.last_consent_public = consent_public
        player.save(update_fields=["last_consent_public"])
    return Registration.objects.create(
        tournament=tournament,
        player=player,
        start_number=start_number,
        first_round=first_round,
        consent_public=consent_public,
    )


@transaction.atomic
def register_player(
    tournament: Tournament,
    *,
    first_name: str,
    last_name: str,
    club: str = "",
    consent_public: bool = False,
    start_number: int | None = None,
    first_round: int = 1,
    year_of_birth: int | None = None,
    player_id: int | None = None,
) -> Registration:
    """Register a player: the one chosen by type-ahead (``player_id``, see
    :func:`search_players`), else an existing player with the same name and club (and the
    same ``year_of_birth`` where both are known), else a new one.  A year of birth given
    for a player without one is stored on the player.  ``consent_public`` holds for this
    registration only (see :func:`register`).

    Raises ``ValidationError`` (by field) when the start number is taken, the player is
    already registered or unknown, or ``first_round`` is not a round of the tournament.
    """
    if not 1 <= first_round <= tournament.rounds:
        raise ValidationError({"first_round": _("Diese Runde gibt es nicht.")})
    if (
        start_number is not None
        and tournament.registrations.filter(start_number=start_number).exists()
    ):
        raise ValidationError({"start_number": _("Diese Startnummer ist schon vergeben.")})
    if player_id is not None:
        player = Player.objects.filter(pk=player_id).first()
        if player is None:
            raise ValidationError(
                {"last_name": _("Der gewählte Spieler existiert nicht mehr; bitte neu suchen.")}
            )
    else:
        player = find_player(first_name, last_name, club, year_of_birth) or Player.objects.create(
            first_name=first_name.strip(),
            last_name=last_name.strip(),
            club=club.strip(),
            year_of_birth=year_of_birth,
            last_consent_public=consent_public,
        )
    if year_of_birth is not None and player.year_of_birth is None:
        player.year_of_birth = year_of_birth
        player.save(update_fields=["year_of_birth"])
    existing = tournament.registrations.filter(player=player).first()
    if existing is not None and existing.withdrawn_after_round is not None:
        raise ValidationError({"last_name": withdrawn_message(existing)})
    if existing is not None:
        raise ValidationError({"last_name": _("Dieser Spieler ist schon angemeldet.")})
    return register(tournament, player, start_number, first_round, consent_public=consent_public)


def find_player(
    first_name: str, last_name: str, club: str = "", year_of_birth: int | None = None
) -> Player | None:
    """The known player :func:`register_player` reuses for a name and club typed or read
    from a list (trimmed, exactly as written), with the same ``year_of_birth`` where both
    are known; the oldest record when there are several, ``None`` when there is none."""
    same = Player.objects.filter(
        first_name=first_name.strip(), last_name=last_name.strip(), club=club.strip()
    ).order_by("pk")
    if year_of_birth is not None:
        same = same.filter(Q(year_of_birth=year_of_birth) | Q(year_of_birth__isnull=True))
    return same.first()


def withdrawn_message(registration: Registration) -> str:
    """Why a withdrawn player is not registered again: they keep their start number and
    come back with "wieder anmelden" (or, when that is no longer possible, why not)."""
    try:
        draws_cleared_by_reinstating(registration)
    except ValidationError as exc:
        return exc.messages[0]
    return _(
        "%(name)s hat schon Startnummer %(n)s und ist abgemeldet %(when)s. Nicht neu "
        "anmelden, sondern in der Liste der Anmeldungen „wieder anmelden“ wählen."
    ) % {
        "name": registration.player,
        "n": registration.start_number,
        "when": withdrawal_text(registration.withdrawn_after_round),
    }


#: Most players the registration type-ahead lists.
SEARCH_LIMIT = 10


def search_players(text: str, limit: int = SEARCH_LIMIT) -> list[Player]:
    """Players whose last name, first name or "first last" starts with ``text`` (case
    does not matter; at least 2 characters, else ``[]``), for the registration
    type-ahead; each with ``tournaments`` (how many tournaments they entered, the busiest
    first) so the door sees who is a regular.  One query."""
    # a NUL cannot be in a name (forms refuse it) and PostgreSQL refuses it in a query
    text = " ".join(text.replace("\x00", "").split())[:100]
    if len(text) < 2:
        return []
    first, _sep, rest = text.partition(" ")
    match = Q(last_name__istartswith=text) | Q(first_name__istartswith=text)
    if rest:
        match |= Q(first_name__istartswith=first, last_name__istartswith=rest)
        match |= Q(last_name__istartswith=first, first_name__istartswith=rest)
    return list(
        Player.objects.filter(match)
        .annotate(tournaments=Count("registrations"))
        .order_by("-tournaments", "last_name", "first_name", "pk")[:limit]
    )


@transaction.atomic
def merge_players(keep: Player, duplicate: Player, user=None) -> Player:
    """Merge two records of one person (director): every registration of ``duplicate``
    moves to ``keep``, which takes over a year of birth it lacks; then ``duplicate`` is
    deleted.  Nothing is lost: each moved registration and the deletion are in the history
    (django-simple-history) with the reason "Zusammengeführt …", by ``user``.

    Raises ``ValidationError`` when both are the same record or both are registered in one
    tournament (two start numbers of one person: withdraw one there first)."""
    if keep.pk == duplicate.pk:
        raise ValidationError(_("Bitte zwei verschiedene Spieler wählen."))
    both = (
        Tournament.objects.filter(registrations__player=keep)
        .filter(registrations__player=duplicate)
        .order_by("date")
    )
    clash = [str(t) for t in both]
    if clash:
        raise ValidationError(
            _(
                "%(a)s und %(b)s spielen beide in %(t)s; dieselbe Person kann dort nicht "
                "zweimal gemeldet sein. Zusammenführen nicht möglich."
            )
            % {"a": keep, "b": duplicate, "t": ", ".join(clash)}
        )
    reason = _("Zusammengeführt: Spieler %(old)s (%(name)s) in Spieler %(new)s") % {
        "old": duplicate.pk,
        "name": duplicate,
        "new": keep.pk,
    }

    def mark(instance) -> None:
        instance._change_reason = reason
        if user is not None:
            instance._history_user = user

    for registration in Registration.objects.select_for_update().filter(player=duplicate):
        registration.player = keep
        mark(registration)
        registration.save(update_fields=["player"])
    if keep.year_of_birth is None and duplicate.year_of_birth is not None:
        keep.year_of_birth = duplicate.year_of_birth
        mark(keep)
        keep.save(update_fields=["year_of_birth"])
    mark(duplicate)
    duplicate.delete()
    return keep


# --------------------------------------------------------------------------- at the door


@dataclass(frozen=True)
class ListEntry:
    """One line of a pasted player list: ``line`` (1-based line number in the pasted
    text), the names and club as typed (trimmed), and ``duplicate``: ``""`` when new,
    ``"registered"`` when the player is already registered in this tournament,
    ``"withdrawn"`` when registered but withdrawn (to come back with "wieder anmelden",
    :func:`reinstate`), ``"list"`` when the same name and club came earlier in the list."""

    line: int
    last_name: str
    first_name: str
    club: str
    duplicate: str = ""


#: Longest name and club the ``Player`` columns hold (characters).
_NAME_MAX, _CLUB_MAX = 100, 200


def _key(first_name: str, last_name: str, club: str) -> tuple[str, str, str]:
    return (first_name.casefold(), last_name.casefold(), club.casefold())


def parse_player_list(tournament: Tournament, text: str) -> list[ListEntry]:
    """Read a pasted list, one player a line as ``Nachname, Vorname; Verein`` (the club is
    optional; blank lines are skipped), and flag duplicates (see :class:`ListEntry`).

    Raises ``ValidationError`` on field ``players`` listing every line without a first and a
    last name or with a name longer than the columns hold, so nothing is half-read."""
    entries: list[ListEntry] = []
    errors: list[str] = []
    registered = {
        _key(r.player.first_name, r.player.last_name, r.player.club): r.withdrawn_after_round
        for r in tournament.registrations.select_related("player")
    }
    seen: set[tuple[str, str, str]] = set()
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line:
            continue
        names, _sep, club = line.partition(";")
        last_name, comma, first_name = names.partition(",")
        last_name, first_name, club = last_name.strip(), first_name.strip(), club.strip()
        if not comma or not last_name or not first_name:
            errors.append(
                _("Zeile %(n)s: bitte „Nachname, Vorname; Verein“ angeben (gelesen: „%(text)s“).")
                % {"n": number, "text": line[:80]}
            )
            continue
        if len(last_name) > _NAME_MAX or len(first_name) > _NAME_MAX or len(club) > _CLUB_MAX:
            errors.append(_("Zeile %(n)s: Name oder Verein ist zu lang.") % {"n": number})
            continue
        key = _key(first_name, last_name, club)
        if key in registered:
            duplicate = "registered" if registered[key] is None else "withdrawn"
        else:
            duplicate = "list" if key in seen else ""
        seen.add(key)
        entries.append(ListEntry(number, last_name, first_name, club, duplicate))
    if errors:
        raise ValidationError({"players": errors})
    if not entries:
        raise ValidationError({"players": [_("Die Liste enthält keinen Spieler.")]})
    return entries


def register_many(tournament: Tournament, text: str, first_round: int = 1) -> list[Registration]:
    """Register every player of a pasted list (see :func:`parse_player_list`) with the next
    free start numbers, in list order, all or nothing: any duplicate (already registered,
    withdrawn, or twice in the list) or unreadable line refuses the whole list with ``ValidationError`` on
    ``players``.  Consent stays unticked (it is asked at the door, one by one)."""
    if not 1 <= first_round <= tournament.rounds:
        raise ValidationError({"first_round": _("Diese Runde gibt es nicht.")})
    entries = parse_player_list(tournament, text)
    reasons = {
        "registered": _("Zeile %(n)s: %(name)s ist schon angemeldet."),
        "withdrawn": _(
            "Zeile %(n)s: %(name)s ist abgemeldet. Die Zeile löschen und in der Liste der "
            "Anmeldungen „wieder anmelden“ wählen."
        ),
        "list": _("Zeile %(n)s: %(name)s steht doppelt in der Liste."),
    }
    duplicates = [
        reasons[e.duplicate] % {"n": e.line, "name": f"{e.first_name} {e.last_name}"}
        for e in entries
        if e.duplicate
    ]
    if duplicates:
        raise ValidationError({"players": duplicates})
    with transaction.atomic():
        Tournament.objects.select_for_update().get(pk=tournament.pk)  # one number sequence
        return [
            register_player(
                tournament,
                first_name=e.first_name,
                last_name=e.last_name,
                club=e.club,
                first_round=first_round,
            )
            for e in entries
        ]


def update_registration(
    registration: Registration,
    *,
    first_name: str,
    last_name: str,
    club: str = "",
    consent_public: bool = False,
) -> Registration:
    """Correct a registration at the door: the player's name and club (the same person in
    every tournament, so the player is changed) and this tournament's consent.  Earlier
    values stay in the history of ``Player`` and ``Registration``.

    Raises ``ValidationError`` on ``last_name`` when the corrected name and club are those of
    another player already registered in this tournament."""
    player = registration.player
    first_name, last_name, club = first_name.strip(), last_name.strip(), club.strip()
    clash = (
        registration.tournament.registrations.exclude(pk=registration.pk)
        .filter(
            player__first_name__iexact=first_name,
            player__last_name__iexact=last_name,
            player__club__iexact=club,
        )
        .exists()
    )
    if clash:
        raise ValidationError({"last_name": _("Dieser Spieler ist schon angemeldet.")})
    with transaction.atomic():
        if (player.first_name, player.last_name, player.club) != (first_name, last_name, club):
            player.first_name, player.last_name, player.club = first_name, last_name, club
            player.save(update_fields=["first_name", "last_name", "club"])
        if registration.consent_public != consent_public:
            registration.consent_public = consent_public
            registration.save(update_fields=["consent_public"])
    return registration


def set_consents(tournament: Tournament, start_numbers: Sequence[int]) -> int:
    """Tick consent for the given start numbers in one go (those who agreed at the door);
    other registrations keep their answer.  Returns how many registrations changed.  Saved
    one by one so each change is in the registration's history."""
    changed = 0
    with transaction.atomic():
        for reg in tournament.registrations.filter(
            start_number__in=list(start_numbers), consent_public=False
        ):
            reg.consent_public = True
            reg.save(update_fields=["consent_public"])
            changed += 1
    return changed


#: Most categories one tournament may have (each is a column on the registrations page).
MAX_CATEGORIES = 12


def add_category(tournament: Tournament, name: str) -> Category:
    """A new category ("Damen", "Jugend U18", "Gast") of ``tournament``.  Raises
    ``ValidationError`` on ``name`` when it is empty, gives no address name (only
    punctuation), is taken (ignoring case) or the tournament has :data:`MAX_CATEGORIES`."""
    name = " ".join(name.split())
    slug = slugify(name)
    if not name or not slug:
        raise ValidationError({"name": _("Bitte einen Namen mit Buchstaben oder Ziffern angeben.")})
    if tournament.categories.filter(slug=slug).exists():
        raise ValidationError(
            {"name": _("Die Kategorie „%(name)s“ gibt es schon.") % {"name": name}}
        )
    if tournament.categories.count() >= MAX_CATEGORIES:
        raise ValidationError(
            {"name": _("Höchstens %(n)s Kategorien je Turnier.") % {"n": MAX_CATEGORIES}}
        )
    return Category.objects.create(tournament=tournament, name=name, slug=slug)


def set_categories(tournament: Tournament, members: dict[int, Sequence[int]]) -> int:
    """Make the members of each category of ``tournament`` exactly the registrations with
    the start numbers in ``members[category id]`` (a category not in ``members`` keeps
    none; unknown start numbers are ignored: the form only offers registered ones).
    Returns how many memberships changed; each change is kept in the category's history."""
    changed = 0
    regs = {r.start_number: r.pk for r in tournament.registrations.only("pk", "start_number")}
    with transaction.atomic():
        for category in tournament.categories.prefetch_related("registrations"):
            wanted = {regs[n] for n in members.get(category.pk, ()) if n in regs}
            current = {r.pk for r in category.registrations.all()}
            if wanted != current:
                changed += len(wanted ^ current)
                category.registrations.set(wanted)
    return changed
