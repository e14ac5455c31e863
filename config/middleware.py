"""German first: the language is the one the visitor chose with the language switch (its
cookie), else ``settings.LANGUAGE_CODE`` — never guessed from the browser's
Accept-Language, so a phone set to English still sees the German tournament pages until its
owner switches."""

from __future__ import annotations

from django.conf import settings
from django.middleware.locale import LocaleMiddleware
from django.utils import translation


class ChosenLanguageMiddleware(LocaleMiddleware):
    """:class:`django.middleware.locale.LocaleMiddleware` without browser negotiation.
    The language comes from a cookie, so every answer says ``Vary: Cookie`` (issue 38.8:
    the polled fragment said only ``Vary: Accept-Language``, and a browser or proxy could
    hand the English table to a German visitor), and not ``Accept-Language``.  No
    ``i18n_patterns`` (no language in the address), so Django's redirect of a 404 to a
    language prefix is not needed."""

    def process_request(self, request):
        code = request.COOKIES.get(settings.LANGUAGE_COOKIE_NAME)
        if code not in dict(settings.LANGUAGES):
            code = settings.LANGUAGE_CODE
        translation.activate(code)
        request.LANGUAGE_CODE = translation.get_language()

    def process_response(self, request, response):
        """``Content-Language`` and ``Vary: Cookie`` only: the page never depends on the
        browser's ``Accept-Language`` (Django's own middleware would say it does, and a
        shared cache would then keep a copy per browser setting; issue 40.3)."""
        from django.utils.cache import patch_vary_headers

        patch_vary_headers(response, ("Cookie",))
        response.headers.setdefault("Content-Language", translation.get_language())
        return response


class PrivatePages:
    """``Cache-Control: private, no-store`` on every answer to a signed-in user (the
    registrations, the entry overview, the clerk accounts, a table's page, the press
    report, the staff downloads) and on every table-link page (``/t/…``): a shared club
    laptop's browser or a proxy must not keep them after the logout (issue 38.8).  Every
    other page that :func:`shared_cacheable` allows says ``public, s-maxage=N`` (N =
    ``settings.SHARED_CACHE_SECONDS``): a reverse proxy in front may serve it to every
    visitor for N seconds (issue 40.3), a browser asks again each time."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        user = getattr(request, "user", None)
        staff = user is not None and user.is_authenticated
        from django.utils.cache import patch_cache_control

        if staff or request.path_info.startswith("/t/"):
            if "max-age" in response.get("Cache-Control", ""):
                del response["Cache-Control"]  # e.g. the fragment's max-age=0 for phones
            patch_cache_control(response, private=True, no_store=True)
        elif shared_cacheable(request, response):
            # a browser asks again every time (max-age=0, answered 304 when unchanged); a
            # shared cache in front (nginx on a region's server) may answer for a few
            # seconds from its copy: one render serves every phone that polls meanwhile
            cache_control = response.get("Cache-Control", "")
            patch_cache_control(response, public=True, s_maxage=settings.SHARED_CACHE_SECONDS)
            if "max-age" not in cache_control:
                patch_cache_control(response, max_age=0, must_revalidate=True)
        return response


def shared_cacheable(request, response) -> bool:
    """Whether a shared cache (a reverse proxy's) may keep ``response`` for everyone who
    sends the same request: a GET or HEAD of an anonymous visitor answered 200 that sets no
    cookie (a page that used a CSRF token sets one every time) and was not marked private
    or uncacheable by its view.  The answer still says ``Vary: Cookie``, so a visitor who
    chose another language gets his own copy.  Staff pages and table links never get here
    (:class:`PrivatePages` marks them private first)."""
    if request.method not in ("GET", "HEAD") or response.status_code != 200:
        return False
    if response.cookies or response.has_header("Set-Cookie"):
        return False
    cache_control = response.get("Cache-Control", "").lower()
    return not any(word in cache_control for word in ("private", "no-store", "no-cache"))


class ProxiedClientAddress:
    """The client's own address behind a reverse proxy that settings trust.

    A request whose ``REMOTE_ADDR`` is one of ``settings.TRUSTED_PROXIES`` (addresses or
    networks) came through the proxy: ``request.via_proxy`` is set, the proxy's address is
    kept in ``META["BINOKEL_PROXY_ADDR"]``, and ``REMOTE_ADDR`` becomes the right-most
    address of ``X-Forwarded-For`` that is not itself a trusted proxy (the left ones are
    whatever the client wrote).  Without a usable header the client is unknown:
    ``REMOTE_ADDR`` becomes ``0.0.0.0``, which is never loopback, so the throttles count
    such requests together and the first-run page refuses them.  A request from anyone
    else keeps its ``REMOTE_ADDR``, and its X-Forwarded-For is never read."""

    def __init__(self, get_response):
        import ipaddress

        from django.conf import settings

        self.get_response = get_response
        self.proxies = [
            ipaddress.ip_network(item, strict=False) for item in settings.TRUSTED_PROXIES
        ]

    def _trusted(self, address: str) -> bool:
        import ipaddress

        try:
            ip = ipaddress.ip_address(address.strip())
        except ValueError:
            return False
        ip = getattr(ip, "ipv4_mapped", None) or ip  # ::ffff:127.0.0.1 on a dual-stack socket
        return any(ip in network for network in self.proxies)

    def __call__(self, request):
        request.via_proxy = False
        if self.proxies and self._trusted(request.META.get("REMOTE_ADDR", "")):
            import ipaddress

            request.via_proxy = True
            request.META["BINOKEL_PROXY_ADDR"] = request.META.get("REMOTE_ADDR", "")
            client = "0.0.0.0"  # noqa: S104 - an unknown client, not a bind address
            hops = request.META.get("HTTP_X_FORWARDED_FOR", "").split(",")
            for hop in reversed([h.strip() for h in hops if h.strip()]):
                if not self._trusted(hop):
                    try:
                        client = str(ipaddress.ip_address(hop))
                    except ValueError:
                        pass  # garbage in the header: the client stays unknown
                    break
            request.META["REMOTE_ADDR"] = client
        return self.get_response(request)


class FirstRunMiddleware:
    """On a database without any account, lead the laptop's own browser from the start
    page and the login to the first-run page (``/einrichten/``) that makes the director's
    account.  Other visitors see the start page, which says the account is made at the
    laptop.  Costs one ``EXISTS`` query on those two pages only."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if request.method == "GET" and request.path_info in ("/", "/accounts/login/"):
            from django.shortcuts import redirect

            from tournament import accounts

            if not accounts.has_accounts() and accounts.is_local(request):
                return redirect("tournament:first_run")
        return self.get_response(request)


class OwnErrorPages:
    """The app's own error pages in the visitor's language also with ``DEBUG`` on (the
    demo runs so), unless ``DEBUG_ERROR_PAGES`` asks for Django's technical ones:

    - 404 (an unknown address or ``Http404``: Django's technical page, recognised by its
      text) and 400 (``BadRequest``) from ``templates/404.html`` and ``templates/400.html``
      instead of the URL list or a traceback;
    - any other exception with ``DEBUG`` on: logged on ``django.request`` with its
      traceback (as Django logs a 500) and answered with ``templates/500.html``;
    - in every mode, an empty 405 (a GET on an address that takes only POST, such as
      ``…/abschliessen/``) gets ``templates/405.html``, saying what to do instead.
    """

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        if response.status_code == 404 and _technical(response):
            from django.shortcuts import render

            return render(request, "404.html", status=404)
        if response.status_code == 405 and not response.content:
            from django.shortcuts import render

            allowed = response.get("Allow", "")
            response = render(request, "405.html", {"allowed": allowed}, status=405)
            response["Allow"] = allowed
        return response

    def process_exception(self, request, exception):
        from django.conf import settings

        if not settings.DEBUG or settings.DEBUG_ERROR_PAGES:
            return None  # Django's handlers: the app's pages without DEBUG, technical with
        from django.core.exceptions import BadRequest
        from django.http import Http404
        from django.shortcuts import render

        if isinstance(exception, Http404):
            return None  # Django's technical 404, replaced in __call__ like an unknown URL
        if isinstance(exception, BadRequest):
            from tournament.views import bad_request

            return bad_request(request, exception)
        if not _handled_by_django(exception):
            import logging

            logging.getLogger("django.request").error(
                "Internal Server Error: %s",
                request.path,
                exc_info=exception,
                extra={"status_code": 500, "request": request},
            )
            return render(request, "500.html", status=500)
        return None


def _handled_by_django(exception) -> bool:
    """Exceptions Django answers with a page of the app's own already (403, 400s)."""
    from django.core.exceptions import PermissionDenied, SuspiciousOperation
    from django.http.multipartparser import MultiPartParserError

    return isinstance(exception, (PermissionDenied, SuspiciousOperation, MultiPartParserError))


def _technical(response) -> bool:
    """Whether ``response`` is Django's technical DEBUG page (which says so in its text) and
    the app's own page is wanted instead."""
    from django.conf import settings

    if not settings.DEBUG or settings.DEBUG_ERROR_PAGES or response.streaming:
        return False
    return b"<code>DEBUG = True</code>" in response.content
