"""The rules-sheet sections of a table-meld pack (rummy, gin): written from the pack's keys,
one sentence per setting, so the sheet states exactly what the engine plays.

>>> import meldkit
>>> lines = table_sections(meldkit.load_pack("gin_rummy").spec)
>>> any("knock" in line for line in lines)
True
"""

from __future__ import annotations

_ACE = {
    "low": "an ace is low only (A-2-3, not Q-K-A)",
    "high": "an ace is high only (Q-K-A, not A-2-3)",
    "both": "an ace is low or high (A-2-3 or Q-K-A) but not both at once",
    "around": "runs may go round the corner (K-A-2)",
}


def _n(n: int, word: str) -> str:
    return f"{n} {word}" + ("" if n == 1 else "s")


def table_sections(spec) -> list[str]:
    """The deal, turn, melds, laying off, going out or knocking, the stock, scoring and the
    end of the game, as Markdown lines."""
    out: list[str] = []
    for section in (_deal, _turn, _melds, _lay_off, _ending, _stock, _scoring, _game):
        lines = section(spec)
        if lines:
            out += lines + [""]
    return out


def _deal(spec) -> list[str]:
    d = spec.deal
    out = ["## The deal", ""]
    if d.hand_by_players:
        sizes = ", ".join(f"{_n(size, 'card')} with {n} players"
                          for n, size in sorted(d.hand_by_players.items()))
        out.append(f"- Each player is dealt {_n(d.hand, 'card')} ({sizes}).")
    else:
        out.append(f"- Each player is dealt {_n(d.hand, 'card')}.")
    if d.upcard:
        out.append("- The next card is turned face up to start the discard pile; the rest "
                   "form the stock.")
    if spec.pile.first_upcard == "offer":
        out.append("- **The first upcard:** the first player may take it; if they decline, "
                   "each other player in turn may; if nobody takes it, the first player draws "
                   "from the stock.")
    out.append("- The first dealer is chosen by lot and the player on the dealer's left "
               "plays first; the deal passes to the left after each hand.")
    return out


def _turn(spec) -> list[str]:
    take = {
        "top": "take the top card of the discard pile",
        "pile": "take the whole discard pile",
        "deep": ("take the top card of the discard pile, or take any card deeper in the pile "
                 "together with every card above it — a card taken that way must be melded "
                 "or laid off at once"),
    }[spec.pile.take]
    out = ["## A turn", "", f"1. **Draw:** draw the top card of the stock, or {take}."]
    if spec.knock.max_deadwood is not None:
        out.append("2. **Discard:** discard one card face up — or knock (see *Knocking*). "
                   "Melds are laid only when a player knocks.")
    else:
        lay = "lay off cards on melds on the table, " if spec.melds.lay_off.onto != "none" else ""
        out.append(f"2. **Meld:** lay down new melds and {lay}as many as you like.")
        out.append("3. **Discard:** discard one card face up, which ends the turn.")
    if not spec.pile.discard_taken_card:
        out.append("")
        out.append("A card taken from the discard pile may not be discarded in the same turn.")
    return out


def _melds(spec) -> list[str]:
    out = ["## Melds", ""]
    for k in spec.melds.kinds:
        name = k.name or k.type
        size = f"{k.min_size} or more" if k.max_size is None else (
            f"{k.min_size} to {k.max_size}" if k.max_size != k.min_size else str(k.min_size))
        if k.type == "set":
            text = f"- A **{name}** is {size} cards of the same rank"
            if k.distinct_suits:
                text += ", no two of the same suit"
        else:
            text = f"- A **{name}** is {size} cards of one suit in sequence; {_ACE[k.ace]}"
        if k.max_wilds:
            text += f"; it may hold up to {_n(k.max_wilds, 'wild card')}"
            if k.type == "run" and not k.wilds_adjacent:
                text += ", never two side by side"
            if k.all_wild:
                text += " and may be all wild"
        if k.max_size is not None and k.type == "run":
            text += " when laid down (longer runs are laid as two)"
        out.append(text + ".")
    if not spec.cards.wild:
        out.append("- There are no wild cards.")
    out.append("- Each meld on the table has an id (m1, m2 …) in the order it was laid, and "
               "belongs to the player who laid it.")
    return out


def _lay_off(spec) -> list[str]:
    lo = spec.melds.lay_off
    out = ["## Laying off", ""]
    whose = {"any": "any meld on the table", "own": "their own melds",
             "side": "their side's melds", "none": None}[lo.onto]
    if whose and spec.knock.max_deadwood is None:
        out.append(f"- On their turn a player may lay off cards on {whose}: a card that "
                   "extends a run at either end, or joins a set.")
    elif spec.knock.max_deadwood is None:
        out.append("- Cards are never laid off on melds on the table.")
    if lo.max_per_end is not None:
        out.append(f"- At most {_n(lo.max_per_end, 'card')} may be laid off at each end of a "
                   "run.")
    return out if len(out) > 2 else []


def _ending(spec) -> list[str]:
    kn = spec.knock
    if kn.max_deadwood is None:
        out = ["## Going out", ""]
        if spec.going_out.requires_discard:
            out.append("- A player goes out by discarding their last card; they must always "
                       "keep a card to discard.")
        else:
            out.append("- A player goes out by getting rid of every card: by melding or laying "
                       "off the last ones, or by discarding the last card.")
        out.append("- The hand ends at once when a player goes out.")
        return out
    out = ["## Knocking", ""]
    value = ("the value of the first upcard (an ace: only gin)" if kn.from_upcard
             else str(kn.max_deadwood))
    out.append(f"- Instead of discarding, a player may **knock** when the cards they cannot "
               f"meld (their *deadwood*) total at most {value} after the discard.")
    out.append("- The knocker discards, then lays down their melds; cards left unmelded are "
               "their deadwood.")
    if kn.lay_off_on_gin:
        out.append("- The defender then lays off cards on the knocker's melds (even after "
                   "gin), and lays down their own melds.")
    else:
        out.append("- The defender then lays off cards on the knocker's melds (not after "
                   "gin), and lays down their own melds.")
    out.append("- **Gin:** a knock with no deadwood at all.")
    if kn.big_gin_bonus is not None:
        out.append("- **Big gin:** all eleven cards melded, with no discard.")
    return out


def _stock(spec) -> list[str]:
    st = spec.stock
    out = ["## The stock", ""]
    if st.wall:
        line = (f"- When a discard leaves {_n(st.wall, 'card')} in the stock, the hand is "
                "void (no score)")
        if st.wall_knock_with_upcard:
            line += ", unless the next player knocks by taking that discard"
        out.append(line + ".")
    elif st.when_empty == "turn_pile":
        out.append("- When the stock runs out, the discard pile but its top card is turned "
                   "over, without shuffling, to form a new stock.")
    else:
        out.append("- When the stock runs out, the hand ends with no score.")
    kn = spec.knock
    if kn.pile_take_limit is not None:
        out.append(f"- The hand is void on the {kn.pile_take_limit}th take of the discard.")
    if kn.returned_card_limit is not None:
        out.append(f"- The hand is void when {kn.returned_card_limit} turns in a row end by "
                   "discarding the card just taken.")
    if spec.game.hand_turn_limit is not None:
        out.append(f"- A hand still going after {spec.game.hand_turn_limit} turns is void.")
    return out


def _scoring(spec) -> list[str]:
    style = spec.scoring.style
    out = ["## Scoring", "", "- Cards count at their values (the table above)."]
    if style == "knock":
        kn = spec.knock
        out.append("- The knocker scores the difference between the two deadwood totals.")
        out.append(f"- Gin scores a bonus of {kn.gin_bonus}"
                   + (f", big gin {kn.big_gin_bonus}" if kn.big_gin_bonus is not None else "")
                   + ".")
        tie = "lower than or equal to" if kn.tie_is_undercut else "lower than"
        out.append(f"- **Undercut:** if the defender's deadwood is {tie} the knocker's, the "
                   f"defender scores the difference plus {kn.undercut_bonus}.")
        if not kn.tie_is_undercut:
            out.append("- Equal deadwood scores nothing.")
        if kn.spade_upcard_doubles:
            out.append("- A hand whose first upcard is a spade scores double.")
    elif style == "winner_takes_hands":
        out.append("- The player who goes out scores the value of every card left in the "
                   "other players' hands.")
    elif style == "penalty":
        out.append("- Each player scores the value of the cards left in their own hand, as "
                   "penalty points.")
    return out


def _game(spec) -> list[str]:
    g = spec.game
    out = ["## The end of the game", ""]
    best = "lowest" if g.winner == "lowest" else "highest"
    if g.hands is not None:  # game.hands: the table kernel plays that many, whatever the scores
        out.append(f"- The game is {_n(g.hands, 'hand')}, whatever the scores; the {best} "
                   "total then wins.")
    else:
        by = ""
        if g.target_by_players:  # the target for the table's size
            by = " (" + ", ".join(f"{v} with {n} players"
                                  for n, v in sorted(g.target_by_players.items())) + ")"
        out.append(f"- The game ends when a player reaches {g.target}{by}; the {best} total "
                   "wins.")
    if g.box_bonus:
        out.append(f"- Each player then scores {g.box_bonus} for every hand they won (the "
                   "box or line bonus).")
    if g.game_bonus:
        out.append(f"- The winner scores a game bonus of {g.game_bonus}.")
    return out
