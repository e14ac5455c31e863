"""Public pages: live standings (and their polled fragment), projector, the join page
and its QR code, a player's own page.  Anonymous visitors get cached pages keyed by the
standings version (:mod:`scoring.cache`)."""

from __future__ import annotations

import re

from django.contrib.messages import get_messages
from django.core.cache import cache
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.template.loader import render_to_string
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from tournament import accounts
from tournament.models import Round, Series, Tournament

from .. import qr, selectors, services
from ..http import (
    ROUND_SHAPE,
    SLUG_SHAPE,
    cache_entry,
    category_param,
    etag,
    round_number_param,
)
from ..models import Hand
from ..tables import standings_table

PUBLIC_CACHE_SECONDS = 10


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
    return _with_etag(response, etag(response.content))


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
