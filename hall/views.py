"""The hall's pages: the director's console (``/turnier/<id>/konsole/``, with its live part
polled every 10 s), announcements and calls from the console, the public notices polled
by the standings and the projector, and the notices and call button polled by a table's
phone page (``/t/<token>/hinweise/``)."""

from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required, permission_required
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST
from django_ratelimit.core import is_ratelimited

from table_entry.http import table_link_view
from tournament.forms import apply_errors
from tournament.models import Tournament

from . import selectors, services
from .forms import AnnouncementForm, CallForm, ClockForm
from .models import Announcement, DirectorCall

DIRECTOR = "tournament.change_round"


def _console_context(tournament: Tournament) -> dict:
    round_ = selectors.running_round(tournament)
    clock = selectors.round_clock(tournament, round_) if round_ else None
    return {
        "tournament": tournament,
        "round": round_,
        "clock": clock,
        "rows": selectors.console_rows(tournament, round_, clock) if round_ else [],
        "calls": selectors.calls(tournament),
        "announcements": selectors.active_announcements(tournament),
        "now": timezone.now(),
    }


def _console_page(
    request: HttpRequest,
    tournament: Tournament,
    announcement_form: AnnouncementForm | None = None,
    clock_form: ClockForm | None = None,
    status: int = 200,
) -> HttpResponse:
    """The whole console, with a refused form (and its messages) in place of a fresh one."""
    return render(
        request,
        "hall/console.html",
        {
            **_console_context(tournament),
            "announcement_form": announcement_form or AnnouncementForm(),
            "clock_form": clock_form or ClockForm(instance=tournament),
            "history": selectors.announcement_history(tournament),
        },
        status=status,
    )


@login_required
@permission_required(DIRECTOR, raise_exception=True)
def console(request: HttpRequest, pk: int) -> HttpResponse:
    """The director's console: the running round's tables (hands entered and confirmed,
    last entry, idle, behind the clock, calls), the round clock, the calls of the
    evening, and the announcements with their history.  Its live part refreshes itself
    (:func:`console_live`)."""
    return _console_page(request, get_object_or_404(Tournament, pk=pk))


@login_required
@permission_required(DIRECTOR, raise_exception=True)
@require_GET
def console_live(request: HttpRequest, pk: int) -> HttpResponse:
    """The console's live part alone, for htmx polling."""
    return _live_part(request, get_object_or_404(Tournament, pk=pk))


def _live_part(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    return render(request, "hall/_console_live.html", _console_context(tournament))


@login_required
@permission_required(DIRECTOR, raise_exception=True)
@require_POST
def announce(request: HttpRequest, pk: int) -> HttpResponse:
    """Show a new announcement; a bad one comes back to the console with the message at
    its field."""
    tournament = get_object_or_404(Tournament, pk=pk)
    form = AnnouncementForm(request.POST)
    if form.is_valid():
        try:
            services.announce(
                tournament, form.cleaned_data["text"], request.user, form.cleaned_data["minutes"]
            )
        except ValidationError as exc:
            apply_errors(form, exc)
        else:
            messages.success(request, _("Die Durchsage wird angezeigt."))
            return redirect("hall:console", pk=pk)
    return _console_page(request, tournament, announcement_form=form, status=422)


@login_required
@permission_required(DIRECTOR, raise_exception=True)
@require_POST
def withdraw(request: HttpRequest, pk: int, announcement_id: int) -> HttpResponse:
    """Stop showing an announcement (it stays in the history)."""
    announcement = get_object_or_404(Announcement, pk=announcement_id, tournament_id=pk)
    if services.withdraw(announcement, request.user):
        messages.success(request, _("Die Durchsage wird nicht mehr angezeigt."))
    return redirect("hall:console", pk=pk)


@login_required
@permission_required(DIRECTOR, raise_exception=True)
@require_POST
def call_done(request: HttpRequest, pk: int, call_id: int) -> HttpResponse:
    """Mark a table's call done; from the console's live part (htmx) the live part comes
    back, else the console."""
    call = get_object_or_404(DirectorCall, pk=call_id, table__round__tournament_id=pk)
    services.mark_done(call, request.user)
    if request.headers.get("HX-Request"):
        return _live_part(request, call.table.round.tournament)
    return redirect("hall:console", pk=pk)


@login_required
@permission_required(DIRECTOR, raise_exception=True)
@require_POST
def clock(request: HttpRequest, pk: int) -> HttpResponse:
    """Set the round clock (planned minutes per round) and the idle mark."""
    tournament = get_object_or_404(Tournament, pk=pk)
    form = ClockForm(request.POST, instance=Tournament.objects.get(pk=pk))
    if form.is_valid():
        try:
            services.set_clock(
                tournament, form.cleaned_data["round_minutes"], form.cleaned_data["idle_minutes"]
            )
        except ValidationError as exc:
            apply_errors(form, exc)
        else:
            messages.success(request, _("Rundenuhr gespeichert."))
            return redirect("hall:console", pk=pk)
    return _console_page(request, tournament, clock_form=form, status=422)


@require_GET
def notices(request: HttpRequest, pk: int) -> HttpResponse:
    """Public: the announcements shown now and the running round's time left, polled by
    the standings and the projector (``?gross=1``: the projector's large type)."""
    tournament = get_object_or_404(Tournament, pk=pk)
    return render(
        request,
        "hall/_notices.html",
        {
            "announcements": selectors.active_announcements(tournament),
            "clock": selectors.round_clock(tournament),
            "large": request.GET.get("gross") == "1",
        },
    )


def _table_notices(request: HttpRequest, link, form=None, status: int = 200) -> HttpResponse:
    """The phone's notices; a refusal keeps its status (422, 429) for a plain form post, but
    answers an htmx request with 200, since htmx shows no 4xx answer and the phone would
    say nothing at all."""
    if request.headers.get("HX-Request"):
        status = 200
    tournament = link.table.round.tournament
    return render(
        request,
        "hall/_table_notices.html",
        {
            "link": link,
            "announcements": selectors.active_announcements(tournament),
            "clock": selectors.round_clock(tournament, link.table.round),
            "call": selectors.last_call(link.table),
            "form": form or CallForm(),
        },
        status=status,
    )


@table_link_view
@require_GET
def table_notices(request: HttpRequest, link) -> HttpResponse:
    """A table's phone: the announcements, the time left, and the call button with the
    state of the table's last call (open, or done at …); polled every 20 s."""
    return _table_notices(request, link)


@table_link_view
@require_POST
def table_call(request: HttpRequest, link) -> HttpResponse:
    """The table calls the director ("Turnierleitung rufen").  While the table's call is
    open another tap changes nothing.  A new call counts against
    ``settings.DIRECTOR_CALL_RATE`` per link; beyond it the phone is asked to go to the
    director (429).  Answers the phone's notices (htmx) or redirects to its page."""
    form = CallForm(request.POST)
    if not form.is_valid():
        return _table_notices(request, link, form, status=422)
    if selectors.open_call(link.table) is None and is_ratelimited(
        request,
        group="director-call",
        key=lambda group, request: link.token[:64],
        rate=settings.DIRECTOR_CALL_RATE,
        increment=True,
    ):
        form.add_error(
            None,
            _("Schon oft gerufen. Bitte gehen Sie selbst zur Turnierleitung."),
        )
        return _table_notices(request, link, form, status=429)
    try:
        services.call_director(link, form.cleaned_data["reason"])
    except ValidationError as exc:
        apply_errors(form, exc)
        return _table_notices(request, link, form, status=422)
    if request.headers.get("HX-Request"):
        return _table_notices(request, link)
    return redirect("table_entry:page", token=link.token)
