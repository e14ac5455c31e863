"""Request and response helpers the public pages share with other apps' views (printing,
the archive): the query values ``?runde=`` and ``?kategorie=``, and a cached page's or
PDF's ETag.  Not views: nothing here answers a request."""

from __future__ import annotations

import hashlib
import re

from django.core.exceptions import PermissionDenied
from django.db.backends.base.operations import BaseDatabaseOperations
from django.http import Http404, HttpRequest
from django.utils.http import quote_etag
from django.utils.translation import gettext as _

from tournament import services as tournament_services
from tournament.models import Category, Tournament
from tournament.params import parse_number

from .models import Hand

#: a round number as a query value (``?runde=3``) and a category's short name
#: (``?kategorie=damen``): the only shapes that reach a cache key
ROUND_SHAPE = re.compile(r"[1-9][0-9]{0,2}")


SLUG_SHAPE = re.compile(r"[-a-zA-Z0-9_]{1,60}")


def round_number_param(tournament: Tournament, request: HttpRequest) -> int | None:
    """The round chosen with ``?runde=N`` (``None`` for none).  Raises
    :class:`~tournament.params.BadNumber` (400) for anything but a number in ASCII digits and
    ``Http404`` for a number that is not one of the tournament's rounds."""
    value = request.GET.get("runde")
    if not value:
        return None
    number = parse_number(value, "runde")
    if not 1 <= number <= tournament.rounds:
        raise Http404(_("Unbekannte Runde"))
    return number


def category_param(tournament: Tournament, request: HttpRequest) -> Category | None:
    """The category chosen with ``?kategorie=`` (its short name or id; ``None`` for
    none).  Raises ``Http404`` for a category the tournament does not have."""
    value = request.GET.get("kategorie", "")
    if not value:
        return None
    # a short name is a slug: anything else (a NUL, say, which PostgreSQL refuses in
    # text) cannot name a category and is not sent to the database
    found = None
    if SLUG_SHAPE.fullmatch(value):
        found = tournament.categories.filter(slug=value).first()
    if found is None and value.isascii() and value.isdigit() and len(value) < 10:
        found = tournament.categories.filter(pk=int(value)).first()
    if found is None:
        raise Http404(_("Diese Kategorie gibt es bei diesem Turnier nicht."))
    return found


def etag(content: bytes) -> str:
    """The ETag ConditionalGetMiddleware would compute (an MD5 of the content), made once
    per render instead of once per request."""
    return quote_etag(hashlib.md5(content, usedforsecurity=False).hexdigest())


def cache_entry(content: bytes) -> tuple[str, bytes]:
    """``(ETag, content)`` as a cached page or PDF is stored (``printing.views`` too): the
    ETag made once when the content is rendered, not on every hit."""
    return etag(content), content


def require_clerk_of(request: HttpRequest, tournament: Tournament) -> None:
    """Raise ``PermissionDenied`` (the 403 page shows its message and whom to ask) unless
    the user is a clerk of ``tournament`` or its director: the object-level rule of every
    staff page of one tournament."""
    if not tournament_services.may_enter(request.user, tournament):
        raise PermissionDenied(
            _("Sie sind beim Turnier „%(name)s“ nicht als Schreiber eingetragen.")
            % {"name": tournament.name}
        )


def game_number_param(value: str | None) -> int:
    """A game number looked up from the address or a posted ``spiel``: ASCII digits up to
    what the hand's number column holds (the range Django gives the model field's type,
    on every database).  A number without a hand is no error here: the page then offers that
    game's form, and saving checks the tournament's bound
    (:func:`scoring.services.game_number_error`).  Raises
    :class:`~tournament.params.BadNumber` (a 400 naming ``spiel``)."""
    field = Hand._meta.get_field("number")
    top = BaseDatabaseOperations.integer_field_ranges[field.get_internal_type()][1]
    return parse_number(value, "spiel", top)
