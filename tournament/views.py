"""Director pages: create a tournament, register players, withdraw them (after asking) and
undo a withdrawal, adjust a round's seating (swap two players, first dealer and scorer per
table)."""

from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required, permission_required
from django.core.exceptions import BadRequest, PermissionDenied, ValidationError
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import translate_url
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import check_for_language, ngettext
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from . import accounts, services
from .forms import (
    ClerkPasswordForm,
    ClerkTournamentsForm,
    NewAccountForm,
    PairForm,
    PlayerListForm,
    PlayerMergeForm,
    RegistrationEditForm,
    RegistrationForm,
    SwapForm,
    TableRolesForm,
    TournamentForm,
)
from .models import Round, Tournament
from .params import MAX_ID, parse_number


def bad_request(request: HttpRequest, exception: Exception) -> HttpResponse:
    """The 400 page in the app's layout.  The message is shown only for our own
    ``BadRequest`` (e.g. :class:`tournament.params.BadNumber`, which names the parameter);
    other ``SuspiciousOperation`` details (hosts, headers) stay in the log."""
    message = str(exception) if isinstance(exception, BadRequest) else ""
    return render(request, "400.html", {"exception": message}, status=400)


@require_safe
def choose_language(request: HttpRequest, code: str) -> HttpResponse:
    """The language switch for visitors who are not signed in: a plain link (GET), so a
    public page needs no per-visitor CSRF token and can be cached whole.  Sets the same
    language cookie as Django's ``set_language`` (which signed-in users still reach by POST)
    and goes back to ``next`` when that is an address on this site, else to the start page.
    An unknown language code is a 404.  Choosing a language changes nothing but the
    visitor's own cookie, so a GET is harmless here."""
    if not check_for_language(code) or code not in dict(settings.LANGUAGES):
        raise Http404(_("Unbekannte Sprache"))
    next_url = request.GET.get("next", "")
    if not url_has_allowed_host_and_scheme(
        next_url, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        next_url = "/"
    response = HttpResponseRedirect(translate_url(next_url, code))
    response.set_cookie(
        settings.LANGUAGE_COOKIE_NAME,
        code,
        max_age=settings.LANGUAGE_COOKIE_AGE,
        path=settings.LANGUAGE_COOKIE_PATH,
        domain=settings.LANGUAGE_COOKIE_DOMAIN,
        secure=settings.LANGUAGE_COOKIE_SECURE,
        httponly=settings.LANGUAGE_COOKIE_HTTPONLY,
        samesite=settings.LANGUAGE_COOKIE_SAMESITE,
    )
    return response


def _apply_errors(form, exc: ValidationError) -> None:
    """Show a service's ``ValidationError`` on ``form``: at its field where it names one of
    the form's fields, else above the form."""
    if not hasattr(exc, "error_dict"):
        for error in exc.messages:
            form.add_error(None, error)
        return
    for field, errors in exc.message_dict.items():
        for error in errors:
            form.add_error(field if field in form.fields else None, error)


@login_required
@permission_required("tournament.add_tournament", raise_exception=True)
def tournament_create(request: HttpRequest) -> HttpResponse:
    """New tournament from a preset ruleset (frozen into the tournament) with its rounds."""
    form = TournamentForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            tournament = services.create_tournament(**form.cleaned_data)
        except ValidationError as exc:
            _apply_errors(form, exc)
        else:
            messages.success(
                request,
                _("Turnier angelegt; Regelwerk eingefroren (Fingerabdruck %(f)s).")
                % {"f": tournament.ruleset_fingerprint},
            )
            return redirect("tournament:registrations", pk=tournament.pk)
    return render(
        request, "tournament/create.html", {"form": form}, status=422 if form.errors else 200
    )


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
    if action == "one" and form.is_valid():
        try:
            reg = services.register_player(tournament, **form.cleaned_data)
        except ValidationError as exc:
            _apply_errors(form, exc)
        else:
            messages.success(
                request,
                _("%(name)s hat Startnummer %(n)s.") % {"name": reg.player, "n": reg.start_number},
            )
            return redirect("tournament:registrations", pk=pk)
    elif action in ("preview", "save") and list_form.is_valid():
        text = list_form.cleaned_data["players"]
        try:
            if action == "save":
                regs = services.register_many(
                    tournament, text, list_form.cleaned_data["first_round"]
                )
                messages.success(
                    request,
                    _("%(n)s Spieler angemeldet (Startnummern %(a)s–%(b)s).")
                    % {"n": len(regs), "a": regs[0].start_number, "b": regs[-1].start_number},
                )
                return redirect("tournament:registrations", pk=pk)
            preview = services.parse_player_list(tournament, text)
        except ValidationError as exc:
            _apply_errors(list_form, exc)
            if action == "save":
                try:  # show the list again with its duplicates flagged
                    preview = services.parse_player_list(tournament, text)
                except ValidationError:
                    preview = None
    elif action == "category_add":
        try:
            category = services.add_category(tournament, request.POST.get("name", ""))
        except ValidationError as exc:
            category_error = " ".join(exc.messages)
        else:
            messages.success(request, _("Kategorie „%(name)s“ angelegt.") % {"name": category})
            return redirect("tournament:registrations", pk=pk)
    elif action in ("marks", "categories", "consent"):
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
            if changed or action == "categories":
                said = True
                messages.success(
                    request,
                    ngettext(
                        "Kategorien: %(n)s Zuordnung geändert.",
                        "Kategorien: %(n)s Zuordnungen geändert.",
                        changed,
                    )
                    % {"n": changed},
                )
        if action in ("marks", "consent"):
            numbers = _posted_start_numbers(request, tournament, "consent", _("Zustimmung"))
            changed = services.set_consents(tournament, numbers)
            if changed or action == "consent":
                said = True
                messages.success(
                    request,
                    ngettext(
                        "Zustimmung bei %(n)s Anmeldung eingetragen.",
                        "Zustimmung bei %(n)s Anmeldungen eingetragen.",
                        changed,
                    )
                    % {"n": changed},
                )
        if not said:
            messages.info(request, _("Nichts geändert."))
        return redirect("tournament:registrations", pk=pk)
    elif action == "pair" and pair_form.is_valid():
        try:
            number = services.form_pair(
                tournament, pair_form.cleaned_data["first"], pair_form.cleaned_data["second"]
            )
        except ValidationError as exc:
            _apply_errors(pair_form, exc)
        else:
            messages.success(request, _("Paar %(n)s gebildet.") % {"n": number})
            return redirect("tournament:registrations", pk=pk)
    elif action == "unpair":
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
        return redirect("tournament:registrations", pk=pk)
    failed = form.errors or list_form.errors or pair_form.errors or category_error
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
            _apply_errors(form, exc)
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


def _confirmed(request: HttpRequest) -> bool:
    """Whether the request is the POST of a confirmation page (``bestaetigt=1``)."""
    return request.method == "POST" and request.POST.get("bestaetigt") == "1"


def _report_cleared_draws(request: HttpRequest, cleared) -> None:
    """Tell the director which rounds lost their draw and must be drawn again."""
    for round_ in cleared:
        messages.warning(
            request,
            _("Die Auslosung von Runde %(n)s ist gelöscht: bitte Runde %(n)s neu auslosen.")
            % {"n": round_.number},
        )


@login_required
@permission_required("tournament.change_tournament", raise_exception=True)
@require_http_methods(["GET", "HEAD", "POST"])
def withdraw(request: HttpRequest, pk: int, start_number: int) -> HttpResponse:
    """Withdraw a player ("abmelden") from the next draw on; results so far stay.

    Asks first: a GET, or a POST without ``bestaetigt=1`` (the button on the registrations
    page, a stray click, an old form), only shows the question naming the player, the start
    number and the round the withdrawal comes after (:func:`services.withdrawal_round`).
    Only the confirming POST withdraws (:func:`services.withdraw`); a player already
    withdrawn goes back to the list with that message.  404 for an unknown tournament or
    start number."""
    tournament = get_object_or_404(Tournament, pk=pk)
    reg = get_object_or_404(
        tournament.registrations.select_related("player"), start_number=start_number
    )
    if _confirmed(request):
        try:
            cleared = services.withdraw(reg)
        except ValidationError as exc:
            for error in exc.messages:
                messages.error(request, error)
        else:
            messages.success(request, _("%(name)s ist abgemeldet.") % {"name": reg.player})
            _report_cleared_draws(request, cleared)
        return redirect("tournament:registrations", pk=pk)
    if reg.withdrawn_after_round is not None:
        messages.error(
            request,
            _("%(name)s ist schon abgemeldet (%(when)s).")
            % {"name": reg.player, "when": services.withdrawal_text(reg.withdrawn_after_round)},
        )
        return redirect("tournament:registrations", pk=pk)
    after = services.withdrawal_round(tournament)
    return render(
        request,
        "tournament/withdraw_confirm.html",
        {
            "tournament": tournament,
            "registration": reg,
            "action": "withdraw",
            "after": after,
            "last_round": after >= tournament.rounds,
            "cleared": services.draws_cleared_by_withdrawal(reg),
        },
    )


@login_required
@permission_required("tournament.change_tournament", raise_exception=True)
@require_POST
def reinstate(request: HttpRequest, pk: int, start_number: int) -> HttpResponse:
    """Undo a withdrawal ("wieder anmelden"; :func:`services.reinstate`): allowed while no
    round after it has started without the player, else refused with the reason.  When a
    planned round after it is already drawn without the player, the page asks first (that
    draw is deleted and must be made again); the POST with ``bestaetigt=1`` then does it.
    404 for an unknown tournament or start number."""
    tournament = get_object_or_404(Tournament, pk=pk)
    reg = get_object_or_404(
        tournament.registrations.select_related("player"), start_number=start_number
    )
    try:
        cleared = services.draws_cleared_by_reinstating(reg)
        if cleared and not _confirmed(request):
            return render(
                request,
                "tournament/withdraw_confirm.html",
                {
                    "tournament": tournament,
                    "registration": reg,
                    "action": "reinstate",
                    "after": reg.withdrawn_after_round,
                    "cleared": cleared,
                },
            )
        cleared = services.reinstate(reg, clear_draws=_confirmed(request))
    except ValidationError as exc:
        for error in exc.messages:
            messages.error(request, error)
    else:
        messages.success(request, _("%(name)s ist wieder angemeldet.") % {"name": reg.player})
        _report_cleared_draws(request, cleared)
    return redirect("tournament:registrations", pk=pk)


@login_required
@permission_required("tournament.change_round", raise_exception=True)
def round_plan(request: HttpRequest, pk: int, round_number: int) -> HttpResponse:
    """A round's seating: tables with players, first dealer and scorer.  Before the round
    starts the director can swap two players; until it closes, set dealer and scorer."""
    round_ = get_object_or_404(
        Round.objects.select_related("tournament"), tournament_id=pk, number=round_number
    )
    tables = list(round_.tables.prefetch_related("seats__registration__player"))
    swap_form = SwapForm(prefix="swap")
    roles_forms = {t.pk: TableRolesForm(table=t, prefix=f"t{t.number}") for t in tables}
    status = 200
    if request.method == "POST":
        if "swap-first" in request.POST:
            swap_form = SwapForm(request.POST, prefix="swap")
            if swap_form.is_valid():
                try:
                    first, second = swap_form.registrations(round_.tournament)
                    services.swap_players(round_, first, second)
                except ValidationError as exc:
                    _apply_errors(swap_form, exc)
                else:
                    messages.success(
                        request,
                        _("Startnummern %(a)s und %(b)s haben die Plätze getauscht.")
                        % {"a": first.start_number, "b": second.start_number},
                    )
                    return redirect("tournament:round_plan", pk=pk, round_number=round_number)
        else:
            table = next((t for t in tables if f"t{t.number}-scorer" in request.POST), None)
            if table is None:
                messages.error(request, _("Unbekannter Tisch."))
                return redirect("tournament:round_plan", pk=pk, round_number=round_number)
            form = TableRolesForm(request.POST, table=table, prefix=f"t{table.number}")
            roles_forms[table.pk] = form
            if form.is_valid():
                try:
                    services.set_table_roles(
                        table, form.cleaned_data["first_dealer"], form.cleaned_data["scorer"]
                    )
                except ValidationError as exc:
                    _apply_errors(form, exc)
                else:
                    messages.success(request, _("Tisch %(n)s geändert.") % {"n": table.number})
                    return redirect("tournament:round_plan", pk=pk, round_number=round_number)
        status = 422
    return render(
        request,
        "tournament/round_plan.html",
        {
            "tournament": round_.tournament,
            "round": round_,
            "tables": [(t, roles_forms[t.pk]) for t in tables],
            "swap_form": swap_form,
        },
        status=status,
    )


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
            _apply_errors(form, exc)
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


def first_run(request: HttpRequest) -> HttpResponse:
    """ "Erstes Konto": on a database without any account, the laptop's own browser makes the
    director's account (name, password twice, Django's validators) and is logged in with it.
    Refused with 403 for any other computer or phone (:func:`tournament.accounts.is_local`),
    and sent to the login once an account exists."""
    if accounts.has_accounts():
        return redirect("login")
    if not accounts.is_local(request):
        raise PermissionDenied(
            _(
                "Das erste Konto der Turnierleitung wird am Laptop selbst angelegt "
                "(im Browser des Laptops, oder mit ./scripts/venue --konto-anlegen)."
            )
        )
    form = NewAccountForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            user = accounts.create_director(
                form.cleaned_data["username"], form.cleaned_data["password1"], first=True
            )
        except ValidationError as exc:
            form.add_error("username", exc)
        else:
            login(request, user, backend="django.contrib.auth.backends.ModelBackend")
            messages.success(
                request,
                _("Konto %(name)s angelegt. Jetzt das Turnier anlegen.") % {"name": user},
            )
            return redirect("home")
    return render(
        request, "tournament/first_run.html", {"form": form}, status=422 if form.errors else 200
    )


@login_required
@permission_required("tournament.change_tournament", raise_exception=True)
def clerk_accounts(request: HttpRequest) -> HttpResponse:
    """Director: the clerk accounts without Django's admin (:mod:`tournament.accounts`).
    POST ``action``: ``create`` (name, password twice, the tournaments ticked), ``password``
    (a clerk's new password, twice), ``active`` (switch a clerk off or on) or
    ``tournaments`` (which tournaments a clerk may enter for).  Only accounts of the
    "Schreiber" group are listed and changed; bad input is shown at its field (422)."""
    action = request.POST.get("action", "") if request.method == "POST" else ""
    create_form = NewAccountForm(request.POST if action == "create" else None, prefix="new")
    create_tournaments = ClerkTournamentsForm(
        request.POST if action == "create" else None, prefix="new"
    )
    failed = {}
    if action:
        try:
            clerk_id = (
                parse_number(request.POST.get("clerk"), "clerk", MAX_ID)
                if action != "create"
                else 0
            )
            done = _clerk_action(request, action, clerk_id, create_form, create_tournaments)
        except BadRequest:
            messages.error(request, _("Schreiber: bitte ein Konto der Liste wählen."))
            done = False
        except (PermissionDenied, ValidationError) as exc:
            messages.error(request, " ".join(getattr(exc, "messages", [str(exc)])))
            done = False
        if done:
            return redirect("tournament:clerks")
        if isinstance(done, dict):
            failed = done
    rows = []
    for clerk in accounts.clerks():
        rows.append(
            {
                "user": clerk,
                "password_form": failed.get(("password", clerk.pk))
                or ClerkPasswordForm(clerk, prefix=f"pw{clerk.pk}"),
                "tournaments_form": ClerkTournamentsForm(
                    initial={"tournaments": [t.pk for t in clerk.clerk_of.all()]},
                    prefix=f"t{clerk.pk}",
                ),
            }
        )
    status = 422 if create_form.errors or failed else 200
    return render(
        request,
        "tournament/clerks.html",
        {"rows": rows, "create_form": create_form, "create_tournaments": create_tournaments},
        status=status,
    )


def _clerk_action(request, action, clerk_id, create_form, create_tournaments):
    """Carry out one POST of :func:`clerk_accounts`: ``True`` when done (a message is
    left), ``False`` when the forms hold the errors, or ``{("password", id): form}`` for a
    password form with errors."""
    if action == "create":
        if not (create_form.is_valid() and create_tournaments.is_valid()):
            return False
        try:
            user = accounts.create_clerk(
                create_form.cleaned_data["username"],
                create_form.cleaned_data["password1"],
                create_tournaments.cleaned_data["tournaments"],
            )
        except ValidationError as exc:
            create_form.add_error("username", exc)
            return False
        messages.success(request, _("Schreiber %(name)s angelegt.") % {"name": user})
        return True
    if action == "password":
        clerk = accounts.clerk(clerk_id)
        form = ClerkPasswordForm(clerk, request.POST, prefix=f"pw{clerk.pk}")
        if not form.is_valid():
            return {("password", clerk.pk): form}
        accounts.reset_clerk_password(clerk.pk, form.cleaned_data["new_password1"])
        messages.success(request, _("Neues Passwort für %(name)s gesetzt.") % {"name": clerk})
        return True
    if action == "active":
        user = accounts.set_clerk_active(clerk_id, request.POST.get("active") == "1")
        messages.success(
            request,
            (
                _("%(name)s kann sich wieder einloggen.")
                if user.is_active
                else _("%(name)s ist abgeschaltet; Eingaben bleiben erhalten.")
            )
            % {"name": user},
        )
        return True
    if action == "tournaments":
        form = ClerkTournamentsForm(request.POST, prefix=f"t{clerk_id}")
        if not form.is_valid():
            raise ValidationError(list(form.errors.get("tournaments", [])))
        accounts.set_clerk_tournaments(clerk_id, list(form.cleaned_data["tournaments"]))
        messages.success(request, _("Turniere gespeichert."))
        return True
    raise ValidationError(_("Unbekannte Aktion."))


@require_safe
def favicon(request: HttpRequest) -> HttpResponse:
    """``/favicon.ico``, which browsers ask for on every page: a permanent redirect to the
    card icon among the static files (resolved per request: the hashed name exists only
    after collectstatic)."""
    from django.http import HttpResponsePermanentRedirect
    from django.templatetags.static import static

    return HttpResponsePermanentRedirect(static("favicon.svg"))
