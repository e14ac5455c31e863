"""Builders, helpers and constants shared by the test modules: no test module imports
another test module (or ``tests.conftest``), only these, split by subject.

- :mod:`tests.factories.tournaments`: running tournaments and their tables
  (``make_tournament``, ``three_table``, the partnership and printing tournaments);
- :mod:`tests.factories.evenings`: finished evenings built from round totals (prizes,
  tie-breaks, series) and the results evening of the site export and press report;
- :mod:`tests.factories.hands`: hand inputs and games saved through the services;
- :mod:`tests.factories.web`: form data, addresses and clients of the web tests;
- :mod:`tests.factories.pdf`: the text and word boxes of a PDF (pdftotext);
- :mod:`tests.factories.handouts`: each preset's rules handout, printed once;
- :mod:`tests.factories.backups`: database files, exports and imports;
- :mod:`tests.factories.records`: the engine's hand records and rulesets (hypothesis);
- :mod:`tests.factories.venue`: venue mode started as a subprocess;
- :mod:`tests.factories.browser`: the browser tests' Chromium, devices and checks.

Fixtures stay in the ``conftest.py`` files; these are plain functions and constants.  Each
module is imported on its own (this package imports none of them), so the engine tests
need neither Django's models nor Playwright.
"""
