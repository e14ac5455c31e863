"""PDF downloads: score sheets and table plan of a round, results list, rules handout.

Score sheets are the tables' internal record and need the director's permission; the table
plan, results list and rules handout are public documents (names only with consent).  The
results list's prize-giving version (``?fassung=siegerehrung``) names every player and is,
like the score sheets, for the director only.

The public documents (table plan, results list, rules handout, poster, series results)
are the same for every visitor, signed in or not, and take WeasyPrint up to a couple of
seconds of processor time each.  They are kept in Django's cache for
:data:`PUBLIC_PDF_CACHE_SECONDS`, keyed by a version that changes whenever something they
show is saved, the kind of document and every parameter that changes it (round,
category, language, the standings address); see :func:`_public_pdf`.  Only a render (a
cache miss) is throttled: ``settings.PUBLIC_PDF_RATE`` renders per client address, then
HTTP 429 until the window has passed; signed-in staff are not throttled.  The
director-only documents (score sheets, table cards, prize-giving list and version, name
badges and running slips) are never cached, here or in a browser.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from functools import wraps

from django.conf import settings
from django.contrib.auth.decorators import login_required, permission_required
from django.contrib.auth.views import redirect_to_login
from django.core.cache import cache
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404
from django.shortcuts import render as django_render
from django.template import engines
from django.utils.cache import add_never_cache_headers, patch_vary_headers
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django_ratelimit.core import get_usage

from scoring.cache import setup_version, standings_cache_key
from scoring.http import cache_entry, category_param, round_number_param
from scoring.qr import standings_address
from tournament.models import Round, Series, Tournament

from . import render
from .pdfs import (
    badges_pdf,
    cash_pdf,
    poster_pdf,
    prizes_pdf,
    results_pdf,
    rules_pdf,
    running_slips_pdf,
    score_sheets_pdf,
    series_results_pdf,
    table_cards_pdf,
    table_plan_pdf,
)

#: How long a rendered public PDF is kept (seconds).  Short, although every key names a
#: version: with one cache per worker process another worker may still hold an older
#: copy under its own counter.  Even so a document is rendered at most once a minute per
#: variant and process while nothing changes.
PUBLIC_PDF_CACHE_SECONDS = 60
#: django-ratelimit group counting the renders of public PDFs per address
PUBLIC_PDF_GROUP = "public-pdf"


def needs_pdf_engine(view: Callable) -> Callable:
    """Wrap a PDF view: where WeasyPrint cannot load its system libraries
    (:data:`printing.render.PDF_ENGINE_ERROR`), answer with a page in the visitor's language
    that says what to install (503), instead of a server error; the rest of the evening
    works without PDFs."""

    @wraps(view)
    def wrapper(request: HttpRequest, *args, **kwargs) -> HttpResponse:
        if render.PDF_ENGINE_ERROR is not None:
            response = django_render(
                request,
                "printing/no_pdf_engine.html",
                {"error": render.PDF_ENGINE_ERROR},
                status=503,
            )
            add_never_cache_headers(response)
            return response
        return view(request, *args, **kwargs)

    return wrapper


def _pdf(content: bytes, filename: str) -> HttpResponse:
    response = HttpResponse(content, content_type="application/pdf")
    response["Content-Disposition"] = f'inline; filename="{filename}"'
    return response


def _private_pdf(content: bytes, filename: str) -> HttpResponse:
    """A director's PDF (every name, or the tables' private links): never kept in a
    browser's or proxy's cache."""
    response = _pdf(content, filename)
    add_never_cache_headers(response)
    return response


_THROTTLED_PAGE = engines["django"].from_string(
    '{% extends "base.html" %}{% block title %}{{ title }}{% endblock %}'
    '{% block content %}<h1>{{ title }}</h1><p class="notice">{{ message }}</p>{% endblock %}'
)


def render_throttled(request: HttpRequest) -> int | None:
    """Count a render of a public PDF against the client's address (django-ratelimit,
    ``key="ip"``).  Returns ``None`` when the render may go ahead, else the seconds left
    until the address may render again (it has used up ``settings.PUBLIC_PDF_RATE``).
    Signed-in users (the director, clerks) are neither counted nor held back; when the
    cache cannot count, the render goes ahead (``RATELIMIT_FAIL_OPEN``)."""
    if request.user.is_authenticated:
        return None
    usage = get_usage(
        request, group=PUBLIC_PDF_GROUP, key="ip", rate=settings.PUBLIC_PDF_RATE, increment=True
    )
    if usage is None or not usage["should_limit"]:
        return None
    return max(1, int(usage["time_left"]))


def throttled_response(request: HttpRequest, retry_after: int = 60) -> HttpResponse:
    """The HTTP 429 page for an address that asked for too many PDF renders: a short
    page in the visitor's language saying to wait a minute, ``Retry-After: retry_after``
    (seconds) and no caching."""
    response = HttpResponse(
        _THROTTLED_PAGE.render(
            {
                "title": _("Bitte kurz warten"),
                "message": _(
                    "Zu viele PDF-Dateien in kurzer Zeit angefordert. Bitte eine Minute "
                    "warten und dann neu laden."
                ),
            },
            request,
        ),
        status=429,
    )
    response["Retry-After"] = str(retry_after)
    add_never_cache_headers(response)
    return response


def public_pdf_key(kind: str, version: object, *params: object) -> str:
    """Cache key of a public PDF: ``kind`` (``"table-plan"``, ``"results"``, …), the
    ``version`` the content was read under and the ``params`` that change the document
    (each turned into text; ``None`` as empty), joined with ``:``.  A parameter that may
    hold a colon or arbitrary text (an address) must be hashed by the caller."""
    parts = ["" if p is None else str(p) for p in (version, *params)]
    return ":".join(["public-pdf", kind, *parts])


def _public_pdf(
    request: HttpRequest, key: str, render: Callable[[], bytes], filename: str
) -> HttpResponse:
    """The public PDF under cache ``key``, rendered with ``render()`` on a miss.

    ``key`` must name the version read *before* ``render()`` reads the data (then a save
    in between leaves the new data under the old version only) and every parameter the
    output depends on.  A hit is served as stored (with its ETag) and not counted; a miss
    is counted against the client's address first and answered 429
    (:func:`throttled_response`) once the address has used up ``PUBLIC_PDF_RATE``."""
    entry = cache.get(key)
    if entry is None:
        wait = render_throttled(request)
        if wait is not None:
            return throttled_response(request, wait)
        content = render()
        entry = cache_entry(content)
        cache.set(key, entry, PUBLIC_PDF_CACHE_SECONDS)
    etag, content = entry
    response = _pdf(content, filename)
    response["ETag"] = etag
    # the language comes from a cookie: a cache in between keeps the languages apart
    patch_vary_headers(response, ("Cookie",))
    return response


def _round(pk: int, round_number: int) -> Round:
    return get_object_or_404(
        Round.objects.select_related("tournament"), tournament_id=pk, number=round_number
    )


@never_cache  # blank sheets carry the tables' private links: not kept in a browser cache
@login_required
@permission_required("tournament.change_round", raise_exception=True)
def score_sheets(request: HttpRequest, pk: int, round_number: int) -> HttpResponse:
    """Director: the round's score sheets; ``?leer=1`` for the blank sheets for the tables."""
    round_ = _round(pk, round_number)
    filled = request.GET.get("leer") != "1"
    if not round_.tables.exists():
        raise Http404(_("Die Runde ist noch nicht ausgelost."))
    kind = "protokoll" if filled else "leer"
    # the tables' QR codes point at the address the director's browser uses, unless venue
    # mode names the laptop's LAN address (PUBLIC_BASE_URL)
    base = settings.PUBLIC_BASE_URL or request.build_absolute_uri("/")[:-1]
    pdf = score_sheets_pdf(round_, filled, base, request.user)
    return _private_pdf(pdf, f"spielliste-runde-{round_number}-{kind}.pdf")


def table_plan(request: HttpRequest, pk: int, round_number: int) -> HttpResponse:
    """The round's table plan for the door (public; cached by the tournament's setup
    version, round and language: a saved hand leaves it cached).  404 for an unknown round
    or one not drawn yet; 429 when the client has asked for too many renders."""
    version = setup_version(pk)  # before the data is read
    round_ = _round(pk, round_number)
    if not round_.tables.exists():
        raise Http404(_("Die Runde ist noch nicht ausgelost."))
    key = public_pdf_key("table-plan", version, pk, round_number, get_language())
    return _public_pdf(
        request, key, lambda: table_plan_pdf(round_), f"tischplan-runde-{round_number}.pdf"
    )


@never_cache  # the cards carry the tables' private links: not kept in a browser cache
@login_required
@permission_required("tournament.change_round", raise_exception=True)
def table_cards(request: HttpRequest, pk: int, round_number: int) -> HttpResponse:
    """Director: the round's table cards.  With table entry on they carry each table's
    private link, which lets whoever holds it enter that table's hands: director only."""
    round_ = _round(pk, round_number)
    if not round_.tables.exists():
        raise Http404(_("Die Runde ist noch nicht ausgelost."))
    base = settings.PUBLIC_BASE_URL or request.build_absolute_uri("/")[:-1]
    return _private_pdf(
        table_cards_pdf(round_, base, request.user), f"tischkarten-runde-{round_number}.pdf"
    )


PRIZE_GIVING = "siegerehrung"


def results(request: HttpRequest, pk: int) -> HttpResponse:
    """The results list; ``?runde=N`` for one round.  ``?fassung=siegerehrung``: the
    director's prize-giving version with every name (login and the director's permission,
    as for the score sheets); any other ``fassung`` is a 404.  ``?kategorie=``: only that
    category's players with their own places.  The public list is cached by the standings
    version, round, category and language; the prize-giving version never."""
    standings_version = standings_cache_key(pk)  # before the data is read
    tournament = get_object_or_404(Tournament, pk=pk)
    round_number = round_number_param(tournament, request)
    category = category_param(tournament, request)
    version = request.GET.get("fassung", "")
    if version not in ("", PRIZE_GIVING):
        raise Http404(_("Diese Fassung der Rangliste gibt es nicht."))
    public = version != PRIZE_GIVING
    if not public:
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        if not request.user.has_perm("tournament.change_round"):
            raise PermissionDenied
    suffix = f"-runde-{round_number}" if round_number else ""
    suffix += f"-{category.slug}" if category else ""
    suffix += "" if public else f"-{PRIZE_GIVING}"
    filename = f"rangliste{suffix}.pdf"
    if not public:  # every name: rendered for the director each time, never cached
        return _private_pdf(
            results_pdf(tournament, round_number, public=False, category=category), filename
        )
    key = public_pdf_key(
        "results",
        standings_version,
        round_number,
        category.pk if category else None,
        get_language(),
    )
    return _public_pdf(
        request,
        key,
        lambda: results_pdf(tournament, round_number, public=True, category=category),
        filename,
    )


def rules(request: HttpRequest, pk: int) -> HttpResponse:
    """The rules handout; ``?sprache=en`` for English (anything else: German, whatever
    the page language).  Public, cached by the tournament's setup version and ``sprache``."""
    version = setup_version(pk)  # before the data is read
    tournament = get_object_or_404(Tournament, pk=pk)
    language = "en" if request.GET.get("sprache") == "en" else "de"
    key = public_pdf_key("rules", version, pk, language)
    return _public_pdf(
        request, key, lambda: rules_pdf(tournament, language), f"regeln-{language}.pdf"
    )


def poster(request: HttpRequest, pk: int) -> HttpResponse:
    """A4 poster with the standings address as a QR code, for the door and the tables.
    Public, cached by the tournament's setup version, the language and the address it
    shows (``PUBLIC_BASE_URL``, else the address the request came in at)."""
    version = setup_version(pk)  # before the data is read
    tournament = get_object_or_404(Tournament, pk=pk)
    address = standings_address(pk, request)
    key = public_pdf_key(
        "poster",
        version,
        get_language(),
        hashlib.sha256(address.encode()).hexdigest(),
    )
    return _public_pdf(
        request, key, lambda: poster_pdf(tournament, address), "aushang-rangliste.pdf"
    )


def series_version(series: Series) -> str:
    """A SHA-256 hex digest that changes whenever the series' results list may: of the
    series' own fields (name, season, rule; its history is not printed), the tournaments
    attached and each one's standings version.  One query, and a cache read per
    evening."""
    fields = [(f.attname, f.value_from_object(series)) for f in Series._meta.concrete_fields]
    evenings = sorted(series.tournaments.values_list("pk", flat=True))
    data = [fields, [(pk, standings_cache_key(pk)) for pk in evenings]]
    return hashlib.sha256(json.dumps(data, default=str).encode()).hexdigest()


def series_results(request: HttpRequest, pk: int) -> HttpResponse:
    """The results list of a series (public: names only with consent), cached by
    :func:`series_version` and the language."""
    series = get_object_or_404(Series, pk=pk)
    key = public_pdf_key("series", series_version(series), pk, get_language())
    return _public_pdf(request, key, lambda: series_results_pdf(series), f"serie-{series.pk}.pdf")


@login_required
@permission_required("tournament.change_round", raise_exception=True)
def prizes(request: HttpRequest, pk: int) -> HttpResponse:
    """Director: the prize-giving list with every name (like ``?fassung=siegerehrung``)."""
    tournament = get_object_or_404(Tournament, pk=pk)
    return _private_pdf(prizes_pdf(tournament), f"{PRIZE_GIVING}-preise.pdf")


@never_cache
@login_required
@permission_required("tournament.change_round", raise_exception=True)
def badges(request: HttpRequest, pk: int) -> HttpResponse:
    """Director (as for the table cards): a name badge for every registered player, ten
    per A4 page; names and clubs only with consent."""
    tournament = get_object_or_404(Tournament, pk=pk)
    return _private_pdf(badges_pdf(tournament), "namensschilder.pdf")


@never_cache
@login_required
@permission_required("tournament.change_round", raise_exception=True)
def running_slips(request: HttpRequest, pk: int) -> HttpResponse:
    """Director (as for the table cards): a running slip ("Laufzettel") for every
    registered player, four per A4 page, with the table and seat of each round drawn so
    far; names only with consent."""
    tournament = get_object_or_404(Tournament, pk=pk)
    return _private_pdf(running_slips_pdf(tournament), "laufzettel.pdf")


@never_cache
@login_required
@permission_required("tournament.change_tournament", raise_exception=True)
def cash(request: HttpRequest, pk: int) -> HttpResponse:
    """Director: the cash summary as a PDF for the treasurer (start fees, lost-game fees,
    sums); every name, so never public."""
    tournament = get_object_or_404(Tournament, pk=pk)
    return _private_pdf(cash_pdf(tournament), "kasse.pdf")
