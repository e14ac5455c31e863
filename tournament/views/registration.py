"""Registration pages: a tournament's registrations (register one player or a pasted
list, tick categories and consent, add a category, form and split pairs), correcting one
registration with its history, and the players' register (the type-ahead at registration,
finding players and merging two records of one person).  The work is done by
:mod:`tournament.services`.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required, permission_required
from django.core.exceptions import BadRequest, ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from .. import services
from ..forms import (
    PairForm,
    PlayerListForm,
    PlayerMergeForm,
    RegistrationEditForm,
    RegistrationForm,
    apply_errors,
)
from ..models import Tournament
from ..params import parse_number


@login_required
@permission_required("tournament.change_tournament", raise_exception=True)
def registrations(request: HttpRequest, pk: int) -> HttpResponse:
    """The tournament's players with start numbers: register one player (late arrivals),
    paste a list (preview with duplicates flagged, then all at once), tick consent."""
    tournament = get_object_or_404(Tournament, pk=pk)
    action = request.POST.get("action", "one") if request.method == "POST" else ""
    form = RegistrationForm(request.POST if action == "one" else None)
    list_form = PlayerListForm(request.POST if action in ("preview", "save") else None)
    pair_form = PairForm(request.POST if action == "pair" else None)
    preview = None
    category_error = ""
    done = False
    if action == "one" and form.is_valid():
        done = _register_one(request, tournament, form)
    elif action in ("preview", "save") and list_form.is_valid():
        done, preview = _register_list(request, tournament, list_form, save=action == "save")
    elif action == "category_add":
        done, category_error = _add_category(request, tournament)
    elif action in ("marks", "categories", "consent"):
        done = _save_marks(request, tournament, action)
    elif action == "pair" and pair_form.is_valid():
        done = _form_pair(request, tournament, pair_form)
    elif action == "unpair":
        done = _split_pair(request, tournament)
    if done:
        return redirect("tournament:registrations", pk=pk)
    failed = form.errors or list_form.errors or pair_form.errors or category_error
    categories, registrations = _registration_rows(tournament)
    return render(
        request,
        "tournament/registrations.html",
        {
            "tournament": tournament,
            "form": form,
            "list_form": list_form,
            "pair_form": pair_form,
            "pairs_event": tournament.event_type == Tournament.EventType.PAIRS,
            "preview": preview,
            "has_duplicates": any(e.duplicate for e in preview or []),
            "registrations": registrations,
            "categories": categories,
            "category_error": category_error,
        },
        status=422 if failed else 200,
    )


def _register_one(request: HttpRequest, tournament: Tournament, form) -> bool:
    """Register the player of the valid ``form`` (:func:`services.register_player`):
    ``True`` when done (a message is left), ``False`` when ``form`` holds the errors."""
    try:
        reg = services.register_player(tournament, **form.cleaned_data)
    except ValidationError as exc:
        apply_errors(form, exc)
        return False
    messages.success(
        request,
        _("%(name)s hat Startnummer %(n)s.") % {"name": reg.player, "n": reg.start_number},
    )
    return True


def _register_list(
    request: HttpRequest, tournament: Tournament, list_form, *, save: bool
) -> tuple[bool, list | None]:
    """Preview the pasted list of the valid ``list_form`` or, with ``save``, register it
    (:func:`services.register_many`).  Returns whether it is done (saved, a message is
    left) and the preview to show (the :class:`services.ListEntry` lines, or ``None``);
    errors are put on ``list_form``, and a refused save shows the list again with its
    duplicates flagged."""
    text = list_form.cleaned_data["players"]
    preview = None
    try:
        if save:
            regs = services.register_many(tournament, text, list_form.cleaned_data["first_round"])
            messages.success(
                request,
                _("%(n)s Spieler angemeldet (Startnummern %(a)s–%(b)s).")
                % {"n": len(regs), "a": regs[0].start_number, "b": regs[-1].start_number},
            )
            return True, None
        preview = services.parse_player_list(tournament, text)
    except ValidationError as exc:
        apply_errors(list_form, exc)
        if save:
            try:  # show the list again with its duplicates flagged
                preview = services.parse_player_list(tournament, text)
            except ValidationError:
                preview = None
    return False, preview


def _add_category(request: HttpRequest, tournament: Tournament) -> tuple[bool, str]:
    """Add the category named in the POST (:func:`services.add_category`).  Returns whether
    it is done (a message is left) and the error to show beside the field (``""``)."""
    try:
        category = services.add_category(tournament, request.POST.get("name", ""))
    except ValidationError as exc:
        return False, " ".join(exc.messages)
    messages.success(request, _("Kategorie „%(name)s“ angelegt.") % {"name": category})
    return True, ""


def _save_marks(request: HttpRequest, tournament: Tournament, action: str) -> bool:
    """Save the ticks of the registrations table: the category columns
    (:func:`services.set_categories`) and the consent column (:func:`services.set_consents`)
    for ``action`` ``"marks"``, one of them for ``"categories"`` or ``"consent"``.  Leaves
    a message per column that changed (or was posted alone), else "Nichts geändert.";
    always ``True`` (done).  A ticked value that is no registered start number raises
    ``BadRequest`` (:func:`_posted_start_numbers`)."""
    # one form for both columns of ticks (issue 37.33: two forms and two buttons, and
    # "Kategorien speichern" dropped a consent ticked beside it without a word);
    # "categories" and "consent" alone are what older pages post
    said = False
    if action in ("marks", "categories"):
        members = {
            c.pk: _posted_start_numbers(
                request, tournament, f"cat-{c.pk}", _("Kategorie %(name)s") % {"name": c}
            )
            for c in tournament.categories.all()
        }
        changed = services.set_categories(tournament, members)
        text = ngettext(
            "Kategorien: %(n)s Zuordnung geändert.",
            "Kategorien: %(n)s Zuordnungen geändert.",
            changed,
        )
        said = _report_changes(request, changed, action == "categories", text) or said
    if action in ("marks", "consent"):
        numbers = _posted_start_numbers(request, tournament, "consent", _("Zustimmung"))
        changed = services.set_consents(tournament, numbers)
        text = ngettext(
            "Zustimmung bei %(n)s Anmeldung eingetragen.",
            "Zustimmung bei %(n)s Anmeldungen eingetragen.",
            changed,
        )
        said = _report_changes(request, changed, action == "consent", text) or said
    if not said:
        messages.info(request, _("Nichts geändert."))
    return True


def _report_changes(request: HttpRequest, changed: int, alone: bool, text: str) -> bool:
    """Leave ``text`` (a translated message with ``%(n)s``) filled with ``changed`` as a
    success message when something changed or its column was posted ``alone``; whether a
    message was left."""
    if not (changed or alone):
        return False
    messages.success(request, text % {"n": changed})
    return True


def _form_pair(request: HttpRequest, tournament: Tournament, pair_form) -> bool:
    """Form the pair of the valid ``pair_form`` (:func:`services.form_pair`): ``True`` when
    done (a message is left), ``False`` when ``pair_form`` holds the errors."""
    try:
        number = services.form_pair(
            tournament, pair_form.cleaned_data["first"], pair_form.cleaned_data["second"]
        )
    except ValidationError as exc:
        apply_errors(pair_form, exc)
        return False
    messages.success(request, _("Paar %(n)s gebildet.") % {"n": number})
    return True


def _split_pair(request: HttpRequest, tournament: Tournament) -> bool:
    """Split the pair numbered in the POST (:func:`services.split_pair`), leaving a message
    either way; always ``True`` (done).  Raises ``BadRequest`` for a pair number that is
    not a number or no pair of ``tournament``."""
    value = parse_number(request.POST.get("pair"), _("Paar"), MAX_PAIR)
    if not tournament.registrations.filter(pair=value).exists():
        raise BadRequest(
            _("„%(name)s“: Paar %(n)s gibt es nicht.") % {"name": _("Paar"), "n": value}
        )
    try:
        services.split_pair(tournament, value)
    except ValidationError as exc:
        for error in exc.messages:
            messages.error(request, error)
    else:
        messages.success(request, _("Paar %(n)s aufgelöst.") % {"n": value})
    return True


def _registration_rows(tournament: Tournament) -> tuple[list, list]:
    """The categories of ``tournament`` (the columns) and its registrations, each with
    ``category_marks`` (``(category, member)`` in column order) and ``reinstate_refusal``
    (why "wieder anmelden" is not offered to a withdrawn player, else ``""``)."""
    categories = list(tournament.categories.prefetch_related("registrations"))
    registrations = list(tournament.registrations.select_related("player"))
    members = {c.pk: {r.pk for r in c.registrations.all()} for c in categories}
    for reg in registrations:  # which categories each player has, in column order
        reg.category_marks = [(c, reg.pk in members[c.pk]) for c in categories]
        reg.reinstate_refusal = ""  # why "wieder anmelden" is not offered, if withdrawn
        if reg.withdrawn_after_round is not None:
            try:
                services.draws_cleared_by_reinstating(reg)
            except ValidationError as exc:
                reg.reinstate_refusal = exc.messages[0]
    return categories, registrations


#: Highest start number (:class:`~tournament.forms.RegistrationForm`) and pair number.
MAX_START_NUMBER = 99_999
MAX_PAIR = 50_000


def _posted_start_numbers(
    request: HttpRequest, tournament: Tournament, name: str, label: str
) -> list[int]:
    """The start numbers ticked in the checkboxes ``name`` of the registrations page.

    Each value holding a digit must be a start number registered for ``tournament``;
    anything else (a sign, a 30-digit number, an unknown start number) raises
    ``BadRequest``, a 400 whose message names the column ``label``, before anything is
    changed or any number reaches the database.  A value without any digit ("x", "on")
    cannot be meant as a start number and is skipped, as it always was."""
    values = [v for v in request.POST.getlist(name) if any("0" <= c <= "9" for c in v)]
    numbers = [parse_number(v, label, MAX_START_NUMBER) for v in values]
    known = set(
        tournament.registrations.filter(start_number__in=numbers).values_list(
            "start_number", flat=True
        )
    )
    unknown = sorted(set(numbers) - known)
    if unknown:
        raise BadRequest(
            _("„%(name)s“: Startnummer %(n)s ist nicht angemeldet.")
            % {"name": label, "n": unknown[0]}
        )
    return numbers


@login_required
@permission_required("tournament.change_tournament", raise_exception=True)
def registration_edit(request: HttpRequest, pk: int, start_number: int) -> HttpResponse:
    """Correct one registration (name, club, consent) and see its earlier values."""
    tournament = get_object_or_404(Tournament, pk=pk)
    reg = get_object_or_404(
        tournament.registrations.select_related("player"), start_number=start_number
    )
    initial = {
        "first_name": reg.player.first_name,
        "last_name": reg.player.last_name,
        "club": reg.player.club,
        "consent_public": reg.consent_public,
    }
    form = RegistrationEditForm(request.POST or None, initial=initial)
    if request.method == "POST" and form.is_valid():
        try:
            services.update_registration(reg, **form.cleaned_data)
        except ValidationError as exc:
            apply_errors(form, exc)
        else:
            messages.success(request, _("Anmeldung %(n)s geändert.") % {"n": reg.start_number})
            return redirect("tournament:registrations", pk=pk)
    return render(
        request,
        "tournament/registration_edit.html",
        {
            "tournament": tournament,
            "registration": reg,
            "form": form,
            "history": _registration_history(reg),
        },
        status=422 if form.errors else 200,
    )


def _registration_history(reg) -> list[dict]:
    """Earlier states of a registration and its player, newest first: ``when``, ``user``,
    ``name``, ``club``, ``consent`` (``None`` where that record did not change) and
    ``reason``, the change's reason where one was kept ("Abgemeldet nach Runde 2",
    "Wieder angemeldet", a merge), else ``""``."""
    rows = [
        {
            "when": h.history_date,
            "user": h.history_user,
            "name": f"{h.first_name} {h.last_name}",
            "club": h.club,
            "consent": None,
            "reason": h.history_change_reason or "",
        }
        for h in reg.player.history.all()
    ]
    rows += [
        {
            "when": h.history_date,
            "user": h.history_user,
            "name": None,
            "club": None,
            "consent": h.consent_public,
            "reason": h.history_change_reason or "",
        }
        for h in reg.history.all()
    ]
    return sorted(rows, key=lambda r: r["when"], reverse=True)


@login_required
@permission_required("tournament.change_tournament", raise_exception=True)
def player_search(request: HttpRequest) -> HttpResponse:
    """Type-ahead at registration (htmx): the known players matching the typed first and
    last name (``?first_name=…&last_name=…`` or ``?q=…``), as a list to choose from."""
    text = request.GET.get("q") or " ".join(
        request.GET.get(name, "") for name in ("first_name", "last_name")
    )
    return render(
        request,
        "tournament/_player_matches.html",
        {"players": services.search_players(text[:200])},
    )


@login_required
@permission_required("tournament.change_tournament", raise_exception=True)
def players(request: HttpRequest) -> HttpResponse:
    """Director: find players (``?q=``) and merge two records of one person."""
    query = request.GET.get("q", "")[:200]
    form = PlayerMergeForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            keep, duplicate = form.players()
            label = str(duplicate)
            services.merge_players(keep, duplicate, user=request.user)
        except ValidationError as exc:
            apply_errors(form, exc)
        else:
            messages.success(
                request,
                _("%(old)s ist jetzt mit %(new)s (Spieler-Nr. %(n)s) zusammengeführt.")
                % {"old": label, "new": keep, "n": keep.pk},
            )
            return redirect(f"{request.path}?q={keep.last_name}")
    found = services.search_players(query, limit=50) if query else []
    return render(
        request,
        "tournament/players.html",
        {"form": form, "query": query, "players": found},
        status=422 if form.errors else 200,
    )
