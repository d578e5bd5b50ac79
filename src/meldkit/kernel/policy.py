"""A greedy policy for table-meld games (rummy, gin): what :class:`meldkit.bots.GreedyBot`
plays on a pack that declares meld kinds.

It reads only the current player's own cards, the discard pile and the melds on the table,
and the pure meld arithmetic of :mod:`meldkit.kernel.melds`:

* takes the discard when it ends up in a meld (lowers the least deadwood), else draws;
* knocks as soon as it may, and lays the melds of a best arrangement;
* before it has met a contract (``initial_meld.melds``), builds toward it: takes, buys and
  discards to leave its hand the fewest cards short of the contract
  (:func:`contract_distance`: the best rank for each set, the best window of one suit for
  each run, wild cards filling in), then by the least deadwood of the contract's kinds
  counted from three cards; and lays the contract when its hand holds it;
* lays off everything it can, then melds;
* in rummy, melds the melds of a best arrangement, lays off, then discards the card that
  leaves the least deadwood — of those, one that pairs with nothing, then the highest;
* in rummy, once the stock has been turned over, it first lets go of **dead** cards:
  cards no meld can hold with the cards still in play for it — its hand, the pile, and
  the cards seen discarded since the hand began (after a whole pass through the stock,
  a card never seen sits in an opponent's hand).  Without this, players holding split
  pairs keep them forever while the high cards cycle through the stock, and the hand
  never ends.
  What it has seen is a :class:`TableMemory` the bot keeps (public actions only).
* in a pack whose melds become books (``books.kinds``: Buraco's canastas), it builds toward
  the books its side still needs to go out (``going_out.required_books``): lays off onto
  the side's melds that can still become one (the longest first), lays the melds of a
  natural arrangement of its hand, then the rest; never makes the side's longest hope of a
  needed book unfit for it, nor lowers a book's kind (a wild card on a clean canasta)
  unless that ends the hand; keeps its wild cards when it discards; and takes a whole
  discard pile (``pile.take: pile``) only when it can lay one of its cards that turn, so
  every take moves cards to the table and taking cannot go round for ever.
"""

from __future__ import annotations

from .._actions import Action
from .._cards import kind_of_code
from .melds import MOST_LISTED_MELDS, arranged_at_most


class TableMemory:
    """What one player has seen of a table-meld hand, from its public actions: every card
    discarded since the hand began, and whether the stock has been turned over.  Feed it
    each position the player decides in (:meth:`update`); it starts again with each hand,
    and on a position that does not follow the last one it saw."""

    __slots__ = ("hand", "read", "seen", "stock", "turned")

    def __init__(self) -> None:
        self.hand = -1
        self.read = 0
        self.seen: set[int] = set()
        self.stock = -1
        self.turned = False

    def update(self, state) -> None:
        """Read the actions since the last position (the discards name their cards)."""
        hand = len(state.hand_results)
        history = state.history
        if hand != self.hand or len(history) < self.read:
            self.hand, self.read, self.turned = hand, len(history), False
            self.seen = set()
            self.stock = len(state.stock)
        for text in history[self.read:]:
            if text.startswith("discard "):
                try:
                    self.seen.add(kind_of_code(text[8:]))
                except ValueError:
                    pass
        self.read = len(history)
        if len(state.stock) > self.stock:  # the pile became the stock
            self.turned = True
        self.stock = len(state.stock)

    def live(self, state, hand: list[int]) -> set[int]:
        """The cards still in play for this player: in ``hand``, on the pile, or seen
        discarded and not melded since (they circulate through the stock)."""
        table = {state.kind_of[c] for m in state.melds for c in m.cards}
        return (self.seen | set(hand) | {state.kind_of[c] for c in state.pile}) - table

    def dead(self, state, card: int, hand: list[int], live: set[int] | None = None) -> bool:
        """After the stock turned over: no meld can hold ``card`` with the cards still in
        play (:meth:`live`, computed from ``hand`` unless given).  Every other card is on
        the table already or sits in an opponent's hand."""
        if not self.turned:
            return False
        if live is None:
            live = self.live(state, hand)
        rank, suit = divmod(card, 4)
        if sum(1 for s in range(4) if s != suit and rank * 4 + s in live) >= 2:
            return False  # a set of its rank
        lo = hi = rank
        while lo > 0 and (lo - 1) * 4 + suit in live:
            lo -= 1
        while hi < 12 and (hi + 1) * 4 + suit in live:
            hi += 1
        return hi - lo + 1 < 3  # no run of three through it


def greedy_table_choice(state, memory: TableMemory | None = None) -> Action:
    """The greedy action for the current player of a :class:`~meldkit.kernel.table.TableState`
    (``memory``: what that player has seen, kept across its decisions)."""
    if memory is not None:
        memory.update(state)
    actions = state.legal_actions()
    if len(actions) == 1:
        return actions[0]
    if state.rules.wild_rank is not None:  # cards.turned_wild: actions name roles (*C)
        played = {state._phys_action(a): a for a in actions}
        return played[_greedy(state, list(played), memory)]
    return _greedy(state, actions, memory)


def _greedy(state, actions: list[Action], memory: TableMemory | None) -> Action:
    by_type: dict[str, list[Action]] = {}
    for a in actions:
        by_type.setdefault(a.type, []).append(a)
    breaks = by_type.pop("break", ())
    if breaks or "restore" in by_type:  # (melds.rearrange) breaking is planned apart
        if "restore" in by_type and not state.loose:
            del by_type["restore"]
        actions = [a for t in by_type for a in by_type[t]]
    p = state.current_player
    opening = not state.opened[p]
    # a player who has not met the contract builds toward its kinds alone
    rules = _building_rules(state._contract_melds_of(p)) if opening else state.rules.melds
    hand = sorted(state.kind_of[c] for c in state.hands[p])
    phase = state.phase
    need = state._still_needed() if opening and state._contract_of(p) else None

    def missing(cards: list[int]) -> int:  # cards short of the contract still to lay
        return contract_distance(state.rules.melds, cards, need) if need else 0

    def short_after_taking(top: int) -> int:  # ... holding the top card, one card let go
        with_top = hand + [top]
        return min(missing(with_top[:i] + with_top[i + 1:]) for i in range(len(hand)))

    if phase == "buy":  # buy a discard that builds the contract, while one has not opened
        top = state.kind_of[state.pile[-1]]
        helps = opening and _top_melds(rules, hand, top) and (
            _deadwood(rules, hand + [top], True) < _deadwood(rules, hand))
        if need:
            helps = missing(hand + [top]) < missing(hand)
        return by_type["buy" if helps else "pass"][0]
    if opening and phase == "play":
        keep = 1 if state.rules.requires_discard else 0
        plan = (contract_plan(state.rules.melds, hand, state._still_needed(), keep)
                if state._contract_of(p) else _arrangement(rules, hand))
        short = state._opening_minimum(p) - state._pending_value()
        if plan and sum(map(state._meld_points, plan)) < short:
            plan = None  # not worth the minimum yet: keep building
        if state.rules.all_at_once:  # the whole hand or nothing
            melds = _arrangement(state.rules.melds, hand)
            plan = melds if len(hand) - sum(map(len, melds)) <= keep else None
        legal = {a.cards: a for a in by_type.get("meld", ())}
        for m in plan or ():
            if m in legal:
                return legal[m]
        if "withdraw" in by_type:
            return by_type["withdraw"][0]
        by_type.pop("meld", None)
        by_type.pop("add", None) if not state.rules.lay_off_before else None

    if phase in ("first_upcard", "draw", "wall"):
        if "knock" in by_type:
            return by_type["knock"][0]
        deep = [a for a in by_type.get("take", ()) if a.cards]
        if deep and state.rules.tracks_laid and not need:
            best = _deep_take(state, rules, hand, deep)
            if best is not None:
                return best
        takes = [a for a in by_type.get("take", ()) if not a.cards]
        if takes and state.pile and state.rules.take == "pile" and state.rules.book_kinds:
            return takes[0] if _pile_worth(state, hand) else by_type.get("draw", takes)[0]
        if takes and state.pile and need:
            if short_after_taking(state.kind_of[state.pile[-1]]) < missing(hand):
                return takes[0]
        elif takes and state.pile:
            top = state.kind_of[state.pile[-1]]
            with_top = _deadwood(rules, hand + [top], True)
            without = _deadwood(rules, hand)
            if with_top < without and _top_melds(rules, hand, top):
                return takes[0]
        for t in ("draw", "pass"):
            if t in by_type:
                return by_type[t][0]
        return actions[0]

    if "knock" in by_type:
        return by_type["knock"][0]
    if phase == "play" and state.loose:  # (melds.rearrange) the loose cards go back first
        return _place_loose(state, rules, hand, by_type)
    if breaks:
        worth = _break_worth(state, rules, hand, breaks)
        if worth is not None:
            return worth
    if phase == "play" and state.rules.book_kinds:
        return _books_choice(state, by_type, hand)
    if "trade" in by_type:  # a wild card won back (melds.lay_off.win_back) is worth a natural
        return by_type["trade"][0]
    if "add" in by_type:
        return by_type["add"][0]
    if "meld" in by_type:
        melds = _arrangement(rules, hand)
        legal = {a.cards: a for a in by_type["meld"]}
        for m in sorted(melds, key=len, reverse=True):
            if m in legal:
                return legal[m]
        if phase in ("knock", "layoff"):
            return by_type["meld"][0]
    if "discard" in by_type:
        values = rules.values
        stalled = memory is not None and memory.turned and state.rules.knock is None
        live = memory.live(state, hand) if stalled else None  # the same for every discard

        def after(a: Action) -> tuple[int, int, int, int, int]:
            card = a.cards[0]
            rest = hand[:]
            rest.remove(card)
            dead = 0 if stalled and memory.dead(state, card, rest, live) else 1
            return (missing(rest), dead, _deadwood(rules, rest), _neighbours(card, rest),
                    -values[card])

        return min(by_type["discard"], key=after)
    for t in ("done", "draw", "pass", "restore"):  # (turn.play_or_draw: nothing to play)
        if t in by_type:
            return by_type[t][0]
    return actions[0]


MOST_BREAKS_WEIGHED = 8
"""Most melds the greedy bot weighs breaking up in one decision (``melds.rearrange``)."""


def _break_worth(state, rules, hand: list[int], breaks: list[Action]) -> Action | None:
    """The ``break`` whose meld's cards, with the hand, arrange into melds that hold every
    one of them and more of the hand's cards than the hand's own melds do (the most such;
    None: no break pays). One meld at a time, the first :data:`MOST_BREAKS_WEIGHED`."""
    from collections import Counter

    placed = sum(map(len, _arrangement(rules, hand)))
    best: tuple[int, Action] | None = None
    for a in breaks[:MOST_BREAKS_WEIGHED]:
        kinds = [state.kind_of[c] for c in state.meld_by_id(a.target).cards]
        covered = Counter(k for meld in _arrangement(rules, hand + kinds) for k in meld)
        if Counter(kinds) - covered:
            continue  # a card of the meld would be left loose
        gain = sum(covered.values()) - len(kinds)
        if gain > placed and (best is None or gain > best[0]):
            best = (gain, a)
    return None if best is None else best[1]


def _place_loose(state, rules, hand: list[int], by_type: dict) -> Action:
    """With cards loose (``melds.rearrange``): the meld of the best arrangement of hand and
    loose cards that holds the most loose ones, else a lay-off of a loose card, else
    ``restore``."""
    from collections import Counter

    loose = Counter(state.kind_of[c] for c in state.loose)
    legal = {a.cards: a for a in by_type.get("meld", ())}
    melds = _arrangement(rules, hand + list(loose.elements()))
    for meld in sorted(melds, key=lambda m: (-sum(k in loose for k in m), -len(m))):
        if meld in legal and any(k in loose for k in meld):
            return legal[meld]
    for a in by_type.get("add", ()):
        if a.cards[0] in loose:
            return a
    return by_type["restore"][0]


_BUILDING: dict[int, tuple[object, object]] = {}
"""The building rules of each contract's meld rules (:func:`_building_rules`), by id."""


def _building_rules(contract):
    """What a player who has not met the contract builds toward: the contract's kinds
    (``contract``, their meld rules), each counted from 3 cards (a run of seven is built
    three cards at a time, and the arithmetic of the contract's own sizes cannot tell four
    in a row from four apart)."""
    hit = _BUILDING.get(id(contract))
    if hit is not None and hit[0] is contract:
        return hit[1]
    import attrs

    from .melds import meld_rules

    kinds = tuple(attrs.evolve(k, min_size=min(k.min_size, 3)) for k in contract.kinds)
    if all(k.min_size == c.min_size for k, c in zip(kinds, contract.kinds)):
        built = contract
    else:
        built = meld_rules(kinds, contract.wild_kinds, contract.values,
                           getattr(contract, "order", None))
    if len(_BUILDING) > 256:
        _BUILDING.clear()
    _BUILDING[id(contract)] = (contract, built)
    return built


def contract_distance(rules, hand: list[int], need: list[int]) -> int:
    """Cards ``hand`` (card kinds) is short of one meld of each kind in ``need`` (kind
    indexes of ``rules.kinds``): each kind, the most demanding first, takes the rank (a
    set) or the window of its length in one suit (a run) where the hand holds the most of
    it, those cards then spent; the wild cards fill what each kind's ``max_wilds`` lets
    them.  A measure for building, not a search: 0 is a hand that can lay the contract.

    >>> from meldkit.kernel.melds import MeldKind, MeldRules
    >>> from meldkit._cards import kind_of_code
    >>> mr = MeldRules((MeldKind("set", "set", 3), MeldKind("run7", "run", 7, max_wilds=2)),
    ...                [kind_of_code("JK")])
    >>> hand = [kind_of_code(c) for c in "3H 4H 5H 7H 9S 9D JK".split()]
    >>> contract_distance(mr, hand, [0, 1]), contract_distance(mr, hand, [1])
    (3, 2)
    """
    from collections import Counter

    wild = rules.wild_kinds
    counts = Counter(k for k in hand if k not in wild and k < 52)
    wilds = sum(1 for k in hand if k in wild)
    order = list(getattr(rules, "order", range(13)))
    short = fill = 0
    for i in sorted(need, key=lambda i: -rules.kinds[i].min_size):
        kind = rules.kinds[i]
        size = kind.min_size
        best: list[int] | None = None
        if kind.type == "set":
            for r in order:
                cards = [r * 4 + s for s in range(4)
                         for _ in range(min(counts[r * 4 + s], 1 if kind.distinct_suits else 9))]
                if best is None or len(cards) > len(best):
                    best = cards[:size]
        else:
            ranks = order + [0] if order[0] == 0 and kind.ace in (
                "high", "both", "around") else order  # (an ace above the king)
            lows = range(1, len(ranks) - size + 1) if kind.ace == "high" else range(
                len(ranks) - size + 1)
            for s in range(4):
                for lo in lows:
                    cards = [r * 4 + s for r in ranks[lo:lo + size] if counts[r * 4 + s]]
                    if best is None or len(cards) > len(best):
                        best = cards
        best = best or []
        counts.subtract(best)
        missing = max(size - len(best), 0)
        short += missing
        fill += min(missing, kind.max_wilds)
    return short - min(fill, wilds)


def contract_plan(rules, hand: list[int], need: list[int], keep: int = 0
                  ) -> list[tuple[int, ...]] | None:
    """Melds of ``hand`` (card kinds), one of each meld kind in ``need`` (kind indexes of
    ``rules.kinds``), using no card twice and leaving at least ``keep`` cards; the plan that
    lays the most cards, or None when the hand cannot meet the contract.

    >>> from meldkit.kernel.melds import MeldKind, MeldRules
    >>> from meldkit._cards import kind_of_code
    >>> mr = MeldRules((MeldKind("set", "set", 3), MeldKind("run", "run", 4)), frozenset(),
    ...                [1] * 53)
    >>> hand = [kind_of_code(c) for c in "5H 5S 5D 9C 9S 9D 2C".split()]
    >>> [len(m) for m in contract_plan(mr, hand, [0, 0])], contract_plan(mr, hand, [1])
    ([3, 3], None)
    """
    from collections import Counter

    by_kind: dict[int, list[tuple[int, ...]]] = {}
    for meld in rules.melds_in(hand, most=MOST_LISTED_MELDS):
        for kind in set(need):  # a meld counts for any kind it forms
            if rules.match_as(kind, meld) is not None:
                by_kind.setdefault(kind, []).append(meld)
    if any(k not in by_kind for k in need):
        return None
    best: list[tuple[int, ...]] | None = None
    best_size = -1
    left = Counter(hand)

    def search(i: int, chosen: list[tuple[int, ...]], used: int) -> None:
        nonlocal best, best_size
        if i == len(need):
            if used > best_size and len(hand) - used >= keep:
                best, best_size = chosen[:], used
            return
        for meld in by_kind[need[i]]:
            cards = Counter(meld)
            if all(left[c] >= n for c, n in cards.items()):
                left.subtract(cards)
                chosen.append(meld)
                search(i + 1, chosen, used + len(meld))
                chosen.pop()
                left.update(cards)

    search(0, [], 0)
    return best


def _deep_take(state, rules, hand: list[int], deep: list[Action]) -> Action | None:
    """Where the cards laid score (Rummy 500's ``laid``), the deep take (``take 7H``: the
    card and every card above it) that moves the most points into melds — the taken cards'
    value less the deadwood they leave in the hand — the taken card melded with the hand,
    as it must be; None where none moves any (a pile past the search's bound is not
    weighed).  Weighing the deadwood left against the points melded did worse against the
    random bot (0.53 and 0.62 of 120 games, where taking for the points melded alone won
    0.69; the old greedy bot, which never took deep, won 0.15)."""
    pile = [state.kind_of[c] for c in state.pile]
    values = rules.values
    base = _deadwood(rules, hand)
    best, most = None, 0
    for a in deep:
        kind = a.cards[0]
        i = max(j for j in range(len(pile)) if pile[j] == kind)
        both = hand + pile[i:]
        if len(both) > arranged_at_most(rules):
            continue
        if not any(kind in m for m in _arrangement(rules, both)):
            continue
        added = _deadwood(rules, both) - base  # (deadwood the take leaves in the hand)
        melded = sum(values[k] for k in pile[i:]) - added
        if melded > most:
            best, most = a, melded
    return best


def _top_melds(rules, hand: list[int], top: int) -> bool:
    """Whether the top card is part of a best arrangement of the hand with it."""
    return any(top in m for m in _arrangement(rules, hand + [top]))


def _deadwood(rules, hand: list[int], discard: bool = False) -> int:
    """The least deadwood of ``hand`` (after the best discard, with ``discard``); 0 past
    :data:`~meldkit.kernel.melds.MOST_CARDS_ARRANGED` cards, as the views show it: the
    exact search grows too fast for a bot's move on a hand of many wild cards (a 39-card
    one took 1 s a decision, a 60-card one 3.7 s)."""
    return 0 if len(hand) > arranged_at_most(rules) else rules.min_deadwood(hand,
                                                                            discard=discard)


def _arrangement(rules, hand: list[int]) -> list[tuple[int, ...]]:
    """A best arrangement of ``hand`` into melds; past
    :data:`~meldkit.kernel.melds.MOST_CARDS_ARRANGED` cards, the largest disjoint melds of
    the hand's bounded listing (:data:`~meldkit.kernel.melds.MOST_LISTED_MELDS`)."""
    if len(hand) <= arranged_at_most(rules):
        return list(rules.best_arrangement(hand)[0])
    from collections import Counter

    left, out = Counter(hand), []
    for meld in sorted(rules.melds_in(hand, most=MOST_LISTED_MELDS), key=len, reverse=True):
        need = Counter(meld)
        if all(left[k] >= n for k, n in need.items()):
            left -= need
            out.append(meld)
    return out


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


# ---------------------------------------------------------------------- books (canastas)
# Packs whose melds become books (``books.kinds``), above all where going out needs books
# of some kinds (``going_out.required_books``): the side builds toward the books it still
# lacks and never spoils its best hope of one; the whole pile is taken when it helps.

_BIG = 40
"""Past this many natural cards the policy's deadwood measures are skipped (the exact
arrangement search grows too fast): such a hand melds the largest melds first."""


def _big(mr) -> int:
    """:data:`_BIG`, or the rules' own bound on their searches where lower (a flush or a
    run of mixed suits: :attr:`~meldkit.kernel.melds.MeldRules.arrange_limit`)."""
    return _BIG if mr.arrange_limit is None else min(_BIG, mr.arrange_limit)


def _targets(state, team: int) -> set[int]:
    """The book kinds side ``team`` still needs to go out, with the kinds that count as
    them (``counts_as``); empty when it needs none."""
    from .._rules import missing_books

    rules = state.rules
    if not rules.required_book_counts:
        return set()
    kinds = rules.book_kinds
    held = state._books_of(team)
    if not missing_books(kinds, rules.required_book_counts, [k for k in held if k >= 0]):
        return set()
    need = {i for i, _ in rules.required_book_counts}
    return need | {k.index for k in kinds if k.counts_as in need}


def _potential(state, match) -> int | None:
    """The book kind a meld shaped ``match`` would be at book size (or at its own size,
    if larger) with the wild cards it holds now; None: no kind."""
    size = max(state.rules.book_size, len(match.cards))
    return state._book_kind(size, match, state.rules.melds.wilds_in(match))


def _book_value(state, kind: int | None) -> int:
    return state.rules.book_kinds[kind].value if kind is not None and kind >= 0 else 0


def _books_choice(state, by_type: dict[str, list[Action]], hand: list[int]) -> Action:
    """The play phase of a pack with books: lay off onto the melds that may still become
    a book the side needs (the longest first), lay the melds a natural arrangement of the
    hand finds, then the other lay-offs and melds; never make the side's best hope of a
    needed book (its longest candidate) unfit for it, nor lower a book's kind below what
    it scores, unless that ends the hand; then discard."""
    p = state.current_player
    team = state.team_of[p]
    rules = state.rules
    mr = rules.melds
    wild = rules.wild
    targets = _targets(state, team)
    side = [m for m in state.melds if state.team_of[m.owner] == team]
    hopes = [m for m in side if _potential(state, m.match) in targets] if targets else []
    best_hope = max(hopes, key=lambda m: (len(m.cards), m.match.is_run, -m.id),
                    default=None)
    size = len(hand)
    scored: list[tuple[tuple, Action]] = []
    for a in by_type.get("add", ()):
        m = state.meld_by_id(a.target)
        fit = state._fit(m, a.cards[0])
        if fit is None:
            continue
        before, after = _potential(state, m.match), _potential(state, fit[0])
        ends = size == 1
        if targets and m is best_hope and after not in targets and not ends:
            continue  # keeps the side's best hope of a needed book clean
        if (len(m.cards) >= rules.book_size and not ends
                and _book_value(state, after) < _book_value(state, before)):
            continue  # spoils a book
        if targets and before in targets and after in targets:
            scored.append(((0, -len(m.cards), m.id), a))
        else:
            scored.append(((2, a.cards[0] in wild, -len(m.cards), m.id), a))
    melds = by_type.get("meld", ())
    if melds:
        nat = [k for k in hand if k not in wild]
        plan = set(mr.best_arrangement(nat)[0]) if len(nat) <= _big(mr) else set()
        for a in melds:
            match = mr.match(a.cards)
            clean = targets and _potential(state, match) in targets
            first = 1 if (clean or not targets) and (a.cards in plan or not plan) else 3
            scored.append(((first, a.cards not in plan, -len(a.cards), a.cards), a))
    if scored:
        return min(scored, key=lambda t: t[0])[1]
    if "discard" in by_type:
        return min(by_type["discard"], key=lambda a: _discard_key(state, a, hand, wild))
    return by_type.get("done", [None])[0] or next(iter(by_type.values()))[0]


def _discard_key(state, a: Action, hand: list[int], wild) -> tuple[int, int, int, int]:
    """What letting ``a``'s card go costs: keep wild cards, then the natural deadwood left
    (skipped in a big hand), the cards it pairs with, and let the highest go first."""
    card = a.cards[0]
    rest = [k for k in hand if k not in wild]
    if card in rest:
        rest.remove(card)
    dead = state.rules.melds.min_deadwood(rest) if len(rest) <= _big(state.rules.melds) else 0
    return card in wild, dead, _neighbours(card, rest), -state.rules.values[card]


def _pile_worth(state, hand: list[int]) -> bool:
    """Whether taking the whole pile lets the player lay at least one of its cards this
    turn: a natural card of it melds with the hand, or one fits a meld of the side (so a
    pile taken always moves cards to the table, and taking cannot go round for ever)."""
    rules = state.rules
    wild = rules.wild
    p = state.current_player
    pile = [state.kind_of[c] for c in state.pile]
    keep = 2 if (_targets(state, state.team_of[p]) and not (
        rules.reserve and state._reserve_waiting(p))) else 0
    if len(hand) + len(pile) - 1 < keep:
        return False
    for k in set(pile) - wild:  # (a wild card the play may keep off the side's best hope)
        if any(state._may_lay_off_on(p, m) and state._fit(m, k) is not None
               for m in state.melds):
            return True
    if len(hand) + len(pile) - 3 < keep:
        return False
    nat_hand = [k for k in hand if k not in wild]
    nat_pile = [k for k in pile if k not in wild]
    if not nat_pile:
        return False
    both = nat_hand + nat_pile
    mr = rules.melds
    if len(both) > _big(mr):
        return True
    pile_value = sum(rules.values[k] for k in nat_pile)
    return mr.min_deadwood(both) < mr.min_deadwood(nat_hand) + pile_value
