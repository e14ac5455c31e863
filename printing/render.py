"""PDF rendering with WeasyPrint from Django templates.

Every document extends ``printing/base.html`` and is styled by ``static/print/print.css``,
read from disk.  Nothing is fetched over the network and the app never requests itself:
the URL fetcher allows only ``file:`` and ``data:`` URLs, and the base URL is the static
directory.  Fonts come from the system (DejaVu Sans, Debian ``fonts-dejavu-core``) and are
embedded (subset) in the PDF by WeasyPrint.
"""

from __future__ import annotations

from pathlib import Path

from django.conf import settings
from django.template.loader import render_to_string
from weasyprint import CSS, HTML
from weasyprint.urls import URLFetcher

STATIC_DIR = Path(settings.BASE_DIR) / "static"
STYLESHEET = STATIC_DIR / "print" / "print.css"


class LocalOnlyFetcher(URLFetcher):
    """A WeasyPrint URL fetcher that refuses every URL except ``file:`` and ``data:``."""

    def __init__(self) -> None:
        super().__init__(allowed_protocols={"file", "data"}, fail_on_errors=True)


_stylesheet: CSS | None = None


def _css() -> CSS:
    global _stylesheet
    if _stylesheet is None:
        _stylesheet = CSS(filename=str(STYLESHEET), url_fetcher=LocalOnlyFetcher())
    return _stylesheet


def render_pdf(template: str, context: dict) -> bytes:
    """Render ``template`` with ``context`` to PDF bytes (A4, per ``print.css``).

    ``context`` should hold ``tournament`` for the running head; templates may set
    ``landscape`` to switch the page to A4 landscape.
    """
    html = render_to_string(template, context)
    document = HTML(string=html, base_url=STATIC_DIR.as_uri() + "/", url_fetcher=LocalOnlyFetcher())
    return document.write_pdf(stylesheets=[_css()])
