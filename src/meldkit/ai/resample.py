"""Determinization: a full state consistent with what one player has seen, every card
hidden from them dealt anew.

:class:`Determinizer` replays the game once (from the seed) to learn which cards the
player can place — their own hand, every face-up zone, and cards they watched move into a
hidden zone (the pile taken into a hand, a pile turned over into the stock, a card they
passed face down) — and then :meth:`~Determinizer.sample` deals every other card uniformly
over the hidden positions, under the rules' constraints (a bonus card is never in a hand),
and gives the state a fresh seed so that later deals are unknown too.  Cards the player
watched go into a stock shuffled from the pile (``stock.when_empty: shuffle_pile``) are
known to be among those places, not which is which: a sample deals them anew among the
places they hold, the stock's and those of the cards others drew from it.

``state.resample(player, rng)`` is ``Determinizer(state, player).sample(rng)``; for many
samples of one position build the determinizer once (a sample costs about one clone).  The
first determinizer of a game replays it from the seed; a later position of the same game
continues the last replay (the most recent 64 games and players are remembered), so each
action is replayed once.

>>> import meldkit, random
>>> g = meldkit.new_game("gin_rummy", players=2, seed=1)
>>> r = g.resample(0, random.Random(5))
>>> r.view(0) == g.view(0), r.hands[1] == g.hands[1]
(True, False)

A resampled state keeps the original's ``history`` as the record of what was played, but
its seed is new: it cannot be replayed from its seed (``public_history`` refuses it).
Houses: when an opponent passes a card face down, cards the player had placed in that
opponent's hand count as unknown again (they may be the card passed), and the counts of
repeated positions (SH-10) are kept as they are.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from .._checks import check_seat

if TYPE_CHECKING:
    from .._game import GameState

__all__ = ["Determinizer", "resample"]

_VISIBLE_PREFIXES = ("meld:", "bonus:", "group:", "removed:")

_TRACKS: dict[tuple, tuple] = {}
"""Replays already made, by game and player (state, card places, known cards, history):
a later position of the same game continues the replay instead of starting over, so a bot
deciding every move of a long game pays for each action once."""
_TRACKS_MAX = 64


def _visible(zone: str, player: int) -> bool:
    return (zone == "pile" or zone == f"hand:{player}" or zone in ("turned", "indicator", "loose")
            or zone.startswith(_VISIBLE_PREFIXES))


def _where(zones: dict[str, list[int]]) -> dict[int, str]:
    return {c: z for z, ids in zones.items() for c in ids}


class Determinizer:
    """Samples states consistent with ``player``'s information in ``state``."""

    def __init__(self, state: GameState, player: int):
        check_seat(player, state.n_players)
        self.state = state
        self.player = player
        self.unordered: frozenset[int] = frozenset()
        """Card ids ``player`` saw shuffled into a new stock and has not seen since: their
        places (in the stock, or a hand that drew them) are known as a group, not one by
        one (set by :meth:`_known_cards`)."""
        self.known = self._known_cards()
        """Card ids whose place ``player`` knows (those of :attr:`unordered` as a group)."""
        zones = state.zone_cards()
        self.positions: list[tuple[str, int]] = []
        """The hidden positions ``(zone, index)`` whose cards are dealt anew."""
        self.cards: list[int] = []
        self.shuffled: list[tuple[tuple[str, int], int]] = []
        """The hidden places of the :attr:`unordered` cards, with the card each holds."""
        for z, ids in zones.items():
            if _visible(z, player):
                continue
            for i, c in enumerate(ids):
                if c not in self.known:
                    self.positions.append((z, i))
                    self.cards.append(c)
                elif c in self.unordered:
                    self.shuffled.append(((z, i), c))
        self._bonus = self._bonus_cards()

    # ------------------------------------------------------------------ what is known
    def _known_cards(self) -> set[int]:
        from .infostate import replay_start

        st, p = self.state, self.player
        if not st.history:
            return {c for z, ids in st.zone_cards().items() if _visible(z, p) for c in ids}
        key = (st.pack.name, st.pack.digest, st.n_players, st.seed, repr(st.options),
               repr(st.deck_order), repr(getattr(st, "later_orders", None)), p)
        cached = _TRACKS.pop(key, None)
        done = 0
        unordered: set[int] = set()
        if cached is not None and len(cached[3]) <= len(st.history) \
                and st.history[:len(cached[3])] == cached[3]:
            s, where, known, played, unordered = cached  # continue a replay already made
            s = s.clone()
            known, unordered = set(known), set(unordered)
            done = len(played)
        else:
            s = replay_start(st)
            where = _where(s.zone_cards())
            known = {c for c, z in where.items() if _visible(z, p)}
        spec = getattr(st.pack, "spec", None)
        shuffles = getattr(getattr(spec, "stock", None), "when_empty", "") == "shuffle_pile"
        for text in st.history[done:]:
            actor = s.current
            a = s.parse_action(text)
            hand = s.hand_number
            s.apply(a)
            now = _where(s.zone_cards())
            if s.hand_number != hand:  # a new deal: only what is visible now is known
                known = {c for c, z in now.items() if _visible(z, p)}
                unordered = set()
            else:
                if shuffles:  # the pile shuffled into a new stock: known only as a group
                    unordered |= {c for c, z in now.items()
                                  if z == "stock" and where.get(c) == "pile"}
                    unordered -= {c for c, z in now.items() if _visible(z, p)}
                if a.type == "pass" and a.cards and actor != p:
                    # a face-down pass: any card p placed in the passer's hand may be it
                    known -= {c for c, z in where.items() if z == f"hand:{actor}"}
                known |= {c for c, z in now.items() if _visible(z, p)}
            where = now
        _TRACKS[key] = (s.clone(), where, frozenset(known), list(st.history),
                        frozenset(unordered))
        while len(_TRACKS) > _TRACKS_MAX:
            _TRACKS.pop(next(iter(_TRACKS)))
        if s.zone_cards() != st.zone_cards() or (s.phase, s.current) != (st.phase,
                                                                          st.current):
            from .action_space import ActionSpaceError

            raise ActionSpaceError(
                "cannot resample: replaying the history from the seed does not reach this "
                "position (a resampled state, or a state edited by hand)")
        self.unordered = frozenset(unordered)
        return known

    def _bonus_cards(self) -> set[int]:
        rules = getattr(self.state, "rules", None)
        is_bonus = getattr(rules, "is_bonus_kind", None)
        kind_of = getattr(self.state, "kind_of", None)
        if is_bonus is None or kind_of is None:
            return set()
        return {c for c in self.cards if is_bonus[kind_of[c]]}

    # ------------------------------------------------------------------ sampling
    def deal(self, rng: random.Random) -> dict[tuple[str, int], int]:
        """A uniform assignment of the unknown cards to the hidden positions (bonus cards
        only where the rules allow them: not in a hand)."""
        positions = self.positions
        bonus = [c for c in self.cards if c in self._bonus]
        other = [c for c in self.cards if c not in self._bonus]
        out: dict[tuple[str, int], int] = {}
        if bonus:
            allowed = [pos for pos in positions if not pos[0].startswith("hand:")]
            if len(allowed) < len(bonus):
                raise ValueError("more bonus cards than places outside hands")
            chosen = rng.sample(allowed, len(bonus))
            out.update(zip(chosen, bonus))
            taken = set(chosen)
            rest = [pos for pos in positions if pos not in taken]
        else:
            rest = positions
        rng.shuffle(other)
        out.update(zip(rest, other))
        if self.shuffled:  # cards known as a group: dealt anew among their own places
            group = [c for _, c in self.shuffled]
            rng.shuffle(group)
            out.update(zip((pos for pos, _ in self.shuffled), group))
        return out

    def sample(self, rng: random.Random | None = None):
        """A new state: the original with the unknown cards dealt anew and a fresh seed."""
        rng = rng if rng is not None else random.Random()
        assignment = self.deal(rng)
        s = self.state.clone()
        _write(s, assignment)
        s.seed = rng.getrandbits(128)
        s._legal_cache = None
        return s


def _write(s, assignment: dict[tuple[str, int], int]) -> None:
    """Deal ``assignment`` (card at each hidden ``(zone, index)``) into ``s`` through its
    engine's ``set_zone_cards`` hook (the kernels' are in :mod:`meldkit.kernel.universe`)."""
    hook = getattr(s, "set_zone_cards", None)
    if hook is None:
        from .action_space import ActionSpaceError

        raise ActionSpaceError(
            f"engine {type(s).__name__} cannot be resampled: give it a "
            "set_zone_cards(assignment) method")
    hook(assignment)


def resample(state: GameState, player: int, rng: random.Random | None = None):
    """A full state consistent with everything ``player`` has seen (see the module),
    keeping that player's information state (:func:`meldkit.ai.infostate.carry_over`)."""
    from .infostate import carry_over

    sample = Determinizer(state, player).sample(rng)
    carry_over(state, sample, player)
    return sample
