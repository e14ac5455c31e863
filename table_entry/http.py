"""What every page behind a table's private link (``/t/<token>/…``) shares, for this app's
views and the apps built on it (the hall's call button and notices): the token resolved
into its live link, throttling, the refusal page, and the answer headers that keep the
token out of Referers and caches."""

from __future__ import annotations

from functools import wraps

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.utils.translation import gettext as _

from . import services as phone
from . import throttle

REFUSED_STATUS = {
    "unknown": 404,
    "revoked": 410,
    "off": 403,
    "planned": 403,
    "closed": 410,
    "throttled": 429,
    "not_clerk": 403,
    "wrong_mode": 403,
    "reason_required": 403,
    "wrong_table": 403,
}


def private_answer(response: HttpResponse) -> HttpResponse:
    """No token in any Referer, no caching of a table's page.  ``strict-origin`` sends only
    scheme and host as Referer (never the path with the token); ``no-referrer`` would also
    make the browser send ``Origin: null`` with the page's forms, which Django's CSRF
    check rightly refuses."""
    response["Referrer-Policy"] = "strict-origin"
    response["Cache-Control"] = "no-store"
    return response


def wants_json(request: HttpRequest) -> bool:
    return "application/json" in request.headers.get("Accept", "")


def table_link_view(view):
    """Resolve the token of the URL into its live link and pass it on as ``link``; a link
    that does not open its table gets the page that says why (404/410/403), in JSON for the
    phone's offline queue; too many requests for a valid token or from its address, or too
    many unknown tokens from an address or with one prefix, get 429 (:mod:`table_entry.throttle`:
    the token is looked up first, so guesses never throttle valid links).  Every answer carries ``Referrer-Policy: strict-origin``."""

    @wraps(view)
    def wrapper(request: HttpRequest, token: str, *args, **kwargs):
        try:
            link = phone.resolve(token)
        except phone.LinkRefused as exc:
            if exc.reason in ("unknown", "revoked") and throttle.count_miss(request, token):
                return private_answer(_throttled(request))
            return private_answer(refused(request, exc.reason, str(exc)))
        if throttle.limited(request, link.token):
            return private_answer(_throttled(request))
        return private_answer(view(request, link, *args, **kwargs))

    return wrapper


def _throttled(request: HttpRequest) -> HttpResponse:
    return refused(
        request,
        "throttled",
        _("Zu viele Anfragen in kurzer Zeit. Bitte eine Minute warten und neu laden."),
    )


def refused(request: HttpRequest, reason: str, message: str) -> HttpResponse:
    """The answer to a request the link does not allow: JSON for the phone's offline
    queue, the page that says why for a browser (404/410/403/429) and, for a part of the
    phone page that htmx refreshes (the hall's notices, the live check), that message alone
    with 200: htmx shows no 4xx answer, and the phone would go on showing the round as open."""
    status = REFUSED_STATUS.get(reason, 403)
    if request.headers.get("HX-Request") and not wants_json(request):
        return render(
            request,
            "table_entry/_refused_part.html",
            {"message": message, "reason": reason},
        )
    if wants_json(request):
        return JsonResponse(
            {"status": "refused", "reason": reason, "message": message}, status=status
        )
    return render(
        request,
        "table_entry/table_link_refused.html",
        {"message": message, "reason": reason},
        status=status,
    )
