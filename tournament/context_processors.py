"""Template context for every page."""

from __future__ import annotations

from django.core.cache import cache

from .models import Tournament

#: seconds the answer "does this database hold the demo?" is kept
DEMO_CHECK_SECONDS = 60


def demo(request) -> dict:
    """``demo_data``: whether the database holds a tournament loaded by ``load_demo``; the
    page head then shows a banner, so nobody takes the demo for the real evening.  Kept in
    the cache for a minute (one ``EXISTS`` query a minute per process)."""
    return {
        "demo_data": cache.get_or_set(
            "demo-data",
            lambda: Tournament.objects.filter(is_demo=True).exists(),
            DEMO_CHECK_SECONDS,
        )
    }
