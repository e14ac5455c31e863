"""The standings address for phones, and its QR code (segno, no network).

Used by the join screen (``/turnier/<id>/beitreten/``), the corner of the projector page
and the printed poster (``printing``).  In venue mode ``settings.PUBLIC_BASE_URL`` is the
laptop's LAN address, so a projector opened on the laptop itself as ``127.0.0.1`` still
shows the address the phones can reach.
"""

from __future__ import annotations

import base64
import io
import ipaddress
from urllib.parse import urlsplit

import segno
from django.conf import settings
from django.http import HttpRequest
from django.urls import reverse


def standings_address(tournament_id: int, request: HttpRequest | None = None) -> str:
    """Absolute URL of the tournament's public standings: ``PUBLIC_BASE_URL`` + path when
    set, else the address ``request`` came in at; the bare path when neither is known."""
    path = reverse("scoring:standings", args=[tournament_id])
    if settings.PUBLIC_BASE_URL:
        return settings.PUBLIC_BASE_URL + path
    if request is not None:
        return request.build_absolute_uri(path)
    return path


def reachable_by_phones(address: str) -> bool:
    """Whether a phone on the hall's Wi-Fi could open ``address`` (an absolute URL): not
    when its host is the laptop's loopback (``127.0.0.1``, ``::1``, ``localhost``) or it
    has no host at all.  A QR code of such an address is not printed or shown; the page
    says why instead (``./scripts/venue`` knows the laptop's network address)."""
    host = (urlsplit(address).hostname or "").lower()
    if not host or host == "localhost" or host.endswith(".localhost"):
        return False
    try:
        return not ipaddress.ip_address(host).is_loopback
    except ValueError:
        return True  # a name such as turnier.local


#: modules of light border around every QR code (the standard's quiet zone)
QUIET_ZONE = 4


def _qr(data: str) -> segno.QRCode:
    """``data`` as a QR code, error correction level M (every QR code of the app)."""
    return segno.make(data, error="m", micro=False)


def qr_svg(data: str, scale: int = 8) -> bytes:
    """``data`` as a QR code in SVG (UTF-8 bytes), error correction level M, with the
    standard quiet zone of 4 modules and a viewBox instead of a fixed size (CSS sizes it);
    ``scale`` is the size of one module in SVG units."""
    out = io.BytesIO()
    _qr(data).save(out, kind="svg", scale=scale, border=QUIET_ZONE, omitsize=True)
    return out.getvalue()


def qr_modules(data: str) -> list[list[bool]]:
    """The same QR code as :func:`qr_svg` as rows of modules, ``True`` for dark, quiet zone
    included (for the score sheets, which draw it themselves: printing.stamping)."""
    return [[bool(m) for m in row] for row in _qr(data).matrix_iter(border=QUIET_ZONE)]


def qr_data_uri(data: str) -> str:
    """``data`` as a QR code in a ``data:image/svg+xml;base64,…`` URI, for an ``<img>`` in a
    PDF (the PDF fetcher loads nothing from outside)."""
    return "data:image/svg+xml;base64," + base64.b64encode(qr_svg(data)).decode("ascii")
