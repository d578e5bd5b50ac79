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
from .._rules import WILD
from ..ai.action_space import ActionSpaceError, sorted_actions
from ..ai.observation import ObservationSpec, fill_scores, kinds_index, rel
from .melds import hand_bits

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
    out += [action("withdraw")] if contract else []
    specs = (state.pack.spec, *(d.spec for d in state.pack.deals))
    out += [action("drop")] if any(s.turn.drop for s in specs) else []
    out += [action("discard", (k,)) for k in distinct]
    if rules.take == "deep":
        out += [action("take", (k,)) for k in distinct]
    melds: dict = {}  # every deal's melds (a schedule may change the wild cards)
    for mr in dict.fromkeys(type(rules).of(pack).melds  # (equal meld rules listed once)
                            for pack in dict.fromkeys((state.pack, *state.pack.deals))):
        for m in mr.melds_in(_meldable_copies(mr, kinds)):
            melds[m] = None
    out += [action("meld", m) for m in melds]
    if rules.turned_wild != "none":  # cards of the deal's turned wild rank, by role
        base = type(rules).of(state.pack)
        out += [action("meld", m) for m in _role_melds(base, kinds)]
        distinct = distinct + list(range(53, 57))
        out += [action("discard", (k,)) for k in range(53, 57)]
        if rules.take == "deep":
            out += [action("take", (k,)) for k in range(53, 57)]
    if rules.lay_off != "none" or rules.knock is not None:
        least = min(k.min_size for k in rules.kinds)
        most_melds = len(kinds) // max(1, least)
        out += [action("add", (k,), mid) for mid in range(1, most_melds + 1) for k in distinct]
        if any(type(rules).of(pack).win_back
               for pack in dict.fromkeys((state.pack, *state.pack.deals))):
            naturals = [k for k in distinct if k != 52]  # a wild card won back by its card
            out += [action("trade", (k,), mid) for mid in range(1, most_melds + 1)
                    for k in naturals]
    return sorted_actions(out, ("draw", "take", "pass", "knock", "done", "discard", "meld",
                                "add", "buy", "withdraw", "drop", "trade"))


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


def _role_melds(rules, kinds: list[int]) -> set[tuple[int, ...]]:
    """Every meld of a ``cards.turned_wild`` pack that holds a card of the deal's wild rank,
    as the deal's actions name it: that card by role (``*C`` = 53 … ``*S`` = 56), the cards
    in kind order — for any wild rank (a superset: the melds of a deck in which any wild
    card is one stand-in kind, each stand-in then read as any wild card of the pack or any
    role, at least one a role; a run kind whose wild cards may stand naturally in their own
    places takes as many more as there are wild ranks)."""
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
    for m in mr.melds_in(naturals + [JOKER_KIND] * n_wild):
        j = m.count(JOKER_KIND)
        if not j:
            continue
        if j not in mixes:
            mixes[j] = [mix for mix in _submultisets(symbols, j) if mix[-1] > JOKER_KIND]
        base = tuple(k for k in m if k != JOKER_KIND)
        for mix in mixes[j]:
            out.add(tuple(sorted(base + mix)))
    return out


_TABLE_PHASES = ("first_upcard", "draw", "play", "discard", "knock", "layoff", "wall", "over")


def table_extras(pack) -> tuple[bool, bool]:
    """``(buying, contract)``: whether any deal of ``pack`` lets players buy discards
    (``pile.buy_limit``) or sets a contract (``initial_meld.melds``) — the parts of the
    action universe and the observation only such packs have."""
    specs = [pack.spec, *(d.spec for d in pack.deals)]
    return (any(s.pile.buy_limit for s in specs), any(s.initial_meld.melds for s in specs))


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
    s.add("melds", n * nk, "cards in melds owned by each seat (relative seat x kind)")
    s.add("hand_sizes", n, "cards in each seat's hand (relative seat)")
    s.add("stock", 1, "cards left in the stock")
    s.add("scores", state.n_teams, "each team's score (relative team)")
    phases = _table_phases(state.pack)
    s.add("phase", len(phases), "the phase, one-hot: " + ", ".join(phases))
    s.add("to_move", n, "the seat to act, one-hot (relative seat)")
    s.add("knocker", n, "the seat that knocked, one-hot (relative seat; zeros: none)")
    s.add("knock_value", 1, "the most deadwood a knock allows this hand (-1: no knocking)")
    s.add("deadwood", 1, "own least deadwood")
    s.add("hand_number", 1, "the hand being played (1, 2 …)")
    buying, contract = table_extras(state.pack)
    if contract:
        s.add("opened", n, "whether each seat has met the contract (relative seat)")
    if buying:
        s.add("buys", n, "discards each seat has bought this hand (relative seat)")
    return s


def _table_positions(state, spec: ObservationSpec) -> tuple:
    """Where each card of ``state``'s deck counts in the vector of :func:`table_spec`
    (by card id: in the hand, the pile, as the pile's top, in a meld of each relative
    seat), whether each card is its own kind (gin's deck), and how the slices from
    ``hand_sizes`` to the end are written: what :func:`table_fill` writes by."""
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
    extra = (by_card(spec["turned"].start) if "turned" in spec else None,
             spec["wild_rank"].start if "wild_rank" in spec else None)
    phases = _table_phases(state.pack)
    two = n == 2 and state.n_teams == 2 and "opened" not in spec and "buys" not in spec
    hots = 4 * spec["phase"].start
    return (by_card(spec["hand"].start), by_card(spec["pile"].start),
            by_card(spec["pile_top"].start),
            tuple(by_card(melds + r * nk) for r in range(n)),
            state.kind_of == list(range(len(state.kind_of))),
            4 * tail, struct.Struct(f"{spec.size - tail}f").pack_into, {},
            phases, "opened" in spec, "buys" in spec, extra,
            # a table of two (two teams): the tail in three parts, the one-hot slices
            # (phase, to_move, knocker) as bytes kept by their key, written when it changes
            (hots, hots + 4 * (len(phases) + 4), struct.Struct("5f").pack_into,
             struct.Struct("3f").pack_into, {}) if two else None)


_last_positions: tuple = (None, None, None)
"""The last deck's :func:`_table_positions` (its ``kind_of``, its spec, the positions):
every observation asks again, so the last answer is kept (replaced whole)."""


def _positions(state, spec: ObservationSpec) -> tuple:
    global _last_positions
    last = _last_positions
    kind_of = state.kind_of
    if not (last[1] is spec and last[0] == kind_of):  # a list compare: cheap beside a rebuild
        last = _last_positions = (kind_of[:], spec, _table_positions(state, spec))
    return last[2]


_BIT = {c: 1 << c for c in range(64)}
"""The mask bit of each card id (of a deck whose every card is its own kind)."""
_bit = _BIT.__getitem__
_CARD = {b: c for c, b in _BIT.items()}
"""The card id of each mask bit (:data:`_BIT` inverted)."""


def _one_hots(at: tuple, n: int, key: tuple) -> tuple[float, ...]:
    """The ``phase``, ``to_move`` and ``knocker`` slices of ``key`` (the phase, the seat
    to move and the knocker relative to the observer; -1: none), kept in ``at``."""
    phase, mover, knocker = key
    made = (*(float(phase == x) for x in at[8]),
            *(float(phase != "over" and mover == r) for r in range(n)),
            *(float(knocker == r) for r in range(n)))
    at[7][key] = made
    return made


def _write_tail(state, p: int, view: memoryview, at: tuple, deadwood: int) -> None:
    """Write the slices from ``hand_sizes`` to the end (each seat's hand size … buys) in
    one call, every value of them (``at``: :func:`_table_positions`; ``view``: the
    vector as bytes)."""
    n, knocker, kv = state.n_players, state.knocker, state.knock_value
    if n == 2 and state.n_teams == 2 and not (at[9] or at[10]):  # (the seats and teams
        # relative to the observer without rotated lists: the other is 1 - p)
        hands, score, t0 = state.hands, state.scores, state.team_of[p]
        key = (state.phase, state.current != p, -1 if knocker is None else knocker != p)
        at[6](view, at[5], len(hands[p]), len(hands[1 - p]), len(state.stock), score[t0],
              score[1 - t0], *(at[7].get(key) or _one_hots(at, 2, key)),
              -1 if kv is None else kv, deadwood, state.hand_number)
        return
    sizes = list(map(len, state.hands))
    t0, score = state.team_of[p], state.scores
    key = (state.phase, (state.current - p) % n, -1 if knocker is None else (knocker - p) % n)
    rear = (((state.opened[p:] + state.opened[:p]) if at[9] else []) + (
        (state.buys[p:] + state.buys[:p]) if at[10] else [])) if at[9] or at[10] else ()
    at[6](view, at[5], *sizes[p:], *sizes[:p], len(state.stock), *score[t0:], *score[:t0],
          *(at[7].get(key) or _one_hots(at, n, key)), -1 if kv is None else kv, deadwood,
          state.hand_number, *rear)


def table_fill(state, p: int, spec: ObservationSpec, out: array) -> None:
    """Write what seat ``p`` sees into ``out`` (zeros, laid out by :func:`table_spec`)."""
    at = _positions(state, spec)
    in_hand, in_pile, as_top, in_meld = at[:4]
    n = state.n_players
    hand = state.hands[p]
    pile = state.pile
    if at[4]:  # a card its own kind: each count is 0 or 1
        for c in hand:
            out[in_hand[c]] = 1
        for c in pile:
            out[in_pile[c]] = 1
        for m in state.melds:
            base = in_meld[(m.owner - p) % n]
            for c in m.cards:
                out[base[c]] = 1
        deadwood = state.rules.melds.mask_deadwood(sum(map(_BIT.__getitem__, hand)))
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
        deadwood = state.rules.melds.min_deadwood(list(map(kind_of.__getitem__, hand)))
    if pile:
        out[as_top[pile[-1]]] = 1
    _write_tail(state, p, memoryview(out).cast("B"), at, deadwood)
    turned, wild_rank = at[11]
    if turned is not None and state.turned is not None:  # turn.stock_card: turned
        out[turned[state.turned]] = 1
    if wild_rank is not None and state.rules.wild_rank is not None:  # cards.turned_wild
        out[wild_rank + state.rules.wild_rank] = 1


def table_fill_over(state, p: int, spec: ObservationSpec, out: array, kept: list) -> None:
    """Write what seat ``p`` sees into ``out``, which holds what the last call with this
    ``kept`` list wrote (an empty list: ``out`` is zeros): in a deck whose every card is
    its own kind only the cards that moved since are written, and the hand's deadwood is
    derived from the last (:meth:`~meldkit.kernel.melds.MeldRules.mask_deadwood_from`).
    ``kept`` records what ``out`` holds; an environment keeps one buffer and one list a
    seat.  Writes what :func:`table_fill` writes."""
    if not kept or kept[0] is not spec:  # (a spec is one pack at one table: one deck)
        at = _positions(state, spec)
        if not at[4] or at[11] != (None, None):  # counts, or a turned card between the
            # card slices (turn.stock_card, cards.turned_wild): written afresh
            memoryview(out).cast("B")[:] = bytes(4 * len(out))
            table_fill(state, p, spec, out)
            return
        view = memoryview(out).cast("B")
        view[:] = bytes(len(view))
        kept[:] = [spec, at, 0, 0, -1, None, view, len(state.kind_of), at[0][0], [], 0, None]
    _, at, old_hand, old_rest, old_top, old_dw, view, nk, base, old_pile, pile_mask, _ = kept
    # the card slices (hand, pile, pile top, each seat's melds: one after another, a card
    # at its id in each): the hand and the rest as the bits of an int each, the top as a
    # card, and only what changed since written
    hand = hand_bits(state.hands[p])  # (the knock test's mask, at a discard)
    d = hand ^ old_hand
    if d:
        kept[2] = hand
        if d & (d - 1):
            _write_bits(out, base, d, hand)
        else:  # one card came or went (most steps)
            out[base + _CARD[d]] = 1 if hand & d else 0
    pile = state.pile
    if pile != old_pile:  # (most steps put a card on the pile or take its top: below the
        # last top it is as it was, and only the cards from there are summed)
        k = len(old_pile) - 1
        if k >= 0 and pile[:k] == old_pile[:k]:
            pile_mask = pile_mask ^ _bit(old_pile[k]) | sum(map(_bit, pile[k:]))
        else:
            pile_mask = sum(map(_bit, pile))
        kept[9], kept[10] = pile[:], pile_mask
    rest = pile_mask
    if state.melds:
        n = state.n_players
        for m in state.melds:  # (each seat's melds lie after the pile and its top)
            rest |= sum(map(_bit, m.cards)) << ((2 + (m.owner - p) % n) * nk)
    e = rest ^ old_rest
    if e:
        kept[3] = rest
        if e & (e - 1):
            _write_bits(out, base + nk, e, rest)
        else:
            out[base + nk + e.bit_length() - 1] = 1 if rest & e else 0
    top = pile[-1] if pile else -1
    if top != old_top:
        kept[4] = top
        if old_top >= 0:
            out[base + 2 * nk + old_top] = 0
        if top >= 0:
            out[base + 2 * nk + top] = 1
    rules = state.rules.melds
    if old_dw is None or old_dw[0] is not rules:
        kept[5] = old_dw = (rules, rules.mask_deadwood_from(None, hand))
    elif d:
        kept[5] = old_dw = (rules, rules.mask_deadwood_from(old_dw[1], hand))
    two = at[12]
    if two is None:
        _write_tail(state, p, view, at, old_dw[1][2])
        return
    hots, rear, front_at, rear_at, made = two
    hands = state.hands
    score = state.scores
    t0 = state.team_of[p]
    front_at(view, at[5], len(hands[p]), len(hands[1 - p]), len(state.stock), score[t0],
             score[1 - t0])
    knocker = state.knocker
    key = (state.phase, state.current != p, -1 if knocker is None else knocker != p)
    if key != kept[11]:
        kept[11] = key
        one = made.get(key)
        if one is None:
            one = made[key] = struct.pack(f"{rear - hots >> 2}f", *_one_hots(at, 2, key))
        view[hots:rear] = one
    kv = state.knock_value
    rear_at(view, rear, -1 if kv is None else kv, old_dw[1][2], state.hand_number)


def _write_bits(out: array, base: int, d: int, mask: int) -> None:
    """Write ``out[base + i]`` for each bit ``i`` of ``d``: 1 where ``mask`` has the bit,
    else 0."""
    while d:
        i = d.bit_length() - 1
        d ^= 1 << i
        out[base + i] = mask >> i & 1


table_fill.over = table_fill_over  # type: ignore[attr-defined]
TABLE_LAYOUT = (table_spec, table_fill)
"""``TableState.observation_layout()``: the spec and fill functions (the fill's ``over``:
:func:`table_fill_over`, for a caller keeping a buffer a seat)."""


def table_set_zone_cards(s, assignment: dict[tuple[str, int], int]) -> None:
    """Put card ``c`` at each hidden position ``(zone, index)`` of ``assignment`` (the
    stock, the hands and the reserve piles)."""
    for (z, i), c in assignment.items():
        if z == "stock":
            s.stock[i] = c
        elif z.startswith("hand:"):
            s.hands[int(z[5:])][i] = c
        elif z.startswith("reserve:"):  # a face-down reserve pile (deal.reserve)
            s.reserves[int(z[8:])][i] = c
        else:
            raise ValueError(f"cannot resample zone {z}")
