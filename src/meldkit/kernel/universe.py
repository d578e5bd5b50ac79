"""The game-AI hooks of the two kernels: every action a pack can allow (the integer action
space), the observation layout, and the write a resampled deal makes.

:class:`~meldkit.RummyState` (the canasta kernel) and :class:`~meldkit.kernel.table.TableState`
(the table-melds kernel) implement ``action_universe()``, ``observation_layout()`` and
``set_zone_cards(assignment)`` with the functions here, as any engine does (see *Engine
plugins*), so that :mod:`meldkit.ai` reads the contract only and never imports an engine.
This module imports neither engine: the table kernel passes in its action interner.
"""

from __future__ import annotations

import struct
from array import array
from collections import Counter

from .._actions import (
    ADD,
    DISCARD,
    DRAW,
    END,
    EXTEND,
    MELD,
    PICKUP,
    RUN,
    TAKE,
    WITHDRAW,
    Action,
    seq_target,
)
from .._cards import N_RANKS, card_code, rank_of_kind
from .._rules import WILD, OpeningMinimum
from ..ai.action_space import ActionSpaceError, sorted_actions
from ..ai.observation import ObservationSpec, fill_scores, kinds_index, rel
from .melds import MOST_CARDS_ARRANGED, TooManyMelds, arranged_at_most, shown_deadwood

MAX_MELD_ACTIONS = 60_000
"""Most meld actions (in the canasta kernel, melds and lay-offs) an integer action space
lists; the bundled packs have at most 28,193 actions in all (Pony Canasta at 16 players).
Past it the pack has no integer action space (:func:`too_many_melds`, found in well under
a second), so that a save, which records the space's digest when there is one, never
waits on a universe of millions (rummy 500 over ten decks: 590,000 melds, 15 s to list;
over a hundred, never; Pony Canasta at 16 players with 20 wild cards a meld: 650,000
actions, 23 s)."""


def too_many_melds(state) -> ActionSpaceError:
    """The refusal of an integer action space past :data:`MAX_MELD_ACTIONS`."""
    return ActionSpaceError(
        f"{state.pack.name} at {state.n_players} players allows more than "
        f"{MAX_MELD_ACTIONS:,} meld actions (sets over many decks, many wild cards in a "
        "meld, or wild cards named by role multiply them; lay-offs onto as many melds as "
        "the deck could make): it has no integer action space; play it with actions or "
        "notation")


# --------------------------------------------------------------------------- the canasta kernel


def canasta_universe(state) -> list[Action]:
    """Every action a canasta-kernel pack can allow at ``state``'s table (with the actions
    its plugin's ``action_universe(state)`` hook lists for the verbs it adds)."""
    rules = state.rules
    if rules.hooks:
        plugin = rules.plugin
        hook = getattr(plugin, "action_universe", None)
        if hook is None:
            raise ActionSpaceError(
                f"pack {state.pack.name!r}: plugin {plugin.name!r} adds the verbs "
                f"{', '.join(sorted(rules.hooks))} but has no action_universe(state) hook "
                "listing their actions, so the pack has no integer action ids")
        extra = list(hook(state))
    else:
        extra = []
    space = rules.action_space
    look = space.lookup
    held = [0] * (N_RANKS + 1)
    for k in state.kind_of:
        if not rules.is_bonus_kind[k]:
            held[rank_of_kind(k)] += 1
    wild_counts = [held[w] for w in rules.wild_ranks]
    out = [look(DRAW), look(END), look(PICKUP), look(WITHDRAW), look(TAKE)]
    for r in range(N_RANKS):
        if held[r] and not rules.suits_matter:  # else a discard names its suit
            out.append(look(DISCARD, (r,)))
        if held[r] >= 2:
            out.append(look(TAKE, (r, r)))
        if rules.is_natural_rank[r] and held[r]:
            for w in rules.wild_ranks:
                if held[w]:
                    out.append(look(TAKE, space.canonical((r, w))))
    mixes = rules.mixes_for(wild_counts)
    total_cards = sum(held)
    for new in (True, False):
        for slot in rules.meld_slots:
            room = min(rules.max_meld_size, total_cards)
            if new:
                lo, least = rules.min_naturals, rules.min_size
            else:
                lo, least = 0, 1
            max_w = room if slot == WILD else rules.slot_max_wilds[slot]
            if slot == WILD:
                lo = hi = 0
            else:
                hi = min(held[slot], room)
            for n in range(lo, hi + 1):
                if len(out) > MAX_MELD_ACTIONS:
                    raise too_many_melds(state)
                for mix, w in mixes:
                    total = n + w
                    if w > max_w or total > room or total < least:
                        continue
                    cards = [slot] * n if slot != WILD else []
                    for c, wr in zip(mix, rules.wild_ranks):
                        cards.extend([wr] * c)
                    cards_t = space.canonical(cards)
                    out.append(look(MELD, cards_t) if new else look(ADD, cards_t, slot))
    if rules.suits_matter:
        out.extend(look(DISCARD, (k,)) for k in sorted(set(state.kind_of))
                   if not rules.is_bonus_kind[k])
    out.extend(sequence_universe(rules, space, state.kind_of))
    out.extend(extra)
    return sorted_actions(out, (DRAW, END, PICKUP, TAKE, WITHDRAW, DISCARD, MELD, ADD, RUN,
                                EXTEND))


def sequence_universe(rules, space, kind_of) -> list[Action]:
    """Every ``run``, ``extend`` and ``take to <sequence>`` of a pack with
    ``melds.sequences`` (none for other packs)."""
    if not rules.sequences:
        return []
    look = space.lookup
    ranks, n = rules.seq_ranks, len(rules.seq_ranks)
    most, least = rules.seq_max, rules.seq_min
    present = set(kind_of)
    out = []
    for s in range(4):
        if not all(r * 4 + s in present for r in ranks):
            continue  # a deck without some card of the suit: its sequences are not listed
        for lo in range(n):
            for hi in range(lo + least - 1, min(n, lo + most)):
                out.append(look(RUN, tuple(ranks[i] * 4 + s for i in range(lo, hi + 1))))
                size = hi - lo + 1
                if size >= most:
                    continue
                target = seq_target(s, lo, hi)
                if lo > 0 or hi < n - 1:
                    out.append(look(TAKE, (), target))
                for a in range(lo + 1):
                    for b in range(n - hi):
                        if 0 < a + b <= most - size:
                            pos = [*range(lo - a, lo), *range(hi + 1, hi + 1 + b)]
                            out.append(look(EXTEND, tuple(ranks[i] * 4 + s for i in pos), target))
    return out


_CANASTA_PHASES = ("draw", "play", "over")


def canasta_spec(state) -> ObservationSpec:
    """The observation layout of a canasta-kernel table."""
    kinds, _ = kinds_index(state.kind_of)
    n, nk, nt = state.n_players, len(kinds), state.n_teams
    slots = N_RANKS + 1
    s = ObservationSpec("rummy", [card_code(k) for k in kinds])
    s.add("hand", nk, "own hand: count of each card kind")
    s.add("pile_top", nk, "the top card of the pile (one-hot; zeros when empty)")
    s.add("pile_size", 1, "cards in the discard pile")
    s.add("pile_frozen", 1, "1 when the pile is frozen")
    s.add("melds", nt * slots, "cards on each team's melds by rank slot (relative team x "
          "A..K, JK, wild meld)")
    s.add("meld_wilds", nt * slots, "wild cards in each team's melds by rank slot")
    s.add("meld_closed", nt * slots, "1 where a team's meld of that slot is closed")
    s.add("melded", nt, "1 when the team has made its initial meld (relative team)")
    s.add("bonus", n, "bonus cards laid out by each seat (relative seat)")
    s.add("hand_sizes", n, "cards in each seat's hand (relative seat)")
    s.add("reserve_sizes", n, "cards in each seat's face-down reserve (relative seat)")
    s.add("out", n, "1 for a seat that has left the hand (relative seat)")
    s.add("stock", 1, "cards left in the stock")
    s.add("scores", nt, "each team's score (relative team)")
    s.add("phase", len(_CANASTA_PHASES), "the phase, one-hot: " + ", ".join(_CANASTA_PHASES))
    s.add("to_move", n, "the seat to act, one-hot (relative seat)")
    s.add("pending", 1, "1 while an initial meld is pending (below the minimum)")
    s.add("hand_number", 1, "the hand being played (1, 2 …)")
    if state.rules.sequences:
        s.add("sequences", nt * 4 * len(state.rules.seq_ranks),
              "cards in each team's suited sequences (relative team x suit C, D, H, S x "
              "place in melds.sequences.ranks)")
    return s


def canasta_fill(state, p: int, spec: ObservationSpec, out: array) -> None:
    """Write what seat ``p`` sees into ``out`` (zeros, laid out by :func:`canasta_spec`)."""
    _, idx = kinds_index(state.kind_of)
    n, nt, kind_of = state.n_players, state.n_teams, state.kind_of
    slots = N_RANKS + 1
    b = spec["hand"].start
    for cards in state.hands[p]:
        for c in cards:
            out[b + idx[kind_of[c]]] += 1
    if state.pile:
        out[spec["pile_top"].start + idx[kind_of[state.pile[-1]]]] = 1
    out[spec["pile_size"].start] = len(state.pile)
    out[spec["pile_frozen"].start] = 1 if state.pile_frozen else 0
    t0 = state.team_of[p]
    for t in range(nt):
        rt = (t - t0) % nt
        for m in state.melds[t]:
            if m.slot >= slots:  # a suited sequence
                base = spec["sequences"].start + (rt * 4 + m.suit) * len(state.rules.seq_ranks)
                for q in range(m.lo, m.hi + 1):
                    out[base + q] += 1
                continue
            i = rt * slots + m.slot
            out[spec["melds"].start + i] += len(m.cards)
            out[spec["meld_wilds"].start + i] += m.wild
            if m.closed:
                out[spec["meld_closed"].start + i] = 1
        out[spec["melded"].start + rt] = 1 if state.melded[t] else 0
    for q in range(n):
        rq = rel(p, q, n)
        out[spec["bonus"].start + rq] = len(state.bonus[q])
        out[spec["hand_sizes"].start + rq] = state.hand_size[q]
        out[spec["reserve_sizes"].start + rq] = len(state.reserves[q])
        out[spec["out"].start + rq] = 1 if state.out[q] else 0
    out[spec["stock"].start] = len(state.stock)
    fill_scores(state, p, spec, out)
    out[spec["phase"].start + _CANASTA_PHASES.index(state.phase)] = 1
    if state.phase != "over":
        out[spec["to_move"].start + rel(p, state.current, n)] = 1
    out[spec["pending"].start] = 1 if state.pending else 0
    out[spec["hand_number"].start] = state.hand_number


CANASTA_LAYOUT = (canasta_spec, canasta_fill)
"""``RummyState.observation_layout()``: the spec and fill functions."""


def canasta_set_zone_cards(s, assignment: dict[tuple[str, int], int]) -> None:
    """Put card ``c`` at each hidden position ``(zone, index)`` of ``assignment`` (a
    resampled deal); a hand is re-bucketed by rank afterwards."""
    flat = {f"hand:{p}": [c for cards in s.hands[p] for c in cards]
            for p in range(s.n_players)}
    for (z, i), c in assignment.items():
        if z == "stock":
            s.stock[i] = c
        elif z.startswith("reserve:"):
            s.reserves[int(z[8:])][i] = c
        elif z.startswith("hand:"):
            flat[z][i] = c
        else:
            raise ValueError(f"cannot resample zone {z}")
    for p in range(s.n_players):
        buckets = [[] for _ in range(N_RANKS)]
        for c in flat[f"hand:{p}"]:
            buckets[s.rank_of[c]].append(c)
        s.hands[p] = buckets


# --------------------------------------------------------------------------- table melds


def table_universe(state, action) -> list[Action]:
    """Every action a table-melds pack can allow at ``state``'s table; ``action`` is the
    kernel's interner (``action(type, cards, target)``)."""
    rules = state.rules
    kinds = sorted(state.kind_of)
    distinct = sorted(set(kinds))
    out = [action(v) for v in ("draw", "take", "pass", "knock", "done")]
    buying, contract = table_extras(state.pack)
    out += [action("buy")] if buying else []
    specs = (state.pack.spec, *(d.spec for d in state.pack.deals))
    opening = contract or any(OpeningMinimum(s.initial_meld) or s.initial_meld.all_at_once
                              for s in specs)  # (pending melds a player may withdraw)
    out += [action("withdraw")] if opening else []
    out += [action("drop")] if any(s.turn.drop for s in specs) else []
    out += [action("discard", (k,)) for k in distinct]
    if rules.take == "deep":
        out += [action("take", (k,)) for k in distinct]
    melds: dict = {}  # every deal's melds (a schedule may change the wild cards)
    try:
        # Counted as multisets first: a meld has one laid order per meld rules, so too
        # many multisets is too many melds, found before the costly ordering.
        found, shapes = [], set()
        for mr in dict.fromkeys(type(rules).of(pack).melds  # (equal meld rules listed once)
                                for pack in dict.fromkeys((state.pack, *state.pack.deals))):
            found.append((mr, mr.meld_multisets(_meldable_copies(mr, kinds),
                                                limit=MAX_MELD_ACTIONS)))
            shapes.update(found[-1][1])
            if len(shapes) > MAX_MELD_ACTIONS:
                raise TooManyMelds(f"more than {MAX_MELD_ACTIONS} melds")
        for mr, multisets in found:
            for m in multisets:
                melds[mr.laid(m)] = None
            if len(melds) > MAX_MELD_ACTIONS:
                raise TooManyMelds(f"more than {MAX_MELD_ACTIONS} melds")
        role_melds = (_role_melds(type(rules).of(state.pack), kinds,
                                  MAX_MELD_ACTIONS - len(melds))
                      if rules.turned_wild != "none" else ())
    except TooManyMelds:
        raise too_many_melds(state) from None
    out += [action("meld", m) for m in melds]
    if rules.turned_wild != "none":  # cards of the deal's turned wild rank, by role
        out += [action("meld", m) for m in role_melds]
        distinct = distinct + list(range(53, 57))
        out += [action("discard", (k,)) for k in range(53, 57)]
        if rules.take == "deep":
            out += [action("take", (k,)) for k in range(53, 57)]
    most_melds = len(kinds) // max(1, min(k.min_size for k in rules.kinds))  # (meld ids)
    adds = rules.lay_off != "none" or rules.knock is not None
    trades = adds and any(type(rules).of(pack).win_back
                          for pack in dict.fromkeys((state.pack, *state.pack.deals)))
    breaks = any(s.melds.rearrange for s in specs)
    if len(out) + most_melds * (len(distinct) * (adds + trades) + breaks) > MAX_MELD_ACTIONS:
        raise too_many_melds(state)  # (lay-offs onto every meld id a deal could lay)
    if adds:
        out += [action("add", (k,), mid) for mid in range(1, most_melds + 1) for k in distinct]
        if trades:
            naturals = [k for k in distinct if k != 52]  # a wild card won back by its card
            out += [action("trade", (k,), mid) for mid in range(1, most_melds + 1)
                    for k in naturals]
    if breaks:  # melds broken up, and the table restored
        out += [action("restore")] + [action("break", (), mid)
                                      for mid in range(1, most_melds + 1)]
    return sorted_actions(out, ("draw", "take", "pass", "knock", "done", "discard", "meld",
                                "add", "buy", "withdraw", "drop", "trade", "restore",
                                "break"))


def _meldable_copies(mr, kinds: list[int]) -> list[int]:
    """``kinds`` with no more copies of a kind than one meld of ``mr`` could hold, so that
    ``mr.melds_in`` lists the same melds without searching a deck of many decks whole: a
    natural card up to a set's ``max_size`` (two in a run, the ace at both ends), a wild
    one up to any meld's size (14 for a run without one); none dropped where a set kind
    has no ``max_size``.

    >>> from .melds import MeldKind, MeldRules
    >>> gin = MeldRules([MeldKind("set", "set", max_size=4), MeldKind("run", "run")])
    >>> len(_meldable_copies(gin, [0] * 9 + [4] * 2))
    6
    """
    sizes = [k.max_size or (14 if k.type == "run" else None) for k in mr.kinds]
    if None in sizes:
        return kinds
    wild = mr.wild_kinds
    natural = max(2 if k.type == "run" else k.max_size for k in mr.kinds)
    most = max(sizes)
    seen: Counter = Counter()
    out = []
    for k in kinds:
        seen[k] += 1
        if seen[k] <= (most if k in wild else natural):
            out.append(k)
    return out


def _role_melds(rules, kinds: list[int], room: int) -> set[tuple[int, ...]]:
    """Every meld of a ``cards.turned_wild`` pack that holds a card of the deal's wild rank,
    as the deal's actions name it: that card by role (``*C`` = 53 … ``*S`` = 56), the cards
    in kind order — for any wild rank (a superset: the melds of a deck in which any wild
    card is one stand-in kind, each stand-in then read as any wild card of the pack or any
    role, at least one a role; a run kind whose wild cards may stand naturally in their own
    places takes as many more as there are wild ranks).  More than ``room`` of them raises
    :class:`TooManyMelds`."""
    import attrs

    from .._cards import JOKER_KIND, run_order
    from .melds import _submultisets, meld_rules

    static = sorted(rules.wild)
    copies = Counter(kinds)
    extra = len({rank_of_kind(k) for k in static if k != JOKER_KIND}) + 1
    stand_in = tuple(attrs.evolve(k, max_wilds=k.max_wilds + extra)
                     if k.type == "run" and k.wild_natural_in_place else k for k in rules.kinds)
    mr = meld_rules(stand_in, [JOKER_KIND], rules.values, run_order(rules.spec.deck))
    naturals = [k for k in kinds if k != JOKER_KIND and k not in rules.wild]
    per_rank = max(sum(copies[r * 4 + s] for s in range(4)) for r in range(13))
    n_wild = sum(copies[k] for k in static) + per_rank
    decks = max(copies[k] for k in naturals) if naturals else 1
    symbols = Counter({k: copies[k] for k in static})
    for role in range(53, 57):
        symbols[role] = decks
    out: set[tuple[int, ...]] = set()
    mixes: dict[int, list[tuple[int, ...]]] = {}
    for m in mr.meld_multisets(naturals + [JOKER_KIND] * n_wild, limit=MAX_MELD_ACTIONS):
        j = m.count(JOKER_KIND)
        if not j:
            continue
        if j not in mixes:
            mixes[j] = [mix for mix in _submultisets(symbols, j) if mix[-1] > JOKER_KIND]
        base = tuple(k for k in m if k != JOKER_KIND)
        for mix in mixes[j]:
            out.add(tuple(sorted(base + mix)))
        if len(out) > room:
            raise TooManyMelds(f"more than {MAX_MELD_ACTIONS} melds")
    return out


_TABLE_PHASES = ("first_upcard", "draw", "play", "discard", "knock", "layoff", "wall", "over")


def table_extras(pack) -> tuple[bool, bool]:
    """``(buying, contract)``: whether any deal of ``pack`` lets players buy discards
    (``pile.buy_limit``) or sets a contract (``initial_meld.melds``) — the parts of the
    action universe and the observation only such packs have."""
    specs = [pack.spec, *(d.spec for d in pack.deals)]
    return (any(s.pile.buy_limit for s in specs),
            any(s.initial_meld.melds or s.initial_meld.contracts for s in specs))


def _table_phases(pack) -> tuple[str, ...]:
    turned = any(s.turn.stock_card == "turned" for s in (pack.spec, *(d.spec for d in
                                                                      pack.deals)))
    return (_TABLE_PHASES + (("buy",) if table_extras(pack)[0] else ())
            + (("turned",) if turned else ()))


def table_spec(state) -> ObservationSpec:
    """The observation layout of a table-melds table."""
    kinds, _ = kinds_index(state.kind_of)
    n, nk = state.n_players, len(kinds)
    s = ObservationSpec("table", [card_code(k) for k in kinds])
    s.add("hand", nk, "own hand: count of each card kind")
    s.add("pile", nk, "discard pile (face up): count of each card kind")
    s.add("pile_top", nk, "the top card of the pile (one-hot; zeros when empty)")
    if "turned" in _table_phases(state.pack):
        s.add("turned", nk, "the card turned from the stock (one-hot; zeros: none)")
    if state.rules.turned_wild != "none":
        s.add("wild_rank", 13, "the rank wild this deal, turned at the deal (one-hot: A … K)")
    if any(d.melds.rearrange for d in (state.pack.spec, *(x.spec for x in state.pack.deals))):
        s.add("loose", nk, "cards lifted off the table this turn, not yet laid again "
              "(melds.rearrange)")
    s.add("melds", n * nk, "cards in melds owned by each seat (relative seat x kind)")
    s.add("hand_sizes", n, "cards in each seat's hand (relative seat)")
    s.add("stock", 1, "cards left in the stock")
    s.add("scores", state.n_teams, "each team's score (relative team)")
    phases = _table_phases(state.pack)
    s.add("phase", len(phases), "the phase, one-hot: " + ", ".join(phases))
    s.add("to_move", n, "the seat to act, one-hot (relative seat)")
    s.add("knocker", n, "the seat that knocked, one-hot (relative seat; zeros: none)")
    s.add("knock_value", 1, "the most deadwood a knock allows this hand (-1: no knocking)")
    s.add("deadwood", 1, "own least deadwood (-1: a hand of more than "
          f"{MOST_CARDS_ARRANGED} cards, not searched)")
    s.add("hand_number", 1, "the hand being played (1, 2 …)")
    buying, contract = table_extras(state.pack)
    if contract:
        s.add("opened", n, "whether each seat has met the contract (relative seat)")
    if buying:
        s.add("buys", n, "discards each seat has bought this hand (relative seat)")
    if any(d.initial_meld.contracts for d in (state.pack.spec, *(x.spec for x in
                                                                  state.pack.deals))):
        s.add("contracts_met", n, "contracts each seat has met (initial_meld.contracts, "
              "each player's own; relative seat)")
    if any(d.going_out.last_turns for d in (state.pack.spec, *(x.spec for x in
                                                                 state.pack.deals))):
        s.add("last_turns", 1, "after a player went out, the last turns still to play, the "
              "one being played among them (going_out.last_turns; 0: nobody has gone out)")
    return s


class _Positions:
    """Where each card of a deck counts in the vector of :func:`table_spec`, and how the
    slices from ``hand_sizes`` to the end are written: what :func:`table_fill` and
    :func:`table_seat_writer` write by (:func:`_table_positions`)."""

    __slots__ = ("in_hand", "in_pile", "as_top", "in_meld", "own_kinds", "tail_byte",
                 "pack_tail", "one_hots", "phases", "opened", "buys", "met", "turned",
                 "wild_rank", "two", "loose", "last")

    def __init__(self, **fields) -> None:
        for name, value in fields.items():
            setattr(self, name, value)


def _table_positions(state, spec: ObservationSpec) -> _Positions:
    """The :class:`_Positions` of ``state``'s deck in ``spec``: by card id, its slot in
    the hand, the pile, as the pile's top and in a meld of each relative seat
    (``in_meld[r]``); whether each card is its own kind (gin's deck); where the tail
    starts in bytes and the ``struct`` writer of its values; the one-hot slices made so
    far by key (``one_hots``) and the phases they name; whether the spec has the
    ``opened`` and ``buys`` slices; the ``turned`` card's slots and the ``wild_rank``
    slice's start (None when absent); and whether the table is two seats in two teams
    (``two``: :func:`table_seat_writer` writes the tail by value)."""
    _, idx = kinds_index(state.kind_of)
    nk, n = len(idx), state.n_players
    at = [idx[k] for k in state.kind_of]  # the kind slot of each card id

    def by_card(base: int) -> list[int]:
        return [base + i for i in at]

    melds = spec["melds"].start
    tail = spec["hand_sizes"].start
    names = [f[0] for f in spec.fields]
    i = names.index("hand_sizes")
    if names[i:i + 9] != [  # the order the tail is written in
            "hand_sizes", "stock", "scores", "phase", "to_move", "knocker", "knock_value",
            "deadwood", "hand_number"]:
        raise AssertionError(f"table_spec's tail is out of order: {names[i:]}")
    opened, buys, met = "opened" in spec, "buys" in spec, "contracts_met" in spec
    last = "last_turns" in spec
    return _Positions(
        in_hand=by_card(spec["hand"].start), in_pile=by_card(spec["pile"].start),
        as_top=by_card(spec["pile_top"].start),
        in_meld=tuple(by_card(melds + r * nk) for r in range(n)),
        own_kinds=state.kind_of == list(range(len(state.kind_of))),
        tail_byte=4 * tail, pack_tail=struct.Struct(f"{spec.size - tail}f").pack_into,
        one_hots={}, phases=_table_phases(state.pack), opened=opened, buys=buys, met=met,
        last=last,
        turned=by_card(spec["turned"].start) if "turned" in spec else None,
        loose=by_card(spec["loose"].start) if "loose" in spec else None,
        wild_rank=spec["wild_rank"].start if "wild_rank" in spec else None,
        two=n == 2 and state.n_teams == 2 and not opened and not buys and not met
        and not last)


_last_positions: tuple = (None, None, None)
"""The last deck's :func:`_table_positions` (its ``kind_of``, its spec, the positions):
every observation asks again, so the last answer is kept (replaced whole)."""


def _positions(state, spec: ObservationSpec) -> _Positions:
    global _last_positions
    last = _last_positions
    kind_of = state.kind_of
    if not (last[1] is spec and last[0] == kind_of):  # a list compare: cheap beside a rebuild
        last = _last_positions = (kind_of[:], spec, _table_positions(state, spec))
    return last[2]


_BIT = {c: 1 << c for c in range(64)}
"""The mask bit of each card id (of a deck whose every card is its own kind)."""
_bit = _BIT.__getitem__


def _one_hots(at: _Positions, n: int, key: tuple) -> tuple[float, ...]:
    """The ``phase``, ``to_move`` and ``knocker`` slices of ``key`` (the phase, the seat
    to move and the knocker relative to the observer; -1: none), kept in ``at``."""
    phase, mover, knocker = key
    made = (*(float(phase == x) for x in at.phases),
            *(float(phase != "over" and mover == r) for r in range(n)),
            *(float(knocker == r) for r in range(n)))
    at.one_hots[key] = made
    return made


def _write_tail(state, p: int, view: memoryview, at: _Positions, deadwood: int) -> None:
    """Write the slices from ``hand_sizes`` to the end (each seat's hand size … buys) in
    one call, every value of them (``at``: :func:`_table_positions`; ``view``: the
    vector as bytes)."""
    n, knocker, kv = state.n_players, state.knocker, state.knock_value
    if at.two:  # (the seats and teams relative to the observer without rotated lists:
        # the other is 1 - p)
        hands, score, t0 = state.hands, state.scores, state.team_of[p]
        key = (state.phase, state.current != p, -1 if knocker is None else knocker != p)
        at.pack_tail(view, at.tail_byte, len(hands[p]), len(hands[1 - p]), len(state.stock),
                     score[t0], score[1 - t0],
                     *(at.one_hots.get(key) or _one_hots(at, 2, key)),
                     -1 if kv is None else kv, deadwood, state.hand_number)
        return
    sizes = list(map(len, state.hands))
    t0, score = state.team_of[p], state.scores
    key = (state.phase, (state.current - p) % n, -1 if knocker is None else (knocker - p) % n)
    rear = (((state.opened[p:] + state.opened[:p]) if at.opened else []) + (
        (state.buys[p:] + state.buys[:p]) if at.buys else [])) if at.opened or at.buys else ()
    if at.met:  # (initial_meld.contracts)
        met = state.contracts_met()
        rear = (*rear, *met[p:], *met[:p])
    if at.last:  # (going_out.last_turns)
        rear = (*rear, 0 if state.last is None else state.last[1])
    at.pack_tail(view, at.tail_byte, *sizes[p:], *sizes[:p], len(state.stock), *score[t0:],
                 *score[:t0], *(at.one_hots.get(key) or _one_hots(at, n, key)),
                 -1 if kv is None else kv, deadwood, state.hand_number, *rear)


def table_fill(state, p: int, spec: ObservationSpec, out: array) -> None:
    """Write what seat ``p`` sees into ``out`` (zeros, laid out by :func:`table_spec`)."""
    at = _positions(state, spec)
    in_hand, in_pile, as_top, in_meld = at.in_hand, at.in_pile, at.as_top, at.in_meld
    n = state.n_players
    hand = state.hands[p]
    pile = state.pile
    if at.own_kinds:  # a card its own kind: each count is 0 or 1
        for c in hand:
            out[in_hand[c]] = 1
        for c in pile:
            out[in_pile[c]] = 1
        for m in state.melds:
            base = in_meld[(m.owner - p) % n]
            for c in m.cards:
                out[base[c]] = 1
        deadwood = (-1 if len(hand) > arranged_at_most(state.rules.melds) else
                    state.rules.melds.mask_deadwood(sum(map(_BIT.__getitem__, hand))))
    else:
        for c in hand:
            out[in_hand[c]] += 1
        for c in pile:
            out[in_pile[c]] += 1
        for m in state.melds:
            base = in_meld[(m.owner - p) % n]
            for c in m.cards:
                out[base[c]] += 1
        kind_of = state.kind_of
        deadwood = shown_deadwood(state.rules.melds, list(map(kind_of.__getitem__, hand)))
        deadwood = -1 if deadwood is None else deadwood
    if pile:
        out[as_top[pile[-1]]] = 1
    _write_tail(state, p, memoryview(out).cast("B"), at, deadwood)
    turned, wild_rank = at.turned, at.wild_rank
    if turned is not None and state.turned is not None:  # turn.stock_card: turned
        out[turned[state.turned]] = 1
    if wild_rank is not None and state.rules.wild_rank is not None:  # cards.turned_wild
        out[wild_rank + state.rules.wild_rank] = 1
    if at.loose is not None:  # melds.rearrange
        for c in state.loose:
            out[at.loose[c]] += 1


def table_seat_writer(state, p: int, spec: ObservationSpec, out: array):
    """A function ``write(s)`` writing what seat ``p`` sees of ``s``, any state of
    ``state``'s table, into ``out`` (:func:`table_fill`'s vector): the first call writes
    the whole vector over whatever ``out`` held, each later one only what differs from
    what the last wrote (a deck whose every card is its own kind, no turned card's
    slices; else each call writes afresh).  An environment keeps one buffer and one
    writer a seat; nothing else may write the buffer.

    >>> import meldkit
    >>> from array import array
    >>> g = meldkit.new_game("gin_rummy", players=2, seed=1)
    >>> spec = g.observation_spec()
    >>> buf = array("f", [9.0] * spec.size)
    >>> write = table_seat_writer(g, 1, spec, buf)
    >>> write(g); g.apply(g.legal_ids()[0]); write(g)
    >>> buf == g.observation(1)
    True
    """
    at = _positions(state, spec)
    view = memoryview(out).cast("B")
    zeros = bytes(len(view))
    if (not at.own_kinds or at.turned is not None or at.wild_rank is not None
            or at.loose is not None):
        # counts, or a turned card between the card slices (turn.stock_card,
        # cards.turned_wild): written afresh

        def write_afresh(s) -> None:
            view[:] = zeros
            table_fill(s, p, spec, out)

        return write_afresh
    n, nk = state.n_players, len(state.kind_of)
    mv = memoryview(out)  # (a float written through it costs half an array item's write)
    hand_at, pile_at, top_at, meld_at = (spec[x].start for x in (
        "hand", "pile", "pile_top", "melds"))
    bit, two = _bit, at.two
    if two:
        sizes_at, stock_at, scores_at, phase_at, move_at, knock_at, kv_at, dw_at, \
            number_at = (spec[x].start for x in (
                "hand_sizes", "stock", "scores", "phase", "to_move", "knocker",
                "knock_value", "deadwood", "hand_number"))
        phase_index = {x: i for i, x in enumerate(at.phases)}.get
        q, t = 1 - p, state.team_of[p]  # (the seating is the table's)
    # what the buffer holds (the record): nothing yet, then the last state written
    hand_l: list = []
    hand_m = 0
    pile_l: list = []
    top = -1
    meld_m = 0
    dwk = dw_rules = None
    unset = object()  # (a value the state never holds: written at the first compare)
    mine = other = stock = dw = phase = rare = unset
    mover = phase_i = -1
    fresh = True

    def write(s) -> None:
        nonlocal hand_l, hand_m, pile_l, top, meld_m, dwk, dw_rules, mine, other, stock, \
            dw, phase, phase_i, rare, mover, fresh
        if fresh:  # (first, or after a write that raised: the record is of zeros)
            view[:] = zeros
            hand_l, hand_m, pile_l, top, meld_m, dwk, dw_rules = [], 0, [], -1, 0, None, None
            mine = other = stock = dw = phase = rare = unset
            mover = phase_i = -1
            fresh = False
        try:
            # the hand: most steps add a card at its end or take one out
            hand = s.hands[p]
            changed = hand != hand_l
            if changed:
                k = len(hand_l)
                if len(hand) == k + 1:
                    hand_l.append(hand[k])
                    if hand_l == hand:
                        c = hand[k]
                        mv[hand_at + c] = 1.0
                        hand_m |= bit(c)
                    else:
                        k = -1
                elif len(hand) == k - 1 and k:
                    c = sum(hand_l) - sum(hand)
                    if c in hand_l:
                        hand_l.remove(c)
                    if hand_l == hand:
                        mv[hand_at + c] = 0.0
                        hand_m ^= bit(c)
                    else:
                        k = -1
                else:
                    k = -1
                if k < 0:  # anything else: the hand's cards as bits
                    m = sum(map(bit, hand))
                    _write_bits(mv, hand_at, m ^ hand_m, m)
                    hand_l, hand_m = hand[:], m
            # the pile: most steps put a card on it or take its top; below the old top
            # it is as it was
            pile = s.pile
            if pile != pile_l:
                k = len(pile_l)
                if len(pile) <= k:
                    k -= 1
                gone, new = pile_l[k:], pile[k:]
                pile_l[k:] = new
                if pile_l != pile:  # not as it was below: all of it
                    gone, new, pile_l = (), pile, pile[:]
                    view[4 * pile_at:4 * (pile_at + nk)] = zeros[:4 * nk]
                for c in gone:
                    mv[pile_at + c] = 0.0
                for c in new:
                    mv[pile_at + c] = 1.0
                c = pile[-1] if pile else -1  # the top changes only with the pile
                if c != top:
                    if top >= 0:
                        mv[top_at + top] = 0.0
                    if c >= 0:
                        mv[top_at + c] = 1.0
                    top = c
            melds = s.melds
            if melds or meld_m:  # each seat's melds, relative to p, as bits
                m = 0
                for x in melds:
                    m |= sum(map(bit, x.cards)) << (x.owner - p) % n * nk
                if m != meld_m:
                    _write_bits(mv, meld_at, m ^ meld_m, m)
                    meld_m = m
            rules = s.rules.melds
            if len(hand) > arranged_at_most(rules):  # not searched (as shown_deadwood)
                dw_rules = dwk = None
                least = -1
            else:
                if rules is not dw_rules:
                    dw_rules, dwk = rules, rules.mask_deadwood_from(None, hand_m)
                elif changed:
                    dwk = rules.mask_deadwood_from(dwk, hand_m)
                least = dwk[2]
            if not two:
                _write_tail(s, p, view, at, least)
                return
            # the tail (two seats, two teams): each value written when it changes
            hands = s.hands
            v = len(hands[p])
            if v != mine:
                mv[sizes_at] = mine = v
            v = len(hands[q])
            if v != other:
                mv[sizes_at + 1] = other = v
            v = len(s.stock)
            if v != stock:
                mv[stock_at] = stock = v
            v = s.phase
            if v != phase:  # (a phase the slice does not name: none set)
                if phase_i >= 0:
                    mv[phase_at + phase_i] = 0.0
                phase_i = phase_index(v, -1)
                if phase_i >= 0:
                    mv[phase_at + phase_i] = 1.0
                phase = v
            v = -1 if v == "over" else s.current != p  # (the seat to move: 0, 1 or none)
            if v != mover:
                mover = v
                mv[move_at] = v == 0
                mv[move_at + 1] = v == 1
            v = least
            if v != dw:
                mv[dw_at] = dw = v
            v = (s.knocker, s.knock_value, s.hand_number, s.scores)
            if v != rare:  # (what changes only now and then, compared at once)
                knocker, value, number, scores = v
                rare = (knocker, value, number, scores[:])
                mv[knock_at] = knocker == p
                mv[knock_at + 1] = knocker is not None and knocker != p
                mv[kv_at] = -1 if value is None else value
                mv[number_at] = number
                mv[scores_at] = scores[t]
                mv[scores_at + 1] = scores[1 - t]
        except BaseException:  # written in part: the next call writes afresh
            fresh = True
            raise

    return write


def _write_bits(out: array, base: int, d: int, mask: int) -> None:
    """Write ``out[base + i]`` for each bit ``i`` of ``d``: 1 where ``mask`` has the bit,
    else 0."""
    while d:
        i = d.bit_length() - 1
        d ^= 1 << i
        out[base + i] = mask >> i & 1


table_fill.seat = table_seat_writer  # type: ignore[attr-defined]
TABLE_LAYOUT = (table_spec, table_fill)
"""``TableState.observation_layout()``: the spec and fill functions (the fill's ``seat``:
:func:`table_seat_writer`, for a caller keeping a buffer a seat)."""


def table_set_zone_cards(s, assignment: dict[tuple[str, int], int]) -> None:
    """Put card ``c`` at each hidden position ``(zone, index)`` of ``assignment`` (the
    stock, the hands and the reserve piles).  The hand remembered for ``restore``
    (``melds.rearrange``) is dealt the same cards where it held those of the hand now."""
    if s.before is not None or s.start is not None:  # (its cards still in the hand:
        hand, mover = s.hands[s.current], f"hand:{s.current}"  # hidden, dealt anew alike)
        dealt = {hand[i]: c for (z, i), c in assignment.items() if z == mover}
        for name in ("before", "start") if dealt else ():
            snap = getattr(s, name)
            if snap is not None:
                setattr(s, name, ([dealt.get(x, x) for x in snap[0]], *snap[1:]))
    for (z, i), c in assignment.items():
        if z == "stock":
            s.stock[i] = c
        elif z.startswith("hand:"):
            s.hands[int(z[5:])][i] = c
        elif z.startswith("reserve:"):  # a face-down reserve pile (deal.reserve)
            s.reserves[int(z[8:])][i] = c
        else:
            raise ValueError(f"cannot resample zone {z}")
