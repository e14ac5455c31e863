"""PDF rendering with WeasyPrint from Django templates.

Every document extends ``printing/base.html`` and is styled by ``static/print/print.css``,
read from disk.  Nothing is fetched over the network and the app never requests itself:
the URL fetcher (:class:`LocalOnlyFetcher`) serves only files inside the project's
``static/`` folder and ``data:`` URLs, and the base URL is the static directory.  No text
a user typed is written into CSS: the running head comes from attributes of the document
(see ``printing/templates/printing/base.html``).  Fonts come from the system (DejaVu Sans, Debian ``fonts-dejavu-core``) and are
embedded (subset) in the PDF by WeasyPrint.

The score sheets are laid out here once per kind of page and filled in by
:mod:`printing.stamping` (:mod:`printing.sheets`).
"""

from __future__ import annotations

import mimetypes
import re
from pathlib import Path
from urllib.parse import urlsplit
from urllib.request import url2pathname

from django.conf import settings
from django.template.loader import render_to_string

try:
    from weasyprint import CSS, HTML, Document
    from weasyprint.urls import URLFetcher, URLFetcherResponse
except OSError as exc:  # Pango and its libraries are missing (a Windows laptop, say)
    #: Why WeasyPrint cannot run here, or ``None``: the evening runs without it, and every
    #: PDF address answers with a page saying what to install (printing.views)
    PDF_ENGINE_ERROR: OSError | None = exc
    CSS = HTML = Document = URLFetcherResponse = None  # type: ignore[assignment,misc]
    URLFetcher = object  # type: ignore[assignment,misc]
else:
    PDF_ENGINE_ERROR = None

STATIC_DIR = Path(settings.BASE_DIR) / "static"
STYLESHEET = STATIC_DIR / "print" / "print.css"


class LocalOnlyFetcher(URLFetcher):
    """A WeasyPrint URL fetcher for the print documents: it serves ``data:`` URLs and
    ``file:`` URLs of existing files inside ``root`` (the project's ``static/`` folder), and
    refuses everything else with ``ValueError``: other schemes (``http:``, ``ftp:``, ...),
    ``file:`` URLs naming a host, paths with a ``..`` segment (also percent-encoded), and
    paths that leave ``root`` once resolved (a symbolic link pointing out of it).

    Refusals stop a stylesheet or font from loading (``fail_on_errors``); WeasyPrint leaves a
    refused image out of the PDF.
    """

    def __init__(self, root: Path = STATIC_DIR) -> None:
        super().__init__(allowed_protocols={"file", "data"}, fail_on_errors=True)
        self.root = Path(root).resolve()

    def fetch(self, url: str, headers=None) -> URLFetcherResponse:
        """The resource at ``url``; ``ValueError`` names why a URL is refused."""
        scheme = url.split(":", 1)[0].lower() if ":" in url else ""
        if scheme == "data":
            return super().fetch(url, headers)
        if scheme != "file":
            raise ValueError(f"Only static files and data: URLs are fetched, not {url!r}")
        return self._static_file(url)

    def _static_file(self, url: str) -> URLFetcherResponse:
        parts = urlsplit(url)
        if parts.netloc not in ("", "localhost"):
            raise ValueError(f"A file: URL on another host is refused: {url!r}")
        path = Path(url2pathname(parts.path))
        if not path.is_absolute() or ".." in path.parts:
            raise ValueError(f"A file path must be absolute and without '..': {url!r}")
        try:
            resolved = path.resolve(strict=True)
        except OSError as exc:
            raise ValueError(f"No such file: {url!r}") from exc
        if not resolved.is_relative_to(self.root) or not resolved.is_file():
            raise ValueError(f"Only files inside {self.root} are fetched, not {url!r}")
        content_type = mimetypes.guess_type(resolved.name)[0] or "application/octet-stream"
        return URLFetcherResponse(
            resolved.as_uri(), resolved.read_bytes(), headers={"Content-Type": content_type}
        )


_stylesheet: CSS | None = None


def _css() -> CSS:
    global _stylesheet
    if _stylesheet is None:
        _stylesheet = CSS(filename=str(STYLESHEET), url_fetcher=LocalOnlyFetcher())
    return _stylesheet


# C0 control characters other than tab, line feed and carriage return, and DEL: typed into
# a name they would print as empty boxes (a form feed too, which HTML counts as a space)
_CONTROL_CHARACTERS = re.compile("[\x00-\x08\x0b-\x0c\x0e-\x1f\x7f]")


def printable(html: str) -> str:
    """``html`` with each control character (see ``_CONTROL_CHARACTERS``) replaced by a
    space, so that text typed with one prints as the words around it."""
    return _CONTROL_CHARACTERS.sub(" ", html)


def lay_out(html: str) -> Document:
    """One HTML document laid out by WeasyPrint with ``print.css``: a
    :class:`weasyprint.Document`, whose pages report where their links and anchors are
    (used for the score sheets' grid, :mod:`printing.stamping`)."""
    # Typed text reaches WeasyPrint only as autoescaped HTML text and attribute values, never
    # as a URL or CSS (docs/security.md); whatever a document asks for goes through
    # LocalOnlyFetcher, which serves static/ files and data: only (tests/security/test_print.py
    # renders names with quotes, CR/FF, </style>, url(file:...) and @import).
    document = HTML(
        string=printable(html), base_url=STATIC_DIR.as_uri() + "/", url_fetcher=LocalOnlyFetcher()
    )
    return document.render(stylesheets=[_css()])


def _write(html: str) -> bytes:
    """Lay out one HTML document and return the PDF bytes (runs in a worker process too)."""
    return lay_out(html).write_pdf()


def render_pdf(template: str, context: dict) -> bytes:
    """Render ``template`` with ``context`` to PDF bytes (A4, per ``print.css``).

    ``context`` should hold ``tournament`` (running head) and ``printed_at`` (footer).
    """
    return _write(render_to_string(template, context))
