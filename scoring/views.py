"""Views: public standings (live), projector, player view, exports; clerk entry.

Views parse requests and render; the rules live in the engine, the workflow in
:mod:`scoring.services` and :mod:`tournament.services`, the queries in
:mod:`scoring.selectors`.
"""

from __future__ import annotations

import hashlib
import re

from django.contrib import messages
from django.contrib.auth.decorators import login_required, permission_required
from django.contrib.messages import get_messages
from django.core.cache import cache
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.utils.http import quote_etag
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy as _lazy
from django.views.decorators.http import require_POST

from tournament import accounts
from tournament import services as tournament_services
from tournament.models import Category, Round, Series, Table, Tournament
from tournament.params import BadNumber, parse_number

from . import links, qr, selectors, services
from .forms import HandForm, PlayCheckForm, RoundTotalsForm, RulingForm
from .models import Hand
from .tables import standings_table

PUBLIC_CACHE_SECONDS = 10
HAND_NUMBER_MAX = 32_767  # Hand.number is a smallint


#: a round number as a query value (``?runde=3``) and a category's short name
#: (``?kategorie=damen``): the only shapes that reach a cache key
ROUND_SHAPE = re.compile(r"[1-9][0-9]{0,2}")
SLUG_SHAPE = re.compile(r"[-a-zA-Z0-9_]{1,60}")


def home(request: HttpRequest) -> HttpResponse:
    """The tournaments running or to come, the archive of finished ones by season with
    their winners (:func:`selectors.tournaments_by_state`), and the series."""
    current, seasons = selectors.tournaments_by_state(_cached_winners)
    return render(
        request,
        "home.html",
        {
            "tournaments": current,
            "seasons": seasons,
            "series_list": Series.objects.all(),
            "no_accounts": not request.user.is_authenticated and not accounts.has_accounts(),
        },
    )


def _cached_winners(tournament: Tournament) -> list[str]:
    """:func:`selectors.winners`, cached until the tournament's standings change (a
    correction after the close bumps their version) and per language."""
    key = f"{services.standings_cache_key(tournament.pk)}:winners:{get_language()}"
    names = cache.get(key)
    if names is None:
        names = selectors.winners(tournament)
        cache.set(key, names, 24 * 3600)
    return names


def round_number_param(tournament: Tournament, request: HttpRequest) -> int | None:
    """The round chosen with ``?runde=N`` (``None`` for none).  Raises
    :class:`~tournament.params.BadNumber` (400) for anything but a number in ASCII digits and
    ``Http404`` for a number that is not one of the tournament's rounds."""
    value = request.GET.get("runde")
    if not value:
        return None
    number = parse_number(value, "runde")
    if not 1 <= number <= tournament.rounds:
        raise Http404(_("Unbekannte Runde"))
    return number


def category_param(tournament: Tournament, request: HttpRequest) -> Category | None:
    """The category chosen with ``?kategorie=`` (its short name or id; ``None`` for
    none).  Raises ``Http404`` for a category the tournament does not have."""
    value = request.GET.get("kategorie", "")
    if not value:
        return None
    # a short name is a slug: anything else (a NUL, say, which PostgreSQL refuses in
    # text) cannot name a category and is not sent to the database
    found = None
    if SLUG_SHAPE.fullmatch(value):
        found = tournament.categories.filter(slug=value).first()
    if found is None and value.isascii() and value.isdigit() and len(value) < 10:
        found = tournament.categories.filter(pk=int(value)).first()
    if found is None:
        raise Http404(_("Diese Kategorie gibt es bei diesem Turnier nicht."))
    return found


def standings(request: HttpRequest, pk: int) -> HttpResponse:
    """Public standings page; its table refreshes itself every 10 s (htmx).  With
    ``?kategorie=`` only that category's players, with their own places (not cached).

    For a visitor who is not signed in (and has no message waiting) the whole page is
    cached, keyed by the standings version, the round and the language: a hit costs no
    query and no rendering.  The page then carries nothing per visitor (no CSRF token: see
    ``templates/base.html``); a render that used one anyway is not stored.  Signed-in users
    (clerks, the director) always get a fresh page."""
    cacheable = _public_page_cacheable(request, pk)
    if cacheable:
        key = _page_key(pk, request.GET.get("runde") or None)
        hit = cache.get(key)
        if hit is not None:
            return _cached_response(hit)
    tournament = get_object_or_404(Tournament, pk=pk)
    round_number = round_number_param(tournament, request)
    category = category_param(tournament, request)
    response = render(
        request,
        "scoring/standings.html",
        {
            "tournament": tournament,
            "round_number": round_number,
            "round_numbers": range(1, tournament.rounds + 1),
            "category": category,
            "categories": list(tournament.categories.all()),
            "has_prizes": tournament.prizes.exists(),
            "fragment": _standings_fragment_html(tournament, round_number, False, category),
        },
    )
    if cacheable and not request.META.get("CSRF_COOKIE_NEEDS_UPDATE"):
        # key holds the version read before the queries: a save in between makes it stale
        cache.set(key, cache_entry(response.content), PUBLIC_CACHE_SECONDS)
    return _with_etag(response, _etag(response.content))


def _public_page_cacheable(request: HttpRequest, pk: int) -> bool:
    """Whether this request gets the page everyone else gets: an anonymous visitor with no
    message waiting, asking for the page itself (``?runde=N`` at most, nothing else in the
    query, so the cached language links point back to the same address)."""
    if request.method not in ("GET", "HEAD") or request.user.is_authenticated:
        return False
    query = request.META.get("QUERY_STRING", "")
    if query and not re.fullmatch(r"runde=[1-9][0-9]{0,2}", query):
        return False
    return not get_messages(request)


def _page_key(tournament_id: int, runde: str | None) -> str:
    return f"{services.standings_cache_key(tournament_id)}:page:{runde}:{get_language()}"


def _etag(content: bytes) -> str:
    """The ETag ConditionalGetMiddleware would compute (an MD5 of the content), made once
    per render instead of once per request."""
    return quote_etag(hashlib.md5(content, usedforsecurity=False).hexdigest())


def cache_entry(content: bytes) -> tuple[str, bytes]:
    """``(ETag, content)`` as a cached page or PDF is stored (``printing.views`` too): the
    ETag made once when the content is rendered, not on every hit."""
    return _etag(content), content


def _with_etag(response: HttpResponse, etag: str) -> HttpResponse:
    response["ETag"] = etag
    return response


def _cached_response(entry: tuple[str, bytes]) -> HttpResponse:
    etag, content = entry
    return _with_etag(HttpResponse(content), etag)


def _fragment_key(
    tournament_id: int, round_number: int | None, large: bool, category: str = ""
) -> str:
    return (
        f"{services.standings_cache_key(tournament_id)}:{round_number}:{int(large)}:"
        f"{category}:{get_language()}"
    )


def _standings_fragment_html(
    tournament: Tournament, round_number: int | None, large: bool, category=None
) -> str:
    return _standings_fragment_entry(tournament, round_number, large, category)[1].decode()


def _standings_fragment_entry(
    tournament: Tournament, round_number: int | None, large: bool, category=None
) -> tuple[str, bytes]:
    """The rendered standings table as ``(ETag, UTF-8 bytes)``, from the cache when it is
    there (stored as bytes with its ETag: a polled response is then sent without
    re-encoding or hashing 100 KB of HTML); ``category``: only its players."""
    key = _fragment_key(tournament.pk, round_number, large, category.slug if category else "")
    entry = cache.get(key)
    if entry is None:
        table = standings_table(tournament, round_number, public=True, category=category)
        html = render_to_string(
            "scoring/_standings_fragment.html",
            {
                "tournament": tournament,
                "round_number": round_number,
                "table": table,
                "large": large,
                "category": category,
                "tie_break_note": selectors.tie_break_note(tournament)
                if round_number is None and tournament.tie_break != Tournament.TieBreak.SHARED
                else "",
                "last_entry": selectors.last_entry_at(tournament),
                "status": selectors.round_status(tournament) if large else None,
                "unplaced": any(r["rank"] == "–" and not r.get("waiting") for r in table.data.data),
                "waiting": any(r.get("waiting") for r in table.data.data),
            },
            request=None,
        ).encode()
        entry = cache_entry(html)
        cache.set(key, entry, PUBLIC_CACHE_SECONDS)
    return entry


def standings_fragment(request: HttpRequest, pk: int) -> HttpResponse:
    """The standings table alone, for htmx polling; cached, so a poll usually costs no query.

    The ETag (and the 304 for an unchanged table) comes from ConditionalGetMiddleware, which
    hashes the content: with one cache per gunicorn worker, an ETag derived from the cache
    key could stand for different standings in different workers and keep a phone on old
    points (seen in the load test)."""
    large = request.GET.get("gross") == "1"
    # A hit needs no database query: keys are only ever stored for a valid round number
    # and a category's short name, so only values of that shape are looked up (a NUL or a
    # line break in a key is what memcached refuses; issue 37.42)
    runde, kategorie = request.GET.get("runde") or None, request.GET.get("kategorie", "")
    entry = None
    if (runde is None or ROUND_SHAPE.fullmatch(runde)) and (
        not kategorie or SLUG_SHAPE.fullmatch(kategorie)
    ):
        entry = cache.get(_fragment_key(pk, runde, large, kategorie))
    if entry is None:
        tournament = get_object_or_404(Tournament, pk=pk)
        round_number = round_number_param(tournament, request)
        category = category_param(tournament, request)
        entry = _standings_fragment_entry(tournament, round_number, large, category)
    response = _cached_response(entry)
    response["Cache-Control"] = "max-age=0, must-revalidate"
    return response


def projector(request: HttpRequest, pk: int) -> HttpResponse:
    """Standings for the projector: large type, scrolling by itself, no controls."""
    tournament = get_object_or_404(Tournament, pk=pk)
    round_number = round_number_param(tournament, request)
    return render(
        request,
        "scoring/projector.html",
        {
            "tournament": tournament,
            "round_number": round_number,
            "fragment": _standings_fragment_html(tournament, round_number, large=True),
            "show_qr": request.GET.get("qr") != "0"
            and qr.reachable_by_phones(qr.standings_address(tournament.pk, request)),
            "standings_address": qr.standings_address(tournament.pk, request),
        },
    )


def join(request: HttpRequest, pk: int) -> HttpResponse:
    """The join screen for the projector: the standings address as a large QR code and in
    large type, so the hall's phones find the standings without typing."""
    tournament = get_object_or_404(Tournament, pk=pk)
    address = qr.standings_address(pk, request)
    return render(
        request,
        "scoring/join.html",
        {
            "tournament": tournament,
            "standings_address": address,
            "reachable": qr.reachable_by_phones(address),
        },
    )


def qr_code(request: HttpRequest, pk: int) -> HttpResponse:
    """The standings address as a QR code (SVG image), made here: no network needed."""
    tournament = get_object_or_404(Tournament, pk=pk)
    response = HttpResponse(
        qr.qr_svg(qr.standings_address(tournament.pk, request)), content_type="image/svg+xml"
    )
    response["Cache-Control"] = "max-age=300"
    return response


def player_view(request: HttpRequest, pk: int, start_number: int) -> HttpResponse:
    """A player's own view: this round's table, opponents, hands and points; with
    ``?runde=N`` those of round N (404 if the player had no seat in it), and a tab for each
    round played so far."""
    tournament = get_object_or_404(Tournament, pk=pk)
    registration = get_object_or_404(tournament.registrations, start_number=start_number)
    round_number = round_number_param(tournament, request)
    played = list(
        registration.seats.select_related("table__round")
        .order_by("round__number")
        .filter(round__status__in=[Round.Status.RUNNING, Round.Status.CLOSED])
    )
    if round_number is None:
        seat = played[-1] if played else None
    else:
        seat = next((s for s in played if s.table.round.number == round_number), None)
        if seat is None:
            raise Http404(_("In dieser Runde hat der Spieler nicht gespielt."))
    context = {
        "tournament": tournament,
        "registration": registration,
        "seat": seat,
        "round_numbers": [s.table.round.number for s in played],
        "summary": selectors.player_summary(tournament, registration),
    }
    if seat is not None:
        table = seat.table
        seats = services.table_seats(table)
        hands = selectors.table_hands(table)
        totals = selectors.running_totals(hands, len(seats))
        team = next(
            (t for t in services.partner_teams(tournament, seats) if seat.pk in {s.pk for s in t}),
            [],
        )
        side = {s.position for s in team} or {seat.position}
        by_position = {s.position: s.registration for s in seats}
        context.update(
            table=table,
            seats=seats,
            partner_ids=[s.pk for s in team if s.pk != seat.pk],
            rows=[
                {
                    "hand": h,
                    "mine": h.scores[seat.position],
                    "total": t[seat.position],
                    **_hand_for_player(h, seat.position, side, by_position, tournament),
                }
                for h, t in zip(hands, totals, strict=True)
            ],
            total=totals[-1][seat.position] if totals else 0,
        )
    return render(request, "scoring/player.html", context)


def _player_label(registration) -> str:
    """A player as the player page names another in a hand: name and start number with
    consent to public names, else the start number alone."""
    if registration is None:
        return "?"
    if registration.consent_public:
        return _("%(name)s (Nr. %(number)s)") % {
            "name": registration.player,
            "number": registration.start_number,
        }
    return _("Nr. %(number)s") % {"number": registration.start_number}


def _hand_for_player(hand: Hand, position: int, side: set[int], by_position, tournament) -> dict:
    """One hand as the player at table ``position`` saw it: ``role`` ("self" when he was
    the declarer, "partner" when his partner was, "opponent", or "out" when he dealt and
    sat out), the declarer's ``declarer`` label, the ``result`` of the declarer's game
    (won, lost, conceded, or the special game and whether it was won) and ``lost``: the
    player's own side declared and lost (the ✗ of the page; an opponent of a declarer who
    went out or lost gained from it)."""
    if hand.declarer == position:
        role = "self"
    elif hand.declarer in side:
        role = "partner"
    elif position not in services.active_positions(tournament, len(by_position), hand.dealer):
        role = "out"
    else:
        role = "opponent"
    won = _("gewonnen") if hand.declarer_won else _("verloren")
    if hand.outcome == Hand.Outcome.ABGEHEN:
        result = hand.get_outcome_display()
    elif hand.outcome == Hand.Outcome.PLAYED:
        result = won
    else:
        result = f"{hand.get_outcome_display()} {won}"
    return {
        "role": role,
        "declarer": _player_label(by_position.get(hand.declarer)),
        "result": result,
        "lost": role in ("self", "partner") and not hand.declarer_won,
    }


# ------------------------------------------------------------------------------ clerk


@login_required
@permission_required("scoring.add_hand", raise_exception=True)
def clerk_overview(request: HttpRequest, pk: int) -> HttpResponse:
    """Every round with its tables: which are complete, which still miss hands, which
    await confirmation."""
    tournament = get_object_or_404(Tournament, pk=pk)
    _require_clerk_of(request, tournament)
    context = {"tournament": tournament, "rounds": selectors.overview_rounds(tournament)}
    return render(request, "scoring/clerk_overview.html", context)


def _table_or_404(request: HttpRequest, pk: int, round_number: int, table_number: int) -> Table:
    """The table, 404 if there is none; 403 unless the user is a clerk of its tournament or
    its director."""
    table = get_object_or_404(
        Table.objects.select_related("round__tournament"),
        round__tournament_id=pk,
        round__number=round_number,
        number=table_number,
    )
    _require_clerk_of(request, table.round.tournament)
    return table


def _require_clerk_of(request: HttpRequest, tournament: Tournament) -> None:
    """Raise ``PermissionDenied`` (the 403 page shows its message and whom to ask) unless
    the user is a clerk of ``tournament`` or its director: the object-level rule of every
    staff page of one tournament."""
    if not tournament_services.may_enter(request.user, tournament):
        raise PermissionDenied(
            _("Sie sind beim Turnier „%(name)s“ nicht als Schreiber eingetragen.")
            % {"name": tournament.name}
        )


def _hand_form(table: Table, data=None, initial=None, seats=None, touch=False) -> HandForm:
    return HandForm(
        data,
        initial=initial,
        seats=seats if seats is not None else services.table_seats(table),
        ruleset=table.round.tournament.ruleset,
        touch=touch,
    )


def _evaluate_form(table: Table, form: HandForm):
    """The engine's verdict on whatever of a bound form parsed (``None`` if too little
    did), so problems show while other fields are still blank or wrong."""
    form.is_valid()
    entry = form.to_input()
    if entry is None:
        return None
    return services.evaluate(table.round.tournament, len(form.seats), entry)


def _next_number(table: Table) -> int:
    numbers = set(table.hands.values_list("number", flat=True))
    n = 1
    while n in numbers:
        n += 1
    return n


def _next_deal(table: Table, seats) -> dict | None:
    """Who deals, bids first and leads in the next game to enter (``None`` when the round's
    games are all entered): names by the ruleset's direction of play and first bidder."""
    tournament = table.round.tournament
    number = _next_number(table)
    if number > tournament.games_per_round:
        return None
    ruleset = tournament.ruleset
    size = len(seats)
    dealer = services.dealer_for(table, size, number)
    bidder = services.first_bidder_for(ruleset, size, dealer)
    names = {s.position: s.registration.player.first_name for s in seats}
    return {
        "number": number,
        "dealer": names.get(dealer, ""),
        "bidder": names.get(bidder, ""),
        "bidder_leads": ruleset.play.first_lead == "forehand",
    }


def _slot_errors(form: HandForm, evaluation) -> dict[str, list[str]]:
    """Messages by error slot: form fields, ``melds``/``tricks`` (the whole row) and
    ``__all__``; parsing errors first, then the engine's."""
    errors: dict[str, list[str]] = {}
    if form.is_bound:
        for name, messages_ in form.errors.items():
            errors.setdefault(name, []).extend(messages_)
    if evaluation is not None:
        parse_failed = set(errors)
        for name, messages_ in evaluation.errors.items():
            slot = name if name in form.fields or name in ("melds", "tricks") else "__all__"
            if slot in parse_failed:
                continue  # the form's own error (blank, not a number) is the cause
            errors.setdefault(slot, []).extend(
                m for m in messages_ if m not in errors.get(slot, [])
            )
    return errors


def _once_per_row(errors: dict[str, list[str]]) -> dict[str, list[str]]:
    """``errors`` with a message given to several seat fields of one row (the engine
    blames every typed trick field for a wrong sum) moved to the row's slot (``tricks``):
    shown once, at the width of the form, rather than in each narrow seat column."""
    shown = {slot: list(messages_) for slot, messages_ in errors.items()}
    for row in ("melds", "tricks"):
        seats = [n for n in shown if n.startswith(f"{row}_") and n[len(row) + 1 :].isdigit()]
        counts: dict[str, int] = {}
        for name in seats:
            for message in shown[name]:
                counts[message] = counts.get(message, 0) + 1
        shared = [message for message, count in counts.items() if count > 1]
        if not shared:
            continue
        for name in seats:
            shown[name] = [m for m in shown[name] if m not in shared]
            if not shown[name]:
                del shown[name]
        row_messages = shown.setdefault(row, [])
        row_messages.extend(m for m in shared if m not in row_messages)
    return shown


def _field_errors(form: HandForm, evaluation) -> dict[str, list[str]]:
    """The messages to show by error slot (:func:`_slot_errors`), each once
    (:func:`_once_per_row`)."""
    return _once_per_row(_slot_errors(form, evaluation))


def _marked_errors(form: HandForm, evaluation) -> tuple[dict[str, list[str]], list[str]]:
    """``(field_errors, wrong_slots)`` for a page with the hand form: the messages to show
    (:func:`_field_errors`) and every wrong slot, marked on the form (``aria-invalid``,
    the focus).  A seat field whose message is shown once for its row is still wrong:
    the typed fields of a wrong sum, not the blank one computed from them."""
    slots = _slot_errors(form, evaluation)
    form.mark_errors(slots)
    return _once_per_row(slots), list(slots)


def _rare_melds(seats, evaluation) -> list[tuple[str, str]]:
    """``(player's first name, message)`` for each rare meld total the engine warns about,
    shown beside the "Ja, wirklich" tick that lets the hand be saved."""
    if evaluation is None or not evaluation.warnings:
        return []
    return [
        (seat.registration.player.first_name, message)
        for seat in seats
        for message in evaluation.warnings.get(f"melds_{seat.position}", [])
    ]


def _entry_state(user, round_: Round) -> dict:
    """What ``user`` may do with ``round_``'s entries, for the templates: write (a running
    round, or a closed one for the director, with a reason), confirm, record rulings."""
    closed = round_.status == Round.Status.CLOSED
    can_write = round_.status == Round.Status.RUNNING or (
        closed and user.has_perm("scoring.correct_closed_round")
    )
    return {
        "can_write": can_write,
        "round_closed": closed,
        "can_confirm": (
            round_.tournament.confirmation_required or bool(round_.tournament.table_entry)
        )
        and round_.status == Round.Status.RUNNING
        and user.has_perm("scoring.change_hand"),
        "can_rule": user.has_perm("scoring.add_ruling") and round_.status != Round.Status.PLANNED,
    }


def _table_context(table: Table, form: HandForm, evaluation=None, stale=None, user=None) -> dict:
    seats = form.seats
    hands = selectors.table_hands(table)
    totals = selectors.running_totals(hands, len(seats))
    tournament = table.round.tournament
    state = _entry_state(user, table.round) if user is not None else {}
    correcting = bool(form.initial.get("version") or (form.is_bound and form.data.get("version")))
    state["show_form"] = state.get("can_write") and (
        correcting or len(hands) < tournament.games_per_round
    )
    field_errors, wrong_slots = _marked_errors(form, evaluation)
    return {
        **state,
        "more_open": any(name in field_errors for name in HandForm.MORE_FIELDS),
        "tournament": tournament,
        "table": table,
        "seats": seats,
        "teams": services.partner_teams(tournament, seats),
        "rows": list(zip(hands, totals, strict=True)),
        "history": selectors.hand_history(table.hands.all(), closed_at=table.round.closed_at),
        "rulings": list(table.rulings.select_related("decided_by")),
        "columns": 7 + 2 * len(seats),
        "form": form,
        "evaluation": evaluation,
        "stale": stale,
        "games": tournament.games_per_round,
        "complete": len(hands) >= tournament.games_per_round,
        "ruleset": tournament.ruleset,
        "seating": services.seating_text(tournament.ruleset),
        "next_deal": _next_deal(table, seats),
        "field_errors": field_errors,
        "wrong_slots": wrong_slots,
        "rare_melds": _rare_melds(seats, evaluation),
        "error_slots": [*form.fields, "melds", "tricks", "__all__"],
    }


@login_required
@permission_required("scoring.add_hand", raise_exception=True)
def table_page(request: HttpRequest, pk: int, round_number: int, table_number: int) -> HttpResponse:
    """A table's round: the hands so far with running totals, and the entry form for the
    next hand (or, with ``?spiel=N``, the correction form for hand N)."""
    table = _table_or_404(request, pk, round_number, table_number)
    seats = services.table_seats(table)
    if table.round.tournament.entry_mode == Tournament.EntryMode.TOTALS:
        return _totals_page(request, table, seats)
    if request.method == "POST":
        form = _hand_form(table, request.POST, seats=seats)
        if form.is_valid():
            entry = form.to_input()
            try:
                hand, evaluation = services.save_hand(
                    table,
                    entry,
                    request.user,
                    expected_version=form.cleaned_data.get("version"),
                    reason=form.cleaned_data.get("reason") or "",
                )
            except services.StaleEntry as exc:
                current = exc.hand
                messages.error(
                    request,
                    _(
                        "Spiel %(n)s wurde inzwischen von %(user)s geändert (Version %(v)s). "
                        "Bitte die aktuellen Werte prüfen."
                    )
                    % {"n": current.number, "user": current.enterer, "v": current.version},
                )
                form = _hand_form(table, initial=HandForm.initial_from(current), seats=seats)
                return render(
                    request,
                    "scoring/table.html",
                    _table_context(table, form, stale=current, user=request.user),
                    status=409,
                )
            except services.EntryRefused as exc:
                raise PermissionDenied(str(exc)) from exc
            if hand is not None:
                messages.success(request, _("Spiel %(n)s gespeichert.") % {"n": hand.number})
                # no #fragment: a fragment target would cancel the form's autofocus, and
                # the focused field scrolls itself into view
                return redirect(
                    "scoring:table", pk=pk, round_number=round_number, table_number=table_number
                )
            return render(
                request,
                "scoring/table.html",
                _table_context(table, form, evaluation, user=request.user),
                status=422,
            )
        evaluation = _evaluate_form(table, form)
        return render(
            request,
            "scoring/table.html",
            _table_context(table, form, evaluation, user=request.user),
            status=422,
        )

    number = request.GET.get("spiel")
    hand = (
        table.hands.filter(number=parse_number(number, "spiel", HAND_NUMBER_MAX)).first()
        if number
        else None
    )
    if hand is not None:
        initial = HandForm.initial_from(hand)
    else:
        n = _next_number(table)
        initial = {"number": n, "dealer": services.dealer_for(table, len(seats), n)}
    form = _hand_form(table, initial=initial, seats=seats)
    return render(request, "scoring/table.html", _table_context(table, form, user=request.user))


def _totals_page(request: HttpRequest, table: Table, seats) -> HttpResponse:
    """Paper-sheet mode of the table page: every player's round total in one form."""
    tournament = table.round.tournament
    stored = services.table_totals(table, seats)
    context = {
        **_entry_state(request.user, table.round),
        "tournament": tournament,
        "table": table,
        "seats": seats,
        "stored": stored,
        "unconfirmed": [t for t in stored.values() if t.confirmed_at is None],
        "rulings": list(table.rulings.select_related("decided_by")),
        "ruleset": tournament.ruleset,
        "games": tournament.games_per_round,
    }
    if request.method != "POST":
        form = RoundTotalsForm(initial=RoundTotalsForm.initial_from(stored), seats=seats)
        return render(request, "scoring/table_totals.html", {**context, "form": form})
    form = RoundTotalsForm(request.POST, seats=seats)
    form.is_valid()
    errors = {name: list(msgs) for name, msgs in form.errors.items()}
    if errors:
        # show the plausibility problems of what did parse beside the parsing errors
        for name, msgs in services.check_totals(table, form.to_inputs(), seats).items():
            if name not in form.errors:
                errors.setdefault(name, []).extend(msgs)
    else:  # the service checks plausibility itself before it writes
        try:
            _saved, errors = services.save_round_totals(
                table,
                form.to_inputs(),
                request.user,
                form.expected_versions(),
                reason=form.cleaned_data.get("reason") or "",
            )
        except services.StaleTotals as exc:
            names = sorted({exc.totals[p].enterer for p in exc.changed if p in exc.totals})
            messages.error(
                request,
                _(
                    "Die Summen dieses Tisches wurden inzwischen von %(users)s geändert. "
                    "Die aktuellen Werte stehen jetzt im Formular; bitte prüfen."
                )
                % {"users": ", ".join(names)},
            )
            form = RoundTotalsForm(initial=RoundTotalsForm.initial_from(exc.totals), seats=seats)
            context["stored"] = exc.totals
            return render(
                request, "scoring/table_totals.html", {**context, "form": form}, status=409
            )
        except services.EntryRefused as exc:
            raise PermissionDenied(str(exc)) from exc
        if not errors:
            messages.success(
                request, _("Rundensummen von Tisch %(n)s gespeichert.") % {"n": table.number}
            )
            return redirect(
                "scoring:table",
                pk=tournament.pk,
                round_number=table.round.number,
                table_number=table.number,
            )
    return render(
        request,
        "scoring/table_totals.html",
        {**context, "form": form, "field_errors": errors},
        status=422,
    )


@login_required
@permission_required("scoring.add_hand", raise_exception=True)
@require_POST
def validate_hand(
    request: HttpRequest, pk: int, round_number: int, table_number: int
) -> HttpResponse:
    """htmx: check the form as the clerk types; returns the form with errors by field and
    a preview of the scores.  Writes nothing."""
    table = _table_or_404(request, pk, round_number, table_number)
    form = _hand_form(table, request.POST)
    context = _table_context(table, form, _evaluate_form(table, form), user=request.user)
    context["oob"] = True
    return render(request, "scoring/_preview.html", context)


@login_required
@permission_required("scoring.change_hand", raise_exception=True)
@require_POST
def confirm_entry(
    request: HttpRequest, pk: int, round_number: int, table_number: int
) -> HttpResponse:
    """Confirm a hand (``spiel``, ``version``) or, in paper mode, the table's round totals
    (``version_<position>``) as a second account; back to the table page with a message."""
    table = _table_or_404(request, pk, round_number, table_number)
    back = redirect("scoring:table", pk=pk, round_number=round_number, table_number=table_number)
    try:
        if table.round.tournament.entry_mode == Tournament.EntryMode.TOTALS:
            seats = services.table_seats(table)
            form = RoundTotalsForm(request.POST, seats=seats)
            form.is_valid()  # only the hidden versions are read; they parse or are None
            n = services.confirm_table_totals(table, request.user, form.expected_versions())
            messages.success(
                request,
                _("Rundensummen von Tisch %(t)s bestätigt (%(n)s).") % {"t": table.number, "n": n},
            )
            return back
        try:
            number = parse_number(request.POST.get("spiel"), "spiel", HAND_NUMBER_MAX)
            version = parse_number(request.POST.get("version"), "version")
        except BadNumber:
            messages.error(request, _("Unvollständige Bestätigung; bitte erneut versuchen."))
            return back
        hand = get_object_or_404(Hand, table=table, number=number)
        services.confirm_hand(hand, request.user, version)
        messages.success(request, _("Spiel %(n)s bestätigt.") % {"n": hand.number})
    except services.StaleEntry as exc:
        messages.error(
            request,
            _(
                "Spiel %(n)s wurde inzwischen von %(user)s geändert (Version %(v)s); bitte die "
                "neuen Werte prüfen und dann bestätigen."
            )
            % {"n": exc.hand.number, "user": exc.hand.enterer, "v": exc.hand.version},
        )
    except services.StaleTotals:
        messages.error(
            request,
            _(
                "Die Summen wurden inzwischen geändert; bitte die neuen Werte prüfen und bestätigen."
            ),
        )
    except services.ConfirmationRefused as exc:
        messages.error(request, str(exc))
    except services.EntryRefused as exc:
        raise PermissionDenied(str(exc)) from exc
    return back


@login_required
@permission_required("scoring.add_ruling", raise_exception=True)
def ruling(request: HttpRequest, pk: int, round_number: int, table_number: int) -> HttpResponse:
    """Director: record a dispute at a table and its ruling; a penalty is applied to the
    hand and scored by the engine (``?spiel=N`` preselects the game)."""
    table = _table_or_404(request, pk, round_number, table_number)
    tournament = table.round.tournament
    seats = services.table_seats(table)
    kwargs = {"seats": seats, "games": tournament.games_per_round}
    errors: dict[str, list[str]] = {}
    if request.method == "POST":
        form = RulingForm(request.POST, **kwargs)
        if form.is_valid():
            data = form.cleaned_data
            try:
                saved, errors = services.record_ruling(
                    table,
                    hand_number=data["hand_number"],
                    claim=data["claim"],
                    decision=data["decision"],
                    consequence=data["consequence"],
                    offender=data["offender"],
                    user=request.user,
                )
            except services.EntryRefused as exc:
                raise PermissionDenied(str(exc)) from exc
            if saved is not None:
                messages.success(
                    request,
                    _("Entscheidung zu Spiel %(n)s gespeichert.") % {"n": saved.hand_number},
                )
                return redirect(
                    "scoring:table", pk=pk, round_number=round_number, table_number=table_number
                )
        for name, msgs in form.errors.items():
            errors.setdefault(name, []).extend(msgs)
        status = 422
    else:
        number = request.GET.get("spiel")
        initial = {"hand_number": parse_number(number, "spiel", HAND_NUMBER_MAX) if number else ""}
        form = RulingForm(initial=initial, **kwargs)
        status = 200
    hands = {h.number: h for h in table.hands.all()}
    return render(
        request,
        "scoring/ruling.html",
        {
            "tournament": tournament,
            "table": table,
            "seats": seats,
            "hands": hands,
            "form": form,
            "field_errors": errors,
            "rulings": list(table.rulings.select_related("decided_by")),
            "ruleset": tournament.ruleset,
        },
        status=status,
    )


PLAY_RULE_LABELS = {
    "must-follow-suit": _lazy("Farbzwang: die ausgespielte Farbe muss bedient werden."),
    "must-head-trick": _lazy("Stichzwang: wer bedient, muss die höchste Karte überstechen."),
    "must-trump": _lazy("Trumpfzwang: wer nicht bedienen kann, muss trumpfen."),
    "must-overtrump": _lazy("Übertrumpfen: ein Trumpf im Stich muss überstochen werden."),
    "must-win-trick": _lazy("Stechpflicht: wer den Stich gewinnen kann, muss es tun."),
}


@login_required
@permission_required("scoring.view_hand", raise_exception=True)
def play_check(request: HttpRequest, pk: int) -> HttpResponse:
    """The revoke checker: was a card legal under the tournament's ruleset, and if not,
    which obligation did it break?  Reads nothing but the ruleset and writes nothing."""
    tournament = get_object_or_404(Tournament, pk=pk)
    _require_clerk_of(request, tournament)
    verdict, errors = None, {}
    form = PlayCheckForm(request.GET or None)
    if form.is_bound:
        if form.is_valid():
            verdict, errors = services.judge_play(tournament, form.to_question())
        errors = {**{n: list(m) for n, m in form.errors.items()}, **errors}
    question = form.to_question() if verdict is not None else None
    return render(
        request,
        "scoring/play_check.html",
        {
            "tournament": tournament,
            "ruleset": tournament.ruleset,
            "low_card": tournament.ruleset.deck_size == 48,  # 40 cards: no Siebener
            "form": form,
            "field_errors": errors,
            "verdict": verdict,
            "question": question,
            "winning_card": (
                [*question.trick, question.card][verdict.winner] if verdict is not None else ""
            ),
            "rule_text": PLAY_RULE_LABELS.get(verdict.rule) if verdict and verdict.rule else "",
        },
        status=422 if errors else 200,
    )


# --------------------------------------------------------------------------- director


ROUND_ACTIONS = ("auslosen", "starten", "abschliessen")


@login_required
@permission_required("tournament.change_round", raise_exception=True)
@require_POST
def round_action(request: HttpRequest, pk: int, round_number: int, action: str) -> HttpResponse:
    """Director: draw (``auslosen``), start (``starten``) or close (``abschliessen``) a round.

    What cannot be undone (a new draw over an existing one, a start, a close) is done only
    when the POST carries ``bestaetigt=1``; without it the page asks first, saying what will
    happen (no JavaScript needed).  Closing a round with missing or unconfirmed entries
    needs a ``grund``, which is stored and printed on the results list; without it (or with
    one too long) the page asks again, with the message at the field."""
    if action not in ROUND_ACTIONS:
        raise Http404(action)
    round_ = get_object_or_404(
        Round.objects.select_related("tournament"), tournament_id=pk, number=round_number
    )
    seed = (request.POST.get("seed") or "").strip()
    reason = (request.POST.get("grund") or "").strip()
    if request.POST.get("bestaetigt") != "1" and _asks_first(round_, action):
        return _confirm_round_action(request, round_, action, seed, reason)
    try:
        if action == "auslosen":
            if seed and not re.fullmatch(r"[0-9]{1,15}", seed):
                raise ValidationError(
                    _("Startwert (Seed): bitte eine ganze Zahl mit höchstens 15 Ziffern eingeben.")
                )
            plan = tournament_services.draw_round(round_, int(seed) if seed else None)
            messages.success(
                request,
                _("Runde %(n)s ausgelost (Seed %(seed)s, %(r)s Wiederholungen).")
                % {"n": round_.number, "seed": round_.seed, "r": plan.repeats},
            )
        elif action == "starten":
            links.start_round(round_, request.user)
            messages.success(request, _("Runde %(n)s läuft.") % {"n": round_.number})
        else:
            services.close_round(round_, reason=reason)
            messages.success(request, _("Runde %(n)s abgeschlossen.") % {"n": round_.number})
    except services.RoundIncomplete as exc:
        return _confirm_round_action(
            request,
            round_,
            action,
            seed,
            reason,
            error=exc.messages[0],
            reason_error=_(
                "Grund: bitte angeben, warum die Runde trotz fehlender oder unbestätigter "
                "Eingaben abgeschlossen wird; ohne Grund bleibt sie offen."
            ),
        )
    except ValidationError as exc:
        if action == "abschliessen" and getattr(exc, "code", None) == "reason":
            return _confirm_round_action(
                request, round_, action, seed, reason, reason_error=exc.messages[0]
            )
        for message in exc.messages:
            messages.error(request, message)
    return redirect("scoring:clerk", pk=pk)


def _asks_first(round_: Round, action: str) -> bool:
    """Whether ``action`` would change something that cannot be undone: a new draw over an
    existing one, a start, a close.  The first draw loses nothing, and an action the round's
    state refuses anyway is refused at once with its message."""
    if action == "abschliessen":
        return round_.status == Round.Status.RUNNING
    if round_.status != Round.Status.PLANNED or not round_.tables.exists():
        return False
    if action == "starten":  # refused at once while an earlier round is open
        return tournament_services.first_open_round_before(round_) is None
    return True


def _confirm_round_action(
    request: HttpRequest,
    round_: Round,
    action: str,
    seed: str,
    reason: str,
    error: str = "",
    reason_error: str = "",
) -> HttpResponse:
    """The page that asks before a round action, with what it will do (and, for a close,
    which entries are missing or unconfirmed and a field for the reason, with
    ``reason_error`` beside it)."""
    closing = action == "abschliessen"
    missing = services.missing_entries(round_) if closing else []
    unconfirmed = services.unconfirmed_entries(round_) if closing else []
    return render(
        request,
        "scoring/round_confirm.html",
        {
            "tournament": round_.tournament,
            "round": round_,
            "action": action,
            "seed": seed,
            "reason": reason,
            "missing": [m.describe() for m in missing],
            "unconfirmed": [m.describe() for m in unconfirmed],
            "error": error,
            "reason_error": reason_error,
        },
        status=422 if error or reason_error else 200,
    )
