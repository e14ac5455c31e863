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
