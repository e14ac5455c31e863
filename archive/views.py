"""Downloads of standings as spreadsheets: a tournament's standings (overall, one round,
one category) and a series' standings, as CSV, CSV for a German Excel (``de.csv``) or XLSX;
and, for the director, the results as a static website (:func:`site_export`).

Public, like the pages they come from: names only with consent; text that looks like a
formula is written as text (:mod:`archive.exports`)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required, permission_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import translation
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from scoring.http import category_param, round_number_param
from scoring.tables import standings_table
from series.selectors import series_standings, series_values
from tournament.models import Series, Tournament

from . import backup, exports, press, site
from .forms import PressOptionsForm, PressTextForm, PublishForm
from .publish import live

#: ``export.<fmt>`` in the address: (file extension, content type)
FORMATS = {
    "csv": ("csv", "text/csv; charset=utf-8"),
    "de.csv": ("csv", "text/csv; charset=utf-8"),
    "xlsx": ("xlsx", "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"),
}


def _spreadsheet(values: Sequence[Sequence], fmt: str, title: str, name: str) -> HttpResponse:
    """``values`` (rows of cells, a header row first) as a download in ``fmt`` named
    ``<name>[-excel].<extension>``; ``title`` names the XLSX sheet."""
    if fmt == "xlsx":
        content = exports.to_xlsx(values, title=title)
    else:
        content = exports.to_csv(values, excel_german=fmt == "de.csv")
    extension, content_type = FORMATS[fmt]
    excel = "-excel" if fmt == "de.csv" else ""
    return _attachment(content, content_type, f"{name}{excel}.{extension}")


def _attachment(content, content_type: str, filename: str) -> HttpResponse:
    """``content`` as a download named ``filename`` (every file this app hands out)."""
    response = HttpResponse(content, content_type=content_type)
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


def standings_export(request: HttpRequest, pk: int, fmt: str) -> HttpResponse:
    """A tournament's standings (``?runde=``, ``?kategorie=`` as on the page) as a file
    ``rangliste-<pk>[-runde-<n>][-<category>].<extension>``; 404 for an unknown format."""
    tournament = get_object_or_404(Tournament, pk=pk)
    if fmt not in FORMATS:
        raise Http404(_("Unbekanntes Format"))
    round_number = round_number_param(tournament, request)
    category = category_param(tournament, request)
    table = standings_table(tournament, round_number, public=True, category=category)
    suffix = f"-runde-{round_number}" if round_number else ""
    suffix += f"-{category.slug}" if category else ""
    return _spreadsheet(
        list(table.as_values()), fmt, str(_("Rangliste")), f"rangliste-{tournament.pk}{suffix}"
    )


def series_export(request: HttpRequest, pk: int, fmt: str) -> HttpResponse:
    """A series' standings as a file ``serie-<pk>.<extension>``; 404 for an unknown
    format."""
    series = get_object_or_404(Series, pk=pk)
    if fmt not in FORMATS:
        raise Http404(_("Unbekanntes Format"))
    values = series_values(series_standings(series, public=True))
    return _spreadsheet(values, fmt, str(_("Serienwertung")), f"serie-{series.pk}")


@login_required
@permission_required("tournament.change_round", raise_exception=True)
def site_export(request: HttpRequest, pk: int) -> HttpResponse:
    """The tournament's results as a static website in a ZIP file, for the club's web space
    (:mod:`archive.site`), in the language of the request; the director's download."""
    tournament = get_object_or_404(Tournament, pk=pk)
    content = site.site_zip(site.export_site(tournament, translation.get_language() or "de"))
    return _attachment(content, "application/zip", f"ergebnisse-{tournament.pk}.zip")


@login_required
@permission_required("tournament.change_series", raise_exception=True)
def series_site_export(request: HttpRequest, pk: int) -> HttpResponse:
    """The series' table and each of its evenings as a static website in a ZIP file
    (:func:`archive.site.export_series_site`)."""
    series = get_object_or_404(Series, pk=pk)
    content = site.site_zip(site.export_series_site(series, translation.get_language() or "de"))
    return _attachment(content, "application/zip", f"serie-{series.pk}.zip")


@login_required
@permission_required("tournament.change_round", raise_exception=True)
def press_report(request: HttpRequest, pk: int) -> HttpResponse:
    """The newspaper report ("Pressebericht"): the options (``GET``) make the text, shown
    in a box to edit; opened without options, the page shows the newest saved version if
    there is one.  ``POST`` keeps the edited text (every version, :class:`PressReport`)
    and, unless the button was "Speichern", downloads it as plain text or DOCX
    (:mod:`archive.press`).  Invalid options or text are shown at their field (422)."""
    tournament = get_object_or_404(Tournament, pk=pk)
    options = PressOptionsForm(request.GET or None)
    status = 200
    saved = press.saved_report(tournament)
    if request.method == "POST":
        edited = PressTextForm(request.POST)
        if edited.is_valid():
            press.save_report(tournament, edited.cleaned_data["text"], request.user)
            if request.POST.get("action") == "save":
                messages.success(request, _("Der Text ist gespeichert."))
                return redirect("archive:press", pk=tournament.pk)
            author = request.user.get_full_name() or request.user.get_username()
            return _press_download(tournament, edited.cleaned_data, author)
        status = 422
    elif options.is_bound and not options.is_valid():
        edited, status = None, 422
    elif saved is not None and not options.is_bound:
        edited = PressTextForm(initial={"text": saved.text, "format": "docx"})
    else:
        chosen = options.options() if options.is_bound else press.Options()
        text = press.press_report(tournament, chosen)
        edited = PressTextForm(initial={"text": text, "format": "docx"})
        saved = None  # the box holds a new text, not the saved one
    return render(
        request,
        "archive/press_report.html",
        {
            "tournament": tournament,
            "options": options if options.is_bound else PressOptionsForm(),
            "edited": edited,
            "saved": saved,
        },
        status=status,
    )


def _served(folder: Path) -> bool:
    """Whether ``folder`` lies in the program's own folder or a folder the server hands
    out (static files): a copy of the database there could be downloaded."""
    inside = folder.resolve()
    roots = [Path(settings.BASE_DIR)]
    if getattr(settings, "STATIC_ROOT", None):
        roots.append(Path(settings.STATIC_ROOT))
    return any(inside == root.resolve() or root.resolve() in inside.parents for root in roots)


@login_required
@permission_required("tournament.change_tournament", raise_exception=True)
@require_POST
def backup_now(request: HttpRequest, pk: int) -> HttpResponse:
    """ "Sicherung jetzt" on the entry overview (venue mode only: 404 without
    ``BINOKEL_BACKUP_DIR``): a checked copy of the database (:func:`archive.backup.
    backup_database`) into the folder the director types (a USB stick, say), or the
    venue's backup folder when the field is empty; the result or the German reason it
    failed as a message on the overview (issue 37.28)."""
    tournament = get_object_or_404(Tournament, pk=pk)
    if not settings.BACKUP_DIR:
        raise Http404(_("Sicherungen gibt es nur auf dem Laptop des Turnierabends."))
    typed = request.POST.get("ordner", "").strip()
    try:
        folder = Path(typed).expanduser() if typed else Path(settings.BACKUP_DIR)
        usable = folder.is_absolute() and folder.is_dir()
    except (RuntimeError, ValueError, OSError):  # "~someone" unknown, a NUL in the path
        folder, usable = None, False
    if usable and typed and _served(folder):
        messages.error(
            request,
            _(
                "Ordner „%(folder)s“: liegt im Programm oder wird ausgeliefert; einen anderen wählen."
            )
            % {"folder": typed},
        )
        return redirect("scoring:clerk", pk=tournament.pk)
    if not usable:
        messages.error(
            request,
            _(
                "Ordner „%(folder)s“: gibt es nicht (den vollen Pfad angeben; USB-Stick eingesteckt?)."
            )
            % {"folder": typed},
        )
        return redirect("scoring:clerk", pk=tournament.pk)
    try:
        report = backup.backup_database(backup.configured_database(), folder)
    except (backup.BackupError, OSError) as exc:
        messages.error(request, _("Sicherung nicht geschrieben: %(why)s") % {"why": exc})
    else:
        messages.success(
            request,
            _("Sicherung geschrieben: %(path)s (Prüfung: %(result)s).")
            % {"path": report.path, "result": report.integrity},
        )
    return redirect("scoring:clerk", pk=tournament.pk)


def _press_download(tournament: Tournament, data: dict, author: str = "") -> HttpResponse:
    """The edited report as ``pressebericht-<id>.txt`` or ``.docx`` (``author`` in the
    Word file's properties)."""
    name = f"pressebericht-{tournament.pk}"
    if data["format"] == "docx":
        return _attachment(
            press.report_docx(data["text"], tournament.name, author),
            "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
            f"{name}.docx",
        )
    return _attachment(data["text"], "text/plain; charset=utf-8", f"{name}.txt")


@login_required
@permission_required("tournament.change_tournament", raise_exception=True)
def publish_page(request: HttpRequest, pk: int) -> HttpResponse:
    """*Vereinsseite*: where the club's website lives, how often the venue uploads the
    results there, how the last upload went, and *Jetzt veröffentlichen* (venue mode
    only: 404 without ``BINOKEL_PUBLISH_DIR``).  POST ``aktion=speichern`` stores the
    target (:func:`archive.publish.live.save_settings`; an empty password keeps the
    stored one for the same address) and asks for a first upload; ``aktion=jetzt`` asks
    for one now; ``aktion=aus`` turns publishing off (target and password deleted).  The
    upload itself runs in the venue runner's publisher, never in this request."""
    tournament = get_object_or_404(Tournament, pk=pk)
    folder = live.publish_folder()
    if folder is None:
        raise Http404(_("Veröffentlichen gibt es nur auf dem Laptop des Turnierabends."))
    stored = live.load_settings(folder)
    mine = stored if stored is not None and stored.tournament_id == tournament.pk else None
    form = PublishForm(
        initial=(
            {
                "target": mine.target,
                "key_file": mine.key_file,
                "interval_minutes": mine.interval_minutes,
                "allow_plain_ftp": mine.allow_plain_ftp,
            }
            if mine
            else None
        )
    )
    if request.method == "POST" and request.POST.get("aktion") == "aus":
        live.stop_publishing(folder)
        messages.success(request, _("Veröffentlichen ist aus; Ziel und Passwort sind gelöscht."))
        return redirect("archive:publish", pk=tournament.pk)
    if request.method == "POST" and request.POST.get("aktion") == "jetzt":
        if mine is None:
            messages.error(request, _("Erst das Ziel speichern."))
        else:
            live.request_publish(folder)
            messages.success(request, _("Die Veröffentlichung ist angestoßen."))
        return redirect("archive:publish", pk=tournament.pk)
    if request.method == "POST":
        form = PublishForm(request.POST)
        if form.is_valid():
            data = form.cleaned_data
            values = live.PublishSettings(
                tournament_id=tournament.pk,
                target=data["target"],
                # the stored password goes only to the address it was typed for
                password=data["password"]
                or (mine.password if mine and mine.target == data["target"] else ""),
                key_file=data["key_file"].strip(),
                interval_minutes=data["interval_minutes"],
                allow_plain_ftp=data["allow_plain_ftp"],
                tournament_name=tournament.name,
                tournament_date=tournament.date.isoformat(),
            )
            live.save_settings(folder, values)
            live.request_publish(folder)
            messages.success(request, _("Gespeichert; die erste Veröffentlichung läuft gleich an."))
            return redirect("archive:publish", pk=tournament.pk)
    status = live.read_status(folder)
    if status.get("tournament_id") != tournament.pk:
        status = {}
    return render(
        request,
        "archive/publish.html",
        {
            "tournament": tournament,
            "form": form,
            "other": stored if stored is not None and mine is None else None,
            "status": status,
            "has_password": bool(mine and mine.password),
            "host_key": _trusted_key(mine),
            "configured": mine is not None,
        },
    )


def _trusted_key(values) -> str | None:
    """The SFTP server's stored key for the *Vereinsseite* page (``None`` without one)."""
    if values is None:
        return None
    from .publish import PublishError, parse_target
    from .publish.targets import trusted_key

    try:
        return trusted_key(parse_target(values.target), Path(settings.PUBLISH_KNOWN_HOSTS))
    except PublishError:
        return None
