"""The scoring app's own signal: a round's close has committed.

Cache invalidation (the receivers that keep the cached standings and documents in step)
lives in :mod:`scoring.cache`; this module only declares the signal, so the services can
send it without importing anything that imports them back.
"""

from __future__ import annotations

from django.dispatch import Signal

#: Sent once a round's close has committed, with ``round_number`` and ``tournament_id``
#: (sender: :class:`~tournament.models.Round`); the archive app makes its backup then.
round_closed = Signal()
