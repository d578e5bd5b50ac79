"""The rules-sheet sections of a table-meld pack (rummy, gin): written from the pack's keys,
one sentence per setting, so the sheet states exactly what the engine plays.

>>> import meldkit
>>> lines = table_sections(meldkit.load_pack("gin_rummy").spec)
>>> any("knock" in line for line in lines)
True
"""

from __future__ import annotations

from collections.abc import Callable

from .._cards import with_article

_ACE = {
    "low": "an ace is low only (A-2-3, not Q-K-A)",
    "high": "an ace is high only (Q-K-A, not A-2-3)",
    "both": "an ace is low or high (A-2-3 or Q-K-A) but not both at once",
    "around": "runs may go round the corner (K-A-2)",
}


def _ace_words(ace: str, deck) -> str:
    """What ``melds.kinds[].ace`` lets an ace do, with runs of the deck's own ranks: a
    deck without kings (``deck.ranks``) tops its runs at the queen.

    >>> from meldkit._schema import DeckSpec
    >>> _ace_words("low", DeckSpec())
    'an ace is low only (A-2-3, not Q-K-A)'
    >>> _ace_words("low", DeckSpec(ranks="A 2 3 4 5 6 7 8 9 10 J Q".split()))
    'an ace is low only (A-2-3); no run goes past the Q'
    """
    from .._cards import RANKS, rank_index

    kept = sorted({rank_index(r) for r in deck.ranks} if deck.ranks else range(13))
    if 12 in kept or deck.run_gaps == "skip" or ace == "around" or 0 not in kept:
        if len(kept) == 13 or ace == "around":
            return _ACE[ace]
        low = "-".join(RANKS[r] for r in kept[:3])
        high = "-".join(RANKS[r] for r in [*kept[-2:], 0])
        return {"low": f"an ace is low only ({low}, not {high})",
                "high": f"an ace is high only ({high}, not {low})",
                "both": f"an ace is low or high ({low} or {high}) but not both at once"}[ace]
    top = RANKS[kept[-1]]  # no king, and a missing rank stops a run: nothing above the top
    low = "-".join(RANKS[r] for r in kept[:3])
    return {"low": f"an ace is low only ({low}); no run goes past the {top}",
            "high": f"an ace fits no run (it is high only, and no run goes past the {top})",
            "both": f"an ace is low only ({low}); no run goes past the {top}"}[ace]


def _n(n: int, word: str) -> str:
    return f"{n} {word}" + ("" if n == 1 else "s")


_NUMBERS = ("no", "a", "two", "three", "four", "five", "six", "seven", "eight", "nine")


def _count(n: int, name: str) -> str:
    """``2, set`` → ``two sets``; ``1, run`` → ``a run``; a name of several words takes
    the plural on its first (``2, set of 3`` → ``two sets of 3``).

    >>> _count(2, "set of 3"), _count(1, "run of 4"), _count(3, "flush")
    ('two sets of 3', 'a run of 4', 'three flushes')
    """
    word = _NUMBERS[n] if n < len(_NUMBERS) else str(n)
    if n == 1:
        return f"{'an' if name[:1].lower() in 'aeiou' else 'a'} {name}"
    head, _, tail = name.partition(" ")
    plural = f"{head}{'es' if head.endswith(('s', 'x', 'ch', 'sh')) else 's'}"
    return f"{word} {plural}" + (f" {tail}" if tail else "")


def _and(parts: list[str], word: str = "and") -> str:
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + f" {word} " + parts[-1]


def contract_words(melds) -> str:
    """A contract in words, kinds in the order written: ``[set, set, run]`` → ``two sets
    and a run``.

    >>> contract_words(["set", "run", "run"]), contract_words(["run", "set"])
    ('a set and two runs', 'a run and a set')
    """
    counts: dict[str, int] = {}
    for name in melds:
        counts[name] = counts.get(name, 0) + 1
    return _and([_count(n, name) for name, n in counts.items()])


def _each(parts) -> str:
    """Per-deal phrases joined: with "and" when they read as one list, else with ";"."""
    parts = list(parts)
    return "; ".join(parts) if any("," in p for p in parts) or len(parts) > 2 else _and(parts)


def deal_specs(spec) -> list:
    """The spec each deal of ``spec.schedule`` plays with (deal n: item n merged over the
    pack, as the loader merges it: mappings key by key, anything else replaced), then the
    pack as written for every later deal; ``[spec]`` without a schedule.

    >>> import meldkit
    >>> [s.deal.hand for s in deal_specs(meldkit.load_pack("contract_rummy").spec)]
    [10, 10, 10, 10, 12, 12, 12, 10]
    """
    if not spec.schedule:
        return [spec]
    from .._loader import _CONVERTER
    from .._schema import RulePackSpec

    def merge(base: dict, over: dict) -> dict:
        out = dict(base)
        for key, value in over.items():
            out[key] = (merge(out[key], value) if isinstance(value, dict)
                        and isinstance(out.get(key), dict) else value)
        return out

    plain = _CONVERTER.unstructure(spec)
    plain["schedule"] = []
    return [_CONVERTER.structure(merge(plain, dict(item)), RulePackSpec)
            for item in spec.schedule] + [spec]


def _deal_numbers(numbers: list[int]) -> str:
    """``[1, 2, 3, 5]`` → ``deals 1 to 3 and 5``."""
    runs: list[list[int]] = []
    for n in numbers:
        if runs and runs[-1][-1] == n - 1:
            runs[-1].append(n)
        else:
            runs.append([n])
    text = _and([str(r[0]) if len(r) == 1 else
                 (f"{r[0]} and {r[1]}" if len(r) == 2 else f"{r[0]} to {r[-1]}") for r in runs])
    return ("deal " if len(numbers) == 1 else "deals ") + text


def _per_deal(spec, value, words) -> list[tuple[str, str]] | None:
    """``(which deals, words(value))`` for each distinct value of ``value(spec)`` over the
    game's deals, in the order they first come (``later deals`` for those past the
    schedule, when the game may go on); None when every deal has the same value."""
    specs = deal_specs(spec)
    if len(specs) == 1:
        return None
    played = len(specs) - 1
    hands = spec.game.hands
    later = hands is None or hands > played
    if hands is not None:
        played = min(played, hands)
    values = [value(s) for s in specs[:played]] + ([value(spec)] if later else [])
    if len(set(map(repr, values))) == 1:
        return None
    groups: dict[str, tuple[list[int], str]] = {}
    for i, v in enumerate(values):
        text = words(v)
        groups.setdefault(text, ([], text))[0].append(i + 1)
    out = []
    for numbers, text in groups.values():
        past = later and numbers[-1] == len(values)
        shown = [n for n in numbers if not (past and n == len(values))]
        where = _deal_numbers(shown) if shown else ""
        if past:
            where = (where + " and " if where else "") + "later deals"
        out.append((where, text))
    return out


def table_sections(spec, turn_notes: list[str] = ()) -> list[str]:
    """The deal, turn, melds, the contract, laying off, buying, going out or knocking, the
    stock, scoring and the end of the game, as Markdown lines; a pack with a ``schedule``
    says what changes from deal to deal.  ``turn_notes`` close the turn's section (the
    banned discards, which the rules sheet words as its card categories)."""
    out: list[str] = []
    for section in (_deal, _turn, _melds, _books, _opening, _lay_off, _rearranging, _buying,
                    _dropping, _ending, _stock, _scoring, _game):
        lines = section(spec)
        if section is _turn and turn_notes:
            lines = [*lines, "", *turn_notes]
        if lines:
            out += lines + [""]
    return out


def _deal(spec) -> list[str]:
    d = spec.deal
    out = ["## The deal", ""]
    by_deal = _per_deal(spec, lambda s: s.deal, _hand_words)
    if by_deal:
        out.append("- Each player is dealt "
                   + _each(f"{text} in {where}" for where, text in by_deal) + ".")
    else:
        out.append(f"- Each player is dealt {_hand_words(d)}.")
    if d.reserve:
        whose = "each side" if d.reserve_per == "side" else "each player"
        first = ("the first player of the side" if d.reserve_per == "side" else "a player")
        out.append(f"- Then {whose} is dealt a face-down **{d.reserve_name}** of "
                   f"{_n(d.reserve, 'card')}. When {first} plays out their hand, the "
                   f"{d.reserve_name} becomes their hand: after a meld or lay-off they play "
                   "on; after a discard it is their hand for the next turn. Only a player "
                   f"whose {d.reserve_name} is taken can go out.")
    if d.upcard:
        out.append("- The next card is turned face up to start the discard pile; the rest "
                   "form the stock.")
    turned = spec.cards.turned_wild
    if turned != "none":
        which = "its rank" if turned == "rank" else "the rank above it (after a king: aces)"
        out.append("- Then the top card of the stock is turned face up and set aside for the "
                   f"deal: every card of {which} is wild for the deal. A joker turned is set "
                   "aside too, and the next card turned. In actions a card of the wild rank "
                   "is written `*` and its suit (`*C`: the wild club).")
    if spec.pile.first_upcard == "offer":
        out.append("- **The first upcard:** the first player may take it; if they decline, "
                   "each other player in turn may; if nobody takes it, the first player draws "
                   "from the stock.")
    out.append("- The first dealer is chosen by lot and the player on the dealer's left "
               f"plays first; {later_hands_words(spec.deal)}.")
    return out


def later_hands_words(deal) -> str:
    """Who starts each later hand (``deal.next_hand_first``), as the rules sheets say it.

    >>> from meldkit._schema import DealSpec
    >>> later_hands_words(DealSpec(next_hand_first="winner"))
    'the winner of each hand plays first in the next (after a hand nobody won, the deal passes to the left)'
    """
    return {"left_of_previous": "the deal passes to the left after each hand",
            "high_card": "before each later hand the players draw for the first player again",
            "winner": "the winner of each hand plays first in the next (after a hand nobody "
                      "won, the deal passes to the left)"}[deal.next_hand_first]


def _hand_words(d) -> str:
    if not d.hand_by_players:
        return _n(d.hand, "card")
    sizes = ", ".join(f"{_n(size, 'card')} with {n} players"
                      for n, size in sorted(d.hand_by_players.items()))
    return f"{_n(d.hand, 'card')} ({sizes})"


def _draw_words(turn) -> str:
    """``draw the top card of the stock``, ``draw 2 cards from the stock (3 with 2
    players)``."""
    if turn.draw == 1 and not turn.draw_by_players:
        return "draw the top card of the stock"
    by = ", ".join(f"{n} with {p} players" for p, n in sorted(turn.draw_by_players.items()))
    return f"draw {_n(turn.draw, 'card')} from the stock" + (f" ({by})" if by else "")


def _turn(spec) -> list[str]:
    take = {
        "top": "take the top card of the discard pile",
        "pile": "take the whole discard pile",
        "deep": ("take the top card of the discard pile, or take any card deeper in the pile "
                 "together with every card above it — a card taken that way must be melded "
                 "or laid off at once"),
    }[spec.pile.take]
    by_deal = _per_deal(spec, lambda s: s.turn, _draw_words)
    draw = ("; ".join(f"{text} in {where}" for where, text in by_deal) if by_deal
            else _draw_words(spec.turn))
    if spec.turn.play_or_draw:
        return _play_or_draw(spec, draw)
    if not spec.turn.discard:  # (no discard pile: nothing to take)
        out = ["## A turn", "", "There is no discard pile.", "", f"1. **Draw:** {draw}."]
    else:
        out = ["## A turn", "", f"1. **Draw:** {draw}, or {take}."]
    if spec.knock.max_deadwood is not None:
        out.append("2. **Discard:** discard one card face up — or knock (see *Knocking*). "
                   "Melds are laid only when a player knocks.")
    else:
        melds = ("lay down new melds and lay off cards on melds on the table, as many as you "
                 "like" if _lays_off(spec) else
                 "lay down new melds, as many as you like")
        if all(s.initial_meld.all_at_once for s in deal_specs(spec)):
            out.append("2. **Meld:** lay down melds only to open, and opening is melding the "
                       "whole hand in one turn, which goes out (see *Opening*).")
        elif _has_opening(spec):
            if not any(s.initial_meld.melds_after for s in deal_specs(spec)):
                melds = ("lay off cards on melds on the table, as many as you like, but lay "
                         "down no new melds")
            out.append(f"2. **Meld:** once you have opened (see *Opening*), {melds}; before "
                       "that, only the melds of your opening.")
        else:
            out.append(f"2. **Meld:** {melds}.")
        out.append("3. **Discard:** discard one card face up, which ends the turn."
                   if spec.turn.discard else "3. **Done:** say `done`, which ends the turn.")
    if not spec.pile.discard_taken_card:
        out.append("")
        out.append("A card taken from the discard pile may not be discarded in the same turn"
                   + (" (of a whole pile taken, its top card)." if spec.pile.take != "top"
                      else "."))
    if not spec.pile.discard_layable:
        out.append("")
        out.append("A card the player could lay off on a meld on the table now may not be "
                   "discarded: it is laid off instead (a last card may always be discarded).")
    rule = spec.pile.taken_melded
    if rule != "no":
        who = ("a player who has not opened" if rule == "until_opened" else "a player")
        out += ["", f"**The taken card.** The top card of the discard pile taken by {who} "
                "must be used at once: the first meld or lay-off after the take holds it"
                + (", toward an opening they make that turn (the melds laid with it are not "
                   "taken back)" if rule == "until_opened" else "")
                + "; it may be taken only when it can be."]
    out += _turned_and_forced(spec.turn)
    return out


def _play_or_draw(spec, draw: str) -> list[str]:
    """A turn to play or to draw (``turn.play_or_draw``), and the table rearranged
    (``melds.rearrange``)."""
    plays = ("new melds and lay-offs on the table's melds" if _lays_off(spec)
             else "new melds")
    if spec.melds.rearrange:
        plays += ", rearranging the table's melds as you go (see *Rearranging the table*)"
    if _has_opening(spec):
        plays += "; before you have opened, only the melds of your opening (see *Opening*)"
    return ["## A turn", "",
            "There is no discard pile: a turn is to play or to draw.",
            "",
            f"1. **Play:** play at least one card from your hand to the table — {plays} — "
            "then say `done`, which ends the turn. A player whose last card goes to the "
            "table goes out at once" + (", once no card lies loose" if spec.melds.rearrange
                                        else "") + ".",
            f"2. **Or draw:** if you play nothing, {draw}, which ends the turn.",
            "",
            "With the stock empty, a player who plays nothing says `pass`."]


def _rearranging(spec) -> list[str]:
    if not spec.melds.rearrange:
        return []
    onto = spec.melds.lay_off.onto
    whose = {"any": "any meld on the table", "side": "any meld of their side",
             "own": "any meld of their own"}[onto]
    who = ("From the turn after they open, a player" if _has_opening(spec) else "A player")
    ends = ("says `done`" if spec.turn.play_or_draw else "discards")
    return ["## Rearranging the table", "",
            f"- {who} may break up {whose} in the play phase (`break m3`): its cards leave "
            "the table and lie loose, face up, in front of them.",
            "- Loose cards are played again like cards from the hand, as the rules above "
            "let the player meld or lay off, alone or with cards from the hand (a meld or "
            "lay-off takes the loose cards of its kinds first). A meld laid this turn is not "
            "broken up again. A meld laid of loose cards belongs to the player who laid it.",
            f"- Nobody {ends}, nor goes out, while a card lies loose: every card taken off "
            "the table goes back into valid melds the same turn.",
            "- `restore` puts the table and the player's hand back as they were at the "
            "start of the turn, the cards played before the first break included"
            + (f"; a player may restore the table {spec.melds.restores} times a turn, "
               "breaking melds again after each restore but the last." if
               spec.melds.restores > 1 else "; they break nothing more that turn.")]


def _turned_and_forced(turn) -> list[str]:
    """The sentences of ``turn.stock_card: turned`` and ``turn.forced``."""
    out = []
    if turn.stock_card == "turned":
        on = ("goes onto the discard pile, and the turn ends" if turn.turned_passes == "pile"
              else "goes to the next player, whose turn it is: instead of drawing, they use "
                   "it or pass it on in the same way; a card every player has passed goes "
                   "onto the discard pile")
        out += ["", "**The turned card.** A card drawn from the stock is turned face up and "
                "never taken into the hand: the player melds it at once with cards from "
                "their hand, or lays it off, and then plays on and discards — or passes it: "
                f"it {on}."]
    forced = []
    if "turned" in turn.forced:
        forced.append("may not pass a turned card they can meld or lay off at once")
    if "discard" in turn.forced:
        forced.append("must take the top card of the discard pile instead of drawing when "
                      "they can meld it or lay it off at once, and use it that turn")
    if forced:
        out += ["", "**Forcing.** A player " + "; and ".join(forced) + "."]
    return out


def _a_named(name: str) -> str:
    """A meld kind's name in bold after its article, capitalised to open a line.

    >>> _a_named("set"), _a_named("escala")
    ('A **set**', 'An **escala**')
    """
    article = with_article(name).split(" ", 1)[0]
    return f"{article.capitalize()} **{name}**"


def _melds(spec) -> list[str]:
    out = ["## Melds", ""]
    for k in spec.melds.kinds:
        name = k.name or k.type
        size = f"{k.min_size} or more" if k.max_size is None else (
            f"{k.min_size} to {k.max_size}" if k.max_size != k.min_size else str(k.min_size))
        if k.type == "set":
            text = f"- {_a_named(name)} is {size} cards of the same rank"
            if k.distinct_suits:
                text += ", no two of the same suit"
        elif k.type == "flush":
            text = f"- {_a_named(name)} is {size} cards of one suit, of any ranks"
        elif k.mixed_suits:
            text = (f"- {_a_named(name)} is {size} cards in sequence, of any suits, one of "
                    f"each rank; {_ace_words(k.ace, spec.deck)}")
        else:
            text = (f"- {_a_named(name)} is {size} cards of one suit in sequence; "
                    f"{_ace_words(k.ace, spec.deck)}")
        if k.max_wilds:
            text += f"; it may hold up to {_n(k.max_wilds, 'wild card')}"
            if k.type == "run" and not k.wilds_adjacent:
                text += ", never two side by side"
            if k.all_wild:
                text += " and may be all wild"
            elif k.max_wilds >= k.min_size:
                text += ", but never wild cards alone"
        if k.type == "run" and k.wild_natural_in_place and (
                spec.cards.wild or spec.cards.turned_wild != "none"):
            text += ("; a wild card in its own place (its suit, its rank's position) counts as "
                     "a natural card there, not as a wild one")
        if k.max_size is not None and k.type == "run":
            text += " when laid down (longer runs are laid as two)"
        out.append(text + ".")
    if not any(s.cards.wild or s.cards.turned_wild != "none" for s in deal_specs(spec)):
        out.append("- There are no wild cards.")
    if spec.melds.rearrange:
        out.append("- Each meld on the table has an id (m1, m2 …): a new meld takes the lowest "
                   "id no meld on the table has. It belongs to the player who laid it.")
    else:
        out.append("- Each meld on the table has an id (m1, m2 …) in the order it was laid, "
                   "and belongs to the player who laid it.")
    return out


def _has_opening(spec) -> bool:
    from .._rules import OpeningMinimum

    return any(s.initial_meld.melds or s.initial_meld.contracts or OpeningMinimum(
        s.initial_meld) or s.initial_meld.all_at_once for s in deal_specs(spec))


def _minimum_words(im) -> str:
    """What an opening must be worth, in words ("" if nothing)."""
    from .._rules import OpeningMinimum

    if not OpeningMinimum(im):
        return ""
    if im.by_hand:
        hands = ", ".join(f"{m} in deal {i + 1}" for i, m in enumerate(im.by_hand))
        return (f"worth at least a minimum in card values: {hands}, and {im.by_hand[-1]} in "
                "any later deal")

    def tiers(ts) -> str:
        if len(ts) == 1:
            return str(ts[0].minimum)
        parts, low = [], None
        for t in ts:
            if t.below is None:
                parts.append(f"{t.minimum} from {low:,} on" if low is not None
                             else str(t.minimum))
            else:
                parts.append(f"{t.minimum} below {t.below:,}" if low is None else
                             f"{t.minimum} from {low:,} to below {t.below:,}")
                low = t.below
        return ", ".join(parts)

    if len(im.minimums) == 1 and not im.minimums_by_players:
        return f"worth at least {im.minimums[0].minimum} in card values"
    text = ("worth a minimum in card values that depends on the player's score so far: "
            + tiers(im.minimums))
    for n, more in sorted(im.minimums_by_players.items()):
        text += f"; with {n} players, {tiers(more)}"
    return text


def _wild_as_card(spec) -> list[str]:
    """How a wild card counts toward the opening minimum (``initial_meld.wild_as_card``), in
    a pack with a minimum and melds that may hold wild cards; per deal with a schedule."""
    from .._rules import OpeningMinimum

    specs = deal_specs(spec)
    if not any(OpeningMinimum(s.initial_meld) for s in specs) or not any(
            (s.cards.wild or s.cards.turned_wild != "none")
            and any(k.max_wilds for k in s.melds.kinds) for s in specs):
        return []
    all_wild = any(k.all_wild and k.max_wilds for s in specs for k in s.melds.kinds)
    place = ("in a run, the card of its place; in a set, a card of the set's rank"
             + ("; a meld of wild cards only counts them at their own values" if all_wild
                else ""))
    own = "at its own value (the table above)"
    by_deal = _per_deal(spec, lambda s: s.initial_meld.wild_as_card,
                        lambda as_card: "as the card it stands for" if as_card else own)
    if by_deal:
        return ["- Toward the opening minimum, a wild card in a meld counts " + _each(
            f"{text} in {where}" for where, text in by_deal) + f" ({place})."]
    if spec.initial_meld.wild_as_card:
        return [(f"- Toward the opening minimum, a wild card in a meld counts as the card it "
                 f"stands for ({place}), not at its own value.")]
    return [(f"- Toward the opening minimum, a wild card in a meld counts {own}, not as the "
             "card it stands for.")]


def _low_ace(spec) -> list[str]:
    """What an ace at the low end of a run counts toward the opening minimum
    (``initial_meld.low_ace``), where some deal sets it; per deal with a schedule."""
    specs = deal_specs(spec)
    if all(s.initial_meld.low_ace is None for s in specs):
        return []
    as_card = any(s.initial_meld.wild_as_card for s in specs)
    own = "its value (the table above)"
    by_deal = _per_deal(spec, lambda s: s.initial_meld.low_ace,
                        lambda low: own if low is None else str(low))
    said = (_each(f"{text} in {where}" for where, text in by_deal) if by_deal
            else str(spec.initial_meld.low_ace))
    return ["- Toward the opening minimum, an ace at the low end of a run (A-2-3) counts "
            + said + ("" if not as_card else ", and so does a wild card standing for it")
            + "; an ace anywhere else counts its value."]


def _opening(spec) -> list[str]:
    """The contract (``initial_meld.melds``, per deal with a schedule), the opening minimum,
    and lay-offs before opening."""
    if not _has_opening(spec):
        return []
    out = ["## Opening", ""]
    contract = _per_deal(spec, lambda s: tuple(s.initial_meld.melds),
                         lambda ms: contract_words(ms) if ms else "no contract")
    melds = spec.initial_meld.melds
    if contract:
        out.append("- **The contract:** before melding anything else, a player must lay down "
                   "the deal's contract, all in one turn: " + "; ".join(
                       f"{where}: {text}" for where, text in contract) + ".")
    elif melds:
        out.append(f"- **The contract:** before melding anything else, a player must lay down "
                   f"{contract_words(melds)}, all in one turn.")
    ladder = spec.initial_meld.contracts
    if ladder:
        out.append("- **The contracts:** each player works through these contracts on their "
                   "own, in order: " + "; ".join(f"{i}. {contract_words(c)}" for i, c in
                                                  enumerate(ladder, 1)) + ".")
        out.append("- Before melding anything else in a hand, a player must lay down the "
                   "first contract they have not met yet, all in one turn; doing so meets it, "
                   "and their next hand asks for the next. A player meets one contract a hand "
                   "at most, so players may be working on different contracts.")
    minimum = _per_deal(spec, lambda s: _minimum_words(s.initial_meld),
                        lambda text: text or "no minimum")
    if minimum:
        out.append("- A player's first melds of a deal, laid in one turn, must be "
                   + _each(f"{text} in {where}" for where, text in minimum) + ".")
    elif _minimum_words(spec.initial_meld):
        out.append(f"- A player's first melds of a deal, laid in one turn, must be "
                   f"{_minimum_words(spec.initial_meld)}.")
    out += _wild_as_card(spec)
    out += _low_ace(spec)
    def whole(s) -> str:  # a deal's opening with the whole hand, in words ("" if none)
        if not s.initial_meld.all_at_once:
            return ""
        last = (" (all but the card a last discard needs)" if s.going_out.by_discard
                else " (every card: no last discard)")
        return f"melding the whole hand in one turn{last}, going out at once"

    at_once = _per_deal(spec, whole, str)
    if at_once:
        out.append("- A player opens " + "; ".join(
            f"in {where}, only by {text}" if text else
            f"in {where}, as the deal's contract or minimum says" for where, text in at_once)
            + ".")
    elif spec.initial_meld.all_at_once:
        out.append(f"- A player opens only by {whole(spec)}.")
    specs = deal_specs(spec)
    freely = ("melds and lays off freely from then on" if any(
        _lays_off(s) for s in specs) else "melds freely from then on")
    if not any(s.initial_meld.melds_after for s in specs):
        freely = "lays off from then on, but lays down no new melds"
    if all(s.initial_meld.all_at_once for s in specs):
        after = "which is going out (see *Going out*)"
    elif any(s.initial_meld.all_at_once for s in specs):
        after = (f"which is going out in a deal where a player opens only with the whole "
                 f"hand, and otherwise {freely}")
    else:
        after = f"and {freely}"
    out.append("- The melds laid toward the opening are *pending* until it is complete: the "
               "player may take them back (`withdraw`, and may not meld again that turn), "
               + ("and may not end the turn" if spec.turn.play_or_draw else
                  "and may not discard")
               + " while any is pending. Once it is complete the player "
               f"has **opened**, {after}.")
    im = spec.initial_meld
    before = _may_by_deal(spec, "lay_off_before", "A player who has not opened",
                          "lay off cards on the table's melds")
    if before:
        out.append(before)
    elif _lays_off(spec) and spec.knock.max_deadwood is None:
        may = "may already" if im.lay_off_before else "may not"
        out.append(f"- A player who has not opened {may} lay off cards on the table's melds.")
    out += filter(None, [_may_by_deal(spec, "melds_after", "A player who has opened",
                                      "lay new melds", " (without new melds: only lay-offs)")])
    wait = _may_by_deal(spec, "lay_off_same_turn", "A player", "lay off in the turn they open")
    if wait:
        out.append(wait)
    elif not im.lay_off_same_turn:
        out.append("- A player lays off only from the turn after the one they open in.")
    buying = " (buying out of turn is not taking)" if any(
        s.pile.buy_limit for s in deal_specs(spec)) else ""
    take = _may_by_deal(spec, "take_before", "A player who has not opened",
                        "take from the discard pile", buying)
    if take:
        out.append(take)
    elif not im.take_before:
        out.append(f"- A player who has not opened may not take from the discard pile: they "
                   f"draw from the stock{buying}.")
    return out


def _may_by_deal(spec, key: str, who: str, does: str, after: str = "") -> str | None:
    """``- {who} may (not) {does} in deals …{after}.`` for an ``initial_meld`` switch that
    differs from deal to deal, or None where every deal has the same value."""
    by = _per_deal(spec, lambda s: getattr(s.initial_meld, key),
                   lambda yes: "may" if yes else "may not")
    if not by:
        return None
    return f"- {who} " + _each(f"{text} {does} in {where}" for where, text in by) + f"{after}."


def _times_words(n: int) -> str:
    """A multiplier in words: ``doubled``, ``tripled``, ``multiplied by 5``."""
    return {2: "doubled", 3: "tripled"}.get(n, f"multiplied by {n}")


def _times(n: int) -> str:
    return {0: "never", 1: "once", 2: "twice"}.get(n, f"{n} times")


def _buying(spec) -> list[str]:
    """Buying out of turn (``pile.buy_limit``, ``pile.buy_penalty``)."""
    limits = _per_deal(spec, lambda s: s.pile.buy_limit, _times)
    pen = spec.pile.buy_penalty
    if not limits and not spec.pile.buy_limit:
        return []
    penalty = (f"together with {_n(pen, 'card')} from the top of the stock as a penalty"
               if pen else "with no penalty card")
    out = ["## Buying out of turn", "",
           "- When the player whose turn it is draws from the stock instead of taking the "
           "discard, the other players — in turn after that player, but not the one who "
           f"discarded it — are asked whether they **buy** it (or **pass**). The first "
           f"who buys takes the discard {penalty}; then the player whose turn it is draws.",
           f"- Buying is open only while the stock holds {_n(pen + 1, 'card')} or more, "
           "and only for a card just discarded, not the first upcard."]
    if limits:
        some = [(where, text) for where, text in limits if text != "never"]
        never = [where for where, text in limits if text == "never"]
        line = "- Each player may buy " + _each(
            f"{text} a deal in {where}" for where, text in some)
        if never:
            line += f"; there is no buying in {_and(never)}"
        out.append(line + "; a player who has bought that often is no longer asked.")
    else:
        out.append(f"- Each player may buy {_times(spec.pile.buy_limit)} a deal; a "
                   "player who has bought that often is no longer asked.")
    if not spec.pile.buy_after_opening:
        out.append("- A player who has opened (laid the contract) is no longer asked.")
    return out


def _dropping(spec) -> list[str]:
    """Dropping (``turn.drop``) and elimination (``game.eliminate_above``), under a heading
    naming those the pack has (a taken card owed at once, ``pile.taken_melded``, is said in
    the turn's section)."""
    out, titles = [], []
    if spec.turn.drop:
        first, later = spec.turn.drop
        titles.append("Dropping")
        out.append(f"- **Dropping:** instead of drawing, a player may **drop** — fold the "
                   f"hand, which then counts {first} against them in the hand's first round "
                   f"of turns, {later} later; the last player left in the hand ends it and "
                   "scores nothing against.")
    if spec.game.eliminate_above is not None:
        titles.append("elimination" if titles else "Elimination")
        out.append(f"- **Elimination:** a player whose total passes "
                   f"{spec.game.eliminate_above} after a hand leaves the game and is dealt no "
                   "more cards; the last player left in wins.")
        rj = spec.game.rejoin
        if rj is not None:
            times = "once" if rj.times == 1 else "twice" if rj.times == 2 else f"{rj.times} times"
            plus = f" plus {rj.add}" if rj.add else ""
            cap = (f", that total is at most {rj.while_highest_at_most}"
                   if rj.while_highest_at_most is not None else "")
            out.append(f"- **Rejoining:** a player eliminated after a hand rejoins at once — "
                       f"{times} in a game at most — with a new total: the highest total of "
                       f"the players still in{plus}; only while at least {rj.least_in} "
                       f"player{'s are' if rj.least_in > 1 else ' is'} still in{cap} and the "
                       f"new total is at most {spec.game.eliminate_above}.")
    return [f"## {' and '.join(titles)}", "", *out] if out else []


def _lays_off(spec) -> bool:
    """Whether any card is ever laid off on a meld on the table: not with
    ``melds.lay_off.onto: none``, nor with ``max_per_end: 0``, which caps the cards laid off
    at each end of a run and onto a set at none (in a knocking pack: the defender's)."""
    lo = spec.melds.lay_off
    return lo.onto != "none" and lo.max_per_end != 0


def _lay_off(spec) -> list[str]:
    lo = spec.melds.lay_off
    out = ["## Laying off", ""]
    whose = {"any": "any meld on the table", "own": "their own melds",
             "side": "their side's melds", "none": None}[lo.onto]
    knocking = spec.knock.max_deadwood is not None
    if whose and _lays_off(spec) and not knocking:
        shapes = {k.type for s in deal_specs(spec) for k in s.melds.kinds}
        fits = [words for shape, words in (("run", "extends a run at either end"),
                                            ("set", "joins a set"),
                                            ("flush", "joins a flush of its suit"))
                if shape in shapes]
        out.append(f"- On their turn a player may lay off cards on {whose}: a card that "
                   + _and(fits, "or") + ".")
    elif not knocking:
        out.append("- Cards are never laid off on melds on the table.")
    if lo.within_max_size and _lays_off(spec):
        out.append("- A lay-off never grows a meld past the most cards its kind may hold "
                   "(see *Melds*).")
    if lo.max_per_end and _lays_off(spec):
        out.append(f"- At most {_n(lo.max_per_end, 'card')} may be laid off at each end of a "
                   f"run, and {lo.max_per_end} onto a set beyond the cards it was laid with.")
    if lo.win_back and whose and spec.knock.max_deadwood is None:
        opened = " once they have opened" if _has_opening(spec) else ""
        out.append(f"- **Winning back a wild card:** on their turn{opened}, a player may put "
                   f"into {whose} the natural card a wild card there stands for, in its "
                   f"place, and take the wild card into their hand ({_win_back_example(spec)}; "
                   "in a set a wild card stands for any card of its rank the set may hold).")
    return out if len(out) > 2 else []


def _win_back_example(spec) -> str:
    """A trade winning back a wild card the pack has, in words (``trade 6H to m3`` wins the
    joker of 5H JK 7H): the joker where it is wild, else the lowest wild card of the deck
    (of ``cards.wild`` in any deal), else a card of the rank turned wild (``*C``); in a run
    of hearts near 5-6-7 whose three cards the deck keeps and none of them wild — or, in a
    pack without runs, a set near nines."""
    from .._cards import JOKER_KIND, card_code, deck_card_kinds, kinds_matching, run_order

    wild: set[int] = set()
    for s in deal_specs(spec):
        for selector in s.cards.wild:
            wild |= kinds_matching(selector)
    kept = set(deck_card_kinds(spec.deck))
    if JOKER_KIND in wild:
        card, name = "JK", "joker"
    elif wild:
        card = name = card_code(min(wild & kept or wild))
    else:  # (a rank turned wild for the deal: a card of it is written by its role)
        card = name = "*C"
    if not any(k.type == "run" for s in deal_specs(spec) for k in s.melds.kinds):
        sets = [[r * 4 + suit for suit in range(4)] for r in range(13)]
        clubs, diamonds, _, spades = min(
            [s for s in sets if kept.issuperset(s) and not wild.intersection(s)] or sets,
            key=lambda s: abs(s[0] // 4 - 8))
        return (f"`trade {card_code(spades)} to m3` wins the {name} of {card_code(clubs)} "
                f"{card_code(diamonds)} {card}")
    order = run_order(spec.deck) or tuple(range(13))
    hearts = [[order[j] * 4 + 2 for j in (i - 1, i, i + 1)] for i in range(1, len(order) - 1)]
    runs = [run for run in hearts if kept.issuperset(run) and not wild.intersection(run)]
    low, mid, high = min(runs or hearts, key=lambda run: abs(run[1] // 4 - 5))
    return (f"`trade {card_code(mid)} to m3` wins the {name} of {card_code(low)} {card} "
            f"{card_code(high)}")


def _books(spec) -> list[str]:
    """A table pack's books: melds of ``books.size`` cards or more, by kind."""
    b, go = spec.books, spec.going_out
    counted = (go.required_books or go.min_books or any(go.min_books_by_players.values())
               or any(d.get("item") == "books" for d in spec.scoring.items))
    if not counted:
        return []
    if not _lays_off(spec) and spec.knock.max_deadwood is None:
        grows = ("no card is ever laid off, so no meld grows: a book is laid whole, "
                 f"{b.size} cards or more in one meld, and stays as it was laid.")
    else:
        grows = "it may keep growing."
    out = ["## Books", "", f"- A meld on the table of {b.size} cards or more is a **book**; "
           + grows]
    for k in b.kinds:
        shape = ("a run" if k.sequence else "a set" if not k.wild_only else "wild cards only")
        if k.ranks and not k.sequence and not k.wild_only:
            shape += " of " + _and([f"{r}s" for r in k.ranks], "or")
        wilds = ("no wild card" if k.max_wilds == 0 else
                 f"at most {k.max_wilds} wild card{'s' if k.max_wilds != 1 else ''}"
                 if k.max_wilds is not None else "")
        if k.min_wilds:
            wilds = (wilds + ", " if wilds else "") + f"at least {k.min_wilds} wild"
        also = f"; it counts as a {k.counts_as} book for going out" if k.counts_as else ""
        adds = BOOK_ADDS_WORDS.get(k.adds or "any", "")
        out.append(f"- **{k.name}** ({_n(k.value, 'point')}): {shape}"
                   + (f" with {wilds}" if wilds else "") + f"{also}" + (
                       f"; once a book, it {adds}" if adds else "") + ".")
    if b.kinds:
        out.append("- A book is of the first kind above that it fits.")
    return out


BOOK_ADDS_WORDS = {
    "none": "is closed and takes no more cards",
    "naturals": "takes only natural cards",
    "wilds": "takes only wild cards",
}
"""What a book of a kind still takes (``books.kinds[].adds``), in the rules sheet's words
(both meld models; ``any`` goes without saying)."""


def _books_to_go_out(spec) -> list[str]:
    go = spec.going_out
    needs = []
    if go.min_books or go.min_books_by_players:
        by = "".join(f", {n} with {p} players" for p, n in sorted(go.min_books_by_players.items()))
        needs.append(f"at least {_n(go.min_books, 'book')}" + (f" ({by[2:]})" if by else ""))
    if go.required_books:
        counts: dict[str, int] = {}
        for name in go.required_books:
            counts[name] = counts.get(name, 0) + 1
        needs.append(_and([f"{n} {name} book{'s' if n != 1 else ''}" for name, n in
                           counts.items()]))
    if not needs:
        return []
    return [f"- To go out, the player's side must hold {' and '.join(needs)}; until it does, a "
            "meld or lay-off must leave the player two cards, and a discard one."]


def _going_out_by(spec) -> str:
    """How a player of ``spec`` (one deal's pack) goes out: ``discard`` (their last card
    discarded), ``either`` (melded, laid off or discarded) or ``meld`` (melded or laid off,
    never discarded)."""
    g = spec.going_out
    return "discard" if g.requires_discard else "either" if g.by_discard else "meld"


_GOING_OUT_BY = {
    "discard": "by discarding the last card",
    "either": "by melding, laying off or discarding the last cards",
    "meld": "by melding or laying off the last cards, never by discarding the last one",
}


def _ending(spec) -> list[str]:
    kn = spec.knock
    if kn.max_deadwood is None:
        out = ["## Going out", ""]
        by_deal = _per_deal(spec, _going_out_by, lambda by: _GOING_OUT_BY[by])
        if by_deal:
            out.append("- A player goes out by getting rid of every card: " + _each(
                f"{text} in {where}" for where, text in by_deal) + ".")
        elif spec.turn.play_or_draw or not spec.turn.discard:
            out.append("- A player goes out by melding or laying off their last cards (there "
                       "is no discard).")
        elif spec.going_out.requires_discard:
            out.append("- A player goes out by discarding their last card; they must always "
                       "keep a card to discard.")
        elif spec.going_out.by_discard:
            out.append("- A player goes out by getting rid of every card: by melding or laying "
                       "off the last ones, or by discarding the last card.")
        else:
            out.append("- A player goes out only by melding or laying off every card: the "
                       "last card is never discarded, so a turn's discard always leaves a "
                       "card in hand, and a meld or lay-off that would leave a single card is "
                       "allowed only if that card can then be laid off.")
        out += _books_to_go_out(spec)
        if spec.going_out.last_turns:
            out.append("- When a player goes out, each other player in turn takes **one last "
                       "turn** — draws, plays and discards as usual, and may go out too — and "
                       "then the hand ends. The player who went out first wins it; a stock "
                       "that runs out in the last turns, or the hand's turn limit reached "
                       "in them, ends the hand there, won the same way.")
        else:
            out.append("- The hand ends at once when a player goes out.")
        return out
    out = ["## Knocking", ""]
    value = ("the value of the first upcard (an ace: only gin)" if kn.from_upcard
             else str(kn.max_deadwood))
    if kn.after_draw:
        out.append(f"- Instead of discarding, a player may **knock** when the cards they "
                   f"cannot meld (their *deadwood*) total at most {value} after the discard.")
        out.append("- The knocker discards, then lays down their melds; cards left unmelded "
                   "are their deadwood.")
    else:
        out.append(f"- A player may **knock** only at the start of their turn, before "
                   f"drawing, when the cards they cannot meld (their *deadwood*) total at "
                   f"most {value}; the knocker lays down their melds without discarding "
                   f"(a hand melded whole is gin), and cards left unmelded are their "
                   f"deadwood.")
    if kn.before_draw and kn.after_draw:
        out.append(f"- A player may also knock at the start of their turn, before drawing, "
                   f"when the cards they hold leave at most {value} in deadwood without a "
                   f"discard; that knocker lays down their melds without discarding (a hand "
                   f"melded whole is gin).")
    who = ("Each defender (every other player, one after another from the knocker's left)"
           if _defenders(spec) else "The defender")
    if not _lays_off(spec):
        out.append(f"- {who} then lays down their own melds; nobody lays off cards on "
                   "the knocker's melds.")
    elif kn.lay_off_on_gin:
        out.append(f"- {who} then lays off cards on the knocker's melds (even after "
                   "gin), and lays down their own melds.")
    else:
        out.append(f"- {who} then lays off cards on the knocker's melds (not after "
                   "gin), and lays down their own melds.")
    out.append("- **Gin:** a knock with no deadwood at all.")
    if kn.big_gin_bonus is not None:
        sizes = {spec.deal.hand, *spec.deal.hand_by_players.values()}
        every = "all eleven cards" if sizes == {10} else "every card (the hand and the draw)"
        out.append(f"- **Big gin:** {every} melded, with no discard.")
    return out


def _defenders(spec) -> bool:
    """Whether a knock may have more than one defender (more than two players)."""
    return max(spec.players.counts or [spec.players.max]) > 2


_SCORED_WITHOUT_GOING_OUT = frozenset({"laid", "held", "books", "reserve_untaken"})
"""The scoring items that score a hand nobody went out of (the stock used up)."""


def _stock(spec) -> list[str]:
    st = spec.stock
    out = ["## The stock", ""]
    scored_anyway = bool({d["item"] for d in spec.scoring.items} & _SCORED_WITHOUT_GOING_OUT)
    if st.wall:
        ends = ("ends with nobody going out, and it is scored as below" if scored_anyway
                else "is void (no score)")
        line = f"- When a discard leaves {_n(st.wall, 'card')} in the stock, the hand {ends}"
        if st.wall_knock_with_upcard:
            line += ", unless the next player knocks by taking that discard"
        out.append(line + ".")
    elif st.when_empty in ("turn_pile", "shuffle_pile"):
        how = ("turned over, without shuffling," if st.when_empty == "turn_pile"
               else "shuffled")
        n = spec.turn.draw or 1
        out.append(f"- When the stock runs out, the discard pile but its top card is {how} "
                   "to form a new stock" + (f", if it holds more than {n} cards" if n > 1
                                            else "") + ".")
    else:
        scored = ("with nobody going out, and it is scored as below" if scored_anyway
                  else "with no score")
        if st.empty_winner == "lowest_count":
            scored = ("and the player holding the least value of cards wins it (of several: "
                      "the player who ended it, else the first of them in turn after that "
                      "player): it is scored as "
                      "below as a hand they won, not as one they went out of")
        out.append(f"- When a turn ends with the stock empty, the hand ends {scored}."
                   if st.when_empty == "end_at_once" else
                   "- When the stock runs out, play goes on while players play cards from "
                   "their hands; the hand ends when every player in it has passed in a row, "
                   f"{scored}." if spec.turn.play_or_draw else
                   f"- When the stock runs out, the hand ends, {scored}." if not
                   spec.turn.discard else
                   "- When the stock runs out, play goes on while each player in turn takes "
                   "from the discard pile; the hand ends when the player to draw does not or "
                   f"cannot take (`pass`), {scored}.")
    kn = spec.knock
    if kn.pile_take_limit is not None:
        out.append(f"- The hand is void on the {kn.pile_take_limit}th take of the discard.")
    if kn.returned_card_limit is not None:
        out.append(f"- The hand is void when {kn.returned_card_limit} turns in a row end by "
                   "discarding the card just taken.")
    if spec.game.hand_turn_limit is not None:
        out.append(f"- A hand still going after {spec.game.hand_turn_limit} turns is void.")
    return out


WHEN = {"out": "when a player goes out",
        "out_at_once": "when the player who goes out lays their whole hand in that one "
                       "turn, having laid no card on the table before it (what the other "
                       "players have laid does not matter)"}
"""Each condition an item may depend on (``when``), as the rules sheet says it."""

ITEM_SENTENCES = {
    "winner_takes": lambda p: ("The player who goes out scores the value of "
                               + ("every card left in the other players' hands"
                                  if p.get("count", "all") == "all" else
                                  "the cards left in the other players' hands"
                                  + _unmelded(p, "each of them"))
                               + _capped(p, "from any one of them") + "."),
    "penalty": lambda p: ("Each player scores the value of the cards left in their own hand"
                          + _unmelded(p, "they") + ", as penalty points" + _capped(p, "")
                          + "."),
    "laid": lambda p: ("Each player scores the value of every card they laid this hand, in "
                       "melds and lay-offs alike" + (
                           f"; an ace at the low end of a run counts {p['low_ace']}"
                           if p.get("low_ace") is not None else "") + (
                           "; a wild card counts as the card it stands for"
                           if p.get("wilds") == "as_card" else "") + "."),
    "held": lambda p: ("The cards left in each player's hand" + _unmelded(p, "they")
                       + " count against them" + _capped(p, "") + "."),
    "multiply": lambda p: (f"Everything above counts {p.get('by') or 2} times "
                           f"{WHEN[p['when']]}."),
    "books": lambda p: "Each player scores the value of every book they own on the table.",
    "reserve_untaken": lambda p: (f"A reserve pile never picked up scores {p['points']} for "
                                  "its side."),
    "bonus": lambda p: (f"The player who goes out scores {p['points']} more"
                        + ("" if p["when"] == "out" else f" {WHEN[p['when']]}") + "."),
    "pay": lambda p: pay_sentence(p),
}
"""Each table scoring item (``scoring.items``) as a sentence of the rules sheet."""


def _unmelded(p: dict, who: str) -> str:
    """The clause of a count of cards left in hand that counts only the cards ``who``
    cannot meld (``count``), or nothing."""
    count = p.get("count", "all")
    if count == "all":
        return ""
    said = f" that {who} cannot arrange into melds"
    if count == "unmelded_with_contract":
        said += (" holding the contract (all of them, where the hand holds no such "
                 "arrangement)")
    return said


def _capped(p: dict, whom: str) -> str:
    """The clause of a count of cards left in hand that has a ``cap``, or nothing."""
    cap = p.get("cap")
    return "" if cap is None else f", {cap} points at most" + (f" {whom}" if whom else "")


def pay_sentence(p: dict) -> str:
    """The ``pay`` item as the rules sheet says it (both meld models)."""
    stake = p["stake"]
    amount = (f"{stake} for each point of the cards they hold" if p.get("per") == "point"
              else f"{stake}")
    if p.get("between") == "every_pair":
        amount = (f"{stake} for each point of the difference" if p.get("per") == "point"
                  else f"{stake}")
        said = ("Of each two players on different sides, the one left holding more pays the "
                f"other {amount}")
    else:
        said = ("Each player not on the side of the hand's winner (the player who scored most, "
                f"else the one who went out) pays the winner {amount}")
    when = p.get("when")
    return (said + (f", {WHEN[when]}" if when else "")
            + "; each payment is recorded, payer to payee.")


VALUE_ITEMS = frozenset({"laid", "held", "winner_takes", "penalty", "knock", "melded_cards",
                         "hand_cards", "reserve_cards"})
"""The scoring items that count cards at their values (``pay`` counts points, ``books``
and the bonuses their own figures)."""


def _scoring(spec) -> list[str]:
    style = spec.scoring.style
    out = ["## Scoring", ""]
    if not spec.scoring.items or {d["item"] for d in spec.scoring.items} & VALUE_ITEMS:
        out.append("- Cards count at their values (the table above).")
    if spec.scoring.items:  # the pack's own items, in their order
        for d in spec.scoring.items:
            out += (_knock_scoring(spec) if d["item"] == "knock"
                    else [f"- {ITEM_SENTENCES[d['item']](d)}"])
        return out
    if style == "knock":
        out += _knock_scoring(spec)
    elif style == "winner_takes_hands":
        out.append("- The player who goes out scores the value of every card left in the "
                   "other players' hands.")
    elif style == "penalty":
        out.append("- Each player scores the value of the cards left in their own hand, as "
                   "penalty points.")
    return out


def _knock_scoring(spec) -> list[str]:
    """The ``knock`` item (the knock style) as the rules sheet says it."""
    kn = spec.knock
    if _defenders(spec):
        out = (_lowest_settles(kn) if kn.settle == "lowest" else _knocker_settles(kn))
        if kn.spade_upcard_doubles:
            out.append("- A hand whose first upcard is a spade scores double.")
        return out
    out = ["- The knocker scores the difference between the two deadwood totals."]
    out.append(f"- Gin scores a bonus of {kn.gin_bonus}"
               + (f", big gin {kn.big_gin_bonus}" if kn.big_gin_bonus is not None else "")
               + ".")
    if _gin_only(kn):
        out.append("- Only gin may knock, so no knock is ever undercut.")
    else:
        tie = "lower than or equal to" if kn.tie_is_undercut else "lower than"
        out.append(f"- **Undercut:** if the defender's deadwood is {tie} the knocker's, the "
                   f"defender scores the difference plus {kn.undercut_bonus}; gin is never "
                   "undercut.")
        if not kn.tie_is_undercut:
            out.append("- Equal deadwood scores nothing.")
    if kn.spade_upcard_doubles:
        out.append("- A hand whose first upcard is a spade scores double.")
    return out


def _gin_only(kn) -> bool:
    """Whether only gin may ever knock (``knock.max_deadwood: 0``, not the upcard's)."""
    return kn.max_deadwood == 0 and not kn.from_upcard


def _knocker_settles(kn) -> list[str]:
    """``knock.settle: knocker`` with several defenders: the knocker against each."""
    big = f", big gin {kn.big_gin_bonus}" if kn.big_gin_bonus is not None else ""
    tie = "lower than or equal to" if kn.tie_is_undercut else "lower than"
    out = ["- The knocker settles with each defender on their own, as two players would: "
           "from each defender whose deadwood is higher, the knocker scores the difference "
           "between their two totals.",
           f"- Gin scores a bonus of {kn.gin_bonus}{big} from each defender.",
           f"- **Undercut:** a defender whose deadwood is {tie} the knocker's scores the "
           f"difference plus {kn.undercut_bonus} from the knocker — whatever the knocker "
           "scores from the other defenders; gin is never undercut."]
    if _gin_only(kn):
        out[-1] = "- Only gin may knock, so no knock is ever undercut."
    elif not kn.tie_is_undercut:
        out.append("- Between the knocker and a defender with equal deadwood, nothing is "
                   "scored.")
    return out


def _lowest_settles(kn) -> list[str]:
    """``knock.settle: lowest``: the lowest count collects from every other player."""
    big = f" (big gin {kn.big_gin_bonus})" if kn.big_gin_bonus is not None else ""
    tie = ("a defender tied with the knocker for the lowest wins instead of the knocker"
           if kn.tie_is_undercut else "the knocker wins a tie with a defender")
    return ["- The player with the lowest deadwood wins the hand and scores the difference "
            "between their total and each other player's, from each of them; "
            f"{tie}, and of defenders tied for the lowest the first after the knocker, in "
            "turn, wins.",
            "- **Gin:** a knocker with no deadwood wins whatever the others hold"
            + (f", and scores a bonus of {kn.gin_bonus}{big} from each other player besides."
               if kn.gin_bonus or kn.big_gin_bonus else "."),
            "- **Undercut:** a knocker who does not win pays the winner "
            + (f"{kn.undercut_bonus} besides the difference." if kn.undercut_bonus
               else "the difference, and nothing besides.")]


def _ordinal(n: int) -> str:
    return f"{n}{'th' if 10 <= n % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')}"


def sheets_section(spec, say: Callable[[list], str]) -> list[str]:
    """``scoring.sheets`` and ``game.sheets_end`` as the rules sheet says them, in both meld
    models: ``say(entries)`` words a sheet's own items."""
    sheets, g = spec.scoring.sheets, spec.game
    if not sheets:
        return []
    by = ""
    if g.target_by_players:
        by = " (" + ", ".join(f"{v:,} with {n} players"
                              for n, v in sorted(g.target_by_players.items())) + ")"
    out = ["## Score sheets", "", f"Each hand is counted on {len(sheets)} score sheets at once, "
           "each a running game of its own; a side's total is the sum of its totals on every "
           "sheet.", ""]
    for sh in sheets:
        target = f"{g.target:,}{by}" if sh.target is None else f"{sh.target:,}"
        counts = ("the hand's score (above)" if sh.items is None
                  else f"its own items: {say(sh.items)}")
        whose = ("in every hand" if sh.from_win == 0 else
                 f"for each side from its {_ordinal(sh.from_win)} hand won (that hand "
                 "included)")
        game_bonus = g.game_bonus if sh.game_bonus is None else sh.game_bonus
        box = g.box_bonus if sh.box_bonus is None else sh.box_bonus
        shutout = (g.shutout_multiplier if sh.shutout_multiplier is None
                   else sh.shutout_multiplier)
        bonus = _list_words(
            ([f"its winner scores {game_bonus:,}"] if game_bonus else [])
            + ([f"each side {box:,} for every hand it won that the sheet counted"]
               if box else [])
            + ([f"its winner's total, bonuses included, is {_times_words(shutout)} where "
                "every other side has 0 on it (a shutout)"] if shutout > 1 else []))
        out.append(f"- **{sh.name}**, to {target}: counts {counts} {whose}"
                   + (f"; when it ends, {bonus}" if bonus else "") + ".")
    tie = "a tie for the lead there plays on" if g.tie == "play_on" else ""
    when = "every sheet has ended" if g.sheets_end == "every" else "the first sheet ends"
    best = "lowest" if g.winner == "lowest" else "highest"
    fixed = (f"after {_n(g.hands, 'hand')}, or " if g.hands is not None else "")
    out += ["", "A sheet ends after the hand in which a side reaches its target on it"
            + (f" ({tie})" if tie else "") + "; from then on it counts nothing. The game ends "
            f"{fixed}when {when}; sheets still open then end with it, with their bonuses. The "
            f"{best} total over all the sheets wins."]
    return out


def _list_words(parts: list[str]) -> str:
    return parts[0] if len(parts) == 1 else " and ".join(parts) if parts else ""


def _game(spec) -> list[str]:
    g = spec.game
    if spec.scoring.sheets:  # the sheets say how the game ends
        return sheets_section(spec, lambda entries: "; ".join(
            ITEM_SENTENCES[d["item"]](d).rstrip(".") if d["item"] != "knock" else
            "the knock (as above)" for d in entries))
    out = ["## The end of the game", ""]
    best = "lowest" if g.winner == "lowest" else "highest"
    if g.eliminate_above is not None:  # no target: the last one in wins (or game.hands ends it)
        fixed = (f", or after {_n(g.hands, 'hand')}, whatever the scores, when the lowest "
                 "total wins" if g.hands is not None else "")
        out.append("- The game ends when only one player is left in (see *Elimination*), "
                   f"and that player wins{fixed}. If the last players in all leave after the "
                   "same hand, the lowest total wins.")
    elif spec.initial_meld.contracts:  # each player's own: the last met ends the game
        out.append(f"- The game ends after the hand in which a player meets the last "
                   f"contract, or after {_n(g.hands, 'hand')} at most. The player who has met "
                   f"the most contracts wins; of those level, the {best} total; a tie on both "
                   "is drawn.")
    elif g.hands is not None:  # game.hands: the table kernel plays that many
        out.append(f"- The game is {_n(g.hands, 'hand')}, whatever the scores; the {best} "
                   "total then wins.")
    else:
        by = ""
        if g.target_by_players:  # the target for the table's size
            by = " (" + ", ".join(f"{v} with {n} players"
                                  for n, v in sorted(g.target_by_players.items())) + ")"
        who = "a player" if spec.players.partners == "never" else "a side"
        tie = ("if two or more share it, another hand is played" if g.tie == "play_on"
               else "if two or more share it, the game is drawn")
        out.append(f"- The game ends when {who} reaches {g.target}{by}; the {best} total "
                   f"wins ({tie}).")
    if g.box_bonus:
        won = ("; a hand is won by the player it pays the most points, on balance, who need "
               "not be the knocker" if spec.scoring.style == "knock" and _defenders(spec)
               and spec.knock.settle == "knocker" else "")
        out.append(f"- Each player then scores {g.box_bonus} for every hand they won (the "
                   f"box or line bonus{won}).")
    if g.game_bonus:
        out.append(f"- The winner scores a game bonus of {g.game_bonus}.")
    if g.shutout_multiplier > 1:
        other = "player" if spec.players.partners == "never" else "side"
        out.append(f"- A **shutout**: where every other {other} ends the game at 0, the "
                   f"winner's total, bonuses included, is {_times_words(g.shutout_multiplier)}"
                   ".")
    return out
