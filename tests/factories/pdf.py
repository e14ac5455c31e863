"""A PDF as its reader sees it: its text (pdftotext, Debian poppler-utils) in columns or in
reading order, its pages, and where each word sits on the page (pdftotext -bbox)."""

from __future__ import annotations

import base64
import html
import os
import re
import shutil
import subprocess
from dataclasses import dataclass

import pytest

#: for the modules that read PDFs; CI installs poppler-utils and must never skip these
needs_pdftotext = pytest.mark.skipif(
    shutil.which("pdftotext") is None and not os.environ.get("CI"),
    reason="needs poppler-utils (pdftotext)",
)


def text_of(pdf: bytes, layout: bool = True) -> str:
    """The PDF's text: in ``layout`` mode lines keep their columns (tables); otherwise in
    reading order (two-column prose such as the handout)."""
    assert pdf.startswith(b"%PDF-")
    args = ["pdftotext", *(["-layout"] if layout else []), "-", "-"]
    return subprocess.run(args, input=pdf, capture_output=True, check=True).stdout.decode()


def pages(text: str) -> list[str]:
    """pdftotext ends every page with a form feed."""
    return text.split("\f")[:-1]


def squash(text: str) -> str:
    """Whitespace made single spaces; a word broken at a line end is joined again, both
    when hyphenated (U+2010) and when broken at its own hyphen ("Trumpf-" / "Familie")."""
    text = re.sub(r"-\n(?=[A-ZÄÖÜ0-9])", "-", text)
    return re.sub(r"\s+", " ", text).replace("\u2010 ", "")


def prose_of(pdf: bytes) -> str:
    """The text in reading order, :func:`squash`-ed: the rules handout as it is read."""
    return squash(text_of(pdf, layout=False))


# ------------------------------------------------------------------ words and their boxes


@dataclass
class Word:
    text: str
    x0: float
    y0: float
    x1: float
    y1: float

    @property
    def centre(self) -> float:
        return (self.x0 + self.x1) / 2


@dataclass
class Page:
    width: float
    height: float
    words: list[Word]

    def find(self, text: str) -> list[Word]:
        return [w for w in self.words if w.text == text]

    def line_of(self, word: Word) -> list[Word]:
        """The words on the same baseline as ``word``, left to right."""
        return sorted((w for w in self.words if abs(w.y1 - word.y1) < 1.5), key=lambda w: w.x0)


def layout(pdf: bytes) -> list[Page]:
    """Every page's size and words with their boxes (pdftotext -bbox)."""
    out = subprocess.run(
        ["pdftotext", "-bbox", "-", "-"], input=pdf, capture_output=True, check=True
    ).stdout.decode()
    result = []
    for match in re.finditer(r'<page width="([\d.]+)" height="([\d.]+)">(.*?)</page>', out, re.S):
        words = [
            Word(html.unescape(t), float(a), float(b), float(c), float(d))
            for a, b, c, d, t in re.findall(
                r'<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">(.*?)</word>',
                match.group(3),
            )
        ]
        result.append(Page(float(match.group(1)), float(match.group(2)), words))
    return result


# ------------------------------------------------------------------ hostile names

# a 1x1 PNG: an image that needs no file at all
PIXEL = (
    "data:image/png;base64,"
    + base64.b64encode(
        bytes.fromhex(
            "89504e470d0a1a0a0000000d4948445200000001000000010806000000"
            "1f15c4890000000d49444154789c6360000002000001e221bc330000000049454e44ae426082"
        )
    ).decode()
)

#: names a director or clerk might type that once broke out of the PDFs' CSS (issue 16,
#: item 1); ``{bait}`` is to be replaced by the file: URL of a PNG outside static/
HOSTILE_NAMES = {
    "carriage-return": "Herbst\r}} @page { background: url({bait}) }",
    "form-feed": "Herbst\f}} @page { background: url({bait}) }",
    "newline": "Herbst\n}} @page { background: url({bait}) }",
    "backslash": 'Herbst\\" } @page { background: url({bait}) } \\',
    "quotes": "Herbst \"doppelt\" 'einfach' „deutsch“",
    "end-of-style": 'Herbst</style><img src="{bait}"><style>',
    "url": "url({bait}) url('{bait}')",
    "import": '@import url("{bait}"); @import "file:///etc/passwd";',
    "data-url": "W\f} @page { background: url(" + PIXEL + ") }",
    "rtl-override": "Herbst \u202eREIVON",
    "controls": "Herbst\x01\x0b\x1b[31mrot\x07\x7f Turnier",
    "script": 'Herbst<script>alert("x")</script><img src="{bait}">',
}
