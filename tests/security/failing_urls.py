"""A URLconf for the error-page tests: the project's URLs and error handlers, plus
``/kaputt/``, a view that fails."""

from django.urls import path

from config.urls import *  # noqa: F403 - the handlers too
from config.urls import urlpatterns as project_urlpatterns


def failing_view(request):
    """Fail with a detail that must never reach the visitor."""
    raise RuntimeError("secret detail /etc/passwd")


urlpatterns = [*project_urlpatterns, path("kaputt/", failing_view)]
