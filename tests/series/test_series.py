"""Series over several evenings: each rule (all evenings, best N of M, placement table,
eligibility), shared places, unfinished evenings, consent, constant queries; the player
type-ahead and merging two records of one person."""

from __future__ import annotations

from datetime import date

import pytest
from django.core.exceptions import ValidationError
from django.core.management import call_command
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import translation

from scoring import selectors, services
from scoring.models import RoundTotal
from series.selectors import series_standings, series_values
from series.services import save_series
from tests.factories.evenings import paper_evening
from tournament import services as tournament_services
from tournament.models import Player, Registration, Round, Series, Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def players():
    return [
        Player.objects.create(first_name=n, last_name=f"Spieler{n}", club="TSV")
        for n in ("Anna", "Bert", "Carl", "Dora")
    ]


def ranking(standings):
    return [(r.rank, r.name.split()[0], r.total) for r in standings.rows]


def test_sum_of_all_evenings_shares_places_on_ties(players):
    a, b, c, d = players
    t1 = paper_evening(1, {a: 500, b: 300, c: 400, d: 100})
    t2 = paper_evening(2, {a: 100, b: 300, c: 200, d: 50})
    series = save_series(name="Cup", season="2026", tournaments=[t1, t2])
    s = series_standings(series)
    assert ranking(s) == [(1, "Anna", 600), (1, "Bert", 600), (1, "Carl", 600), (4, "Dora", 150)]
    assert [c.points for c in s.rows[0].evenings] == [500, 100]
    assert all(c.counted for r in s.rows for c in r.evenings)
    assert not s.provisional and s.required == 2


def test_best_n_of_m_strikes_out_the_weakest_evening(players):
    a, b, c, _d = players
    t1 = paper_evening(1, {a: 500, b: 300, c: 100})
    t2 = paper_evening(2, {a: -200, b: 300, c: 900})
    t3 = paper_evening(3, {a: 400, b: 300, c: 100})
    series = save_series(name="Meisterschaft", season="2026", tournaments=[t1, t2, t3], best_of=2)
    s = series_standings(series)
    assert ranking(s) == [(1, "Carl", 1000), (2, "Anna", 900), (3, "Bert", 600)]
    carl, anna, bert = s.rows
    assert [cell.struck for cell in anna.evenings] == [False, True, False]
    # equal values: the earlier evenings count, the last is struck out
    assert [cell.struck for cell in bert.evenings] == [False, False, True]
    assert [cell.counted for cell in carl.evenings] == [True, True, False]


def test_placement_points_table_with_shared_evening_places(players):
    a, b, c, d = players
    t1 = paper_evening(1, {a: 500, b: 500, c: 400, d: 100})  # Anna and Bert share 1st
    t2 = paper_evening(2, {a: 100, b: 300, c: 200, d: 50})
    series = save_series(
        name="Triathlon",
        season="2026",
        tournaments=[t1, t2],
        counting=Series.Counting.PLACEMENT,
        placement_points="25, 20,16",
    )
    assert series.placement_points == "25,20,16"
    s = series_standings(series)
    # Anna 25 + 16, Bert 25 + 25, Carl (3rd) 16 + 20, Dora (4th: beyond the table) 0 + 0
    assert ranking(s) == [(1, "Bert", 50), (2, "Anna", 41), (3, "Carl", 36), (4, "Dora", 0)]
    bert = s.rows[0]
    assert [(c.place, c.value) for c in bert.evenings] == [(1, 25), (1, 25)]


def test_eligibility_all_evenings_and_at_least_k(players):
    a, b, c, _d = players
    t1 = paper_evening(1, {a: 100, b: 900, c: 50})
    t2 = paper_evening(2, {a: 100, c: 60})
    t3 = paper_evening(3, {a: 100, b: 900})
    series = save_series(name="Triathlon", season="2026", tournaments=[t1, t2, t3])
    s = series_standings(series)
    # only Anna played all three; the others are listed below without a place
    assert ranking(s) == [(1, "Anna", 300), (None, "Bert", 1800), (None, "Carl", 110)]
    assert [r.eligible for r in s.rows] == [True, False, False]
    series = save_series(
        series, name="Triathlon", season="2026", tournaments=[t1, t2, t3], min_evenings=2
    )
    s = series_standings(series)
    assert ranking(s) == [(1, "Bert", 1800), (2, "Anna", 300), (3, "Carl", 110)]


def test_a_running_evening_does_not_count_yet(players):
    a, b, _c, _d = players
    t1 = paper_evening(1, {a: 100, b: 200})
    t2 = paper_evening(2, {a: 900, b: 0}, finished=False)
    series = save_series(name="Cup", season="2026", tournaments=[t1, t2])
    s = series_standings(series)
    assert s.provisional
    assert [e.finished for e in s.evenings] == [True, False]
    assert ranking(s) == [(1, "Bert", 200), (2, "Anna", 100)]
    assert s.rows[0].evenings[1].points is None


def test_name_only_with_consent_at_every_evening(players):
    a, b, _c, _d = players
    t1 = paper_evening(1, {a: 100, b: 200})
    t2 = paper_evening(2, {a: 100}, consent=False)
    t2_reg = Registration.objects.get(tournament=t2, player=a)
    series = save_series(name="Cup", season="2026", tournaments=[t1, t2], min_evenings=1)
    rows = {r.player_id: r for r in series_standings(series).rows}
    assert rows[a.pk].name == "" and rows[a.pk].start_numbers == []
    assert rows[a.pk].hidden_label == "Anonym 1"
    assert rows[b.pk].name == "Bert SpielerBert"
    director_rows = {r.player_id: r for r in series_standings(series, public=False).rows}
    assert director_rows[a.pk].name == "Anna SpielerAnna"
    assert director_rows[a.pk].start_numbers == [1, t2_reg.start_number]
    assert director_rows[a.pk].hidden_label == ""
    values = series_values(series_standings(series))
    assert values[0][:3] == ["Platz", "Name", "Verein"]
    assert "Anonym 1" in [row[1] for row in values]


def test_hidden_players_get_labels_nobody_shares(players):
    """Issue 26: two people without consent were both "Startnummern 25" (no. 25 on
    different evenings), and "Startnummern 15, 8" did not say which evening was which."""
    a, b, c, _d = players
    t1 = paper_evening(1, {a: 300, b: 200}, consent=False)  # a is no. 1, b no. 2
    t2 = paper_evening(2, {b: 100, a: 50, c: 10}, consent=False)  # b is no. 1, a no. 2
    series = save_series(name="Cup", season="2026", tournaments=[t1, t2], min_evenings=1)
    rows = {r.player_id: r for r in series_standings(series).rows}
    # in the order of the list: a 350 points, b 300, c 10
    assert rows[a.pk].hidden_label == "Anonym 1"
    assert rows[b.pk].hidden_label == "Anonym 2"
    assert rows[c.pk].hidden_label == "Anonym 3"
    labels = [row[1] for row in series_values(series_standings(series))[1:]]
    assert len(set(labels)) == len(labels) == 3
    with translation.override("en"):
        assert rows[c.pk].hidden_label == "Anonymous 3"


def test_rule_change_recomputes_and_keeps_the_old_rule_in_history(players):
    a, b, _c, _d = players
    t1 = paper_evening(1, {a: 500, b: 100})
    t2 = paper_evening(2, {a: 0, b: 300})
    series = save_series(name="Cup", season="2026", tournaments=[t1, t2])
    assert ranking(series_standings(series))[0] == (1, "Anna", 500)
    save_series(
        series,
        name="Cup",
        season="2026",
        tournaments=[t1, t2],
        counting=Series.Counting.PLACEMENT,
        placement_points="10,5",
    )
    assert ranking(series_standings(series)) == [(1, "Anna", 15), (1, "Bert", 15)]
    assert [h.counting for h in series.history.order_by("history_date")] == ["points", "placement"]


def test_series_rule_errors_name_the_field(players):
    t1 = paper_evening(1, {players[0]: 1})
    with pytest.raises(ValidationError) as exc:
        save_series(name="X", season="1", tournaments=[t1], counting="placement")
    assert "placement_points" in exc.value.message_dict
    with pytest.raises(ValidationError) as exc:
        save_series(
            name="X",
            season="1",
            tournaments=[t1],
            placement_points="10,20",
            best_of=2,
            min_evenings=3,
        )
    assert set(exc.value.message_dict) == {"placement_points", "best_of", "min_evenings"}
    assert "steigen" in exc.value.message_dict["placement_points"][0]
    with pytest.raises(ValidationError) as exc:
        save_series(
            name="X", season="1", tournaments=[t1], counting="placement", placement_points="25,x"
        )
    assert "Platz 2" in exc.value.message_dict["placement_points"][0]


def test_evening_places_match_the_tournament_standings(clerk):
    """The series works out each evening's places itself (constant queries); they must be
    the places of the tournament's own standings, missed rounds included."""
    call_command(
        "generate_tournament",
        players=10,
        rounds=2,
        games=3,
        last_round=1.0,
        seed=5,
        stdout=open("/dev/null", "w"),
    )
    tournament = Tournament.objects.get()
    Registration.objects.filter(tournament=tournament, start_number=4).update(first_round=2)
    services.close_round(tournament.round_set.get(number=2), reason="Test")
    for policy in Tournament.MissedRounds.values:
        Tournament.objects.filter(pk=tournament.pk).update(missed_rounds=policy)
        tournament.refresh_from_db()
        series = save_series(name="S", season="1", tournaments=[tournament], min_evenings=1)
        expected = {r.registration_id: (r.rank, r.total) for r in selectors.standings(tournament)}
        regs = dict(
            Registration.objects.filter(tournament=tournament).values_list("player_id", "pk")
        )
        got = {
            regs[r.player_id]: (r.evenings[0].place, r.evenings[0].points)
            for r in series_standings(series).rows
        }
        assert got == expected, policy


def test_evening_places_follow_the_evenings_tie_break(players):
    """An evening with the best-round tie-break places its equal totals as its own
    standings do; the series then uses those places for placement points."""
    tournament = tournament_services.create_tournament(
        name="Abend mit Stechen",
        date=date(2026, 1, 9),
        rounds=2,
        entry_mode=Tournament.EntryMode.TOTALS,
        tie_break=Tournament.TieBreak.BEST_ROUND,
    )
    first, second = tournament.round_set.order_by("number")
    rounds = {  # player: (round 1, round 2, games lost in round 2)
        players[0]: (300, 300, 1),  # 600, best round 300
        players[1]: (500, 100, 2),  # 600, best round 500 -> ahead of Anna
        players[2]: (100, 500, 1),  # 600, best round 500, fewer lost -> ahead of Bert
        players[3]: (200, 100, 0),
    }
    for player, (one, two, games_lost) in rounds.items():
        reg = tournament_services.register(tournament, player, consent_public=True)
        RoundTotal.objects.create(round=first, registration=reg, points=one)
        RoundTotal.objects.create(round=second, registration=reg, points=two, games_lost=games_lost)
    Round.objects.filter(tournament=tournament).update(status=Round.Status.CLOSED)
    series = save_series(
        name="S",
        season="1",
        tournaments=[tournament],
        counting=Series.Counting.PLACEMENT,
        placement_points="10,6,3,1",
    )
    expected = {r.name.split()[0]: r.rank for r in selectors.standings(tournament)}
    assert expected == {"Carl": 1, "Bert": 2, "Anna": 3, "Dora": 4}
    got = {r.name.split()[0]: (r.evenings[0].place, r.total) for r in series_standings(series).rows}
    assert got == {"Carl": (1, 10), "Bert": (2, 6), "Anna": (3, 3), "Dora": (4, 1)}


def test_a_pairs_evening_places_pairs(players):
    """At a pairs evening both partners carry the team's score; the series gives them
    their pair's place (1st and 2nd pair), not a shared place per player (1, 1, 3, 3)."""
    tournament = tournament_services.create_tournament(
        name="Paarabend",
        date=date(2026, 1, 10),
        rounds=1,
        entry_mode=Tournament.EntryMode.TOTALS,
        preset="partnership-250",
        four_table_mode=Tournament.FourTableMode.KREUZ,
        event_type=Tournament.EventType.PAIRS,
    )
    round_ = tournament.round_set.get()
    for player, points in zip(players, (300, 300, 200, 200), strict=True):
        reg = tournament_services.register(tournament, player, consent_public=True)
        RoundTotal.objects.create(round=round_, registration=reg, points=points)
    tournament_services.form_pair(tournament, 1, 2)
    tournament_services.form_pair(tournament, 3, 4)
    Round.objects.filter(pk=round_.pk).update(status=Round.Status.CLOSED)
    series = save_series(
        name="S",
        season="1",
        tournaments=[tournament],
        counting=Series.Counting.PLACEMENT,
        placement_points="10,6,3,1",
    )
    assert [r.rank for r in selectors.pair_standings(tournament)] == [1, 2]
    got = {r.name.split()[0]: (r.evenings[0].place, r.total) for r in series_standings(series).rows}
    assert got == {"Anna": (1, 10), "Bert": (1, 10), "Carl": (2, 6), "Dora": (2, 6)}


def test_series_standings_queries_are_constant(players):
    def build(evenings: int, per_evening: int):
        people = [
            Player.objects.create(first_name=f"V{i}", last_name=f"N{i}") for i in range(per_evening)
        ]
        ts = [
            paper_evening(day, {p: i * 10 + day for i, p in enumerate(people)})
            for day in range(1, evenings + 1)
        ]
        return save_series(name=f"S{evenings}", season="1", tournaments=ts)

    small, large = build(2, 3), build(5, 20)
    counts = []
    for series in (small, large):
        series = Series.objects.get(pk=series.pk)
        with CaptureQueriesContext(connection) as ctx:
            standings = series_standings(series)
        counts.append(len(ctx.captured_queries))
        assert standings.rows
    assert counts[0] == counts[1] == 4


# --------------------------------------------------------------------------- players


def test_merge_moves_registrations_and_keeps_history(players, director):
    a, b, _c, _d = players
    typo = Player.objects.create(
        first_name="Ana", last_name="SpielerAnna", club="TSV", year_of_birth=1961
    )
    t1 = paper_evening(1, {a: 100, b: 50})
    t2 = paper_evening(2, {typo: 300, b: 50})
    typo_id = typo.pk
    series = save_series(name="Cup", season="2026", tournaments=[t1, t2])
    assert [r.name for r in series_standings(series).rows if r.rank] == ["Bert SpielerBert"]

    tournament_services.merge_players(a, typo, user=director)

    assert not Player.objects.filter(pk=typo_id).exists()
    reg = Registration.objects.get(tournament=t2, start_number=1)
    assert reg.player == a
    a.refresh_from_db()
    assert a.year_of_birth == 1961  # taken over from the merged record
    moved = reg.history.latest()
    assert moved.history_change_reason.startswith("Zusammengeführt")
    assert moved.history_user == director
    assert moved.prev_record.player_id == typo_id  # the earlier owner stays visible
    deleted = Player.history.filter(id=typo_id).latest()
    assert deleted.history_type == "-" and deleted.first_name == "Ana"
    # the person is now recognised at both evenings
    assert ranking(series_standings(series))[0] == (1, "Anna", 400)


def test_merge_refuses_two_records_in_the_same_tournament(players):
    a, b, _c, _d = players
    t1 = paper_evening(1, {a: 100, b: 50})
    with pytest.raises(ValidationError) as exc:
        tournament_services.merge_players(a, b)
    assert "Abend 1" in exc.value.messages[0] and "nicht möglich" in exc.value.messages[0]
    assert Registration.objects.filter(tournament=t1).count() == 2
    with pytest.raises(ValidationError):
        tournament_services.merge_players(a, a)


def test_search_players_by_name_parts_regulars_first(players):
    a, b, _c, _d = players
    paper_evening(1, {b: 1})
    assert tournament_services.search_players("s") == []
    found = tournament_services.search_players("spieler")
    assert found[0] == b and found[0].tournaments == 1 and len(found) == 4
    assert tournament_services.search_players("anna spie") == [a]
    assert tournament_services.search_players("SpielerAnna anna") == [a]


def test_register_player_reuses_the_chosen_player_and_stores_the_year(players):
    a = players[0]
    t = paper_evening(1, {})
    reg = tournament_services.register_player(
        t, first_name="", last_name="", player_id=a.pk, year_of_birth=1970
    )
    assert reg.player == a
    a.refresh_from_db()
    assert a.year_of_birth == 1970
    with pytest.raises(ValidationError) as exc:
        tournament_services.register_player(t, first_name="x", last_name="y", player_id=99999)
    assert "last_name" in exc.value.message_dict
    # same name and club but another year of birth: another person
    other = tournament_services.register_player(
        t, first_name="Anna", last_name="SpielerAnna", club="TSV", year_of_birth=1990
    )
    assert other.player != a


# --------------------------------------------------------------------------- pages


def test_director_builds_a_series_and_the_public_page_shows_it(client, director, players):
    a, b, c, _d = players
    t1 = paper_evening(1, {a: 500, b: 300, c: 100})
    t2 = paper_evening(2, {a: 100, b: 400, c: 50})
    client.force_login(director)
    response = client.post(
        "/serie/neu/",
        {
            "name": "Winter-Cup",
            "season": "2026",
            "tournaments": [t1.pk, t2.pk],
            "counting": "placement",
            "placement_points": "10,5,5,1",
            "best_of": "",
            "min_evenings": "",
        },
    )
    series = Series.objects.get()
    assert response.status_code == 302 and response["Location"] == f"/serie/{series.pk}/"
    client.logout()
    page = client.get(f"/serie/{series.pk}/").content.decode()
    assert "Winter-Cup" in page and "Abend 2" in page
    # Anna 1st + 2nd = 15, Bert 2nd + 1st = 15 (a shared place), Carl 3rd twice = 10
    assert page.index("Anna SpielerAnna") < page.index("Bert SpielerBert")
    csv = client.get(f"/serie/{series.pk}/export.csv").content.decode()
    assert csv.splitlines()[1:] == [
        "1,Anna SpielerAnna,TSV,10,5,2,15",
        "1,Bert SpielerBert,TSV,5,10,2,15",
        "3,Carl SpielerCarl,TSV,5,5,2,10",
    ]
    assert client.get(f"/serie/{series.pk}/export.xlsx").status_code == 200
    assert client.get(f"/serie/{series.pk}/export.pdf").status_code == 404
    # a rule change by the director recomputes at once
    client.force_login(director)
    response = client.post(
        f"/serie/{series.pk}/bearbeiten/",
        {
            "name": "Winter-Cup",
            "season": "2026",
            "tournaments": [t1.pk, t2.pk],
            "counting": "points",
        },
    )
    assert response.status_code == 302
    rows = series_standings(Series.objects.get()).rows
    assert [(r.rank, r.total) for r in rows] == [(1, 700), (2, 600), (3, 150)]


def test_series_form_errors_are_shown_at_the_field(client, director, players):
    t1 = paper_evening(1, {players[0]: 1})
    client.force_login(director)
    response = client.post(
        "/serie/neu/",
        {"name": "X", "season": "1", "tournaments": [t1.pk], "counting": "points", "best_of": "3"},
    )
    assert response.status_code == 422
    assert "besten 3 von 1" in response.content.decode()
    assert not Series.objects.exists()


def test_series_pages_for_staff_only(client, clerk, players):
    t1 = paper_evening(1, {players[0]: 1})
    series = save_series(name="S", season="1", tournaments=[t1])
    assert client.get("/serie/neu/").status_code == 302  # to the login
    client.force_login(clerk)
    assert client.get("/serie/neu/").status_code == 403
    assert client.get(f"/serie/{series.pk}/bearbeiten/").status_code == 403
    assert client.get("/spieler/suche/?q=spieler").status_code == 403
    assert client.get("/spieler/").status_code == 403
    assert client.get(f"/serie/{series.pk}/").status_code == 200


def test_series_results_pdf(client, players):
    pytest.importorskip("weasyprint")
    t1 = paper_evening(1, {players[0]: 100, players[1]: 50})
    series = save_series(name="Cup", season="2026", tournaments=[t1])
    response = client.get(f"/serie/{series.pk}/druck/rangliste.pdf")
    assert response.status_code == 200 and response.content.startswith(b"%PDF")


def test_type_ahead_and_registration_of_the_chosen_player(client, director, players):
    a = players[0]
    t = paper_evening(1, {})
    client.force_login(director)
    html = client.get("/spieler/suche/", {"first_name": "ann", "last_name": ""}).content.decode()
    assert f'data-player="{a.pk}"' in html and "SpielerAnna" in html
    assert client.get("/spieler/suche/", {"q": "x"}).content.decode().strip() == ""
    response = client.post(
        f"/turnier/{t.pk}/anmeldungen/",
        {
            "action": "one",
            "first_name": "Anna",
            "last_name": "SpielerAnna",
            "club": "TSV",
            "year_of_birth": "1961",
            "player_id": str(a.pk),
            "first_round": "1",
        },
    )
    assert response.status_code == 302
    assert Registration.objects.get(tournament=t).player == a
    page = client.get(f"/turnier/{t.pk}/anmeldungen/").content.decode()
    assert "js/registration.js" in page and 'hx-get="/spieler/suche/"' in page
    response = client.post(
        f"/turnier/{t.pk}/anmeldungen/",
        {
            "action": "one",
            "first_name": "B",
            "last_name": "C",
            "year_of_birth": "1700",
            "first_round": "1",
        },
    )
    assert response.status_code == 422 and "1900" in response.content.decode()


def test_director_merges_two_players_on_the_players_page(client, director, players):
    a, b, _c, _d = players
    paper_evening(1, {a: 1})
    paper_evening(2, {b: 1})
    client.force_login(director)
    assert "SpielerAnna" in client.get("/spieler/", {"q": "spieler"}).content.decode()
    response = client.post("/spieler/", {"keep": a.pk, "duplicate": b.pk})
    assert response.status_code == 302
    assert Registration.objects.filter(player=a).count() == 2
    response = client.post("/spieler/", {"keep": a.pk, "duplicate": 99999})
    assert response.status_code == 422 and "99999 gibt es nicht" in response.content.decode()
    paper_evening(3, {a: 1, players[2]: 1})
    response = client.post("/spieler/", {"keep": a.pk, "duplicate": players[2].pk})
    assert response.status_code == 422 and "nicht möglich" in response.content.decode()


def test_series_page_escapes_names_and_hides_those_without_consent(client, players):
    a, b, _c, _d = players
    hostile = Player.objects.create(first_name="<script>x</script>", last_name="Z", club="<b>C</b>")
    t1 = paper_evening(1, {a: 100, hostile: 50})
    t2 = paper_evening(2, {a: 100, hostile: 50, b: 10}, consent=False)
    Registration.objects.filter(tournament=t2, player=hostile).update(consent_public=True)
    series = save_series(name="Cup", season="2026", tournaments=[t1, t2], best_of=1)
    page = client.get(f"/serie/{series.pk}/").content.decode()
    assert "<script>x" not in page and "&lt;script&gt;x&lt;/script&gt; Z" in page
    assert "&lt;b&gt;C&lt;/b&gt;" in page
    # no consent at evening 2
    assert "SpielerAnna" not in page and "Anonym 1" in page
    assert 'class="num c-round struck"' in page
