"""The hall: what the director sees and says during the evening (issue 41).

- the **console** (:func:`hall.views.console`): every table of the running round with its
  progress, idle and behind-the-clock marks and calls, refreshing itself;
- **calls** from the tables (:class:`hall.models.DirectorCall`): a table's phone calls the
  director, who marks the call done;
- **announcements** (:class:`hall.models.Announcement`): a short text on the projector, the
  phones and the public standings until withdrawn or expired;
- the **round clock** (:func:`hall.selectors.round_clock`): the time left of the running
  round, from ``Tournament.round_minutes`` and ``Round.started_at``.

Built on scoring (progress) and table_entry (the table links); the pages of those apps
show the hall's notices through the hall's own addresses (htmx), never by importing it.
"""
