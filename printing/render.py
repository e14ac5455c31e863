"""PDF rendering with WeasyPrint from Django templates.

Every document extends ``printing/base.html`` and is styled by ``static/print/print.css``,
read from disk.  Nothing is fetched over the network and the app never requests itself:
the URL fetcher (:class:`LocalOnlyFetcher`) serves only files inside the project's
``static/`` folder and ``data:`` URLs, and the base URL is the static directory.  No text
a user typed is written into CSS: the running head comes from attributes of the document
(see ``printing/templates/printing/base.html``).  Fonts come from the system (DejaVu Sans, Debian ``fonts-dejavu-core``) and are
embedded (subset) in the PDF by WeasyPrint.

Long documents made of independent pages (a round's score sheets) can be laid out in parts
on several processor cores (:func:`render_pdf_in_parts`) and joined with pypdf; page numbers
run on across the parts.
"""

from __future__ import annotations

import mimetypes
import multiprocessing
import os
import re
from concurrent.futures import ProcessPoolExecutor
from io import BytesIO
from pathlib import Path
from urllib.parse import urlsplit
from urllib.request import url2pathname

from django.conf import settings
from django.template.loader import render_to_string
from pypdf import PdfReader, PdfWriter
from weasyprint import CSS, HTML
from weasyprint.urls import URLFetcher, URLFetcherResponse

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


def _write(html: str) -> bytes:
    """Lay out one HTML document and return the PDF bytes (runs in a worker process too)."""
    # Typed text reaches WeasyPrint only as autoescaped HTML text and attribute values, never
    # as a URL or CSS (docs/security.md); whatever a document asks for goes through
    # LocalOnlyFetcher, which serves static/ files and data: only (tests/security/test_print.py
    # renders names with quotes, CR/FF, </style>, url(file:...) and @import).
    document = HTML(
        string=printable(html), base_url=STATIC_DIR.as_uri() + "/", url_fetcher=LocalOnlyFetcher()
    )
    return document.write_pdf(stylesheets=[_css()])


def render_pdf(template: str, context: dict) -> bytes:
    """Render ``template`` with ``context`` to PDF bytes (A4, per ``print.css``).

    ``context`` should hold ``tournament`` (running head) and ``printed_at`` (footer).
    """
    return _write(render_to_string(template, context))


def workers() -> int:
    """Processes used for :func:`render_pdf_in_parts`: ``PRINT_WORKERS`` from the
    environment, else the number of processor cores (at least 1)."""
    value = os.environ.get("PRINT_WORKERS")
    if value and value.isascii() and value.isdigit():
        return max(1, int(value))
    return max(1, os.cpu_count() or 1)


def split_into_parts(items: list, min_per_part: int) -> list[list]:
    """``items`` in consecutive chunks, one per worker (:func:`workers`), but none with
    fewer than ``min_per_part`` items (then fewer chunks): below that, starting another
    process costs more than it saves.  Always at least one chunk."""
    parts = min(workers(), max(1, len(items) // min_per_part))
    size = max(1, -(-len(items) // parts))
    return [items[i : i + size] for i in range(0, len(items), size)] or [[]]


def render_pdf_in_parts(template: str, contexts: list[dict], page_counts: list[int]) -> bytes:
    """Render ``template`` once per context, in parallel, and join the parts into one PDF.

    ``page_counts[i]`` is the number of pages part ``i`` is expected to have; each part gets
    ``page_first`` (the number of its first page) and ``page_total`` (pages in all) so the
    page numbers in the margin run on across the parts.  Should a part come out longer or
    shorter than expected (a row that wraps more than estimated), the parts are laid out
    once more with the real counts, so the numbers are always right.  With one part this
    is a plain :func:`render_pdf` and WeasyPrint counts the pages itself.
    """
    if len(contexts) == 1:
        return render_pdf(template, contexts[0])
    parts = _render_parts(template, contexts, page_counts)
    readers = [PdfReader(BytesIO(part)) for part in parts]
    actual = [len(reader.pages) for reader in readers]
    if actual != list(page_counts):
        readers = [PdfReader(BytesIO(p)) for p in _render_parts(template, contexts, actual)]
    writer = PdfWriter()
    for reader in readers:
        writer.append(reader)
    out = BytesIO()
    writer.write(out)
    return out.getvalue()


def _render_parts(template: str, contexts: list[dict], page_counts: list[int]) -> list[bytes]:
    """Each context rendered to PDF bytes in a pool of worker processes, numbered as if
    part ``i`` had ``page_counts[i]`` pages."""
    total = sum(page_counts)
    htmls = []
    first = 1
    for context, count in zip(contexts, page_counts, strict=True):
        htmls.append(
            render_to_string(template, {**context, "page_first": first, "page_total": total})
        )
        first += count
    pool = ProcessPoolExecutor(
        max_workers=min(len(htmls), workers()), mp_context=multiprocessing.get_context("fork")
    )
    with pool:
        return list(pool.map(_write, htmls))
