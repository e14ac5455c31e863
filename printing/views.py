"""PDF downloads: score sheets and table plan of a round, results list, rules handout.

Score sheets are the tables' internal record and need the director's permission; the table
plan, results list and rules handout are public documents (names only with consent).  The
results list's prize-giving version (``?fassung=siegerehrung``) names every player and is,
like the score sheets, for the director only.
"""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth.decorators import login_required, permission_required
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache

from scoring.qr import standings_address
from scoring.views import category_param, round_number_param
from tournament.models import Round, Series, Tournament

from .pdfs import (
    poster_pdf,
    prizes_pdf,
    results_pdf,
    rules_pdf,
    score_sheets_pdf,
    series_results_pdf,
    table_cards_pdf,
    table_plan_pdf,
)


def _pdf(content: bytes, filename: str) -> HttpResponse:
    response = HttpResponse(content, content_type="application/pdf")
    response["Content-Disposition"] = f'inline; filename="{filename}"'
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
    return _pdf(pdf, f"spielliste-runde-{round_number}-{kind}.pdf")


def table_plan(request: HttpRequest, pk: int, round_number: int) -> HttpResponse:
    """The round's table plan for the door."""
    round_ = _round(pk, round_number)
    if not round_.tables.exists():
        raise Http404(_("Die Runde ist noch nicht ausgelost."))
    return _pdf(table_plan_pdf(round_), f"tischplan-runde-{round_number}.pdf")


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
    return _pdf(
        table_cards_pdf(round_, base, request.user), f"tischkarten-runde-{round_number}.pdf"
    )


PRIZE_GIVING = "siegerehrung"


def results(request: HttpRequest, pk: int) -> HttpResponse:
    """The results list; ``?runde=N`` for one round.  ``?fassung=siegerehrung``: the
    director's prize-giving version with every name (login and the director's permission,
    as for the score sheets); any other ``fassung`` is a 404.  ``?kategorie=``: only that
    category's players with their own places."""
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
    return _pdf(
        results_pdf(tournament, round_number, public=public, category=category),
        f"rangliste{suffix}.pdf",
    )


def rules(request: HttpRequest, pk: int) -> HttpResponse:
    """The rules handout; ``?sprache=en`` for English."""
    tournament = get_object_or_404(Tournament, pk=pk)
    language = "en" if request.GET.get("sprache") == "en" else "de"
    return _pdf(rules_pdf(tournament, language), f"regeln-{language}.pdf")


def poster(request: HttpRequest, pk: int) -> HttpResponse:
    """A4 poster with the standings address as a QR code, for the door and the tables."""
    tournament = get_object_or_404(Tournament, pk=pk)
    return _pdf(poster_pdf(tournament, standings_address(pk, request)), "aushang-rangliste.pdf")


def series_results(request: HttpRequest, pk: int) -> HttpResponse:
    """The results list of a series (public: names only with consent)."""
    series = get_object_or_404(Series, pk=pk)
    return _pdf(series_results_pdf(series), f"serie-{series.pk}.pdf")


@login_required
@permission_required("tournament.change_round", raise_exception=True)
def prizes(request: HttpRequest, pk: int) -> HttpResponse:
    """Director: the prize-giving list with every name (like ``?fassung=siegerehrung``)."""
    tournament = get_object_or_404(Tournament, pk=pk)
    return _pdf(prizes_pdf(tournament), f"{PRIZE_GIVING}-preise.pdf")
