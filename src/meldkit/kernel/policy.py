"""A greedy policy for table-meld games (rummy, gin): what :class:`meldkit.bots.GreedyBot`
plays on a pack that declares meld kinds.

It reads only the current player's own cards, the discard pile and the melds on the table,
and the pure meld arithmetic of :mod:`meldkit.kernel.melds`:

* takes the discard when it ends up in a meld (lowers the least deadwood), else draws;
* knocks as soon as it may, and lays the melds of a best arrangement;
* lays off everything it can, then melds;
* in rummy, melds the melds of a best arrangement, lays off, then discards the card that
  leaves the least deadwood — of those, one that pairs with nothing, then the highest.
"""

from __future__ import annotations

from .._actions import Action


def greedy_table_choice(state) -> Action:
    """The greedy action for the current player of a :class:`~meldkit.kernel.table.TableState`."""
    actions = state.legal_actions()
    if len(actions) == 1:
        return actions[0]
    by_type: dict[str, list[Action]] = {}
    for a in actions:
        by_type.setdefault(a.type, []).append(a)
    rules = state.rules.melds
    p = state.current_player
    hand = sorted(state.kind_of[c] for c in state.hands[p])
    phase = state.phase

    if phase in ("first_upcard", "draw", "wall"):
        if "knock" in by_type:
            return by_type["knock"][0]
        takes = [a for a in by_type.get("take", ()) if not a.cards]
        if takes and state.pile:
            top = state.kind_of[state.pile[-1]]
            with_top = rules.min_deadwood(hand + [top], discard=True)
            without = rules.min_deadwood(hand)
            if with_top < without and _top_melds(rules, hand, top):
                return takes[0]
        for t in ("draw", "pass"):
            if t in by_type:
                return by_type[t][0]
        return actions[0]

    if "knock" in by_type:
        return by_type["knock"][0]
    if "add" in by_type:
        return by_type["add"][0]
    if "meld" in by_type:
        melds, _ = rules.best_arrangement(hand)
        legal = {a.cards: a for a in by_type["meld"]}
        for m in sorted(melds, key=len, reverse=True):
            if m in legal:
                return legal[m]
        if phase in ("knock", "layoff"):
            return by_type["meld"][0]
    if "discard" in by_type:
        values = rules.values

        def after(a: Action) -> tuple[int, int, int]:
            card = a.cards[0]
            rest = hand[:]
            rest.remove(card)
            return rules.min_deadwood(rest), _neighbours(card, rest), -values[card]

        return min(by_type["discard"], key=after)
    if "done" in by_type:
        return by_type["done"][0]
    return actions[0]


def _top_melds(rules, hand: list[int], top: int) -> bool:
    """Whether the top card is part of a best arrangement of the hand with it."""
    melds, _ = rules.best_arrangement(hand + [top])
    return any(top in m for m in melds)


def _neighbours(card: int, others: list[int]) -> int:
    """How many of ``others`` could join ``card`` in a meld: same rank, or same suit within
    two ranks (a card that pairs with nothing is the one to let go)."""
    rank, suit = divmod(card, 4)
    n = 0
    for c in others:
        r, s = divmod(c, 4)
        if r == rank or (s == suit and abs(r - rank) <= 2):
            n += 1
    return n
