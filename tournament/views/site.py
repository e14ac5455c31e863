"""Site-wide pages that belong to no tournament: the 400 page in the app's layout, the
language switch for visitors who are not signed in, and ``/favicon.ico``.
"""

from __future__ import annotations

from django.conf import settings
from django.core.exceptions import BadRequest
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import translate_url
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import check_for_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_safe


def bad_request(request: HttpRequest, exception: Exception) -> HttpResponse:
    """The 400 page in the app's layout.  The message is shown only for our own
    ``BadRequest`` (e.g. :class:`tournament.params.BadNumber`, which names the parameter);
    other ``SuspiciousOperation`` details (hosts, headers) stay in the log."""
    message = str(exception) if isinstance(exception, BadRequest) else ""
    return render(request, "400.html", {"exception": message}, status=400)


@require_safe
def choose_language(request: HttpRequest, code: str) -> HttpResponse:
    """The language switch for visitors who are not signed in: a plain link (GET), so a
    public page needs no per-visitor CSRF token and can be cached whole.  Sets the same
    language cookie as Django's ``set_language`` (which signed-in users still reach by POST)
    and goes back to ``next`` when that is an address on this site, else to the start page.
    An unknown language code is a 404.  Choosing a language changes nothing but the
    visitor's own cookie, so a GET is harmless here."""
    if not check_for_language(code) or code not in dict(settings.LANGUAGES):
        raise Http404(_("Unbekannte Sprache"))
    next_url = request.GET.get("next", "")
    if not url_has_allowed_host_and_scheme(
        next_url, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        next_url = "/"
    response = HttpResponseRedirect(translate_url(next_url, code))
    response.set_cookie(
        settings.LANGUAGE_COOKIE_NAME,
        code,
        max_age=settings.LANGUAGE_COOKIE_AGE,
        path=settings.LANGUAGE_COOKIE_PATH,
        domain=settings.LANGUAGE_COOKIE_DOMAIN,
        secure=settings.LANGUAGE_COOKIE_SECURE,
        httponly=settings.LANGUAGE_COOKIE_HTTPONLY,
        samesite=settings.LANGUAGE_COOKIE_SAMESITE,
    )
    return response


@require_safe
def favicon(request: HttpRequest) -> HttpResponse:
    """``/favicon.ico``, which browsers ask for on every page: a permanent redirect to the
    card icon among the static files (resolved per request: the hashed name exists only
    after collectstatic)."""
    from django.http import HttpResponsePermanentRedirect
    from django.templatetags.static import static

    return HttpResponsePermanentRedirect(static("favicon.svg"))
