"""The door (issue 41.6): players registered before the evening ("angemeldet") are checked
in when they arrive, by name or start number, on a laptop or a phone; with
``Tournament.check_in`` a round is drawn only among those checked in
(:func:`tournament.services.draw_round`), and the draw's page names who is registered but
absent.  The start fee per player is marked paid, open or waived, and the cash summary
(start fees, lost-game fees per player, total) is a page here and a PDF in
:mod:`printing`.

Who works the door: the director, and the tournament's clerks when the director allows
it (``Tournament.clerks_at_door``).  The state lives on :class:`tournament.models.
Registration` (``checked_in_at``, ``fee``), tracked by its history like every change."""
