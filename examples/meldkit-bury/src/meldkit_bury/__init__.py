"""Bury — a small meldkit plugin that adds one action, in every rummy pack.

Before drawing, a player may *bury* a dead card (in Pony Tail, a black 3) from their hand
at the bottom of the stock: ``bury 3``.  Each player may bury at most ``max_per_hand``
times per hand, and every bury costs the player's side ``penalty`` points when the hand is
scored.  The same plugin plays in a pack with ``melds.kinds`` (gin, rummy), where actions
name cards with their suits (``bury KS``), the cards that may be buried are named by the
``cards`` option, and with ``replace`` the player takes the top card of the stock in place
of the buried one (a gin hand keeps its size): see ``gin_rummy_bury.yaml``.

A plugin is an object published under the entry-point group ``meldkit.plugins`` (see this
package's ``pyproject.toml``).  This one contributes three things:

* ``options_class`` — :class:`BuryOptions`, the pack's ``options:`` section;
* ``actions()`` — one :class:`meldkit.ActionHook` (``legal``, ``check``, ``apply``);
* ``adjust_scores()`` — the penalty, taken off each side's hand score.

>>> import meldkit, meldkit_bury
>>> from meldkit.testing import stacked_game
>>> g = stacked_game(meldkit_bury.pack_path(), players=4, hands={0: ["3C", "9H"]})
>>> [str(a) for a in g.legal_actions() if a.type == "bury"]
['bury 3']
>>> g.apply("bury 3"); g.phase, g.check("bury 3").code
('draw', 'bury/limit-reached')
"""

from __future__ import annotations

import pathlib

import attrs

import meldkit
from meldkit import ActionHook, Plugin, Reason

NAME = "bury"
"""The plugin's name: the entry-point name, ``plugin:`` in packs, and its key in
``state.ext``."""
VERB = "bury"
"""The action's notation word (``bury 3``)."""


def pack_path() -> pathlib.Path:
    """The path of the pack shipped with this plugin, Pony Tail with Bury.

    It is not a bundled meldkit pack, so load it by path:
    ``meldkit.new_game(meldkit_bury.pack_path(), players=4)``.
    """
    return pathlib.Path(__file__).with_name("pony_tail_bury.yaml")


def gin_pack_path() -> pathlib.Path:
    """The path of Gin Rummy with Bury (``extends: gin_rummy``): the same plugin in the
    table-melds kernel, where a player buries a face card and takes the stock's top card."""
    return pathlib.Path(__file__).with_name("gin_rummy_bury.yaml")


# --------------------------------------------------------------------------- options
@attrs.frozen(kw_only=True)
class BuryOptions:
    """The ``options:`` of a pack that uses the bury plugin.

    meldkit's loader structures the section into this class, so a misspelt or mistyped
    option is reported as ``file:line:col: options.penalti: ... (did you mean 'penalty'?)``
    like any other pack key.  The ``doc`` metadata is shown by meldkit's reference pages.
    """

    max_per_hand: int = attrs.field(
        default=1, metadata={"doc": "How many times each player may bury per hand."})
    penalty: int = attrs.field(
        default=50, metadata={"doc": "Points each bury costs the player's side at hand end."})
    cards: list[str] = attrs.field(
        factory=list, metadata={"doc": "The cards a player may bury, as card codes or ranks "
                                       "(KS, K); empty: the pack's dead cards (cards.dead). A "
                                       "pack with melds.kinds names them here."})
    replace: bool = attrs.field(
        default=False, metadata={"doc": "Take the top card of the stock in place of the "
                                        "buried card, so the hand keeps its size (needed in "
                                        "a pack with knocking, such as gin)."})


# --------------------------------------------------------------------------- plugin data
# What must survive save/load lives in ``state.ext["bury"]``, which meldkit saves with the
# game (``to_json``) and copies in ``clone()``; it must hold JSON-able values only:
#
#   {"hand": 3,                  # the hand the counts belong to
#    "count": [1, 0, 0, 0]}      # buries per seat in that hand
#
# Counts from an earlier hand are never cleared eagerly: reading them for another hand
# number gives zeros.  Reading must not write, or merely asking for the legal actions
# would change the saved state.  When a hand ends, meldkit copies ``state.ext`` into the
# hand's record (``HandFinal.ext``), which is what ``adjust_scores`` reads.


def _counts_in(ext: dict, hand_number: int, n_players: int) -> list[int]:
    """Buries per seat in hand ``hand_number``, from plugin data ``ext``."""
    data = ext.get(NAME)
    if data is None or data.get("hand") != hand_number:
        return [0] * n_players
    return data["count"]


def _counts(state) -> list[int]:
    """Buries per seat in the current hand."""
    return _counts_in(state.ext, state.hand_number, state.n_players)


def _options(state) -> BuryOptions:
    """The pack's options, already structured and checked by the loader."""
    return state.pack.options


def _suited(state) -> bool:
    """True in a pack with ``melds.kinds`` (the table-melds kernel), whose actions name
    cards with their suits (``bury KS``: card kinds); a canasta pack's name ranks."""
    return bool(state.pack.spec.melds.kinds)


def _named(state):
    """What an action calls a card id: its kind in a suited pack, else its rank."""
    return state.card_kind if _suited(state) else state.card_rank


def _may_bury(state, card: int) -> bool:
    """True for a card the options let a player bury (by default the pack's dead cards)."""
    chosen = _options(state).cards
    if not chosen:
        return state.is_dead(card)
    code = state.card_code(card)
    return code in chosen or (code[:-1] if code != "JK" else code) in chosen


def _dead_ranks(state, seat: int) -> list[int]:
    """What ``bury`` may name for ``seat``: the ranks (A=0 … K=12, JK=13) — in a pack
    with ``melds.kinds``, the card kinds — of which it holds a card it may bury."""
    named = _named(state)
    return sorted({named(c) for c in state.hand_cards(seat) if _may_bury(state, c)})


# --------------------------------------------------------------------------- the action
def legal(state) -> list:
    """The ``bury`` actions open to the player to move (in the draw phase only: the kernel
    asks draw-phase hooks only then).  The kernel still runs ``check`` on each."""
    seat = state.current
    if _counts(state)[seat] >= _options(state).max_per_hand:
        return []
    # actions name ranks, never physical cards; build them through the interning table
    return [state.actions.get(VERB, (rank,)) for rank in _dead_ranks(state, seat)]


def check(state, action) -> Reason | None:
    """None if ``action`` may be played now, else the reason it is refused.

    The kernel has already checked the phase (burying after drawing is ``turn/not-now``),
    that the game is not over, and the action's shape (one rank, no target: see
    ``ActionHook(cards=1)`` below — ``bury 3 3`` is a ``notation/shape`` error).
    """
    seat = state.current
    limit = _options(state).max_per_hand
    if _counts(state)[seat] >= limit:
        return Reason("bury/limit-reached",
                      f"you may bury only {limit} card{'s' if limit != 1 else ''} per hand")
    if action.cards[0] not in _dead_ranks(state, seat):
        rank = str(action).removeprefix(f"{VERB} ")  # the notation names the rank (or card)
        chosen = _options(state).cards
        if chosen:
            return Reason("bury/no-dead-card",
                          f"you hold no {rank} you may bury (you may bury {', '.join(chosen)})")
        dead = ", ".join(state.pack.spec.cards.dead)
        return Reason("bury/no-dead-card", f"you hold no dead {rank} to bury (dead cards: {dead})")
    if _options(state).replace and not state.stock:
        return Reason("bury/stock-empty", "the stock is empty: no card to take in its place")
    return None


def apply(state, action) -> None:
    """Move one dead card of the named rank from the hand to the bottom of the stock.

    ``check`` has passed, so nothing here can fail half-way.  The phase stays ``draw``:
    the player still draws (or takes the pile) afterwards.
    """
    seat = state.current
    named = _named(state)
    card = next(c for c in state.hand_cards(seat)
                if named(c) == action.cards[0] and _may_bury(state, c))
    state.remove_from_hand(seat, card)  # every card must always be in exactly one zone:
    state.put_on_stock(card, bottom=True)  # out of the hand, under the stock
    if _options(state).replace:  # the hand keeps its size: the stock's top card instead
        state.add_to_hand(seat, state.stock.pop())
    counts = list(_counts(state))  # a copy: never change a list read from another hand
    counts[seat] += 1
    data = state.ext.setdefault(NAME, {})
    data["hand"] = state.hand_number
    data["count"] = counts


# --------------------------------------------------------------------------- the plugin
class BuryPlugin(Plugin):
    """The bury plugin: options, one draw-phase action and a scoring adjustment."""

    name = NAME
    options_class = BuryOptions

    def actions(self):
        """One new action type, played in the draw phase."""
        return (ActionHook(verb=VERB, phase="draw", legal=legal, check=check, apply=apply,
                           cards=1, target=False),)

    def adjust_scores(self, state, final, scores):
        """Take ``penalty`` points off a side for every bury its players made this hand.

        meldkit calls this when a hand ends and again whenever a finished hand is rescored
        (``state.rescore(result)``, loading a save), so it reads only the hand's record:
        ``final.ext`` is the plugin data as it stood when the hand ended.
        """
        counts = _counts_in(final.ext, final.hand_number, len(final.team_of))
        penalty = state.pack.options.penalty
        out = []
        for score in scores:  # TeamScore is frozen: make a changed copy
            buries = sum(n for seat, n in enumerate(counts) if final.team_of[seat] == score.team)
            if buries:
                item = ("buried cards", -buries * penalty)
                if _suited(state):  # a table-melds pack: a TableScore, (label, points) items
                    score = attrs.evolve(score, items=score.items + (item,))
                else:
                    score = attrs.evolve(score, adjustments=score.adjustments + (item,))
            out.append(score)
        return out

    def action_universe(self, state):
        """Every bury action the pack can allow at ``state``'s table, for the integer
        action ids (``state.action_space``)."""
        named = _named(state)
        return [state.actions.get(VERB, (x,)) for x in
                sorted({named(c) for c in range(len(state.kind_of)) if _may_bury(state, c)})]

    def view(self, state, player):
        """Each player sees how many buries every seat has left this hand."""
        limit = _options(state).max_per_hand
        return {"buries_left": [limit - n for n in _counts(state)]}

    def validate(self, spec, options):
        """Checks beyond what ``BuryOptions`` types enforce: a message, or a pair
        (key path under ``options:``, message) to point at the offending key."""
        problems = []
        if options.max_per_hand < 1:
            problems.append((("max_per_hand",), f"expected at least 1, got {options.max_per_hand}"))
        if options.penalty < 0:
            problems.append((("penalty",), f"expected 0 or more, got {options.penalty}"))
        for i, code in enumerate(options.cards):
            if code not in meldkit.RANKS:
                try:
                    if meldkit.card_code(meldkit.kind_of_code(code)) == code:
                        continue
                except ValueError:
                    pass
                problems.append((("cards", i), f"{code!r} is not a card code or a rank "
                                                "(KS, K, 10H, JK)"))
        if not options.cards and spec.melds.kinds:
            problems.append((("cards",), "empty, but a pack with melds.kinds has no dead "
                                         "cards: name the cards a player may bury"))
        elif not options.cards and not spec.cards.dead:
            problems.append("the bury plugin needs dead cards to bury, but cards.dead is empty")
        if spec.knock.max_deadwood is not None and not options.replace:
            problems.append((("replace",), "false, but in a pack with knocking every hand "
                                           "keeps its size: set replace: true"))
        return problems


plugin = BuryPlugin()
"""The object the ``meldkit.plugins`` entry point ``bury`` names."""
