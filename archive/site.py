"""A tournament's results as a self-contained static website (issue 28): plain HTML and
CSS that works opened from disk or uploaded to any web host, where no Django runs.

The pages are the app's own public pages, rendered for an anonymous visitor, so names
appear exactly as there: only with the player's consent.  Each page is then made static
(:func:`_static_page`): scripts and htmx attributes go, every link to a page of the export
becomes a relative link to its file, and every other link (login, language switch,
projector, spreadsheets, the laptop's own address) is removed.  The files:

- ``index.html``: date, venue, ruleset and its fingerprint, and the links below;
- ``gesamt.html`` (overall standings), ``runde-N.html`` (round N), ``kategorie-S.html`` and
  ``kategorie-S-runde-N.html`` (category S);
- ``spieler/N.html`` and ``spieler/N-runde-R.html``: the page of start number N (its last
  round, and round R) for each player named with consent, listed on the index;
- ``preise.html`` when the tournament has a prize table;
- ``regeln.pdf``: the rules handout the engine scored by;
- ``static/…``: the style sheet and icon the pages use.

A series (:func:`export_series_site`) is its table as ``index.html`` and each evening's
site in a folder ``abend-N/``, linked from the table's evening columns.
"""

from __future__ import annotations

import posixpath
import zipfile
from io import BytesIO
from pathlib import Path
from urllib.parse import parse_qs, urljoin, urlsplit

import lxml.html
from django.contrib.auth.models import AnonymousUser
from django.contrib.staticfiles import finders
from django.core.exceptions import SuspiciousFileOperation
from django.template.loader import render_to_string
from django.test import RequestFactory
from django.urls import Resolver404, ResolverMatch, resolve, reverse
from django.utils import timezone, translation

from printing import render as pdf_engine
from printing.pdfs import rules_pdf
from scoring.selectors import evening_finished
from series.selectors import series_standings
from tournament.formatting import name_sort_key
from tournament.models import Round, Seat, Series, Tournament
from tournament.text import xml_safe

INDEX = "index.html"
RULES = "regeln.pdf"


class SiteError(Exception):
    """The export cannot be written (e.g. the target exists and is not empty)."""


STATIC_URL = "/static/"


def _local(address: str, static: set[str]) -> ResolverMatch | str | None:
    """What an absolute app address is for the export: for a static file that exists, its
    file in the export ("static/css/app.css", the path added to ``static`` so it is copied);
    for a page of the app, its resolved view; ``None`` for another host (the laptop's LAN
    address, a table link) or an unknown path."""
    parts = urlsplit(address)
    if parts.scheme or parts.netloc:
        return None
    if parts.path.startswith(STATIC_URL):
        path = parts.path[len(STATIC_URL) :]
        if _static_source(path) is None:
            return None
        static.add(path)
        return f"static/{path}"
    try:
        return resolve(parts.path)
    except Resolver404:
        return None


def _static_source(path: str) -> Path | None:
    """The file behind the static address ``path``: found by the static files finders
    (``css/app.css`` while developing), or collected under its hashed name
    (``css/app.3f2a….css`` with ``DJANGO_DEBUG=0``, as the venue serves it; issue 37.2: the
    website ZIP downloaded at the venue had no stylesheet, because the finders do not know
    hashed names).  ``None`` when there is no such file."""
    found = finders.find(path)
    if found:
        return Path(found)
    from django.contrib.staticfiles.storage import staticfiles_storage

    try:
        collected = Path(staticfiles_storage.path(path))
    except (NotImplementedError, ValueError, SuspiciousFileOperation):
        return None
    return collected if collected.is_file() else None


def _static_files(static: set[str]) -> dict[str, bytes]:
    """The static files named in ``static`` (:func:`_local`), by their place in the export."""
    return {f"static/{path}": _static_source(path).read_bytes() for path in sorted(static)}


def _standings_file(round_number: int | None, category: str | None) -> str:
    name = "gesamt" if category is None else f"kategorie-{category}"
    if round_number is not None:
        name = f"runde-{round_number}" if category is None else f"{name}-runde-{round_number}"
    return f"{name}.html"


def _player_file(start_number: int, round_number: int | None) -> str:
    suffix = f"-runde-{round_number}" if round_number is not None else ""
    return f"spieler/{start_number}{suffix}.html"


def _public_page(address: str) -> str:
    """The page at ``address`` as an anonymous visitor gets it, from the view the URL
    configuration names for it (resolved, not imported: apps do not import each other's
    views)."""
    request = RequestFactory().get(address)
    request.user = AnonymousUser()
    match = resolve(request.path_info)
    response = match.func(request, *match.args, **match.kwargs)
    if response.status_code != 200:
        raise SiteError(f"{address} answered {response.status_code}")
    return response.content.decode()


class _Exporter:
    """Renders the pages of one tournament and maps the app's addresses to the files."""

    def __init__(self, tournament: Tournament, live: bool = False) -> None:
        self.tournament = tournament
        # published while the evening runs: the index and the standings reload themselves
        self.live = live and not evening_finished(tournament)
        self.rounds = list(range(1, tournament.rounds + 1))
        self.categories = [c.slug for c in tournament.categories.all()]
        self.has_prizes = tournament.prizes.exists()
        # start number → the rounds played, for each player named with consent
        self.players: dict[int, list[int]] = {}
        for seat in Seat.objects.filter(
            registration__tournament=tournament,
            registration__consent_public=True,
            round__status__in=[Round.Status.RUNNING, Round.Status.CLOSED],
        ).values("registration__start_number", "round__number"):
            rounds = self.players.setdefault(seat["registration__start_number"], [])
            rounds.append(seat["round__number"])
        self.files: dict[str, bytes] = {}
        self.static: set[str] = set()

    # ------------------------------------------------------------------ addresses

    def file_for(self, address: str) -> str | None:
        """The export's file for an absolute app address, or ``None`` when the export has
        no such page (then the link is removed)."""
        match = _local(address, self.static)
        if not isinstance(match, ResolverMatch):
            return match  # a static file's place in the export, or None
        query = parse_qs(urlsplit(address).query)
        if match.view_name == "home":
            return INDEX
        if match.kwargs.get("pk") != self.tournament.pk:
            return None
        if match.view_name == "scoring:standings":
            round_text = (query.get("runde") or [""])[0]
            round_number = int(round_text) if round_text.isdigit() else None
            if round_number is not None and round_number not in self.rounds:
                return None
            category = (query.get("kategorie") or [None])[0]
            if category is not None and category not in self.categories:
                return None
            return _standings_file(round_number, category)
        if match.view_name == "scoring:player":
            rounds = self.players.get(match.kwargs["start_number"])
            round_text = (query.get("runde") or [""])[0]
            if rounds is None or (round_text and int(round_text) not in rounds):
                return None  # no page for a player who did not consent
            return _player_file(
                match.kwargs["start_number"], int(round_text) if round_text else None
            )
        if match.view_name == "prizes:list" and self.has_prizes:
            return "preise.html"
        if (
            match.view_name == "printing:rules"
            and not query.get("sprache")
            and pdf_engine.PDF_ENGINE_ERROR is None  # no PDF without Pango: no link
        ):
            return RULES
        return None

    # ---------------------------------------------------------------------- pages

    def pages(self) -> None:
        """Every page of the export, made static, into :attr:`files`."""
        pk = self.tournament.pk
        base = reverse("scoring:standings", args=[pk])
        for category in [None, *self.categories]:
            for round_number in [None, *self.rounds]:
                query = {}
                if round_number is not None:
                    query["runde"] = round_number
                if category is not None:
                    query["kategorie"] = category
                address = base + (
                    "?" + "&".join(f"{k}={v}" for k, v in query.items()) if query else ""
                )
                html = _public_page(address)
                self.add(_standings_file(round_number, category), html, address)
        for number, rounds in sorted(self.players.items()):
            base = reverse("scoring:player", args=[pk, number])
            for round_number in [None, *sorted(rounds)]:
                address = base + (f"?runde={round_number}" if round_number else "")
                html = _public_page(address)
                self.add(_player_file(number, round_number), html, address)
        if self.has_prizes:
            address = reverse("prizes:list", args=[pk])
            self.add("preise.html", _public_page(address), address)
        index = render_to_string(
            "archive/site_index.html",
            {
                "tournament": self.tournament,
                "rounds": self.rounds,
                "categories": list(self.tournament.categories.all()),
                "has_prizes": self.has_prizes,
                "players": sorted(
                    (
                        r
                        for r in self.tournament.registrations.select_related("player")
                        if r.start_number in self.players
                    ),
                    key=lambda r: name_sort_key(r.player.last_name, r.player.first_name),
                ),
                "exported_at": timezone.localtime(),
                "live": self.live,
            },
        )
        self.add(INDEX, index, "/")
        if (
            pdf_engine.PDF_ENGINE_ERROR is None
        ):  # without Pango (a Windows laptop) the site has no PDF
            self.files[RULES] = rules_pdf(self.tournament, translation.get_language() or "de")
        self.files.update(_static_files(self.static))

    def add(self, name: str, html: str, address: str) -> None:
        page = _static_page(html, address, name, self.file_for)
        if self.live and (name == INDEX or name in self.standings_files):
            page = _reloading(page)
        self.files[name] = page.encode()

    @property
    def standings_files(self) -> set[str]:
        return {
            _standings_file(n, c) for n in [None, *self.rounds] for c in [None, *self.categories]
        }


def _resolve(address: str, link: str) -> str:
    """``link`` on the page at ``address`` as the browser reads it: a link that is only a
    query ("?", "?runde=2") replaces the page's query (``urljoin`` would keep the old one
    for a bare "?")."""
    if link.startswith("?"):
        return urlsplit(address).path + (link if link != "?" else "")
    return urljoin(address, link)


def _static_page(html: str, address: str, name: str, file_for) -> str:
    """``html`` (served at ``address``) as the export's file ``name``: no scripts, no htmx
    attributes, no forms, nothing marked ``data-live`` (what only the running app shows:
    "aktualisiert sich alle 10 Sekunden", the demo banner); links to exported pages relative, other links removed (an
    ``<a>`` in running text keeps its words, one in a navigation bar or the header goes).
    Characters no file should hold (a control character or U+FFFE typed into a name) are
    dropped (:func:`tournament.text.xml_safe`; issue 38.10)."""
    document = lxml.html.document_fromstring(xml_safe(html))
    for element in list(document.iter("script", "form", "noscript")):
        element.drop_tree()
    for element in document.xpath("//*[@data-live]"):  # "aktualisiert sich alle 10 Sekunden"
        element.drop_tree()
    for element in document.iter():
        if not isinstance(element.tag, str):
            continue
        for attribute in [a for a in element.attrib if a.startswith("hx-")]:
            del element.attrib[attribute]
    folder = posixpath.dirname(name)
    for element, attribute in [(e, "href") for e in document.iter("a", "link")] + [
        (e, "src") for e in document.iter("img")
    ]:
        target = element.get(attribute)
        if target is None:
            continue
        if target.startswith("#"):
            continue
        target_file = file_for(_resolve(address, target))
        if target_file is None:
            if element.tag == "a" and not any(
                a.tag in ("nav", "header") for a in element.iterancestors()
            ):
                element.drop_tag()  # a link in running text: its words stay
            else:
                element.drop_tree()
            continue
        element.set(attribute, posixpath.relpath(target_file, folder or "."))
    return lxml.html.tostring(document, doctype="<!doctype html>", encoding="unicode")


#: Seconds after which a live page reloads itself (no script: a ``meta`` refresh)
LIVE_RELOAD_SECONDS = 60


def _reloading(html: str) -> str:
    """``html`` with a ``meta`` refresh that reloads the page every
    :data:`LIVE_RELOAD_SECONDS` (the club's web host runs no script of ours)."""
    meta = f'<meta http-equiv="refresh" content="{LIVE_RELOAD_SECONDS}">'
    return html.replace("<head>", "<head>" + meta, 1)


def export_site(
    tournament: Tournament, language: str = "de", live: bool = False
) -> dict[str, bytes]:
    """The static website of ``tournament`` in ``language``: relative path → content.
    With ``live`` (publishing during the evening, :mod:`archive.publish`) and while the
    evening is not finished, the index says so and it and the standings pages reload
    themselves every minute."""
    with translation.override(language):
        exporter = _Exporter(tournament, live)
        exporter.pages()
    return dict(sorted(exporter.files.items()))


def export_series_site(series: Series, language: str = "de") -> dict[str, bytes]:
    """The static website of ``series``: ``index.html`` is the series table, whose evening
    columns link to each evening's own site in ``abend-N/`` (:func:`export_site`)."""
    with translation.override(language):
        evenings = {e.tournament.pk: e.number for e in series_standings(series).evenings}
        files: dict[str, bytes] = {}
        for tournament in Tournament.objects.filter(pk__in=evenings):
            for name, content in export_site(tournament, language).items():
                files[f"abend-{evenings[tournament.pk]}/{name}"] = content
        static: set[str] = set()

        def file_for(address: str) -> str | None:
            match = _local(address, static)
            if not isinstance(match, ResolverMatch):
                return match
            if match.view_name == "home":
                return INDEX
            if match.view_name == "scoring:standings" and match.kwargs["pk"] in evenings:
                return f"abend-{evenings[match.kwargs['pk']]}/gesamt.html"
            return None

        address = reverse("series:page", args=[series.pk])
        html = _public_page(address)
        files[INDEX] = _static_page(html, address, INDEX, file_for).encode()
        files.update(_static_files(static))
    return dict(sorted(files.items()))


def write_site(files: dict[str, bytes], target: Path) -> Path:
    """Write ``files`` into the folder ``target`` (made if missing; an existing folder must
    be empty) or, when ``target`` ends in ``.zip``, into that ZIP file (not replaced if it
    exists).  ``SiteError`` otherwise."""
    if target.suffix.lower() == ".zip":
        if target.exists():
            raise SiteError(f"{target} exists")
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(site_zip(files))
        return target
    if target.exists() and (not target.is_dir() or any(target.iterdir())):
        raise SiteError(f"{target} exists and is not an empty folder")
    for name, content in files.items():
        path = target / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(content)
    return target


def site_zip(files: dict[str, bytes]) -> bytes:
    """``files`` as a ZIP archive (deflated)."""
    buffer = BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, content in files.items():
            archive.writestr(name, content)
    return buffer.getvalue()
