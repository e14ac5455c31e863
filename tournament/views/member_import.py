"""Importing a club's member list into a tournament's registrations (director): upload an
XLSX or CSV file, check the preview (which column holds what, each row's result) and
import.  The file is read once and only its cells are kept, in the session (the database,
as every session), until the import, the next upload or an hour later; the work is done by
:mod:`tournament.services.member_import`.
"""

from __future__ import annotations

import secrets
import time

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required, permission_required
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from ..forms import apply_errors
from ..models import Tournament
from ..services import member_import as service


class UploadForm(forms.Form):
    """Step 1: the member list's file."""

    file = forms.FileField(label=gettext_lazy("Mitgliederliste (Excel .xlsx oder CSV)"))


class MappingForm(forms.Form):
    """Step 2: which column holds which field (:data:`service.FIELDS`), and whether the
    first row is a header."""

    header = forms.BooleanField(label=gettext_lazy("Erste Zeile ist Kopfzeile"), required=False)

    def __init__(self, *args, choices: list[tuple[str, str]], **kwargs):
        super().__init__(*args, **kwargs)
        for name in service.FIELDS:
            self.fields[name] = forms.ChoiceField(
                label=service.FIELD_LABELS[name], choices=[("", "—"), *choices], required=False
            )

    def mapping(self) -> dict[str, int | None]:
        """The chosen columns (of a valid form)."""
        data = self.cleaned_data
        return {name: int(data[name]) if data[name] else None for name in service.FIELDS}


def _session_key(tournament: Tournament) -> str:
    return f"member_import:{tournament.pk}"


def _mapping_key(mapping: dict[str, int | None], header: bool) -> str:
    """The mapping as shown with a preview, to see whether it was changed before
    "Importieren" was pressed."""
    columns = ",".join("" if mapping[f] is None else str(mapping[f]) for f in service.FIELDS)
    return f"{columns};{int(header)}"


@login_required
@permission_required("tournament.change_tournament", raise_exception=True)
def member_import(request: HttpRequest, pk: int) -> HttpResponse:
    """Upload a member list (``action=upload``), change the mapping and see the preview
    again (``action=preview``), import (``action=import``; then to the registrations)."""
    tournament = get_object_or_404(Tournament, pk=pk)
    if request.method != "POST":
        _kept_sheet(request, tournament)  # an abandoned upload is dropped when too old
        return _upload_page(request, tournament, UploadForm())
    action = request.POST.get("action", "")
    if action == "upload":
        return _upload(request, tournament)
    stored = _kept_sheet(request, tournament)
    if stored is None or stored.get("id") != request.POST.get("upload"):
        gone = _(
            "Die Datei dieser Vorschau ist nicht mehr da (abgelaufen oder in einem anderen "
            "Fenster ersetzt). Bitte noch einmal hochladen."
        )
        return _upload_page(request, tournament, UploadForm(), status=422, error=gone)
    return _preview_or_import(request, tournament, stored, confirm=action == "import")


def _upload_page(
    request, tournament, form: UploadForm, status: int = 200, error: str = ""
) -> HttpResponse:
    """Step 1: the upload ``form``, with ``error`` above it when the file of a preview is
    gone."""
    return render(
        request,
        "tournament/member_import.html",
        {"tournament": tournament, "upload_form": form, "error": error, "limits": _limits()},
        status=status,
    )


def _limits() -> dict[str, int]:
    return {"mb": service.MAX_BYTES // (1024 * 1024), "rows": service.MAX_ROWS}


#: how long the cells of an uploaded member list are kept in the session for the preview
#: (seconds); an older one is dropped at the next visit of the import page
KEEP_SECONDS = 3600


def _kept_sheet(request: HttpRequest, tournament: Tournament) -> dict | None:
    """The uploaded sheet kept for ``tournament``'s preview, or ``None``; one older than
    :data:`KEEP_SECONDS` is deleted (a member list names people who never play here)."""
    key = _session_key(tournament)
    stored = request.session.get(key)
    if stored is not None and time.time() - stored.get("at", 0) > KEEP_SECONDS:
        del request.session[key]
        return None
    return stored


def _upload(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """Read the posted file and show its preview with the guessed mapping; a refused file
    is named on the upload form."""
    form = UploadForm(request.POST, request.FILES)
    if not form.is_valid():
        return _upload_page(request, tournament, form, status=422)
    try:
        sheet = service.read_member_file(form.cleaned_data["file"])
    except ValidationError as exc:
        apply_errors(form, exc)
        return _upload_page(request, tournament, form, status=422)
    stored = {"id": secrets.token_urlsafe(12), "at": time.time(), **sheet.to_data()}
    request.session[_session_key(tournament)] = stored
    header = service.guess_header(sheet)
    mapping = service.guess_mapping(sheet, header)
    form = MappingForm(
        initial={"header": header, **{f: "" if c is None else str(c) for f, c in mapping.items()}},
        choices=service.column_choices(sheet),
    )
    return _preview_page(request, tournament, stored, sheet, form, (mapping, header))


def _preview_or_import(
    request: HttpRequest, tournament: Tournament, stored: dict, *, confirm: bool
) -> HttpResponse:
    """The preview with the posted mapping or, with ``confirm`` and the mapping that
    preview showed, the import (then to the registrations with a message)."""
    sheet = service.Sheet.from_data(stored)
    form = MappingForm(request.POST, choices=service.column_choices(sheet))
    if not form.is_valid():
        return _preview_page(request, tournament, stored, sheet, form, None, status=422)
    mapping, header = form.mapping(), form.cleaned_data["header"]
    preview = service.preview_members(tournament, sheet, mapping, header)
    if confirm and request.POST.get("shown") != _mapping_key(mapping, header):
        messages.info(
            request,
            _("Die Zuordnung wurde geändert. Bitte die Vorschau prüfen und dann importieren."),
        )
    elif confirm and preview.importable:
        result = service.import_members(tournament, preview.rows, request.user)
        del request.session[_session_key(tournament)]
        _report(request, result)
        return redirect("tournament:registrations", pk=tournament.pk)
    elif confirm:
        messages.error(request, _("Keine Zeile der Datei kann angemeldet werden."))
    return _preview_page(request, tournament, stored, sheet, form, (mapping, header), preview)


def _report(request: HttpRequest, result: service.ImportResult) -> None:
    """Leave the messages about an import: how many were registered, skipped, refused."""
    regs = result.registrations
    if regs:
        messages.success(
            request,
            _("%(n)s Spieler angemeldet (Startnummern %(a)s–%(b)s).")
            % {"n": len(regs), "a": regs[0].start_number, "b": regs[-1].start_number},
        )
    else:
        messages.error(request, _("Niemand angemeldet."))
    if result.skipped:
        messages.info(
            request,
            _("Nicht angemeldete Zeilen (Fehler, doppelt oder schon angemeldet): %(n)s.")
            % {"n": result.skipped},
        )
    for refusal in result.refused:
        messages.error(request, refusal)


def _preview_page(
    request, tournament, stored, sheet, form, shown, preview=None, status=200
) -> HttpResponse:
    """Step 2: the mapping ``form`` and the rows read with ``shown`` (mapping, header)."""
    if preview is None and shown is not None:
        preview = service.preview_members(tournament, sheet, *shown)
    return render(
        request,
        "tournament/member_import.html",
        {
            "tournament": tournament,
            "mapping_form": form,
            "file_name": stored["name"],
            "upload": stored["id"],
            "shown": "" if shown is None else _mapping_key(*shown),
            "preview": preview,
            "skipped": len(preview.rows) - preview.importable if preview else 0,
        },
        status=status,
    )
