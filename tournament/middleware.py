"""German first: the language is the one the visitor chose with the language switch (its
cookie), else ``settings.LANGUAGE_CODE`` — never guessed from the browser's
Accept-Language, so a phone set to English still sees the German tournament pages until its
owner switches."""

from __future__ import annotations

from django.conf import settings
from django.middleware.locale import LocaleMiddleware
from django.utils import translation


class ChosenLanguageMiddleware(LocaleMiddleware):
    """:class:`django.middleware.locale.LocaleMiddleware` without browser negotiation."""

    def process_request(self, request):
        code = request.COOKIES.get(settings.LANGUAGE_COOKIE_NAME)
        if code not in dict(settings.LANGUAGES):
            code = settings.LANGUAGE_CODE
        translation.activate(code)
        request.LANGUAGE_CODE = translation.get_language()


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

            from . import accounts

            if not accounts.has_accounts() and accounts.is_local(request):
                return redirect("tournament:first_run")
        return self.get_response(request)
