"""``manage.py generate_tournament``: a complete tournament from random deals played out by
the rules engine — real melds (best meld of each dealt hand), real trick points (legal
cards played trick by trick), bids and outcomes as the engine scores them.  Every hand is
saved through :func:`scoring.services.save_hand`, exactly as a clerk's entry would be."""

from __future__ import annotations

import random
from datetime import date

from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import transaction

from operations.demo import DEMO_USERS
from rules.simulate import simulate_hand
from scoring import services
from tournament import services as tournament_services
from tournament.models import Player, Tournament

FIRST_NAMES = (
    "Anna Berta Christa Doris Elke Frieda Gerda Hanne Inge Jutta Karin Lore Marga Nelly Olga "
    "Paula Rosi Sabine Trude Ute Vroni Waltraud Albert Bernd Christoph Dieter Emil Fritz Gottlob "
    "Hans Immanuel Jakob Karl Ludwig Manfred Otto Paul Reinhold Siegfried Theo Ulrich Walter"
).split()
LAST_NAMES = (
    "Bauer Brenner Dietrich Eberle Fischer Gaiser Haug Hägele Kächele Kienzle Knödler Maier "
    "Mayer Müller Nägele Pfeiffer Rapp Rieger Schäfer Schnaitmann Schwarz Seeger Single "
    "Speidel Stängle Vogt Wagner Weber Wieland Wörner Zeller Ziegler Bührle Hörmann Kübler"
).split()
CLUBS = (
    "Binokelfreunde Plochingen",
    "SV Kirchheim Abt. Karten",
    "Kartlerrunde Esslingen",
    "TSV Wendlingen",
    "Gasthaus Ochsen Stammtisch",
    "",
)


def register_random_players(tournament, count: int, rng: random.Random, returning: int = 0) -> None:
    """Register ``count`` players with the next start numbers, reproducibly for ``rng``'s
    seed: ``returning`` of them chosen at random among the players already in the database
    (people who come back, as at the evenings of a series), the others invented (Swabian
    names and clubs).  85 % consent to be named."""
    known = list(Player.objects.order_by("pk"))
    for player in rng.sample(known, min(returning, len(known), count)):
        tournament_services.register(tournament, player, consent_public=rng.random() < 0.85)
    for _ in range(count - tournament.registrations.count()):
        player = Player.objects.create(
            first_name=rng.choice(FIRST_NAMES),
            last_name=rng.choice(LAST_NAMES),
            club=rng.choice(CLUBS),
        )
        tournament_services.register(tournament, player, consent_public=rng.random() < 0.85)


class Command(BaseCommand):
    help = "Generate a tournament with hands dealt and played out by the rules engine."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--players", type=int, default=30)
        parser.add_argument("--rounds", type=int, default=3)
        parser.add_argument("--games", type=int, default=12)
        parser.add_argument("--seed", type=int, default=2026)
        parser.add_argument("--preset", default="club-tournament")
        parser.add_argument("--name", default="Preisbinokel Plochingen")
        parser.add_argument(
            "--last-round",
            type=float,
            default=None,
            help=(
                "share of the last round's hands to enter (0 … 1; default 0.5, with "
                "--finish 1: a round is closed only with every hand)"
            ),
        )
        parser.add_argument("--demo-users", action="store_true", help="create the demo logins")
        parser.add_argument("--date", type=date.fromisoformat, default=date(2026, 11, 21))
        parser.add_argument("--venue", default="Plochingen, Gasthaus Ochsen")
        parser.add_argument(
            "--returning",
            type=int,
            default=0,
            help="how many of the players are taken from those already in the database",
        )
        parser.add_argument(
            "--finish", action="store_true", help="close the last round too (a finished evening)"
        )

    def handle(self, *args, **opts) -> None:
        share = opts["last_round"]
        if opts["finish"] and share is not None and share < 1:
            raise CommandError(
                "--finish schließt die letzte Runde ab; dafür müssen alle ihre Spiele "
                "erfasst sein: --last-round 1 oder weglassen."
            )
        if share is None:
            share = 1.0 if opts["finish"] else 0.5
        if not 0 <= share <= 1:
            raise CommandError("--last-round muss zwischen 0 und 1 liegen.")
        opts["last_round"] = share
        rng = random.Random(opts["seed"])
        users = self._users(opts["demo_users"])
        clerk = users["schreiber"]
        with transaction.atomic():
            tournament = tournament_services.create_tournament(
                name=opts["name"],
                date=opts["date"],
                venue=opts["venue"],
                preset=opts["preset"],
                rounds=opts["rounds"],
                games_per_round=opts["games"],
                clerks=[clerk],
            )
            register_random_players(tournament, opts["players"], rng, opts["returning"])
        rounds = list(tournament.round_set.order_by("number"))
        hands = 0
        for round_ in rounds:
            tournament_services.draw_round(round_, seed=opts["seed"] * 100 + round_.number)
            tournament_services.start_round(round_)
            last = round_.number == len(rounds)
            for table in round_.tables.all():
                games = opts["games"]
                if last:
                    games = round(games * opts["last_round"])
                hands += self._play_table(tournament, table, games, clerk, rng)
            if not last or opts["finish"]:
                services.close_round(round_)
        self.stdout.write(
            f"Turnier {tournament.pk} '{tournament.name}': {opts['players']} Spieler, "
            f"{len(rounds)} Runden, {hands} Spiele erfasst."
        )

    def _users(self, create: bool) -> dict:
        User = get_user_model()
        users = {}
        for username, password, group in DEMO_USERS:
            user = User.objects.filter(username=username).first()
            if user is None:
                user = User.objects.create_user(username, password=password if create else None)
                if username == "leitung":
                    user.is_staff = True
                    user.is_superuser = True
                    user.save()
                user.groups.add(Group.objects.get(name=group))
            users[username] = user
        return users

    def _play_table(
        self, tournament: Tournament, table, games: int, user, rng: random.Random
    ) -> int:
        ruleset = tournament.ruleset
        size = table.seats.count()
        for number in range(1, games + 1):
            dealer = services.dealer_for(table, size, number)
            positions = services.active_positions(tournament, size, dealer)
            seats = len(positions)
            # engine seat 0 is the player after the dealer; its dealer is the seat before it
            engine_dealer = positions.index(dealer) if dealer in positions else seats - 1
            sim = simulate_hand(ruleset, seats, engine_dealer, rng)
            rec = sim.record
            entry = services.HandInput(
                number=number,
                dealer=dealer,
                declarer=positions[rec.declarer],
                bid=rec.bid,
                outcome=rec.outcome,
                trump=sim.trump or "",
                melds={p: rec.melds[i] for i, p in enumerate(positions)} if rec.melds else {},
                tricks={p: rec.tricks[i] for i, p in enumerate(positions)} if rec.tricks else {},
                confirm_rare=True,  # dealt by the engine: a rare meld is real
            )
            hand, evaluation = services.save_hand(table, entry, user)
            if hand is None:  # pragma: no cover - the engine made the record, so it is valid
                raise RuntimeError(f"generated hand rejected: {evaluation.errors}")
        return games
