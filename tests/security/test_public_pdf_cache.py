"""Public PDFs are cached and their renders throttled (finding "anyone on the Wi-Fi can slow
the clerks down"): a repeated request renders nothing, every saved change that a document
shows gives new bytes, the director's documents with every name are never cached, and the
21st render from one address within the throttle's window is a German 429 page while
other addresses, and cached copies, are still served.

Most tests replace the WeasyPrint renderers in ``printing.views`` by fakes that count their
calls and return the document's data as bytes (``b"%PDF-fake ..."``), so a changed datum is
changed bytes; one test renders the real PDFs and reads their text."""

from __future__ import annotations

import inspect
import os
import shutil
import subprocess
from collections import Counter
from types import SimpleNamespace

import pytest
from django.conf import settings as django_settings
from django.core.cache import cache
from django.test import Client
from django.urls import reverse
from django.utils import translation

from printing import documents, pdfs
from printing import views as print_views
from scoring.cache import invalidate_setup, invalidate_standings
from series.selectors import series_standings
from series.services import save_series
from tests.factories.tournaments import close_round_anyway, make_tournament
from tests.factories.web import form_data, table_url
from tournament import services as tournament_services
from tournament.models import Player, Round, Seat, Series

pytestmark = pytest.mark.django_db

PUBLIC = ("table_plan_pdf", "results_pdf", "rules_pdf", "poster_pdf", "series_results_pdf")
PRIVATE = ("score_sheets_pdf", "table_cards_pdf", "prizes_pdf")


def _fake(*parts) -> bytes:
    """What a fake renderer returns: the language and the document's data."""
    return b"%PDF-fake " + repr((translation.get_language(), *parts)).encode()


FAKES = {
    "table_plan_pdf": lambda round_: _fake(
        "plan", round_.tournament.name, round_.number, round_.seed, documents.table_plan(round_)
    ),
    "results_pdf": lambda tournament, round_number=None, public=True, category=None: _fake(
        "results",
        tournament.name,
        public,
        documents.results_list(tournament, round_number, public=public, category=category),
    ),
    "rules_pdf": lambda tournament, language="de": _fake(
        "rules", tournament.name, tournament.tie_break, language
    ),
    "poster_pdf": lambda tournament, address: _fake("poster", tournament.name, address),
    "series_results_pdf": lambda series: _fake(
        "series", series.name, series.best_of, series_standings(series, public=True)
    ),
    "score_sheets_pdf": lambda round_, filled, base=None, user=None: _fake("sheets", filled),
    "table_cards_pdf": lambda round_, base=None, user=None: _fake("cards"),
    "prizes_pdf": lambda tournament: _fake("prizes"),
}


class Renders(Counter):
    """Calls of each renderer of ``printing.views`` (by function name); ``public`` lists
    the ``public`` argument of every results-list render."""

    def __init__(self, monkeypatch, real: bool) -> None:
        super().__init__()
        self.public: list[bool] = []
        for name in PUBLIC + PRIVATE:
            target = getattr(pdfs, name) if real else FAKES[name]
            monkeypatch.setattr(print_views, name, self._counting(name, target))

    def _counting(self, name, target):
        def render(*args, **kwargs):
            self[name] += 1
            if name == "results_pdf":
                self.public.append(kwargs.get("public", True))
            return target(*args, **kwargs)

        return render


@pytest.fixture(autouse=True)
def _empty_cache():
    """Each test starts and ends with an empty cache: no PDF, version or throttle count
    from another test (ids repeat across test databases).  As tests/conftest.py does, and
    kept here because these tests are about nothing else."""
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def renders(monkeypatch) -> Renders:
    return Renders(monkeypatch, real=False)


@pytest.fixture
def frozen_window(monkeypatch):
    """The throttle's clock stands still: the test never straddles two windows."""
    monkeypatch.setattr("django_ratelimit.core.time", SimpleNamespace(time=lambda: 1.8e9))


def get(client, url, address="127.0.0.1", **extra):
    return client.get(url, REMOTE_ADDR=address, **extra)


def urls(tournament) -> dict[str, str]:
    """Every public PDF variant of ``tournament`` by label."""
    pk = tournament.pk
    results = reverse("printing:results", args=[pk])
    return {
        "table plan": reverse("printing:table_plan", args=[pk, 1]),
        "results": results,
        "round results": results + "?runde=1",
        "rules": reverse("printing:rules", args=[pk]),
        "rules en": reverse("printing:rules", args=[pk]) + "?sprache=en",
        "poster": reverse("printing:poster", args=[pk]),
    }


def english(client) -> Client:
    client.cookies[django_settings.LANGUAGE_COOKIE_NAME] = "en"
    return client


@pytest.fixture
def series(db):
    """A series of two one-round evenings, both finished."""
    evenings = []
    for _ in range(2):
        tournament = make_tournament(players=6, rounds=1)
        close_round_anyway(tournament)
        evenings.append(tournament)
    return save_series(name="Cup", season="2026", tournaments=evenings)


# ------------------------------------------------------------------------------ the cache


def test_a_second_request_renders_nothing(client, tournament, renders, series):
    every = {**urls(tournament), "series": reverse("printing:series_results", args=[series.pk])}
    first = {}
    for label, url in every.items():
        response = get(client, url)
        assert response.status_code == 200, label
        assert response["Content-Type"] == "application/pdf", label
        assert response.content.startswith(b"%PDF-"), label
        first[label] = response
    rendered = sum(renders.values())
    assert rendered == len(every)  # one render per variant: none is served for another
    assert len({r.content for r in first.values()}) == len(every)
    for label, url in every.items():
        again = get(client, url, address="10.9.9.9")  # any visitor gets the cached copy
        assert again.content == first[label].content, label
        assert again["ETag"] == first[label]["ETag"], label
        assert again["Content-Disposition"] == first[label]["Content-Disposition"], label
        assert "Cookie" in again["Vary"] and "Cookie" in first[label]["Vary"], label
        assert get(client, url, HTTP_IF_NONE_MATCH=again["ETag"]).status_code == 304, label
    assert sum(renders.values()) == rendered


def test_languages_and_categories_are_kept_apart(client, tournament, renders):
    ladies = tournament_services.add_category(tournament, "Damen")
    tournament_services.set_categories(tournament, {ladies.pk: [1, 2, 3]})
    results = reverse("printing:results", args=[tournament.pk])
    plan = reverse("printing:table_plan", args=[tournament.pk, 1])
    german, other = Client(), english(Client())
    seen = {}
    for _ in range(2):  # renders, then the cached copies in either language
        seen["de"] = get(german, results).content
        seen["en"] = get(other, results).content
        seen["damen"] = get(german, results + "?kategorie=damen").content
        seen["plan de"] = get(german, plan).content
        seen["plan en"] = get(other, plan).content
        assert renders["results_pdf"] == 3 and renders["table_plan_pdf"] == 2
    assert "'en'" in seen["en"].decode() and "'de'" in seen["de"].decode()
    assert "'en'" in seen["plan en"].decode()
    assert len(set(seen.values())) == 5
    # the category by id is the same document as by its short name
    assert get(german, results + f"?kategorie={ladies.pk}").content == seen["damen"]
    assert renders["results_pdf"] == 3


def test_the_rules_handout_follows_sprache_not_the_page_language(client, tournament, renders):
    url = reverse("printing:rules", args=[tournament.pk])
    german = get(client, url + "?sprache=en").content
    assert get(english(Client()), url + "?sprache=en").content == german
    assert renders["rules_pdf"] == 1


def test_poster_is_kept_per_address(client, tournament, renders, settings):
    url = reverse("printing:poster", args=[tournament.pk])
    local = get(client, url).content
    assert b"http://testserver/turnier/" in local
    settings.PUBLIC_BASE_URL = "http://192.168.1.20:8000"
    venue = get(client, url).content
    assert b"http://192.168.1.20:8000/turnier/" in venue
    assert get(client, url).content == venue
    assert renders["poster_pdf"] == 2


# ------------------------------------------------------------- what changes, shows at once


def test_a_saved_hand_gives_a_new_results_list_and_leaves_the_table_plan_cached(
    client, tournament, clerk, renders, django_capture_on_commit_callbacks
):
    pages = urls(tournament)
    before = {label: get(client, url).content for label, url in pages.items()}
    clerk_client = Client()
    clerk_client.force_login(clerk)
    url, table = table_url(tournament)
    with django_capture_on_commit_callbacks(execute=True):
        assert clerk_client.post(url, form_data(table)).status_code == 302
    after = {label: get(client, url).content for label, url in pages.items()}
    assert renders["results_pdf"] == 4  # overall and round 1, each before and after
    assert after["results"] != before["results"]
    assert after["round results"] != before["round results"]
    assert "320" in after["results"].decode() and "320" not in before["results"].decode()
    # the points-free documents did not change: still the cached copies
    for label in ("table plan", "rules", "rules en", "poster"):
        assert after[label] == before[label], label
    assert renders["table_plan_pdf"] == renders["poster_pdf"] == 1
    assert renders["rules_pdf"] == 2  # German and English


def _give_consent(tournament):
    tournament_services.set_consents(tournament, [3])


def _rename_player(tournament):
    player = tournament.registrations.get(start_number=1).player
    player.last_name = "Berichtigt"
    player.save()


def _rename_tournament(tournament):
    tournament.name = "Umbenannt"
    tournament.save()


def _renumber_table(tournament):
    table = tournament.round_set.get(number=1).tables.get(number=3)
    table.number = 9
    table.save()


def _close_round(tournament):
    close_round_anyway(tournament)


CHANGES = {
    # what changed: the documents that must show it
    "consent": (_give_consent, ["table plan", "results"]),
    "player's name": (_rename_player, ["table plan", "results"]),
    "tournament": (_rename_tournament, ["table plan", "results", "rules", "poster"]),
    "table number": (_renumber_table, ["table plan"]),
    "round closed": (_close_round, ["results", "round results"]),
}


@pytest.mark.parametrize("change", CHANGES)
def test_a_change_gives_new_bytes(
    client, tournament, renders, change, django_capture_on_commit_callbacks
):
    apply, shown_in = CHANGES[change]
    pages = urls(tournament)
    before = {label: get(client, pages[label]).content for label in shown_in}
    rendered = sum(renders.values())
    assert rendered == len(shown_in)
    assert {label: get(client, pages[label]).content for label in shown_in} == before
    assert sum(renders.values()) == rendered  # cached until the change
    with django_capture_on_commit_callbacks(execute=True):
        apply(tournament)
    for label in shown_in:
        assert get(client, pages[label]).content != before[label], label
    assert sum(renders.values()) == 2 * rendered


def _round_two_plan_cached(client, tournament, renders):
    """Round 1 closed, round 2 drawn (seed 11) and its table plan fetched twice, rendered
    once: ``(round 2, the plan's address, its bytes)``."""
    close_round_anyway(tournament)
    planned = tournament.round_set.get(number=2)
    tournament_services.draw_round(planned, seed=11)
    url = reverse("printing:table_plan", args=[tournament.pk, 2])
    before = get(client, url).content
    assert get(client, url).content == before and renders["table_plan_pdf"] == 1
    return planned, url, before


def test_a_seat_swap_on_the_round_plan_page_gives_a_new_table_plan(
    client, director, tournament, renders, django_capture_on_commit_callbacks
):
    planned, url, before = _round_two_plan_cached(client, tournament, renders)

    seat = Seat.objects.get(round=planned, registration__start_number=1)
    director_client = Client()
    director_client.force_login(director)
    plan_page = reverse("tournament:round_plan", args=[tournament.pk, 2])
    with django_capture_on_commit_callbacks(execute=True):
        response = director_client.post(plan_page, {"swap-first": 1, "swap-second": 2})
    assert response.status_code == 302
    assert Seat.objects.get(round=planned, registration__start_number=1).pk != seat.pk
    after = get(client, url).content
    assert after != before and renders["table_plan_pdf"] == 2
    assert after == FAKES["table_plan_pdf"](Round.objects.get(pk=planned.pk))


def test_a_new_draw_gives_a_new_table_plan(
    client, tournament, renders, django_capture_on_commit_callbacks
):
    planned, url, before = _round_two_plan_cached(client, tournament, renders)
    with django_capture_on_commit_callbacks(execute=True):
        tournament_services.draw_round(planned, seed=12)
    assert get(client, url).content != before and renders["table_plan_pdf"] == 2


def test_series_pdf_follows_its_rule_its_evenings_and_their_results(
    client, series, renders, django_capture_on_commit_callbacks
):
    url = reverse("printing:series_results", args=[series.pk])
    first = get(client, url).content
    assert get(client, url).content == first and renders["series_results_pdf"] == 1

    evenings = list(series.tournaments.order_by("pk"))
    save_series(series, name="Cup", season="2026", tournaments=evenings, best_of=1)
    ruled = get(client, url).content
    assert ruled != first and renders["series_results_pdf"] == 2

    # a player's name corrected at one evening (a signal bumps that evening's version)
    with django_capture_on_commit_callbacks(execute=True):
        Player.objects.filter(registrations__tournament=evenings[0]).first().save()
    assert get(client, url).content == ruled  # same data, but rendered again
    assert renders["series_results_pdf"] == 3
    with django_capture_on_commit_callbacks(execute=True):
        player = evenings[0].registrations.get(start_number=1).player
        player.last_name = "Berichtigt"
        player.save()
    assert "Berichtigt" in get(client, url).content.decode()

    renamed = get(client, url).content
    third = make_tournament(players=6, rounds=1)
    save_series(series, name="Cup", season="2026", tournaments=[*evenings, third], best_of=1)
    assert get(client, url).content != renamed
    assert renders["series_results_pdf"] == 5
    assert Series.objects.get(pk=series.pk).tournaments.count() == 3


@pytest.mark.skipif(
    shutil.which("pdftotext") is None and not os.environ.get("CI"),
    reason="needs poppler-utils (pdftotext)",
)
def test_real_pdfs_show_a_consent_given_after_they_were_cached(
    client, monkeypatch, django_capture_on_commit_callbacks
):
    tournament = make_tournament(players=6, consent=lambda i: False)
    counted = Renders(monkeypatch, real=True)

    def text(url):
        response = get(client, url)
        assert response.status_code == 200
        return subprocess.run(
            ["pdftotext", "-layout", "-", "-"],
            input=response.content,
            capture_output=True,
            check=True,
        ).stdout.decode()

    plan = reverse("printing:table_plan", args=[tournament.pk, 1])
    results = reverse("printing:results", args=[tournament.pk])
    assert "Nachname4" not in text(plan) and "Nachname4" not in text(results)
    text(plan), text(results)  # cached
    assert counted["table_plan_pdf"] == counted["results_pdf"] == 1
    with django_capture_on_commit_callbacks(execute=True):
        tournament_services.set_consents(tournament, [4])
    assert "Nachname4" in text(plan) and "Nachname4" in text(results)
    assert counted["table_plan_pdf"] == counted["results_pdf"] == 2


# ------------------------------------------------------------ the director's documents


def test_the_directors_documents_are_never_cached(client, director, tournament, renders):
    pk = tournament.pk
    results = reverse("printing:results", args=[pk])
    public = get(Client(), results).content  # the public list, cached
    client.force_login(director)
    private = {
        "prize-giving": (results + "?fassung=siegerehrung", "results_pdf"),
        "score sheets": (reverse("printing:score_sheets", args=[pk, 1]), "score_sheets_pdf"),
        "blank sheets": (
            reverse("printing:score_sheets", args=[pk, 1]) + "?leer=1",
            "score_sheets_pdf",
        ),
        "table cards": (reverse("printing:table_cards", args=[pk, 1]), "table_cards_pdf"),
        "prizes": (reverse("printing:prizes", args=[pk]), "prizes_pdf"),
    }
    for label, (url, renderer) in private.items():
        before = renders[renderer]
        for _ in range(2):
            response = get(client, url)
            assert response.status_code == 200, label
            assert "no-store" in response["Cache-Control"], label
            assert "private" in response["Cache-Control"], label
        assert renders[renderer] == before + 2, label
    prize_giving = get(client, results + "?fassung=siegerehrung").content
    assert "'Testturnier', False," in prize_giving.decode()
    assert "'Testturnier', True," in public.decode()
    assert renders.public == [True, False, False, False]
    # and the public never gets the prize-giving version: the public list is still cached
    assert get(Client(), results).content == public
    assert get(client, results).content == public  # the director's public list too
    assert renders.public == [True, False, False, False]


def test_public_documents_are_the_same_for_everyone(client, director, tournament, renders):
    signed_in = Client()
    signed_in.force_login(director)
    for label, url in urls(tournament).items():
        rendered = sum(renders.values())
        by_director = get(signed_in, url).content
        assert get(client, url).content == by_director, label
        assert sum(renders.values()) == rendered + 1, label
    # what keeps it so: no public renderer is given the user or the request
    for name in PUBLIC:
        parameters = inspect.signature(getattr(pdfs, name)).parameters
        assert not {"user", "request"} & set(parameters), name


# ------------------------------------------------------------------------ the throttle


def test_the_21st_render_from_one_address_is_429_and_other_addresses_still_get_theirs(
    client, tournament, renders, frozen_window, settings
):
    assert settings.PUBLIC_PDF_RATE == os.environ.get("BINOKEL_PUBLIC_PDF_RATE", "20/m")
    settings.PUBLIC_PDF_RATE = "20/m"
    url = reverse("printing:table_plan", args=[tournament.pk, 1])
    for n in range(20):
        invalidate_setup(tournament.pk)  # a change: the next request is a render
        assert get(client, url, "10.0.0.1").status_code == 200, n
    assert renders["table_plan_pdf"] == 20
    invalidate_setup(tournament.pk)
    refused = get(client, url, "10.0.0.1")
    assert refused.status_code == 429
    assert renders["table_plan_pdf"] == 20  # nothing rendered for it
    page = refused.content.decode()
    assert refused["Content-Type"].startswith("text/html")
    assert "Bitte eine Minute warten" in page and "<h1>Bitte kurz warten</h1>" in page
    assert 0 < int(refused["Retry-After"]) <= 60
    assert "no-store" in refused["Cache-Control"]
    assert get(client, url, "10.0.0.1").status_code == 429  # still

    other = get(client, url, "10.0.0.2")
    assert other.status_code == 200 and other.content.startswith(b"%PDF-")
    assert renders["table_plan_pdf"] == 21
    # the throttled address gets the copy the other one had rendered: a hit costs nothing
    again = get(client, url, "10.0.0.1")
    assert again.status_code == 200 and again.content == other.content
    # in English for an English visitor
    invalidate_setup(tournament.pk)
    page = get(english(client), url, "10.0.0.1").content.decode()
    assert "Please wait a minute" in page and "Bitte" not in page


def _bump_standings(tournament) -> None:
    """What a saved hand does to the cached results list."""
    invalidate_standings(tournament.pk)


def test_cache_hits_are_not_counted(client, tournament, renders, frozen_window, settings):
    settings.PUBLIC_PDF_RATE = "20/m"
    url = reverse("printing:results", args=[tournament.pk])
    assert get(client, url, "10.0.0.3").status_code == 200
    for _ in range(40):
        assert get(client, url, "10.0.0.3").status_code == 200
    assert renders["results_pdf"] == 1
    for n in range(19):  # renders 2 … 20
        _bump_standings(tournament)
        assert get(client, url, "10.0.0.3").status_code == 200, n
    assert renders["results_pdf"] == 20
    _bump_standings(tournament)
    assert get(client, url, "10.0.0.3").status_code == 429
    assert get(client, url + "?runde=1", "10.0.0.3").status_code == 429  # any public PDF
    assert renders["results_pdf"] == 20


def test_signed_in_staff_are_not_throttled(
    client, director, tournament, renders, frozen_window, settings
):
    settings.PUBLIC_PDF_RATE = "2/m"
    client.force_login(director)
    url = reverse("printing:table_plan", args=[tournament.pk, 1])
    for _ in range(5):
        invalidate_setup(tournament.pk)
        assert get(client, url, "10.0.0.4").status_code == 200
    assert renders["table_plan_pdf"] == 5
    anonymous = Client()
    for _ in range(2):
        invalidate_setup(tournament.pk)
        assert get(anonymous, url, "10.0.0.4").status_code == 200
    invalidate_setup(tournament.pk)
    assert get(anonymous, url, "10.0.0.4").status_code == 429


def test_unknown_documents_are_404_not_renders(
    client, tournament, renders, frozen_window, settings
):
    settings.PUBLIC_PDF_RATE = "1/m"
    pk = tournament.pk
    for url in (
        reverse("printing:table_plan", args=[pk, 2]),  # not drawn
        reverse("printing:table_plan", args=[pk, 9]),
        reverse("printing:results", args=[pk]) + "?kategorie=herren",
        reverse("printing:results", args=[pk + 1000]),
        reverse("printing:series_results", args=[4242]),
    ):
        assert get(client, url, "10.0.0.5").status_code == 404, url
    assert sum(renders.values()) == 0
    # none of them was counted: the address still has its one render, then no more
    assert get(client, reverse("printing:rules", args=[pk]), "10.0.0.5").status_code == 200
    assert get(client, reverse("printing:poster", args=[pk]), "10.0.0.5").status_code == 429


def test_series_renders_are_throttled_too(client, series, renders, frozen_window, settings):
    settings.PUBLIC_PDF_RATE = "1/m"
    url = reverse("printing:series_results", args=[series.pk])
    assert get(client, url, "10.0.0.6").status_code == 200
    assert get(client, url, "10.0.0.6").status_code == 200  # cached
    save_series(series, name="Cup 2", season="2026", tournaments=list(series.tournaments.all()))
    assert get(client, url, "10.0.0.6").status_code == 429
    assert get(client, url, "10.0.0.7").status_code == 200
    assert renders["series_results_pdf"] == 2
