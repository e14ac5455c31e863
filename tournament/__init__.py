"""The tournament app: players, registrations, rounds, tables and seats; the set-up of an
evening, the draw, withdrawals and late arrivals, the accounts and roles.  The lowest
Django app: it imports only the rules engine (``rules``), and scoring and the apps above
build on it (``pyproject.toml``, import-linter).  The project itself (settings, URLs,
WSGI) is the ``config`` package."""
