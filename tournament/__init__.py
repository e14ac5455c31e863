"""The Django project (settings, URLs, WSGI) and the tournament app (set-up, draw)."""
