"""A rule pack as a readable rules sheet (Markdown), written from the pack itself.

:func:`rules_sheet` reads only ``pack.spec`` — the validated, merged pack the engine plays
— so the sheet can never drift from what the engine does.  ``meldkit rules PACK`` prints
it; the documentation build publishes one page per bundled pack with it.

>>> from meldkit.rulesheet import rules_sheet
>>> sheet = rules_sheet("pony_tail")
>>> sheet.splitlines()[0]
'# Pony Tail'
>>> [line for line in sheet.splitlines() if line.startswith("## ")][:3]
['## Players and cards', '## The deal', '## A turn']
>>> "| sevens | 7 natural 7s | 5000 |" in sheet
True
"""

from __future__ import annotations

import os
from collections.abc import Sequence

from ._cards import RANKS, SUITS, kinds_matching, rank_index, rank_of_kind, with_article
from ._loader import RulePack, load_pack

__all__ = ["rules_sheet"]

_RANK_NAMES = {"A": "aces", "K": "kings", "Q": "queens", "J": "jacks", "JK": "jokers",
               "2": "2s (deuces)", "3": "3s (treys)"}
_SUIT_NAMES = dict(zip(SUITS, ("clubs", "diamonds", "hearts", "spades")))


def _rank_words(rank: str) -> str:
    return _RANK_NAMES.get(rank, f"{rank}s")


def _short_rank(rank: str) -> str:
    return {"JK": "jokers"}.get(rank, f"{rank}s")


def _selector(sel: str) -> str:
    """A pack card selector in words: ``"2"`` → 2s (deuces), ``"3H"`` → the 3 of hearts,
    ``"QS"`` → the queen of spades."""
    s = str(sel).strip().upper()
    if s in RANKS:
        return _rank_words(s)
    rank, suit = s[:-1], s[-1:]
    rank = {"A": "ace", "K": "king", "Q": "queen", "J": "jack"}.get(rank, rank)
    return f"the {rank} of {_SUIT_NAMES.get(suit, suit)}"


def _list(items: Sequence[str], last: str = "and") -> str:
    items = [i for i in items if i]
    if not items:
        return "none"
    if len(items) == 1:
        return items[0]
    return f"{', '.join(items[:-1])} {last} {items[-1]}"


def _selectors(sels: Sequence[str], last: str = "and") -> str:
    return _list([_selector(s) for s in sels], last)


def _cards(n: int) -> str:
    return f"{n} card" if n == 1 else f"{n} cards"


def _points(n: int) -> str:
    return f"{n:+,}" if n < 0 else f"{n:,}"


def _book_kind_text(kind, size: int) -> str:
    """What a book kind is, in words: ``7 natural 7s``, ``7 wild cards``."""
    if kind.sequence:
        return f"a sequence of {size} cards of one suit"
    if kind.wild_only:
        return f"{size} wild cards"
    ranks = ("one rank" if not kind.ranks
             else " or ".join(_short_rank(str(r).upper()) for r in kind.ranks))
    if kind.max_wilds == 0:
        return f"{size} natural {ranks}" if kind.ranks else f"{size} natural cards of {ranks}"
    what = f"{size} {ranks}" if kind.ranks else f"{size} cards of {ranks}"
    if kind.min_wilds and kind.max_wilds is not None:
        return f"{what} with {kind.min_wilds} to {kind.max_wilds} wild cards"
    if kind.min_wilds:
        return f"{what} with at least {kind.min_wilds} wild card{'s' if kind.min_wilds > 1 else ''}"
    if kind.max_wilds is not None:
        return f"{what} with at most {kind.max_wilds} wild cards"
    return what


def _by_players(table: dict, unit: str) -> str:
    """``{2: 15, 3: 13}`` in words: ``15 cards with 2 players, 13 cards with 3 players``."""
    return ", ".join(f"{_n(v, unit)} with {n} players" for n, v in sorted(table.items()))


def _n(n: int, unit: str) -> str:
    return f"{n} {unit}" if n == 1 else f"{n} {unit}s"


_NUMBER_WORDS = {2: "two", 3: "three", 4: "four", 5: "five", 6: "six"}


def _count_words(names: Sequence[str]) -> str:
    """``[clean, clean, dirty]`` → ``two clean books and one dirty book``, in list order."""
    order: dict[str, int] = {}
    for name in names:
        order[name] = order.get(name, 0) + 1
    parts = []
    for name, k in order.items():
        parts.append(f"{_NUMBER_WORDS.get(k, str(k)) if k > 1 else 'one'} {name} "
                     f"book{'s' if k > 1 else ''}")
    return _list(parts)


def _is_rummy(pack: RulePack) -> bool:
    """Whether the rummy kernel plays the pack (not a plugin's own engine)."""
    if not pack.spec.plugin:
        return True
    try:
        from .plugins import plugin_for

        plugin = plugin_for(pack)
    except Exception:  # noqa: BLE001 - a missing plugin: describe what the pack says
        return False
    return plugin is None or getattr(plugin, "engine", None) is None


def rules_sheet(pack: RulePack | str | os.PathLike) -> str:
    """The rules of ``pack`` (a :class:`~meldkit.RulePack`, a bundled name or a path) as a
    Markdown rules sheet: players and cards, deal, turn, melds, books, initial meld, the
    discard pile, reserve piles, going out, the end of a hand, scoring and the end of the
    game."""
    if not isinstance(pack, RulePack):
        pack = load_pack(pack)
    spec = pack.spec
    out: list[str] = [f"# {spec.title or pack.name}", ""]
    if spec.description:
        out += [spec.description.strip(), ""]
    out += [(f"*Rules sheet generated from the rule pack `{pack.name}` "
             f"(digest `{pack.digest[:12]}`): it states exactly what the engine plays.*"), ""]
    if not _is_rummy(pack):
        out += _plugin_sheet(pack)
        return "\n".join(out).rstrip() + "\n"
    if spec.melds.kinds:  # a table-meld pack (rummy, gin)
        from .kernel.rulesheet import table_sections

        out += _players_and_cards(spec) + [""] + table_sections(
            spec, discard_ban_lines(spec, "pass"))
    else:
        for section in (_players_and_cards, _deal, _turn, _by_deal, _melds, _books,
                        _initial_meld, _pile, _reserve, _going_out, _hand_end, _scoring,
                        _game_end):
            lines = section(spec)
            if lines:
                out += lines + [""]
    if spec.plugin:  # a rule-hook plugin's own rules, as it words them
        lines = _plugin_rules(pack)
        if lines:
            out += ["", f"## The `{spec.plugin}` plugin", ""] + lines
    return "\n".join(out).rstrip() + "\n"


def _plugin_rules(pack: RulePack) -> list[str]:
    """The lines the pack's plugin gives for its rules (:meth:`meldkit.plugins.Plugin.rules`);
    [] when it gives none or is not installed.  A hook that raises or gives anything but a
    list of strings is a :class:`~meldkit.PluginError` naming the plugin and the hook."""
    from ._errors import PluginError
    from .plugins import plugin_for

    try:
        plugin = plugin_for(pack)
    except PluginError:
        return []  # (a missing plugin: the sheet says what the pack says)
    if plugin is None:
        return []
    try:
        lines = plugin.rules(pack.spec, pack.options)
    except Exception as exc:  # plugin code: never a bare traceback
        raise PluginError(f"plugin {pack.spec.plugin!r}: its rules hook raised "
                          f"{type(exc).__name__}: {exc}") from None
    if not isinstance(lines, list) or not all(isinstance(x, str) for x in lines):
        raise PluginError(f"plugin {pack.spec.plugin!r}: its rules hook must give a list of "
                          f"strings, not {type(lines).__name__}")
    return lines


# --------------------------------------------------------------------------- sections


def _players_and_cards(spec) -> list[str]:
    pl, deck, cards = spec.players, spec.deck, spec.cards
    out = ["## Players and cards", ""]
    count = f"{pl.min} to {pl.max} players" if pl.min != pl.max else f"{pl.min} players"
    if pl.counts:
        count = f"{_list([str(c) for c in pl.counts], 'or')} players"
    if pl.partners == "optional" and pl.partners_by_players:
        alone = [str(c) for c in (pl.counts or range(pl.min, pl.max + 1))
                 if not pl.partners_by_players.get(c)]
        teams = [str(c) for c, v in sorted(pl.partners_by_players.items()) if v]
        sides = (f"{pl.teams} teams, seated alternately" if pl.teams is not None
                 else f"teams of {pl.team_size}, seated alternately")
        out.append(f"- **Players:** {count}: {_list(alone, 'or')} play each alone; "
                   f"{_list(teams, 'or')} play in {sides} (the game option `partners` "
                   "changes this).")
    elif pl.partners == "never":
        out.append(f"- **Players:** {count}, each playing alone.")
        if pl.sides_form == "first_pile_take":
            out.append("- **Sides formed in the hand:** the first player to take the discard "
                       "pile plays alone for the rest of the hand; the others become one side "
                       "— their melds join (one meld of a rank), each lays off onto the "
                       "side's melds, and each scores the side's total for the hand. A player "
                       "who goes out before the pile was ever taken plays alone so.")
    else:
        if pl.teams is not None:
            sides = (f"{pl.teams} teams, seated alternately (seat *i* is on team *i* mod "
                     f"{pl.teams})")
        else:
            sides = f"teams of {pl.team_size}, seated alternately"
        if pl.partners == "always":
            out.append(f"- **Players:** {count} in {sides}.")
        else:
            size = None if pl.teams is not None else pl.team_size  # (teams of that size)
            least = pl.min_for_partners
            which = (f"an even number of players, {least} or more" if size == 2 else
                     f"a multiple of {size} players, {least} or more" if size else
                     f"{least} or more players")
            out.append(f"- **Players:** {count}, alone or — with {which}, as a game option "
                       f"— in {sides}.")
    from ._cards import deck_card_kinds

    c = len(deck_card_kinds(deck))  # 52, or fewer in a stripped deck (deck.ranks)
    kind = "standard 52-card deck" if c == 52 else f"{c}-card deck"
    per = c + deck.jokers_per_deck
    jokers = f" with {deck.jokers_per_deck} jokers each" if deck.jokers_per_deck else ""
    if deck.jokers is not None:  # jokers for the whole pack
        def pack(decks: int, total: int) -> str:
            with_jokers = f" and {_n(total, 'joker')}" if total else ""
            return f"{_n(decks, kind)}{with_jokers} ({decks * c + total} cards)"
        counts = sorted(set(deck.decks_by_players) | set(deck.jokers_by_players))
        base = deck.decks or 1
        extra = _by_counts({c: pack(deck.decks_by_players.get(c, base),
                                    deck.jokers_by_players.get(c, deck.jokers))
                            for c in counts}, pack(base, deck.jokers))
        out.append(f"- **Deck:** {pack(base, deck.jokers)}{extra}.")
    elif deck.decks is not None:
        n = deck.decks
        extra = _by_counts({c: f"{_n(k, 'deck')} ({k * per} cards)"
                            for c, k in sorted(deck.decks_by_players.items())},
                           f"{_n(n, 'deck')} ({n * per} cards)")
        out.append(f"- **Deck:** {_n(n, kind)}{jokers} "
                   f"({n * per} cards){extra}.")
    else:
        n = deck.decks_per_player
        out.append(f"- **Deck:** {_n(n, kind)}{jokers} "
                   f"per player ({n * per} cards per player).")
    if c != 52:
        if deck.run_gaps == "skip":
            from ._cards import run_order

            kept = [RANKS[r] for r in run_order(deck)]
            gaps = "; runs skip the ranks left out, so the kept ranks are adjacent in the order " \
                + "-".join(kept)
        else:
            gaps = "; a run does not cross a rank left out"
        out.append("- **Stripped deck:** each deck keeps only the ranks "
                   + ", ".join(r.upper() for r in deck.ranks) + f", in all four suits{gaps}.")
    from .kernel.rulesheet import _per_deal

    by_deal = _per_deal(spec, lambda s: _wild_words(s.cards), str)
    if by_deal:  # a schedule's deals make other cards wild
        out.append("- **Wild cards:** " + "; ".join(f"{text} in {where}"
                                                   for where, text in by_deal) + ".")
    else:
        out.append(f"- **Wild cards:** {_wild_words(cards)}.")
    rank_slots = not spec.melds.kinds  # the card categories only that meld model reads
    if cards.bonus and rank_slots:
        out.append(f"- **Bonus cards:** {_selectors(cards.bonus)} — laid face up at once when "
                   "dealt or drawn, and replaced from the stock.")
    if cards.dead and rank_slots:
        out.append(f"- **Dead cards:** {_selectors(cards.dead)} — {_dead_melded(spec)}"
                   f"{_dead_scored(spec)}.")
    if cards.unmeldable and rank_slots:
        out.append(f"- **Never melded:** {_selectors(cards.unmeldable)}.")
    counted = (_table_values_use(spec) if spec.melds.kinds
               else "melds, the initial meld and cards left in hand")
    out += ["", f"Card values (for {counted}):" if counted else "Card values:", "",
            "| Card | Value |", "|---|---:|"]
    order = {r: i for i, r in enumerate(("JK",) + RANKS[:13])}
    dealt = _dealt_kinds(spec)
    for sel in sorted(cards.values, key=lambda s: (order.get(s.upper(), 50), s)):
        if kinds_matching(sel) & dealt:  # (not a rank the deck leaves out)
            out.append(f"| {_selector(sel)} | {cards.values[sel]} |")
    by_deal = _per_deal(spec, lambda s: s.cards.values,
                        lambda values: _values_changed(cards.values, values))
    if by_deal:  # a schedule prices some cards apart, deal by deal
        out += ["", "Card values by deal: " + "; ".join(
            f"{text} in {where}" for where, text in by_deal) + "."]
    return out


def _values_changed(table: dict[str, int], values: dict[str, int]) -> str:
    """What a deal's ``cards.values`` changes from the pack's table, in words: ``3s
    (treys) count 20``, ``the queen of spades not priced apart`` (an entry a deal removes with
    ``null``), ``as the table``.

    >>> _values_changed({"3": 3, "K": 10}, {"3": 20, "K": 10})
    '3s (treys) count 20'
    """
    changed = [f"{_selector(sel)} count {v}" if sel.upper() in RANKS
               else f"{_selector(sel)} counts {v}"
               for sel, v in values.items() if table.get(sel) != v]
    gone = [f"{_selector(sel)} not priced apart" for sel in table if sel not in values]
    return _list(changed + gone) if changed or gone else "as the table"


def _dealt_kinds(spec) -> set[int]:
    """The card kinds the pack's deck holds at some table: the ranks a stripped deck keeps
    (``deck.ranks``), and the joker where some player count plays with jokers."""
    from ._cards import JOKER_KIND, deck_card_kinds, deck_plan

    deck, players = spec.deck, spec.players
    kinds = set(deck_card_kinds(deck))
    for n in range(max(players.min, 1), min(players.max, 64) + 1):
        jokers = deck_plan(deck, n)[1]
        if (deck.jokers_per_deck if jokers is None else jokers) > 0:
            kinds.add(JOKER_KIND)
            break
    return kinds


def _dead_melded(spec) -> str:
    """Whether dead cards are melded, in words: being dead (``cards.dead``) only scores; a
    dead card melds as its rank does (``cards.unmeldable``, ``melds.going_out_ranks``)."""
    never = {rank_index(r) for r in spec.cards.unmeldable}
    going_out = {rank_index(r) for r in spec.melds.going_out_ranks}
    words = {"never": "never melded",
             "out": "melded only by a player going out (see *Melds*)",
             "free": "melded like any other card of their rank"}
    said: dict[str, list[str]] = {}
    for sel in spec.cards.dead:
        r = rank_of_kind(min(kinds_matching(sel)))
        how = "never" if r in never else ("out" if r in going_out else "free")
        said.setdefault(how, []).append(sel)
    if len(said) == 1:
        return words[next(iter(said))]
    return "; ".join(f"{_selectors(sels)} {words[how]}" for how, sels in said.items())


def _dead_scored(spec) -> str:
    """What a dead card left in a hand scores, as the sheet's scoring items say."""
    from .kernel.scoring import listed_items, rank_slot_preset

    sc = spec.scoring
    items = listed_items(sc)[:-1] if sc.items else rank_slot_preset(spec)[:-1]
    points = [p["points"] for name, p in items if name == "dead_cards" and p["points"]]
    return (f"; each left in a hand scores {_points(points[0])} (see *Scoring*)" if points
            else "")


def _table_values_use(spec) -> str:
    """What the card values count for in a table-meld pack: deadwood (knocking), the opening
    minimum, cards laid and cards left in hand, as the pack has them."""
    from ._rules import OpeningMinimum
    from .kernel.rulesheet import deal_specs

    items = {d["item"] for d in spec.scoring.items} or {
        "winner_takes_hands": {"winner_takes"}, "penalty": {"penalty"},
        "knock": {"knock"}}.get(spec.scoring.style, set())
    for sheet in spec.scoring.sheets:
        items |= {d["item"] for d in sheet.items or ()}
    uses = (["deadwood"] if "knock" in items else []) + (
        ["the opening minimum"] if any(OpeningMinimum(s.initial_meld)
                                       for s in deal_specs(spec)) else []) + (
        ["cards laid"] if "laid" in items else []) + (
        ["cards left in hand"] if items & {"held", "penalty", "winner_takes"} else [])
    return _list(uses, "and") if uses else ""  # (no item the sheet names counts them)


def _by_counts(texts: dict[int, str], base: str) -> str:
    """``; <text> with <counts> players`` for each run of player counts with the same text
    (consecutive counts joined: ``with 6 to 8 players``), those that say ``base`` left out.

    >>> _by_counts({5: "a", 6: "b", 7: "b", 8: "b", 10: "b"}, "a")
    '; b with 6 to 8 players; b with 10 players'
    """
    runs: list[list] = []  # [text, first count, last count]
    for c in sorted(texts):
        if texts[c] == base:
            continue
        if runs and runs[-1][0] == texts[c] and runs[-1][2] == c - 1:
            runs[-1][2] = c
        else:
            runs.append([texts[c], c, c])
    return "".join(f"; {t} with {a} players" if a == b else f"; {t} with {a} to {b} players"
                   for t, a, b in runs)


def _deal(spec) -> list[str]:
    from .kernel.rulesheet import later_hands_words

    d = spec.deal
    out = ["## The deal", ""]
    by = f" ({_by_players(d.hand_by_players, 'card')})" if d.hand_by_players else ""
    if d.reserve:
        first = "the hand first" if d.order[0] == "hand" else f"the {d.reserve_name} first"
        out.append(f"- Each player is dealt a hand of {_cards(d.hand)}{by} and a face-down "
                   f"**{d.reserve_name}** of {_cards(d.reserve)} ({first}).")
    else:
        out.append(f"- Each player is dealt a hand of {_cards(d.hand)}{by}.")
    if d.upcard:
        again = [{"bonus": "a bonus card", "wild": "a wild card"}[w] for w in d.upcard_turn_again]
        line = "- The top card of the stock is turned face up to start the discard pile"
        if again:
            line += (f"; if it is {_list(again, 'or')}, another card is turned on top of it, "
                     "and the pile starts frozen")
        out.append(line + ".")
    else:
        out.append("- No card is turned up: the discard pile starts empty.")
    if spec.cards.bonus:
        out.append("- Bonus cards in a dealt hand are laid out and replaced from the stock.")
    if d.first_player == "left_of_dealer":
        out.append("- The first dealer is chosen by lot; the player on the dealer's left plays "
                   f"first, and {later_hands_words(d)}.")
    else:
        out.append("- Every player draws a card: the highest ("
                   + " > ".join(d.high_card_order)
                   + ") plays first; any other card, or a tie, draws again. Then "
                   f"{later_hands_words(d)}.")
    return out


def _turn(spec) -> list[str]:
    t, d, r = spec.turn, spec.deal, spec.reserve
    out = ["## A turn", ""]
    out.append("A turn has two phases: first draw, then play.")
    out.append("")
    by = f" ({_by_players(t.draw_by_players, 'card')})" if t.draw_by_players else ""
    draw = [f"draw {_cards(t.draw)}{by} from the stock"]
    if spec.cards.bonus:
        draw[0] += " (a bonus card drawn is laid out and replaced)"
    draw.append("or take the discard pile (see *The discard pile*)")
    out.append("1. **Draw:** " + ", ".join(draw) + ".")
    if d.reserve and r.pickup_at_turn_start == "side_has_book":
        out.append(f"   Before drawing, a player whose side has a book may pick up their "
                   f"{d.reserve_name} into their hand.")
    out.append("2. **Play:** lay down new melds and add cards to your side's melds, as many as "
               "you like, then discard one card face up onto the pile, which ends the turn.")
    g = spec.going_out
    foot = bool(d.reserve) and r.pickup_on_empty_hand
    if foot:
        out.append(f"   A player whose hand is played out picks up their {d.reserve_name}: "
                   "see *The " + d.reserve_name + "*.")
    if t.keep_card_to_discard and g.requires_discard:
        out.append("   You must keep a card to discard: a play that would leave you without "
                   "one is not allowed" + (f" once your {d.reserve_name} is picked up."
                                           if foot else "."))
    elif t.keep_card_to_discard:
        out.append("   A play that leaves you no card is allowed only when it takes you out "
                   "(see *Going out*); otherwise you must keep a card to discard.")
    elif g.requires_discard:
        out.append("   A player who melds every card has no card to discard: they leave the "
                   "hand (this is not going out); their melds still count.")
    else:
        out.append("   A player who melds every card goes out if their side may go out (see "
                   "*Going out*); otherwise they leave the hand, and their melds still count.")
    return out


def _melds(spec) -> list[str]:
    m = spec.melds
    out = ["## Melds", ""]
    out.append(f"- A meld is at least {_cards(m.min_size)} of one rank, with at least "
               f"{m.min_naturals} natural cards and at most {m.max_wilds} wild cards.")
    if m.no_wild_ranks:
        out.append(f"- Melds of {_selectors(m.no_wild_ranks, 'or')} take no wild cards at all.")
    if m.going_out_ranks:
        out.append(f"- {_selectors(m.going_out_ranks, 'and')[0].upper()}"
                   f"{_selectors(m.going_out_ranks, 'and')[1:]} are melded only by a player "
                   "going out in that turn: the meld leaves them no card, or one to discard.")
    if m.wild_melds:
        out.append(f"- A meld made only of wild cards is allowed (at least "
                   f"{_cards(m.min_size)}).")
    else:
        out.append("- A meld made only of wild cards is not allowed.")
    close = ("until it is a closed book"
             if spec.books.close_at_size else "(melds keep growing)")
    out.append(f"- A side has at most one open meld of each rank {close}; add further cards of "
               "that rank to it.")
    seq = m.sequences
    if seq is not None:
        order = ", ".join(_short_rank(RANKS[rank_index(r)]) for r in seq.ranks)
        grows = (f"{_cards(seq.min_size)} or more" if seq.max_size > seq.min_size
                 else f"exactly {_cards(seq.min_size)}")
        more = (f" Add cards at either end until it holds {_cards(seq.max_size)}; then it "
                "takes no more." if seq.max_size > seq.min_size else
                " It is melded whole and takes no more.")
        out.append(f"- A **sequence** is {grows} of one suit in consecutive ranks, in the "
                   f"order {order} (no wild cards).{more} A side may hold any number of "
                   "sequences, of one suit or of several.")
    out.append("- A side's melds are shared: partners add to each other's melds.")
    return out


def _books(spec) -> list[str]:
    b = spec.books
    out = ["## Books", ""]
    if b.close_at_size and not b.reopen:
        out.append(f"A meld of {_cards(b.size)} is a **book** and is closed: it takes no more "
                   "cards, and the side may not start another meld of that rank, nor take the "
                   "pile to start one.")
    elif b.close_at_size:
        out.append(f"A meld of {_cards(b.size)} is a **book** and is closed: it takes no more "
                   "cards, and the side may start a new meld of that rank"
                   + (" (a new meld of wild cards only, for a book of them)."
                      if spec.melds.wild_melds else "."))
    else:
        out.append(f"A meld of {_cards(b.size)} or more is a **book**; it keeps taking cards.")
    if spec.melds.sequences is not None:
        seq = spec.melds.sequences
        out.append("")
        if seq.max_size >= b.size:
            out.append(f"A sequence of {_cards(b.size)} is a book too (of the kind for "
                       "sequences below, if any).")
        else:
            out.append(f"A sequence holds at most {_cards(seq.max_size)}, so it never makes a "
                       "book.")
    if b.kinds:
        out += ["", "A book is of the first kind it matches:", "",
                "| Kind | Book | Value |", "|---|---|---:|"]
        for k in b.kinds:
            out.append(f"| {k.name} | {_book_kind_text(k, b.size)} | {k.value} |")
        from .kernel.rulesheet import BOOK_ADDS_WORDS

        default = "none" if b.close_at_size else "any"
        said = [k for k in b.kinds if k.adds is not None and k.adds != default]
        if said:
            out.append("")
            words = {**BOOK_ADDS_WORDS, "any": "keeps taking cards"}
            # a closed book frees its slot: its rank's, or the wild meld's (wild_only)
            again = ({True: ", and the side may start no other meld of wild cards.",
                      False: ", and the side may start no other meld of its rank."}
                     if not b.reopen else
                     {True: ", and the side may start a new meld of wild cards only.",
                      False: ", and the side may start a new meld of its rank."})
            out += [f"- A{with_article(f'{k.name} book')[1:]} {words[k.adds]}"
                    + (again[k.wild_only] if k.adds == "none" else ".") for k in said]
    return out


_PENDING_EMPTY = ("A play toward the minimum (a meld, or the pile taken) that would leave the "
                  "player no card must reach it.")
"""The engine's rule for melds short of the initial meld that empty the hand (they would
leave only withdrawing them)."""


def _initial_meld(spec) -> list[str]:
    im = spec.initial_meld
    tiers = im.minimums
    if im.by_hand:
        hands = ", ".join(f"{m} in hand {i + 1}" for i, m in enumerate(im.by_hand))
        out = ["## The initial meld", "",
               "A side's first meld of a hand must total a minimum in card values, which "
               f"rises with the hand number: {hands}, and {im.by_hand[-1]} in any later "
               "hand. Several melds laid down in the same turn count together; if they do "
               "not reach the minimum they are taken back, and the player may not meld again "
               f"that turn. {_PENDING_EMPTY}"]
        out.append("")
        out.append("When the pile is taken for the initial meld, its top card "
                   + ("counts" if im.pile_top_counts else "does not count")
                   + " toward the minimum; the other cards taken do not.")
        return out
    if not tiers or all(t.minimum == 0 for t in tiers):
        return ["## The initial meld", "", "A side's first meld of a hand has no minimum."]
    out = ["## The initial meld", ""]
    out.append("A side's first meld of a hand must total a minimum in card values, which "
               "depends on the side's score so far. Several melds laid down in the same turn "
               "count together; if they do not reach the minimum they are taken back, and the "
               f"player may not meld again that turn. {_PENDING_EMPTY}")
    out += ["", "| Side's score | Minimum |", "|---|---:|"]
    out += _tier_rows(tiers)
    for n, more in sorted(im.minimums_by_players.items()):
        out += ["", f"With {n} players:", "", "| Side's score | Minimum |", "|---|---:|"]
        out += _tier_rows(more)
    out.append("")
    if im.pile_top_counts:
        out.append("When the pile is taken for the initial meld, its top card counts toward "
                   "the minimum.")
    else:
        out.append("When the pile is taken for the initial meld, its top card does not count "
                   "toward the minimum.")
    return out


def _wild_words(cards) -> str:
    """The wild cards of a deal in a few words: ``2s (deuces) and jokers``, ``the rank of a
    card turned at each deal``, ``none``."""
    turned = {"rank": "the rank of a card turned at each deal",
              "next_rank": "the rank above a card turned at each deal"}.get(
        getattr(cards, "turned_wild", "none"))
    wild = _selectors(cards.wild) if cards.wild else ""
    if turned:
        wild = f"{wild}; and {turned}" if wild and wild != "none" else turned
    return wild or _selectors(cards.wild)


def _by_deal(spec) -> list[str]:
    """What a rank-slot pack's ``schedule`` changes from deal to deal: the hand, the draw
    and the opening minimum, deal by deal (the other sections give the pack as written)."""
    from .kernel.rulesheet import _per_deal

    rows = [("Hand", lambda s: s.deal, lambda d: _cards(d.hand) + (
                f" ({_by_players(d.hand_by_players, 'card')})" if d.hand_by_players else "")),
            ("Draw", lambda s: s.turn, lambda t: _cards(t.draw) + (
                f" ({_by_players(t.draw_by_players, 'card')})" if t.draw_by_players else "")),
            ("Initial meld", lambda s: s.initial_meld, _minimum_words)]
    lines = []
    for label, value, words in rows:
        by_deal = _per_deal(spec, value, words)
        if by_deal:
            lines.append(f"- **{label}:** " + "; ".join(f"{text} in {where}"
                                                       for where, text in by_deal) + ".")
    if not lines:
        return []
    return ["## Deal by deal", "", "The deals of a game differ in these settings (the other "
            "sections give the pack as written):", ""] + lines


def _minimum_words(im) -> str:
    """An opening minimum in a few words: ``a minimum of 90``, ``minimums by score
    (50 below 1,500; 90 from 1,500)``."""
    if im.by_hand:
        return "minimums by hand " + ", ".join(str(m) for m in im.by_hand)
    tiers = [t for t in im.minimums if t.minimum] or im.minimums
    if not tiers or all(t.minimum == 0 for t in tiers):
        return "no minimum"
    if len(im.minimums) == 1:
        return f"a minimum of {im.minimums[0].minimum}"
    rows = [r.strip("| ").split(" | ") for r in _tier_rows(im.minimums)]
    return "minimums by score (" + "; ".join(
        f"{m} {what}" if what.startswith("below") else f"{m} at {what}" for what, m in rows) + ")"


def _tier_rows(tiers) -> list[str]:
    rows, low = [], None
    for t in tiers:
        if t.below is None:
            what = f"{low:,} or more" if low is not None else "any"
        elif low is None:
            what = f"below {t.below:,}"
        else:
            what = f"{low:,} to {t.below - 1:,}"
        rows.append(f"| {what} | {t.minimum} |")
        low = t.below
    return rows


def _pile(spec) -> list[str]:
    p = spec.pile
    out = ["## The discard pile", ""]
    if p.freezes_on:
        out.append(f"- Discarding {_selectors(p.freezes_on, 'or')} **freezes** the pile until "
                   "it is next taken.")
    if p.blocked_by:
        out.append(f"- A pile with {_selectors(p.blocked_by, 'or')} on top cannot be taken "
                   "(it is blocked for the next player).")
    if p.requires_melded:
        out.append("- Only a side that has already melded this hand may take the pile.")
    if p.frozen_until_melded:
        out.append("- The pile is **frozen for a side that has not melded** this hand: that "
                   "side takes it only as a frozen pile (below).")
    ways = {
        "natural_pair": "with two natural cards of its rank from your hand",
        "natural_and_wild": "with one natural card of its rank and one wild card",
        "onto_meld": "alone, onto your side's open meld of its rank"
                     + (" or the end of one of its sequences" if spec.melds.sequences else "")
                     + ("" if p.onto_book else f", if that meld is not yet a book "
                        f"({_cards(spec.books.size)})"),
    }
    melding = [w for w in p.take_with if w != "free"]
    if "free" in p.take_with:
        out.append("- An unfrozen pile may be taken whole into your hand, melding nothing "
                   "(`take`)" + (" — or by melding its top card as below." if melding
                                 else "."))
    if len(melding) == 1:
        out.append(f"- To take the pile, meld its top card {ways[melding[0]]}, then take "
                   "the rest of the pile into your hand.")
    elif melding:
        out.append("- To take the pile, meld its top card in one of these ways, then take the "
                   "rest of the pile into your hand:")
        for w in melding:
            out.append(f"  - {ways[w]}")
    if p.single_card_rule:
        out.append("- A player holding a single card may not take a pile of a single card.")
    if p.take_count is not None:
        out.append(f"- Only the top {_cards(p.take_count)} of the pile are taken (the top card "
                   "and those beneath it); the rest stay as the discard pile.")
    out += _wild_top_lines(spec)
    if p.frozen_take_with == "same_rank_pair":
        out.append("- A frozen pile is taken only with two cards of the top card's own rank "
                   "(two deuces for a deuce).")
    else:
        out.append("- A frozen pile is taken only with two natural cards of the top card's "
                   "rank.")
    return out + discard_ban_lines(spec, "end")


def _wild_top_lines(spec) -> list[str]:
    """What the rank-slot engine does with a wild card on top of the pile (its
    ``_check_take``): nothing to say where ``pile.blocked_by`` blocks every wild card; not
    melded without ``melds.wild_melds``; with them, a frozen pile is taken with a wild
    card on top only where ``pile.frozen_take_with`` is ``same_rank_pair`` — a wild card
    discarded freezes the pile (``pile.freezes_on``), so it may be the only case."""
    p = spec.pile
    wild = frozenset().union(*(kinds_matching(s) for s in spec.cards.wild))
    blocked = frozenset().union(*(kinds_matching(s) for s in p.blocked_by))
    open_ = wild - blocked
    if not open_:
        return []  # the blocked_by line says the pile cannot be taken
    sels = [s for s in spec.cards.wild if kinds_matching(s) - blocked]
    what = "A wild card" if open_ == wild else f"A wild card ({_selectors(sels, 'or')})"
    freezes = frozenset().union(*(kinds_matching(s) for s in p.freezes_on))
    # a wild card on top of a pile that is not frozen: one that does not freeze it, a
    # wild upcard left on top, or the rest of a pile partly taken (pile.take_count)
    unfrozen = bool(open_ - freezes) or p.take_count is not None or (
        spec.deal.upcard and "wild" not in spec.deal.upcard_turn_again)
    if not spec.melds.wild_melds:
        if "free" in p.take_with and unfrozen:
            return [f"- {what} on top cannot be melded: the pile is then taken only whole, "
                    "when it is not frozen."]
        return [f"- {what} on top cannot be taken."]
    onto = "onto_meld" in p.take_with and unfrozen
    book = "" if p.onto_book else ", if it is not yet a book"
    if p.frozen_take_with == "same_rank_pair":
        alone = f" (or, when the pile is not frozen, alone onto it{book})" if onto else ""
        return [f"- {what} on top is taken with two wild cards of its own rank, for the "
                f"side's wild meld{alone}."]
    if not unfrozen:
        return [f"- {what} on top cannot be taken: discarding it freezes the pile, and a "
                "frozen pile is taken only with natural cards."]
    alone = f" (or alone onto it{book})" if onto else ""
    return [f"- {what} on top of a pile that is not frozen is taken with two wild cards of "
            f"its own rank, for the side's wild meld{alone}; on a frozen pile it cannot be "
            "taken (a frozen pile is taken only with natural cards)."]


_BAN_WORDS = {
    "book_of_rank": "until the player's side holds a book of its rank",
    "book": "until the player's side holds a book",
    "opened": "until the player's side has made its initial meld",
    "going_out": "except as the player's last card, going out",
    "not_going_out": "as the player's last card, to go out",
}
"""The rules sheet's words for each condition of ``pile.discard_bans``."""


def discard_ban_lines(spec, verb: str) -> list[str]:
    """The rules sheet's sentences for ``pile.discard_bans`` and ``pile.all_banned`` (both
    meld models; ``verb``: the action that ends a turn without a discard)."""
    bans = spec.pile.discard_bans
    if not bans:
        return []
    out = [f"- **Banned discards:** {_selectors(b.cards, 'or')} may not be discarded "
           f"{_BAN_WORDS[b.unless]}." for b in bans]
    if spec.pile.all_banned == "pass":
        out.append(f"- A player whose every card is banned from the discard ends the turn "
                   f"without a discard (`{verb}`), keeping the cards.")
    else:
        out.append("- A player whose every card is banned from the discard may discard any "
                   "of them.")
    return out


def _reserve(spec) -> list[str]:
    d, r = spec.deal, spec.reserve
    if not d.reserve:
        return []
    name = d.reserve_name
    out = [f"## The {name}", ""]
    if r.pickup_on_book == "side_first":
        out.append(f"- The player who completes their side's first book of the hand picks up "
                   f"their {name} at once.")
    elif r.pickup_on_book == "own_first":
        out.append(f"- A player picks up their {name} at once when they complete their own "
                   "first book of the hand.")
    if r.pickup_at_turn_start == "side_has_book":
        out.append(f"- Once their side has a book, a player may pick up their {name} at the "
                   "start of their turn, before drawing.")
    if r.pickup_on_empty_hand:
        out.append(f"- A player picks up their {name} when their hand is played out: after "
                   f"melding their last card they go on playing from the {name} in the same "
                   f"turn; after discarding their last card they play the {name} from their "
                   "next turn.")
    if (r.pickup_on_book == "never" and r.pickup_at_turn_start == "never"
            and not r.pickup_on_empty_hand):
        out.append(f"- The {name} is never picked up.")
    if spec.cards.bonus:
        if r.bonus_replaced:
            out.append(f"- Bonus cards found in the {name} are laid out and replaced from the "
                       "stock.")
        else:
            out.append(f"- Bonus cards found in the {name} are laid out and not replaced.")
    return out


def _going_out(spec) -> list[str]:
    g, d = spec.going_out, spec.deal
    out = ["## Going out", ""]
    books = ""
    if g.min_books or g.min_books_by_players:
        books = f"at least {g.min_books} book{'s' if g.min_books != 1 else ''}"
        if g.min_books_by_players:
            books += f" ({_by_players(g.min_books_by_players, 'book')})"
    if g.required_books:
        required = _count_words(g.required_books)
        # the required books are books too: a count they reach goes without saying
        implied = not g.min_books_by_players and g.min_books <= len(g.required_books)
        books = required if not books or implied else f"{books}, including {required}"
    reserve = (f"the player has picked up their {d.reserve_name}"
               if g.requires_reserve and d.reserve else "")
    if books or reserve:
        out.append("A player may go out only when "
                   + ", and ".join(x for x in (books and f"their side has {books}", reserve)
                                   if x) + ".")
    else:
        out.append("A player may go out at any time.")
    if g.requires_discard:
        out.append("Going out means getting rid of every card, the last one by discarding it.")
    else:
        out.append("Going out means getting rid of every card, by melding them all or by "
                   "discarding the last one.")
    out.append("Going out ends the hand.")
    return out


def _hand_end(spec) -> list[str]:
    h = spec.hand_end
    out = ["## The end of a hand", "", "- A hand ends when a player goes out."]
    renew = {"turn_pile": "turned over, without shuffling,",
             "shuffle_pile": "shuffled"}.get(spec.stock.when_empty)
    if renew:
        out.append(f"- When a turn ends with the stock empty, the discard pile but its top "
                   f"card is {renew} to form a new stock, if it holds more cards than a turn "
                   "draws; the pile stays as frozen as it was.")
    if spec.stock.when_empty == "end_at_once":
        out.append("- It also ends as soon as a turn ends with the stock empty.")
    elif h.stock_empty:
        out.append("- It also ends when the stock is empty and the player to draw does not "
                   "(or cannot) take the pile" + (" (when the pile was too small to form "
                   "a new stock)" if renew else "") + ".")
    if h.players_out_without_discard and h.one_side_left:
        out.append("- It also ends when only one side still has players in the hand.")
    if spec.game.hand_turn_limit is not None:
        out.append(f"- A hand still going after {spec.game.hand_turn_limit} turns is void: "
                   "nobody scores for it.")
    if spec.cards.bonus and h.last_card_bonus == "meld_then_end":
        out.append("- When the last card of the stock, drawn, is a bonus card, it is laid out "
                   "and play ends: the player who drew it may meld and lay off but not "
                   "discard.")
    elif spec.cards.bonus and h.last_card_bonus == "end_at_once":
        out.append("- When the last card of the stock, drawn, is a bonus card, it is laid out "
                   "and the hand ends at once: the player who drew it neither melds nor "
                   "discards.")
    return out


def _scoring(spec) -> list[str]:
    """The hand's scoring items — the pack's ``scoring.items``, or the ``canasta`` preset
    built from its scoring keys — one row each, in order."""
    from .kernel.scoring import listed_items, rank_slot_preset

    sc = spec.scoring
    items = listed_items(sc)[:-1] if sc.items else rank_slot_preset(spec)[:-1]
    ordered = any(name == "multiply" for name, _ in items)
    out = ["## Scoring", "", "At the end of each hand every side scores"
           + (", in this order:" if ordered else ":"), "", "| Item | Points |", "|---|---|"]
    for name, p in items:
        out += [f"| {item} | {points} |" for item, points in _item_rows(spec, name, p)]
    return out


def _item_rows(spec, name: str, p: dict) -> list[tuple[str, str]]:
    """A rank-slot scoring item as rows of the rules sheet's scoring table."""
    from .kernel.rulesheet import WHEN, pay_sentence

    sc, b = spec.scoring, spec.books
    if name == "books":
        return [("each book", ", ".join(f"{k.name} {k.value:,}" for k in b.kinds)
                 or "its kind's value")]
    if name == "melded_cards":
        return [("every card in the side's books and melds", "its value")]
    if name == "bonus_cards":
        bonus = f"{p['value']:,} each"
        by_side = p["sets_by"] == "side"
        whose = "a side's" if by_side else "a player's"
        also = " (however split between the partners)" if by_side else ""
        if p["set_size"]:
            bonus += (f"; {whose} set of {p['set_size']}{also} scores {p['set_value']:,} "
                      "instead")
        if p["by_count"]:
            bonus += "; " + ", ".join(f"{n} held" + (" by one side" if by_side
                                                     else " by one player")
                                      + f" score {v:,}" for n, v in
                                      sorted(p["by_count"].items())) + also
        unless = p["negative_unless"]
        if unless != "never":
            bonus += {"melded": "; negative for a side that has not melded",
                      "out": "; negative for a side that did not go out",
                      "book": "; negative for a side that has completed no book "
                              f"({spec.books.size} cards or more in a meld)"}[unless]
        return [("bonus cards", bonus)]
    if name == "dead_cards":
        return [("each dead card left in a hand", _points(p["points"]))]
    if name == "hand_cards":
        who = "sides that did not go out" if p["counts"] == "not_out" else "every side"
        return [(f"cards left in hand ({who})", "minus their value")]
    if name == "reserve_cards":
        who = "sides that did not go out" if p["counts"] == "not_out" else "every side"
        extra = ""
        if sc.reserve_values:
            extra = " (" + ", ".join(f"{_selector(k).split(' (')[0]} count {v} each"
                                     for k, v in sc.reserve_values.items()) + ")"
        return [(f"a {spec.deal.reserve_name} not picked up ({who})",
                 f"minus its cards' values{extra}")]
    if name == "going_out":
        rows = [("going out", f"{p['bonus']:,}")] if p["bonus"] else []
        if p["concealed"]:
            book = (f", and lays a book of their own in it: {_cards(b.size)} in one meld"
                    if sc.concealed_needs_book else "")
            rows.append((f"going out concealed (the player had not melded before that "
                         f"turn{book})", f"{p['concealed']:,} more"))
        return rows
    def when(cond: str) -> str:  # going out at once is going out concealed (its book too)
        book = (f", and lays a book of their own in it: {_cards(b.size)} in one meld"
                if cond == "out_at_once" and sc.concealed_needs_book else "")
        return WHEN[cond] + book

    if name == "bonus":
        said = "" if p["when"] == "out" else f", {when(p['when'])}"
        return [(f"the side that goes out{said}", f"{p['points']:,} more")]
    if name == "multiply":
        return [(f"everything above, {when(p['when'])}", f"times {p.get('by') or 2}")]
    if name == "pay":
        said = pay_sentence(p).rstrip(".")
        return [("payments between players", said[0].lower() + said[1:])]
    raise AssertionError(name)


def _game_end(spec) -> list[str]:
    if spec.scoring.sheets:  # the sheets say how the game ends
        from .kernel.rulesheet import sheets_section
        from .kernel.scoring import listed_items

        return sheets_section(spec, lambda entries: "; ".join(
            f"{item} ({points})" for name, p in listed_items(spec.scoring, entries)[:-1]
            for item, points in _item_rows(spec, name, p)))
    if spec.game.hands is not None:
        return ["## The end of the game", "",
                (f"The game is {_n(spec.game.hands, 'hand')}, whatever the scores; the side "
                 "with the most points then wins (a tie is a draw).")]
    by = ""
    if spec.game.target_by_players:
        by = " (" + ", ".join(f"{v:,} with {n} players"
                              for n, v in sorted(spec.game.target_by_players.items())) + ")"
    tie = ("a tie plays another hand" if spec.game.tie == "play_on"
           else "a tie at or above the target ends the game drawn")
    return ["## The end of the game", "",
            (f"The game ends after the hand in which a side reaches {spec.game.target:,} "
             f"points{by}; the side with the most points wins ({tie}).")]


def _plugin_sheet(pack: RulePack) -> list[str]:
    """A pack played by a plugin's own engine: what the pack itself states."""
    import json

    spec = pack.spec
    pl, d = spec.players, spec.deal
    own = _plugin_rules(pack)
    out = [(f"This game is played by the `{spec.plugin}` plugin's own engine; its rules "
            "are the plugin's, configured by the options below" + (
                ", and stated by it." if own else ".")), ""]
    count = f"{pl.min} to {pl.max} players" if pl.min != pl.max else f"{pl.min} players"
    sides = {"always": "in partnerships", "never": "each alone",
             "optional": "alone or in partnerships"}[pl.partners]
    out += ["## Players and the deal", "", f"- **Players:** {count}, {sides}.",
            f"- **Deal:** {_cards(d.hand)} each.", ""]
    if own:
        out += own + [""]
    if spec.options:
        import io

        from ruamel.yaml import YAML

        yaml = YAML(typ="safe", pure=True)
        yaml.default_flow_style = None
        buf = io.StringIO()
        yaml.dump(json.loads(json.dumps(spec.options)), buf)
        out += ["## Options", "", "```yaml", buf.getvalue().rstrip(), "```"]
    return out
