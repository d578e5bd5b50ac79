"""Round-robin tournaments between bots, with seats rotated and ratings with confidence
intervals (``meldkit tournament``; ratings need ``pip install 'meldkit[tournament]'``,
the OpenSkill library).

Every pair of bots plays ``games`` games; in game ``i`` seat ``s`` is played by the first
bot when ``s + i`` is even, else by the second, so each bot sits in every seat equally
often and, in partnership packs, each team is one bot.  A game's winner is the bot of the
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

import itertools
import math
from dataclasses import dataclass, field

import meldkit
from meldkit._errors import StuckGameError
from meldkit.bots import make_bot, play_game

__all__ = ["TournamentResult", "run_tournament", "wilson"]


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


def run_tournament(pack, bots: list[str], games: int = 20, players: int | None = None,
                   seed: int = 0, ratings: bool = True, max_actions: int = 20_000,
                   progress=None) -> TournamentResult:
    """Play the round robin (see the module) and return its :class:`TournamentResult`."""
    if not isinstance(pack, meldkit.RulePack):
        pack = meldkit.load_pack(pack)
    if len(bots) < 2:
        raise ValueError("a tournament needs at least two bots")
    if len(set(bots)) != len(bots):
        raise ValueError("name each bot once")
    n = players or pack.spec.players.min
    model = _rating_model() if ratings else None
    rated = {b: model.rating(name=b) for b in bots} if model else {}
    result = TournamentResult(pack.name, n)
    for a, b in itertools.combinations(bots, 2):
        w = t = l = stuck = 0
        for i in range(games):
            game_seed = seed * 1_000_003 + i
            seat_bot = [a if (s + i) % 2 == 0 else b for s in range(n)]
            g = meldkit.new_game(pack, players=n, seed=game_seed)
            players_ = [make_bot(name, seed=game_seed * 31 + s) for s, name in enumerate(seat_bot)]
            try:
                play_game(g, players_, max_actions=max_actions)
            except StuckGameError:
                stuck += 1
                t += 1
                continue
            win = g.winner
            if win is None:
                t += 1
                rank = [0, 0]
            else:
                winner_bot = seat_bot[g.team_players(win)[0]]
                if winner_bot == a:
                    w += 1
                    rank = [0, 1]
                else:
                    l += 1
                    rank = [1, 0]
            if model is not None:
                [[ra], [rb]] = model.rate([[rated[a]], [rated[b]]], ranks=rank)
                rated[a], rated[b] = ra, rb
            if progress is not None:
                progress(a, b, i + 1, games)
        result.pairs.append((a, b, w, t, l, stuck))
    result.ratings = {name: (r.mu, r.sigma) for name, r in rated.items()}
    return result
