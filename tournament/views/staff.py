"""Account pages: the first director's account on a fresh database (from the laptop
itself), and the director's page for the clerk accounts (:mod:`tournament.accounts`).
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required, permission_required
from django.core.exceptions import BadRequest, PermissionDenied, ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _

from .. import accounts
from ..forms import ClerkPasswordForm, ClerkTournamentsForm, NewAccountForm
from ..params import MAX_ID, parse_number


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
