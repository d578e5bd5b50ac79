"""Returns, game-length bounds, undo, and an opt-in chance mode.

**Chance mode** (:class:`ChanceGame`) makes every draw from the stock an explicit chance
decision, so that algorithms enumerating chance (expectimax, CFR over draws) can run: after
a player chooses ``draw``, the game is at a chance node (:meth:`ChanceGame.is_chance_node`);
:meth:`ChanceGame.chance_outcomes` lists the card kinds the stock may yield with their
probabilities, and :meth:`ChanceGame.apply_chance` fixes one before the draw takes it.  The
deal itself is one chance event sampled from the seed (not enumerated), and a card drawn by
the rules themselves (a bonus card replaced) comes from the stock's sampled order.  A card
fixed by chance is not the seed's, so the state keeps its positions (``keep_undo``) and
undoes what it kept; a replay from the seed, which would deal another card, is refused.

>>> import meldkit
>>> from meldkit.ai.chance import ChanceGame
>>> g = ChanceGame(meldkit.new_game("gin_rummy", players=2, seed=1,
...                                 options={"first_player": 0}))
>>> g.apply("pass"); g.apply("pass"); g.apply("draw")
>>> g.is_chance_node(), len(g.chance_outcomes()), round(sum(p for _, p in g.chance_outcomes()), 9)
(True, 31, 1.0)
>>> kind = g.chance_outcomes()[0][0]; kind
'10D'
>>> g.apply_chance(kind); g.is_chance_node(), kind in g.state.view(0)["hand"]
(False, True)
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING

from .._errors import IllegalActionError, quoted

if TYPE_CHECKING:
    from .._game import GameState

__all__ = ["MAX_GAME_LENGTH", "ChanceGame", "max_game_length", "returns", "undo"]

MAX_GAME_LENGTH = 20_000
"""The action cap of :func:`max_game_length` for packs whose games have no finite bound
(void hands can repeat without end): a game reaching it is truncated by the adapters.  In
10,000 random games of each bundled pack the longest took far fewer actions (see the
Game AI page)."""


def returns(state: GameState) -> list[float]:
    """Each seat's return: 0 for everyone until the game is over; then +1 for the
    winning team's seats and -1/(teams - 1) for the others (zero-sum), 0 for all on a
    tie."""
    n = state.n_players
    if not state.is_over:
        return [0.0] * n
    win = state.winner
    if win is None:
        return [0.0] * n
    lose = -1.0 / max(1, state.n_teams - 1)
    return [1.0 if state.team_of[p] == win else lose for p in range(n)]


def max_game_length(state: GameState) -> int:
    """A bound on the number of actions in a game: :data:`MAX_GAME_LENGTH`, a cap rather
    than a proof — a game's number of hands has no finite bound in any bundled pack (void
    hands, a target that a hand may miss), so the adapters truncate a game there."""
    return MAX_GAME_LENGTH


def undo(state: GameState) -> None:
    """Take back the last action, in place, by replaying the history but the last action
    from the seed (clone-and-replay: the cost of replaying the game so far).  Raises
    :class:`~meldkit.IllegalActionError` when there is nothing to undo."""
    from .._errors import MeldkitError
    from .infostate import replay_start

    if not state.history:
        raise IllegalActionError("undo/nothing", "there is no action to undo")
    s = replay_start(state)
    try:
        for text in state.history[:-1]:
            s.apply(text)
        again = s.clone()
        again.apply(state.history[-1])
        replays = again == state
    except IllegalActionError:
        replays = False
    if not replays:  # a resampled state, or stock cards fixed by chance: nothing to replay
        raise MeldkitError(
            "undo: the history does not replay from this state's seed (a resampled state "
            "has a new seed, and a ChanceGame fixes stock cards the seed did not deal), so "
            "only the actions applied since keep_undo() can be taken back: call "
            "keep_undo() before applying them")
    state._restore(s)


def _stock(state: GameState) -> list[int]:
    stock = getattr(state, "stock", None)
    if stock is None:
        raise TypeError(f"engine {type(state).__name__} has no stock")
    return stock


def _code(state: GameState, card: int) -> str:
    from .infostate import card_code_of

    return card_code_of(state, card)


def draw_count(state: GameState) -> int:
    """Cards a stock draw takes now in ``state`` (``turn.draw`` of this deal, by player
    count); 1 for an engine whose rules do not say."""
    draw_for = getattr(getattr(state, "rules", None), "draw_for", None)
    return draw_for(state.n_players) if draw_for is not None else 1


class ChanceGame:
    """A game whose stock draws are explicit chance nodes (see the module)."""

    def __init__(self, state: GameState):
        self.state = state
        self.pending = None  # the player's draw, waiting for its cards
        self.fixed = 0  # stock cards fixed by chance for the pending draw
        state.keep_undo()  # a card fixed by chance is not the seed's: undo what is kept

    # ------------------------------------------------------------------ the player's moves
    @property
    def current_player(self) -> int | None:
        """The seat to act; None at a chance node or when the game is over."""
        return None if self.pending is not None else self.state.current_player

    def is_chance_node(self) -> bool:
        """True when the next decision is chance's (the card a draw takes)."""
        return self.pending is not None

    def legal_actions(self):
        """The player's legal actions (none at a chance node)."""
        return [] if self.pending is not None else self.state.legal_actions()

    def apply(self, action) -> None:
        """Apply a player's action; ``draw`` from the stock opens a chance node."""
        if self.pending is not None:
            raise IllegalActionError("chance/pending", "a chance node: call apply_chance first")
        s = self.state
        a = s._canonical(action)
        why = s.check(a)
        if why is not None:
            raise IllegalActionError(why.code, why.sentence, a)
        if a.type == "draw" and getattr(s, "stock", None):
            self.pending = a
            self.fixed = 0
            return
        s.apply(a)

    # ------------------------------------------------------------------ chance
    def chance_outcomes(self) -> list[tuple[str, float]]:
        """The card kinds the next stock card may be (codes), with probabilities: the
        cards hidden from the drawer, in the stock, counted by kind."""
        if self.pending is None:
            return []
        stock = _stock(self.state)
        free = stock[:len(stock) - self.fixed]
        counts = Counter(_code(self.state, c) for c in free)
        n = len(free)
        return [(k, counts[k] / n) for k in sorted(counts)]

    def apply_chance(self, outcome: str) -> None:
        """Fix the next stock card to be of ``outcome`` (a card code), then — once every
        card of the draw is fixed — apply the draw."""
        if self.pending is None:
            raise IllegalActionError("chance/none", "not a chance node")
        s = self.state
        stock = _stock(s)
        top = len(stock) - 1 - self.fixed
        for i in range(top, -1, -1):
            if _code(s, stock[i]) == outcome:
                stock[i], stock[top] = stock[top], stock[i]
                break
        else:
            raise IllegalActionError("chance/outcome", f"{quoted(outcome)} is not in the stock")
        self.fixed += 1
        if self.fixed >= min(draw_count(s), len(stock)):
            a, self.pending = self.pending, None
            s._legal_cache = None
            s.apply(a)
