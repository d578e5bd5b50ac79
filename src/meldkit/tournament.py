"""Round-robin tournaments between bots, with seats rotated and ratings with confidence
intervals (``meldkit tournament``; ratings need ``pip install 'meldkit[tournament]'``,
the OpenSkill library).

Every pair of bots plays ``games`` games; in game ``i`` seat ``s`` is played by the first
bot when ``s + i`` is even, else by the second, so over an even number of games each bot
sits in every seat equally often (an odd number gives the first bot its seats once more)
and, in partnership packs, each team is one bot.  A game's winner is the bot of the
winning team (a tie ranks both equal).  Ratings are OpenSkill's Plackett-Luce ``mu`` with a
95% interval ``mu ± 1.96 sigma``; each pair's score is also given as a win rate (ties count
half) with its Wilson 95% interval.

>>> from meldkit.tournament import run_tournament
>>> result = run_tournament("gin_rummy", ["random", "greedy"], games=2, seed=1,
...                         ratings=False)
>>> result.pairs[0][:2], sum(result.pairs[0][2:5])
(('random', 'greedy'), 2)
"""

from __future__ import annotations

import contextlib
import itertools
import math
from dataclasses import dataclass, field

import meldkit
from meldkit._checks import check
from meldkit._errors import SetupError, StuckGameError, quoted
from meldkit._sim_backends import DEFAULT_RETRIES, MAX_JOBS, make_backend, run_games
from meldkit.bots import bot_names, make_bot, play_game

__all__ = ["STUCK", "PairingGames", "TournamentResult", "play_pairing", "run_tournament",
           "wilson"]


def wilson(k: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of ``k`` successes in ``n`` trials."""
    if n == 0:
        return 0.0, 1.0
    p = k / n
    d = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / d
    half = z * math.sqrt(max(0.0, p * (1 - p) / n + z * z / (4 * n * n))) / d
    return max(0.0, centre - half), min(1.0, centre + half)


@dataclass
class TournamentResult:
    pack: str
    players: int
    pairs: list = field(default_factory=list)
    """``(bot_a, bot_b, a_wins, ties, b_wins, stuck)`` per pair."""
    ratings: dict = field(default_factory=dict)
    """Bot name → ``(mu, sigma)`` (empty without the rating library)."""

    def report(self) -> str:
        lines = [f"Tournament: {self.pack}, {self.players} players, seats rotated"]
        for a, b, w, t, l, stuck in self.pairs:
            n = w + t + l
            lo, hi = wilson(w + 0.5 * t, n)
            extra = f", {stuck} cut short (counted as ties)" if stuck else ""
            lines.append(f"  {a} vs {b}: {w} won, {t} tied, {l} lost; {a}'s score "
                         f"{(w + 0.5 * t) / max(1, n):.3f} (95% CI {lo:.3f}-{hi:.3f}){extra}")
        if self.ratings:
            lines.append("Ratings (OpenSkill Plackett-Luce; 95% CI = mu ± 1.96 sigma):")
            for name, (mu, sigma) in sorted(self.ratings.items(), key=lambda kv: -kv[1][0]):
                lines.append(f"  {name:<10} {mu:6.2f}  ({mu - 1.96 * sigma:6.2f} to "
                             f"{mu + 1.96 * sigma:6.2f})")
        return "\n".join(lines)


def _rating_model():
    try:
        from openskill.models import PlackettLuce
    except ImportError:
        raise ImportError("ratings need OpenSkill: pip install 'meldkit[tournament]' "
                          "(or pass --no-ratings)") from None
    return PlackettLuce()


MAX_PAIRING_GAMES = 100_000
"""The most games a pairing of a tournament plays (its schedule is a list of every game)."""

MAX_SEED = 2**236
"""The largest ``seed`` of a tournament (and ``-MAX_SEED`` the smallest): game ``i`` is
seeded ``seed * 1_000_003 + i``, which must stay within a game's ``-2**256 .. 2**256``."""

STUCK = "stuck"
"""The outcome of a game cut short (:class:`~meldkit.StuckGameError`): counted as a tie."""


def play_pairing(pack, players: int, a: str, b: str, i: int, seed: int = 0,
                 max_actions: int = 20_000) -> str | None:
    """Game ``i`` between bots ``a`` and ``b`` (seats rotated as the module says): the
    winning bot's name, None for a tie, or :data:`STUCK`.  A pure function of its
    arguments, so games may be played in any process, in any order.

    >>> play_pairing("gin_rummy", 2, "random", "greedy", 0, seed=1) in ("random", "greedy", None)
    True
    """
    if not isinstance(pack, meldkit.RulePack):
        pack = meldkit.load_pack(pack)
    game_seed = seed * 1_000_003 + i
    seat_bot = [a if (s + i) % 2 == 0 else b for s in range(players)]
    g = meldkit.new_game(pack, players=players, seed=game_seed)
    bots = [make_bot(name, seed=game_seed * 31 + s) for s, name in enumerate(seat_bot)]
    try:
        play_game(g, bots, max_actions=max_actions)
    except StuckGameError:
        return STUCK
    win = g.winner
    return None if win is None else seat_bot[g.team_players(win)[0]]


@dataclass(frozen=True)
class PairingGames:
    """The games of one tournament as a pure per-game function for the pool backend
    (:mod:`meldkit._sim_backends`): called with ``(a, b, i)``, it plays game ``i`` between
    bots ``a`` and ``b`` (:func:`play_pairing`).  Picklable, so any process may play it.

    >>> PairingGames("gin_rummy", 2, seed=1)(("random", "greedy", 0)) == play_pairing(
    ...     "gin_rummy", 2, "random", "greedy", 0, seed=1)
    True
    """

    pack: meldkit.RulePack | str
    players: int
    seed: int = 0
    max_actions: int = 20_000

    def __call__(self, game: tuple[str, str, int]) -> str | None:
        a, b, i = game
        return play_pairing(self.pack, self.players, a, b, i, self.seed, self.max_actions)


def _bot_names(bots) -> list[str]:
    """``bots`` as a list of two or more bot names, each known and given once
    (:func:`meldkit.bots.bot_names`: each built before any game)."""
    names = bot_names(bots, "run_tournament", 2, "a tournament needs at least two bots")
    twice = sorted({name for name in names if names.count(name) > 1})
    if twice:
        raise SetupError(f"run_tournament: name each bot once ({', '.join(twice)} more "
                         "than once)")
    return names


def run_tournament(pack, bots: list[str], games: int = 20, players: int | None = None,
                   seed: int = 0, ratings: bool = True, max_actions: int = 20_000,
                   progress=None, jobs: int = 1,
                   retries: int = DEFAULT_RETRIES) -> TournamentResult:
    """Play the round robin (see the module) and return its :class:`TournamentResult`.

    ``jobs`` worker processes play the games (0: one per CPU), on the backend ``simulate``
    uses: the result is the same for any number, as outcomes are folded into the tallies
    and ratings in game order (pair by pair, as :func:`itertools.combinations` lists
    them).  A game lost with its worker is played again, up to ``retries`` times (then
    :class:`~meldkit._sim_backends.WorkerLostError`); an exception, Ctrl-C included, stops
    the workers.  ``progress(a, b, done, games)`` is called after each game of each pair.
    ``bots`` is a list of two or more bot names, each once.  A setting out of its kind or
    range (``seed`` from ``-2**236`` to ``2**236``) is refused with a
    :class:`~meldkit.SetupError` naming it, and an unknown bot with a ``ValueError``,
    before any game."""
    if not isinstance(pack, meldkit.RulePack):
        pack = meldkit.load_pack(pack)
    bots = _bot_names(bots)
    check("run_tournament", "games", games, "int", least=1, most=MAX_PAIRING_GAMES)
    if (not isinstance(seed, int) or isinstance(seed, bool)
            or not -MAX_SEED <= seed <= MAX_SEED):  # so every game's seed is a valid one
        raise SetupError("run_tournament: seed must be a whole number from -2**236 to "
                         f"2**236, not {quoted(seed)}")
    check("run_tournament", "players", players, "int", least=1, optional=True)
    check("run_tournament", "max_actions", max_actions, "int", least=1)
    check("run_tournament", "jobs", jobs, "int", least=0, most=MAX_JOBS)  # 0: one per CPU
    check("run_tournament", "retries", retries, "int", least=0)
    n = players or pack.spec.players.min
    model = _rating_model() if ratings else None
    rated = {b: model.rating(name=b) for b in bots} if model else {}
    result = TournamentResult(pack.name, n)
    pairs = list(itertools.combinations(bots, 2))
    schedule = [(a, b, i) for a, b in pairs for i in range(games)]
    play = PairingGames(pack, n, seed, max_actions)
    tally = {pair: [0, 0, 0, 0] for pair in pairs}  # won, tied, lost, stuck
    backend = make_backend(play, jobs, retries=retries, games=len(schedule))
    with contextlib.closing(run_games(play, schedule, backend=backend)) as outcomes:
        for (a, b, i), outcome in zip(schedule, outcomes):
            counts = tally[a, b]
            if outcome == STUCK:
                counts[3] += 1
                counts[1] += 1
                rank = None
            elif outcome is None:
                counts[1] += 1
                rank = [0, 0]
            elif outcome == a:
                counts[0] += 1
                rank = [0, 1]
            else:
                counts[2] += 1
                rank = [1, 0]
            if model is not None and rank is not None:
                [[ra], [rb]] = model.rate([[rated[a]], [rated[b]]], ranks=rank)
                rated[a], rated[b] = ra, rb
            if progress is not None:
                progress(a, b, i + 1, games)
    result.pairs = [(a, b, *tally[a, b]) for a, b in pairs]
    result.ratings = {name: (r.mu, r.sigma) for name, r in rated.items()}
    return result
