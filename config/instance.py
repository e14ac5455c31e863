"""Which server answered: ``X-Binokel-Instance`` on every response, for the load benches.

A bench starts its own server with a random ``BINOKEL_INSTANCE`` in its environment and
counts every answer without that value as not its own (another program on the port, an
old server still running): see :mod:`bench.server`.  Without the variable (venue,
production, tests) the middleware is not used at all (``MiddlewareNotUsed``).

First in ``MIDDLEWARE``, so static files answered by WhiteNoise, redirects and 500 pages
carry the header too.
"""

from __future__ import annotations

import os

from django.core.exceptions import MiddlewareNotUsed

HEADER = "X-Binokel-Instance"
VARIABLE = "BINOKEL_INSTANCE"


class InstanceMarker:
    """Adds :data:`HEADER` with the value of ``$BINOKEL_INSTANCE`` to every response."""

    def __init__(self, get_response) -> None:
        self.marker = os.environ.get(VARIABLE, "")
        if not self.marker:
            raise MiddlewareNotUsed
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        response.headers[HEADER] = self.marker
        return response
