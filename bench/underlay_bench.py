"""How to put each score sheet's grid under its stamped text: pikepdf or pypdf (issue 27).

Run after a benchmark tournament exists in the configured database (``python -m
bench.underlay_bench [--repeat 5]``, e.g. with ``DATABASE_URL`` pointing at a database that
``manage.py generate_tournament --players 600`` filled).  Stamps round 1's filled sheets
once (:func:`printing.sheets.stamp`), then times the last step both ways in turns and prints
seconds and file size:

- pikepdf (:func:`printing.stamping.underlay`): each grid page becomes one form XObject that
  every page lying on it shares;
- pypdf: :meth:`pypdf.PageObject.merge_page` with ``over=False`` merges the grid page's
  content into each stamped page.
"""

from __future__ import annotations

import argparse
import statistics
import time
from io import BytesIO


def pypdf_underlay(stamped: bytes, grids: list[bytes], under: list[tuple[int, int]]) -> bytes:
    """The same result as :func:`printing.stamping.underlay`, with pypdf."""
    from pypdf import PdfReader, PdfWriter

    readers = [PdfReader(BytesIO(grid)) for grid in grids]
    writer = PdfWriter(clone_from=PdfReader(BytesIO(stamped)))
    for page, (g, k) in zip(writer.pages, under, strict=True):
        page.merge_page(readers[g].pages[k], over=False)
    out = BytesIO()
    writer.write(out)
    return out.getvalue()


def main() -> None:
    import django

    django.setup()
    from printing import pdfs, sheets
    from printing.stamping import underlay
    from tournament.models import Tournament

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    round_ = Tournament.objects.order_by("pk").first().round_set.get(number=1)
    stamped, grids, under = sheets.stamp(*pdfs.score_sheet_pages(round_, True))
    times: dict[str, list[float]] = {"pikepdf": [], "pypdf": []}
    sizes: dict[str, int] = {}
    for _ in range(args.repeat):
        for name, function in (("pikepdf", underlay), ("pypdf", pypdf_underlay)):
            begin = time.perf_counter()
            sizes[name] = len(function(stamped, grids, under))
            times[name].append(time.perf_counter() - begin)
    print(f"{len(under)} pages, {len(grids)} grid file(s)")
    for name, values in times.items():
        print(
            f"{name:8} {statistics.median(values):6.2f} s "
            f"[{min(values):.2f}–{max(values):.2f}]  {sizes[name] // 1024} KB"
        )


if __name__ == "__main__":
    import os

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    main()
