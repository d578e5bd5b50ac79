"""The loader's checks of table-meld keys: contradictions it can see are refused with the
key's ``file:line:col`` instead of a game that cannot run or cannot end."""

from __future__ import annotations

import re
from typing import Any, Callable

from attrs import fields as attrs_fields

from .._cards import deck_plan

_CANASTA_ONLY_STYLE = "canasta"

# --------------------------------------------------------------------------- plugin hooks

RULE_HOOKS: tuple[str, ...] = ("actions", "adjust_scores", "view")
"""The plugin hooks that run during play (``deck_size``, ``validate`` and
``options_class`` run in the loader, for every engine).  Every such hook of
:class:`meldkit.plugins.Plugin` is listed here (a test checks it), so that a new hook is
refused by the engines that do not yet run it instead of silently never running."""

HOOKS_RUN: dict[str, frozenset[str]] = {
    "canasta": frozenset(RULE_HOOKS),
    "table": frozenset(RULE_HOOKS),  # TableState runs every rule hook (kernel/table.py)
}
"""The capability table: engine (as :data:`meldkit._schema.ENGINES` names it) → the rule
hooks it runs.  The loader refuses a plugin that gives a hook its pack's engine does not
run, naming the hook.  A plugin with its own engine runs its own hooks (not listed)."""


def hooks_named(plugin: Any) -> list[str]:
    """The rule hooks ``plugin`` gives: ``actions`` when it returns any action type, and
    every other rule hook its class overrides."""
    from ..plugins import Plugin

    named = []
    for hook in RULE_HOOKS:
        if hook == "actions":
            try:
                given = bool(list(plugin.actions()))
            except Exception:  # reported by the plugin's validation
                given = False
        else:
            given = getattr(type(plugin), hook, None) is not getattr(Plugin, hook)
        if given:
            named.append(hook)
    return named


def check_plugin_hooks(engine: str, plugin: Any, add: Callable[..., None]) -> None:
    """Refuse, at ``plugin:``, each rule hook of ``plugin`` that ``engine`` does not run."""
    runs = HOOKS_RUN.get(engine)
    if runs is None:
        return
    from .._schema import ENGINE_NAMES, ENGINE_PACKS

    for hook in hooks_named(plugin):
        if hook not in runs:
            others = [e for e, hooks in HOOKS_RUN.items() if hook in hooks]
            where = " and ".join(f"{ENGINE_NAMES[e]} ({ENGINE_PACKS[e]})" for e in others)
            add(("plugin",), f"plugin {plugin.name!r} gives the {hook} hook, which "
                f"{ENGINE_NAMES[engine]} ({ENGINE_PACKS[engine]}) does not run: it would "
                f"never be called" + (f" (it runs in {where})" if where else ""))


def _always_at_once(spec: Any) -> bool:
    """Whether every deal of the pack opens all at once (``initial_meld.all_at_once``: the
    pack's own, with no ``schedule`` item setting it false)."""
    return spec.initial_meld.all_at_once and not any(
        isinstance(item, dict) and isinstance(item.get("initial_meld"), dict)
        and item["initial_meld"].get("all_at_once") is False for item in spec.schedule)


def _has_opening(spec: Any) -> bool:
    """Whether some deal of the pack has an opening: a contract, a minimum or the whole
    hand at once (``initial_meld``), the pack's own or a ``schedule`` item's."""
    from .._rules import OpeningMinimum

    keys = ("melds", "minimums", "minimums_by_players", "by_hand", "all_at_once")
    im = spec.initial_meld  # (the schedule's items are still raw mappings here)
    return bool(im.melds or im.contracts or OpeningMinimum(im) or im.all_at_once) or any(
        isinstance(item, dict) and isinstance(item.get("initial_meld"), dict)
        and any(item["initial_meld"].get(k) for k in keys) for item in spec.schedule)


def check_table_pack(spec: Any, add: Callable[..., None], player_counts: range,
                     deck_size: Callable[[int], int | None], one_deal: bool = False) -> None:
    """Add a problem for every contradiction among the table-meld keys of ``spec``.

    ``add(path, message, related=...)`` records a problem at a key path; ``deck_size(n)``
    is the number of cards for ``n`` players (None when the deck is ill-defined);
    ``one_deal``: ``spec`` is one deal of a pack's ``schedule``, so a key that other deals
    may use is judged on the whole pack, not here.
    """
    melds = spec.melds
    if not melds.kinds:
        if spec.scoring.style != _CANASTA_ONLY_STYLE:
            add(("scoring", "style"), f"{spec.scoring.style} needs melds.kinds (sets and "
                "runs); a canasta pack scores with style canasta", related=(("melds",),))
        return
    if not spec.pile.buy_after_opening and spec.pile.buy_limit and not one_deal and \
            not _has_opening(spec):
        add(("pile", "buy_after_opening"), "false, but the pack has no initial meld "
            "(initial_meld.melds, contracts or minimums), so every player counts as opened "
            "from the deal and nobody could ever buy: remove it, or give the pack an opening",
            related=(("initial_meld",),))
    has_wilds = bool(spec.cards.wild) or spec.cards.turned_wild != "none"
    for i, kind in enumerate(melds.kinds):
        path = ("melds", "kinds", i)
        if kind.min_size < 2 or kind.min_size > 52:
            add((*path, "min_size"), f"expected 2 to 52, got {kind.min_size}")
        if kind.max_size is not None and not kind.min_size <= kind.max_size <= 104:
            add((*path, "max_size"),
                f"expected null or {kind.min_size} (min_size) to 104, got {kind.max_size}")
        if not 0 <= kind.max_wilds <= 52:
            add((*path, "max_wilds"), f"expected 0 to 52, got {kind.max_wilds}")
        if kind.all_wild and kind.max_wilds < kind.min_size:
            add((*path, "all_wild"),
                f"true, but max_wilds ({kind.max_wilds}) is below min_size ({kind.min_size}): "
                "no all-wild meld could be made", related=((*path, "max_wilds"),))
        if kind.type != "run" and kind.ace != "low":
            add((*path, "ace"), f"applies to runs only (this kind is a {kind.type})")
        if kind.type != "run" and kind.mixed_suits:
            add((*path, "mixed_suits"), f"applies to runs only (this kind is a {kind.type}: "
                + ("its cards are of any suits already)" if kind.type == "set" else
                   "its cards are of one suit)"))
        if kind.mixed_suits and kind.wild_natural_in_place:
            add((*path, "wild_natural_in_place"), "true, but the run is of mixed suits "
                "(mixed_suits): a wild card stands as itself only in a run of its own suit",
                related=((*path, "mixed_suits"),))
        if kind.type == "flush" and not kind.wilds_adjacent:
            add((*path, "wilds_adjacent"), "false, but it applies to runs only (a flush's "
                "cards stand in no order): bound its wild cards with max_wilds")
        if kind.type == "flush" and kind.wild_natural_in_place:
            add((*path, "wild_natural_in_place"), "applies to runs only (in a flush a wild "
                "card has no place of its own)")
        if kind.type == "flush" and kind.distinct_suits:
            add((*path, "distinct_suits"), "applies to sets only (a flush is of one suit)")
        if kind.type == "set" and not kind.wilds_adjacent:
            add((*path, "wilds_adjacent"), "false, but it applies to runs only (a set's cards "
                "stand in no order, so no wild card stands beside another: this kind is a "
                "set): remove it, and bound a set's wild cards with max_wilds")
        if kind.type == "run" and not kind.wilds_adjacent and (
                kind.max_wilds == 0 or not has_wilds):
            add((*path, "wilds_adjacent"), "false, but " + (
                "the pack has no wild cards (cards.wild, cards.turned_wild)" if not has_wilds
                else "this kind takes no wild card (max_wilds: 0, its default)")
                + ", so no wild card could stand beside another: remove it",
                related=(("cards", "wild"),) if not has_wilds else ((*path, "max_wilds"),))
        if kind.type == "run" and kind.distinct_suits:
            add((*path, "distinct_suits"), "applies to sets only (a run is of one suit)")
        if kind.type == "set" and kind.wild_natural_in_place:
            add((*path, "wild_natural_in_place"), "applies to runs only (in a set a wild "
                "card has no place of its own: this kind is a set)")
    _check_flexible_kinds(spec, add)
    names = [k.name or k.type for k in melds.kinds]
    for i, name in enumerate(names):
        if name in names[:i]:
            add(("melds", "kinds", i, "name"), f"{name!r} names two meld kinds")
    _check_contract(spec, names, add, player_counts, one_deal)
    _check_contracts(spec, add)
    _check_last_turns(spec, add)
    check_items(spec, add)
    _check_books(spec, add)
    _check_reserves(spec, add)
    _check_turned(spec, add)
    _check_play_or_draw(spec, add)
    _check_rearrange(spec, add)
    if not spec.turn.play_or_draw and spec.turn.discard:  # (no pile to take from)
        _check_endless_takes(spec, add)
    _check_lay_off(spec, add)
    if melds.lay_off.win_back:
        if melds.lay_off.onto == "none":
            add(("melds", "lay_off", "win_back"), "true, but lay_off.onto is none: a wild card "
                "is won back from a meld a player may lay off onto",
                related=(("melds", "lay_off", "onto"),))
        elif spec.scoring.style == "knock":
            add(("melds", "lay_off", "win_back"), "true, but scoring.style is knock: melds are "
                "laid only when a player knocks, so no wild card on the table can be won back",
                related=(("scoring", "style"),))
        elif not has_wilds:
            add(("melds", "lay_off", "win_back"), "true, but the pack has no wild cards "
                "(cards.wild, cards.turned_wild)", related=(("cards", "wild"),))
        elif _counts_laid(spec):
            add(("melds", "lay_off", "win_back"), "true, but the scoring item laid counts the "
                "cards each player lays, and a wild card won back would stay counted for a "
                "card no longer on the table", related=(("scoring", "items"),))
    if melds.lay_off.wilds_stay:
        runs_with_wilds = [k for k in melds.kinds if k.type == "run" and k.max_wilds > 0]
        if melds.lay_off.onto == "none" or (melds.lay_off.max_per_end == 0):
            add(("melds", "lay_off", "wilds_stay"), "true, but no card is laid off "
                "(lay_off.onto: none, or max_per_end: 0), so no wild card could be moved",
                related=(("melds", "lay_off", "onto"),))
        elif not has_wilds or not runs_with_wilds:
            add(("melds", "lay_off", "wilds_stay"), "true, but no run can hold a wild card "
                "(cards.wild, and a run kind's max_wilds above 0): the place of a wild card "
                "in a run is what it fixes", related=(("melds", "kinds"),))

    style = spec.scoring.style
    if style == _CANASTA_ONLY_STYLE:
        add(("scoring", "style"),
            "canasta scoring (the default, where a pack does not set scoring.style) needs "
            "rank-slot melds and books; a pack with melds.kinds scores with "
            "winner_takes_hands, penalty or knock: set scoring.style",
            related=(("melds", "kinds"),))
    knock = spec.knock
    if (knock.max_deadwood is None) != (style != "knock"):
        if knock.max_deadwood is None:
            add(("knock", "max_deadwood"), "null, but scoring.style is knock: give the knock "
                "value", related=(("scoring", "style"),))
        else:
            add(("knock", "max_deadwood"), f"{knock.max_deadwood}, but scoring.style is "
                f"{style}: knocking is scored only with style knock",
                related=(("scoring", "style"),))
    if knock.max_deadwood is not None and not 0 <= knock.max_deadwood <= 1000:
        add(("knock", "max_deadwood"), f"expected 0 to 1000, got {knock.max_deadwood}")
    if spec.pile.taken_new_meld and spec.pile.taken_melded == "no" and spec.pile.take != "deep":
        add(("pile", "taken_new_meld"), "true, but no card taken is owed at once "
            "(pile.taken_melded: no, and no deep take), so none goes into a new meld",
            related=(("pile", "taken_melded"),))
    if style == "knock" and spec.deal.next_hand_first == "winner":
        add(("deal", "next_hand_first"), "winner, but scoring.style is knock: the knocker "
            "need not win the hand (an undercut), so write left_of_previous or high_card",
            related=(("scoring", "style"),))
    stock = spec.stock
    if stock.wall:  # the hand ends at the wall, before the stock can run out
        if stock.when_empty != "end_hand":
            add(("stock", "when_empty"), f"{stock.when_empty}, but stock.wall ({stock.wall}) "
                "ends the hand before the stock runs out, so this never applies: remove it, "
                "or write its default over an inherited one (stock.when_empty: end_hand)",
                related=(("stock", "wall"),))
        if stock.empty_winner != "none":
            add(("stock", "empty_winner"), f"{stock.empty_winner}, but stock.wall "
                f"({stock.wall}) ends the hand before the stock runs out: remove it, or write "
                "its default over an inherited one (stock.empty_winner: none)",
                related=(("stock", "wall"),))
    if stock.wall_knock_with_upcard and stock.wall and spec.knock.max_deadwood is None:
        add(("stock", "wall_knock_with_upcard"), "true, but nobody knocks "
            "(knock.max_deadwood is null), so nobody knocks with the discard at the wall: "
            "remove it", related=(("knock", "max_deadwood"),))
    if spec.knock.returned_card_limit is not None and not spec.pile.discard_taken_card:
        add(("knock", "returned_card_limit"), f"{spec.knock.returned_card_limit}, but "
            "pile.discard_taken_card is false: no turn ends by discarding the card just "
            "taken, so no run of them ends the hand: remove it",
            related=(("pile", "discard_taken_card"),))
    if style == "knock" and spec.stock.empty_winner != "none":
        add(("stock", "empty_winner"), f"{spec.stock.empty_winner}, but scoring.style is "
            "knock: a knocking pack's hand that reaches the end of the stock is void, and its "
            "winner is who knocks", related=(("scoring", "style"),))
    if style == "knock" and spec.pile.take != "top":
        add(("pile", "take"), f"{spec.pile.take}, but with knock scoring no meld is laid "
            "before the knock and a hand keeps its size between turns: the pile is taken a "
            "card at a time (pile.take: top)", related=(("scoring", "style"),))
    if style == "knock" and spec.pile.taken_melded != "no":
        add(("pile", "taken_melded"), f"{spec.pile.taken_melded}, but with knock scoring no "
            "meld is laid before the knock, so a card taken from the pile cannot be melded "
            "in its turn (give no)", related=(("scoring", "style"),))
    if style == "knock" and not spec.going_out.requires_discard:
        add(("going_out", "requires_discard"), "false, but scoring.style is knock: a knocker "
            "always discards as they knock, and a knock that melds every card without a "
            "discard is big gin, which knock.big_gin_bonus sets: remove it",
            related=(("scoring", "style"),))
    if style == "knock" and spec.players.partners != "never":
        add(("players", "partners"), f"{spec.players.partners}, but with knock scoring each "
            "player's deadwood is settled on its own against the knocker's (or the lowest "
            "count's, knock.settle), so partners would pay each other: a knocking pack is "
            "played without partners (write never)", related=(("scoring", "style"),))
    if style == "knock":
        _check_knock_hand(spec, add)
    if style == "knock" and knock.settle == "lowest" and max(
            spec.players.counts or player_counts, default=0) <= 2:
        add(("knock", "settle"), "lowest, but this pack is played by two players, where the "
            "lowest count is the knocker's or the one defender's and the knock settles as "
            "knock.settle: knocker does: remove it (it settles a knock with several "
            "defenders)", related=(("players",),))
    if knock.test == "openspiel":
        misfits = _openspiel_misfits(spec, player_counts)
        if misfits:
            paths, causes, fixes = zip(*misfits)
            add(("knock", "test"), "openspiel judges a one-deck game without wild cards, "
                "jokers included, at every table, of the standard 52 cards; here "
                f"{_and(causes)}: {_and(fixes)}, or use best_discard", related=paths)
    if (knock.from_upcard or knock.spade_upcard_doubles) and not spec.deal.upcard:
        key = "from_upcard" if knock.from_upcard else "spade_upcard_doubles"
        add(("knock", key), "needs an upcard, but deal.upcard is false",
            related=(("deal", "upcard"),))
    if spec.pile.first_upcard == "offer" and not spec.deal.upcard:
        add(("pile", "first_upcard"), "offer, but deal.upcard is false (there is no upcard)",
            related=(("deal", "upcard"),))

    game = spec.game
    if style == "penalty" and game.winner != "lowest":
        add(("game", "winner"), "highest, but with penalty scoring each player scores the "
            "cards left in their own hand, which count against them: the game would be won "
            "by the player who had kept the most cards (write game.winner: lowest)",
            related=(("scoring", "style"),))
    if style in ("knock", "winner_takes_hands") and game.winner != "highest":
        add(("game", "winner"), f"lowest, but with {style} scoring the winner of each hand "
            "scores: reaching the target means winning (game.winner: highest)",
            related=(("scoring", "style"),))
    if game.winner == "lowest":
        _check_lowest_wins_bonuses(spec, add)
    else:
        _check_highest_wins_bonuses(spec, add)

    deal = spec.deal
    for n, size in deal.hand_by_players.items():  # (a count outside players: the loader's)
        if not 1 <= size <= 104:
            add(("deal", "hand_by_players"), f"{size} cards for {n} players: expected 1 to 104")
    wall = spec.stock.wall
    for n in player_counts:
        size = deck_size(n)
        if size is None:
            return
        hand = deal.hand_by_players.get(n, deal.hand)
        piles = _reserve_piles(spec, n)
        left = size - n * hand - piles * deal.reserve - (1 if deal.upcard else 0)
        if n * hand + (1 if deal.upcard else 0) > size:
            return  # the hands alone are more than the deck: the loader says so, at players
        if left < 0:
            return  # more than the deck: the loader's deck check says so, once
        if left < wall + 1:
            res = f" + {piles} reserves of {deal.reserve}" if piles else ""
            needs = (f"{wall + 1} (stock.wall + 1)" if wall else "1, a card to draw")
            add(("deal",), f"{n} players × {hand} cards{res}"
                f"{' + 1 upcard' if deal.upcard else ''} leave {left} cards in a stock of "
                f"{size}, but play needs at least {needs} left in the stock",
                related=(("deck",), ("stock", "wall")) if wall else (("deck",),))
            return


def _check_lowest_wins_bonuses(spec: Any, add: Callable[..., None]) -> None:
    """Where the lowest total wins, a box bonus (the game's, or a score sheet's own) could
    change nothing: a hand counts as won by the player its items pay the most points, and
    there the items count points against the players, so no hand is ever won.  A positive
    game bonus would raise the winner's total, which counts against them."""
    sheets = [(("scoring", "sheets", i, "game_bonus"), sh.game_bonus)
              for i, sh in enumerate(spec.scoring.sheets)]
    for at, value in [(("game", "game_bonus"), spec.game.game_bonus), *sheets]:
        if value is not None and value > 0:
            add(at, f"{value}, but the lowest total wins this pack (game.winner: lowest): a "
                "game bonus is added to the winner's total, and raising it counts against "
                "them (the winner could end above a loser): write a negative bonus, "
                f"{-value}, to take points off the winner's total, or remove it",
                related=(("game", "winner"),))
    sheets = [(("scoring", "sheets", i, "shutout_multiplier"), sh.shutout_multiplier)
              for i, sh in enumerate(spec.scoring.sheets)]
    for at, value in [(("game", "shutout_multiplier"), spec.game.shutout_multiplier), *sheets]:
        if value is not None and value != 1:
            add(at, f"{value}, but the lowest total wins this pack (game.winner: lowest): a "
                "shutout multiplies the winner's total, which counts against them: remove it",
                related=(("game", "winner"),))
    sheets = [(("scoring", "sheets", i, "box_bonus"), sh.box_bonus)
              for i, sh in enumerate(spec.scoring.sheets)]
    for at, value in [(("game", "box_bonus"), spec.game.box_bonus), *sheets]:
        if value:
            add(at, f"{value}, but the lowest total wins this pack (game.winner: lowest): a "
                "hand counts as won by the player its items pay the most points, and here "
                "they count points against the players, so no hand is won and a bonus per "
                "hand won is never added (and one that raised a total would count against "
                "the winner): remove it; to take points off whoever goes out, list "
                f"{{item: bonus, points: {-abs(value)}, when: out}} in scoring.items",
                related=(("game", "winner"),))


def _check_highest_wins_bonuses(spec: Any, add: Callable[..., None]) -> None:
    """Where the highest total wins (a table pack's ``game.winner: highest``, every
    rank-slot pack), a negative bonus counts against whom it rewards: a game bonus is added
    to the winner's total, a box bonus to the total of each side for every hand it won, so
    a negative one could leave the game's winner below a loser."""
    table = bool(spec.melds.kinds)
    wins = "the highest total wins this pack" + (" (game.winner: highest)" if table else "")
    related = (("game", "winner"),) if table else ()
    for key, what in (("game_bonus", "a game bonus is added to the winner's total"),
                      ("box_bonus", "a box bonus is added, for every hand a side won, to "
                       "its total")):
        # (a rank-slot pack's game.* bonuses are refused as keys its engine does not read)
        places = [(("game", key), getattr(spec.game, key))] if table else []
        places += [(("scoring", "sheets", i, key), getattr(sh, key))
                   for i, sh in enumerate(spec.scoring.sheets)]
        for at, value in places:
            if value is not None and value < 0:
                add(at, f"{value}, but {wins}: {what}, and lowering it counts against them "
                    "(the game's winner could end below a loser): write a positive bonus, "
                    f"{-value}, or remove it", related=related)


def _check_lay_off(spec: Any, add: Callable[..., None]) -> None:
    """``melds.lay_off`` where it could change nothing.  In a knocking pack nobody lays off
    during play, and ``onto`` says whether the defender lays off onto the knocker's melds
    after a knock (``any``) or not (``none``); with ``onto: none`` no card is ever laid
    off, so a cap on lay-offs (``max_per_end``) or lay-offs on gin are refused."""
    lay_off, knocking = spec.melds.lay_off, spec.scoring.style == "knock"
    onto = ("melds", "lay_off", "onto")
    if knocking and lay_off.onto in ("own", "side"):
        add(onto, f"{lay_off.onto}, but scoring.style is knock: nobody lays off during play "
            "(melds are laid only on a knock), and after a knock the defender lays off onto "
            "the knocker's melds: write any (the defender lays off, the default) or none "
            "(nobody lays off)", related=(("scoring", "style"),))
    if knocking and spec.knock.lay_off_on_gin and lay_off.onto != "none" \
            and lay_off.max_per_end == 0:
        add(("knock", "lay_off_on_gin"), "true, but lay_off.max_per_end is 0: the defender "
            "lays nothing off after a knock, not after gin either: remove it",
            related=(("melds", "lay_off", "max_per_end"),))
    if knocking and not spec.pile.discard_layable:
        add(("pile", "discard_layable"), "false, but in a knocking pack nobody lays off during "
            "play (a defender lays off only after a knock), so no discard could have been "
            "laid off: remove it", related=(("knock", "max_deadwood"),))
    if lay_off.within_max_size and not any(k.max_size is not None for k in spec.melds.kinds):
        add(("melds", "lay_off", "within_max_size"), "true, but no meld kind sets a max_size, "
            "so no meld has a size to keep within: set one, or remove it",
            related=(("melds", "kinds"),))
    if lay_off.onto != "none" and lay_off.max_per_end != 0:
        pass
    elif lay_off.within_max_size:
        add(("melds", "lay_off", "within_max_size"), "true, but no card is ever laid off "
            "(lay_off.onto: none, or max_per_end: 0): remove it", related=(onto,))
    if lay_off.onto != "none":
        return
    nobody = ("but lay_off.onto is none: " + (
        "the defender lays nothing off after a knock" if knocking else
        "no card is ever laid off"))
    if lay_off.max_per_end is not None:
        add(("melds", "lay_off", "max_per_end"), f"{lay_off.max_per_end}, {nobody}, so no "
            "cap on lay-offs applies: remove it (or write null over an inherited one)",
            related=(onto,))
    if knocking and spec.knock.lay_off_on_gin:
        add(("knock", "lay_off_on_gin"), f"true, {nobody}, not after gin either: remove it",
            related=(onto,))
    if not spec.initial_meld.lay_off_before:
        add(("initial_meld", "lay_off_before"), f"false, {nobody}, before the opening or "
            "after it: remove it", related=(onto,))
    if not spec.pile.discard_layable and not knocking:
        add(("pile", "discard_layable"), f"false, {nobody}, so no discard could have been "
            "laid off: remove it", related=(onto,))
    if not spec.initial_meld.melds_after:
        add(("initial_meld", "melds_after"), f"false, {nobody}, so a player who has opened "
            "could play no card but a discard and never go out: remove one", related=(onto,))


def _check_contract(spec: Any, names: list[str], add: Callable[..., None],
                    player_counts: range, one_deal: bool = False) -> None:
    """The contract names meld kinds of the pack, and a hand after its draw can hold it;
    buying is for packs that meld during play."""
    im = spec.initial_meld
    contract = im.melds
    minimum = any(t.minimum for t in im.minimums) or any(im.by_hand) or any(
        t.minimum for tiers in im.minimums_by_players.values() for t in tiers)
    opening = bool(contract) or bool(im.contracts) or minimum or im.all_at_once
    idle = ("but the pack sets no contract or minimum (initial_meld.melds, contracts, "
            "minimums), so every player has opened and it would change nothing: set one, or "
            "remove it")
    if im.minimums and not minimum:  # (minimum: 0 written)
        idle = ("but a minimum of 0 is no minimum (initial_meld.minimums): every player has "
                "opened, and it would change nothing. For an opening that is any first meld, "
                "write minimum: 1; else remove it")
    for key, inert in (("lay_off_before", True), ("take_before", True), ("melds_after", True),
                       ("lay_off_same_turn", True)):
        if getattr(im, key) != inert and not opening:
            add(("initial_meld", key), f"{str(getattr(im, key)).lower()}, {idle}")
    if opening and not one_deal and _always_at_once(spec):
        for key in ("melds_after", "lay_off_same_turn"):
            if not getattr(im, key):
                add(("initial_meld", key), "false, but every deal opens all at once "
                    "(initial_meld.all_at_once): a player opens by laying the whole hand, "
                    "going out, so nobody plays on after opening and it would change "
                    "nothing: remove it", related=(("initial_meld", "all_at_once"),))
    if not im.melds_after and opening and spec.pile.taken_melded == "always":
        add(("initial_meld", "melds_after"), "false, but pile.taken_melded is always: a "
            "player who has opened may take a card only to meld it in a new meld or lay it "
            "off, and could not meld it: write until_opened or no, or let opened players "
            "meld", related=(("pile", "taken_melded"),))
    if not im.lay_off_same_turn and opening and im.lay_off_before:
        add(("initial_meld", "lay_off_same_turn"), "false, but initial_meld.lay_off_before "
            "is true: a player who lays off before opening has laid off before the turn "
            "they open, so which turn they first lay off in is not the opening's (write "
            "lay_off_before: false, as Carioca does)",
            related=(("initial_meld", "lay_off_before"),))
    if not im.lay_off_before and opening and not one_deal and _always_at_once(spec):
        add(("initial_meld", "lay_off_before"), "false, but every deal opens all at once "
            "(initial_meld.all_at_once): a player opens by laying the whole hand, going out, "
            "so no meld of another player is ever on the table while one has not opened, "
            "and it would change nothing: remove it",
            related=(("initial_meld", "all_at_once"),))
    if spec.pile.taken_melded == "until_opened" and not opening:
        add(("pile", "taken_melded"), f"until_opened, {idle}")
    elif (spec.pile.taken_melded == "until_opened" and not one_deal
          and not _unopened_may_take(spec)):
        add(("pile", "taken_melded"), "until_opened, but initial_meld.take_before is false: "
            "a player who has not opened never takes from the discard pile, so no card they "
            "take is owed toward the opening: remove it (or set always, for the cards an "
            "opened player takes), or let them take (initial_meld.take_before: true)",
            related=(("initial_meld", "take_before"),))
    if im.wild_as_card and not minimum:
        add(("initial_meld", "wild_as_card"), "true, but the pack sets no opening minimum "
            "(initial_meld.minimums), so no meld's points are counted: set one, or remove it")
    if im.low_ace is not None:
        _check_low_ace(spec, minimum, add)
    ladder = [(("initial_meld", "melds"), contract)] if contract else [
        (("initial_meld", "contracts", j), c) for j, c in enumerate(im.contracts)]
    for at, one in ladder:
        _check_one_contract(spec, at, one, names, add, player_counts)
    if spec.knock.max_deadwood is not None:
        _check_knock_keys(spec, bool(contract or im.contracts), minimum, add)


def _check_one_contract(spec: Any, at: tuple, contract: list, names: list[str],
                        add: Callable[..., None], player_counts: range) -> None:
    """One contract (``initial_meld.melds``, or an entry of ``contracts``, at ``at``): it
    names meld kinds of the pack, and a hand after its draw can hold it."""
    if not contract:
        add(at, "an empty contract: name the meld kinds it asks for ([set, run])")
        return
    for i, name in enumerate(contract):
        if name not in names:
            add((*at, i), f"{name!r} is not a meld kind of this pack "
                f"(melds.kinds: {', '.join(names)})", related=(("melds", "kinds"),))
    if all(name in names for name in contract) and spec.pile.take == "top":
        # (a pile taken whole or from deep in it grows a hand without bound)
        sizes = {k.name or k.type: k.min_size for k in spec.melds.kinds}
        cards = sum(sizes[name] for name in contract)
        keep = 1 if spec.going_out.requires_discard else 0
        bought = spec.pile.buy_limit * (1 + spec.pile.buy_penalty)  # Shanghai's later deals
        for n in player_counts:
            hand = spec.deal.hand_by_players.get(n, spec.deal.hand)
            drawn = hand + spec.turn.draw_by_players.get(n, spec.turn.draw)
            if cards > drawn + bought - keep:
                add(at, f"needs at least {cards} cards, but a hand of "
                    f"{hand} holds {drawn} after its draw"
                    + (f", {drawn + bought} with every buy (pile.buy_limit)" if bought else "")
                    + (" and keeps one to discard" if keep else "")
                    + f" (at {n} players): no player could meet it",
                    related=(("deal", "hand"), ("deal", "hand_by_players")))
                break


def _check_knock_keys(spec: Any, contract: bool, minimum: bool,
                      add: Callable[..., None]) -> None:
    """A knocking pack's draw, and the keys of packs that meld during play."""
    turn = spec.turn
    if turn.draw != 1 or any(n != 1 for n in turn.draw_by_players.values()):
        key = "draw" if turn.draw != 1 else "draw_by_players"
        add(("turn", key), "a knocking pack draws one card a turn (a hand keeps its "
            "size between turns: draw one, discard one): write 1, or remove it",
            related=(("knock", "max_deadwood"),))
    if minimum:
        add(("initial_meld", "minimums"), "an opening minimum is for packs that meld "
            "during play; in a knocking pack melds are laid only on a knock",
            related=(("knock", "max_deadwood"),))
    if contract:
        key = "melds" if spec.initial_meld.melds else "contracts"
        add(("initial_meld", key), "a contract is for packs that meld during play; "
            "in a knocking pack melds are laid only on a knock",
            related=(("knock", "max_deadwood"),))
    if spec.pile.buy_limit:
        add(("pile", "buy_limit"), "buying is for packs that meld during play; in a "
            "knocking pack a hand keeps its size between turns",
            related=(("knock", "max_deadwood"),))
    if spec.knock.before_draw and not spec.knock.after_draw \
            and spec.stock.wall_knock_with_upcard:  # (no before_draw: KEY_NEEDS says)
        add(("knock", "after_draw"), "false, but stock.wall_knock_with_upcard lets a player "
            "knock after taking the upcard at the wall: set it false, or remove this",
            related=(("stock", "wall_knock_with_upcard"),))


def low_ace_runs(spec: Any) -> list[str]:
    """The names of the run kinds of a table pack in which an ace may stand at the low end
    (A-2-3: ``ace`` low, both or around, and a deck that holds aces)."""
    from .._cards import rank_index

    ranks = spec.deck.ranks
    if ranks and 0 not in {rank_index(r) for r in ranks}:
        return []  # a stripped deck without aces
    return [k.name or k.type for k in spec.melds.kinds
            if k.type == "run" and k.ace in ("low", "both", "around")]


def _check_low_ace(spec: Any, minimum: bool, add: Callable[..., None]) -> None:
    """``initial_meld.low_ace`` where it could change an opening: a minimum, a run whose
    ace may be low, and a value other than every ace's own."""
    from .._pack_limits import MAX_CARD_VALUE
    from .._rules import Rules

    at, low = ("initial_meld", "low_ace"), spec.initial_meld.low_ace
    if type(low) is not int or not 0 <= low <= MAX_CARD_VALUE:
        add(at, f"expected null or an integer 0..{MAX_CARD_VALUE}, got {low!r}")
        return
    if not minimum:
        add(at, f"{low}, but the pack sets no opening minimum (initial_meld.minimums), so no "
            "meld's points are counted: set one, or remove it")
        return
    if not low_ace_runs(spec):
        runs = [k for k in spec.melds.kinds if k.type == "run"]
        why = ("the pack has no run kind (melds.kinds)" if not runs else
               "the deck holds no aces (deck.ranks)" if spec.deck.ranks else
               "no run kind lets the ace be low (melds.kinds: ace is high)")
        add(at, f"{low}, but {why}, so no run has an ace at its low end: remove it",
            related=(("melds", "kinds"),))
        return
    values = Rules._values(spec.cards.values, {})
    if all(values[suit] == low for suit in range(4)):
        add(at, f"{low}, but an ace already counts {low} (cards.values), so it would change "
            "nothing: remove it", related=(("cards", "values"),))


def _unopened_may_take(spec: Any) -> bool:
    """Whether a player who has not opened ever takes from the discard pile: in some deal
    ``initial_meld.take_before`` lets them (the pack's, or a ``schedule`` item's), or the
    first upcard is offered (``pile.first_upcard: offer``), which anyone may take."""
    if spec.initial_meld.take_before:
        return True
    if spec.pile.first_upcard == "offer" and spec.deal.upcard:
        return True
    return any(isinstance(item.get("initial_meld"), dict)
               and item["initial_meld"].get("take_before") is True
               for item in spec.schedule if isinstance(item, dict))


def _reserve_piles(spec: Any, n: int) -> int:
    """Reserve piles dealt at a table of ``n``: one a player, or one a side."""
    deal = spec.deal
    if not deal.reserve:
        return 0
    if deal.reserve_per == "player":
        return n
    from .._errors import SetupError
    from .._seating import seating

    try:
        return seating(spec.players, spec.name or "pack", n, None)[1]
    except SetupError:
        return n  # (a table size the pack refuses: reported by the seating checks)


def _check_turned(spec: Any, add: Callable[..., None]) -> None:
    """A card turned from the stock (``turn.stock_card: turned``) and cards a player must
    use (``turn.forced``): a pass needs a turned card, and neither goes with the rules that
    decide what a player may meld or keep (an opening, books to go out, reserves, knocking)
    — a card owed at once could then have no legal use."""
    t = spec.turn
    turned = t.stock_card == "turned"
    if t.turned_passes != "pile" and not turned:
        add(("turn", "turned_passes"), f"{t.turned_passes}, but no card is turned from the "
            "stock (turn.stock_card is hand)", related=(("turn", "stock_card"),))
    for i, word in enumerate(t.forced):
        if word in t.forced[:i]:
            add(("turn", "forced", i), f"{word!r} is listed twice")
        elif word == "turned" and not turned:
            add(("turn", "forced", i), "turned, but no card is turned from the stock "
                "(turn.stock_card is hand)", related=(("turn", "stock_card"),))
    if not (turned or t.forced):
        return
    at, said = ((("turn", "stock_card"), "turned") if turned else
                (("turn", "forced"), ", ".join(t.forced)))
    im, go = spec.initial_meld, spec.going_out
    clashes = [
        (spec.scoring.style == "knock", ("scoring", "style"),
         "scoring.style is knock: melds are laid only on a knock"),
        (bool(im.melds or im.contracts or im.minimums or im.minimums_by_players or im.by_hand
              or im.all_at_once), ("initial_meld",),
         "the pack has an opening (initial_meld): a card owed at once could be no part of it"),
        (bool(go.min_books or go.required_books or any(go.min_books_by_players.values())),
         ("going_out",), "going out needs books: a card owed at once could have no play "
         "that keeps the cards the books rule asks for"),
        (spec.deal.reserve > 0, ("deal", "reserve"),
         "the pack deals reserve piles: a hand played out picks one up mid-turn"),
    ]
    if turned:
        clashes += [
            (spec.pile.buy_limit > 0, ("pile", "buy_limit"),
             "the pack allows buying, which offers a discard before the stock card is drawn"),
            ((t.draw or 1) > 1 or any(n > 1 for n in t.draw_by_players.values()),
             ("turn", "draw"), "a turn draws more than one card, and one card is turned"),
        ]
    _refuse_clashes(add, at, said, clashes)


def _books_needed(spec: Any) -> bool:
    go = spec.going_out
    return bool(go.required_books) or go.min_books > 0 or any(go.min_books_by_players.values())


def _books_counted(spec: Any) -> bool:
    """Whether anything but going out counts books: a books item, a discard ban waiting
    for a book."""
    return any(d.get("item") == "books" for d in spec.scoring.items) or any(
        b.unless in ("book", "book_of_rank") for b in spec.pile.discard_bans)


def _check_play_or_draw(spec: Any, add: Callable[..., None]) -> None:
    """A turn with no discard pile (``turn.play_or_draw``, ``turn.discard: false``): the
    pile's keys change nothing there, and it goes with none of the rules built on a
    discard."""
    t = spec.turn
    if not t.play_or_draw and t.discard:
        return
    if t.play_or_draw and not t.discard:
        add(("turn", "discard"), "false, but turn.play_or_draw has no discard pile already: "
            "remove it", related=(("turn", "play_or_draw"),))
    at, word, key = ((("turn", "play_or_draw"), "true", "turn.play_or_draw") if t.play_or_draw
                     else (("turn", "discard"), "false", "turn.discard: false"))
    clashes = [
        (spec.deal.upcard, ("deal", "upcard"), "deal.upcard is true: there is no discard "
         "pile to start, so write deal.upcard: false"),
        (spec.going_out.requires_discard, ("going_out", "requires_discard"),
         "going_out.requires_discard is true: nobody discards, so a player goes out by "
         "playing their last card — write going_out.requires_discard: false"),
        (spec.scoring.style == "knock", ("scoring", "style"),
         "scoring.style is knock: a knock ends a turn with a discard"),
        (t.stock_card == "turned", ("turn", "stock_card"),
         "turn.stock_card is turned: a turned card is passed onto a discard pile"),
        (bool(t.drop) and t.play_or_draw, ("turn", "drop"), "the pack allows dropping, "
         "which is done instead of a draw phase this turn has not"),
        (bool(t.forced), ("turn", "forced"), "turn.forced forces a turned card or a discard "
         "taken, and this turn has neither"),
        (spec.deal.reserve > 0, ("deal", "reserve"),
         "the pack deals reserve piles, picked up when a hand is played out before a discard"),
        (_books_needed(spec), ("going_out",), "going out needs books, whose rule keeps cards "
         "back for a discard"),
        (spec.stock.when_empty in ("turn_pile", "shuffle_pile"), ("stock", "when_empty"),
         f"stock.when_empty is {spec.stock.when_empty}, which makes a new stock of the "
         "discard pile, and there is none: write end_hand"
         + (" or end_at_once" if t.play_or_draw else "")),
        (spec.stock.when_empty == "end_at_once" and not t.play_or_draw,
         ("stock", "when_empty"), "stock.when_empty is end_at_once, and with no discard pile "
         "to take from the hand ends when the stock runs out anyway: remove it"),
        (not spec.going_out.by_discard, ("going_out", "by_discard"),
         "going_out.by_discard is false, and nobody discards anyway: remove it"),
    ]
    _refuse_clashes(add, at, word, clashes)
    for name, default in table_pile_defaults().items():
        value = getattr(spec.pile, name)
        if value != default:
            add(("pile", name), f"{_yaml_word(value)}, but {key} has no discard pile, so "
                "this changes nothing: remove it (or, where a pack it extends sets it, write "
                f"the default, {_yaml_word(default)})", related=(at,))
    if not spec.initial_meld.take_before:
        add(("initial_meld", "take_before"), f"false, but {key} has no discard pile to take "
            "from: remove it", related=(at,))


def _yaml_word(value: Any) -> str:
    """A key's value as a pack writes it: ``top``, ``false``, ``[]``.

    >>> _yaml_word(False), _yaml_word("top"), _yaml_word([])
    ('false', 'top', '[]')
    """
    import json

    return value if isinstance(value, str) else json.dumps(value, default=str)


def table_pile_defaults() -> dict[str, Any]:
    """The discard pile's keys a table-meld pack reads (``pile.*`` that ``KEY_READERS``
    gives the table engine), each with its default.

    >>> table_pile_defaults()["take"], "freezes_on" in table_pile_defaults()
    ('pile', False)
    """
    from .._schema import KEY_READERS, TABLE, PileSpec

    defaults = {f.name: f.default for f in attrs_fields(PileSpec)}
    return {name: getattr(d, "factory", lambda d=d: d)()
            for name, d in defaults.items()
            if TABLE in KEY_READERS[f"pile.{name}"].readers}


def _refuse_clashes(add: Callable[..., None], at: tuple, said: str, clashes: list) -> None:
    """Refuse the key at ``at`` (written ``said``) once for each ``(clash, where, why)``
    of ``clashes`` that holds, naming the key it clashes with."""
    for clash, where, why in clashes:
        if clash:
            add(at, f"{said}, but {why}", related=(where,))


def _counts_laid(spec: Any) -> bool:
    """Whether a scoring item counts the cards each player laid (``laid``)."""
    return any(d.get("item") == "laid" for d in spec.scoring.items)


def _check_contracts(spec: Any, add: Callable[..., None]) -> None:
    """Contracts each player works through on their own (``initial_meld.contracts``): the
    game ends on the last met, or at ``game.hands``, and is won by the most met — so not
    beside the keys that decide a game's end or its contract otherwise."""
    im = spec.initial_meld
    for i, item in enumerate(spec.schedule):
        if isinstance(item, dict) and isinstance(item.get("initial_meld"), dict) and (
                "contracts" in item["initial_meld"]):
            add(("schedule", i, "initial_meld", "contracts"), "each player's contracts run "
                "through the whole game, not one deal: set initial_meld.contracts once, "
                "outside the schedule")
    if not im.contracts:
        return
    at = ("initial_meld", "contracts")
    game = spec.game
    sets_opening = any(isinstance(item, dict) and isinstance(item.get("initial_meld"), dict)
                       and ("melds" in item["initial_meld"] or "contracts" in item["initial_meld"])
                       for item in spec.schedule)
    clashes = [
        (bool(im.melds), ("initial_meld", "melds"),
         "initial_meld.melds sets one contract for everybody"),
        (sets_opening, ("schedule",), "a schedule item sets the deal's contract (schedule)"),
        (spec.players.partners != "never" or bool(spec.players.teams), ("players", "partners"),
         "the pack plays in partnerships (players.partners), and each player works through "
         "the contracts alone"),
        (bool(spec.scoring.sheets), ("scoring", "sheets"), "score sheets (scoring.sheets) "
         "end the game their own way"),
        (game.eliminate_above is not None, ("game", "eliminate_above"),
         "game.eliminate_above ends the game when one player is left"),
    ]
    for n, entry in enumerate(spec.scoring.items):
        if isinstance(entry, dict) and entry.get("count") == "unmelded_with_contract":
            clashes.append((True, ("scoring", "items", n, "count"),
                            "count: unmelded_with_contract counts against the deal's one "
                            "contract"))
    if game.hands is None:
        add(at, "each player's own contracts, and game.hands is not set: the game ends when a "
            "player meets the last contract, and game.hands (most hands) bounds it for a table "
            "where nobody does: set it (game: {hands: 50})", related=(("game", "hands"),))
    _refuse_clashes(add, at, "each player's own contracts", clashes)


def _check_last_turns(spec: Any, add: Callable[..., None]) -> None:
    """``going_out.last_turns``: the others' last turns after a player goes out are plain
    turns of their own — not beside what makes a turn or a hand's end otherwise."""
    if not spec.going_out.last_turns:
        return
    clashes = [
        (spec.scoring.style == "knock", ("scoring", "style"), "a knock ends the hand at once "
         "and is settled then (scoring.style: knock)"),
        (spec.pile.buy_limit > 0, ("pile", "buy_limit"), "buying offers a discard to players "
         "out of turn (pile.buy_limit), who would play more than their last turn"),
        (bool(spec.turn.drop), ("turn", "drop"), "a player who drops leaves the hand "
         "(turn.drop), which ends when one is left"),
        (spec.melds.rearrange, ("melds", "rearrange"), "the table is rearranged in turns "
         "that end only once nothing lies loose (melds.rearrange)"),
        (spec.deal.reserve > 0, ("deal", "reserve"), "a player who plays out their hand "
         "picks up their reserve and plays on (deal.reserve)"),
        (spec.turn.turned_passes == "next", ("turn", "turned_passes"), "a card turned from "
         "the stock passes round the table (turn.turned_passes: next), and a player who takes "
         "it up plays the turn, so a last turn would pass to another player"),
        (spec.players.partners != "never" or bool(spec.players.teams),
         ("players", "partners"), "a side's partner would play on for the side that went "
         "out (players.partners)"),
    ]
    _refuse_clashes(add, ("going_out", "last_turns"), "true", clashes)


def _check_flexible_kinds(spec: Any, add: Callable[..., None]) -> None:
    """A flush or a run of mixed suits: their hands' least deadwood is searched only up to
    :data:`~meldkit.kernel.melds.MOST_FLEX_ARRANGED` cards, so not with what settles on it
    (knocking, an item's ``count: unmelded``), nor with books, whose kinds know sets and
    runs of one suit."""
    flexible = [(i, k) for i, k in enumerate(spec.melds.kinds)
                if k.type == "flush" or k.mixed_suits]
    if not flexible:
        return
    i, kind = flexible[0]
    what = ("a flush" if kind.type == "flush" else "a run of mixed suits")
    at = ("melds", "kinds", i, "type" if kind.type == "flush" else "mixed_suits")
    where = f"meld kind {kind.name or kind.type!r} is {what}"
    clashes = [
        (spec.scoring.style == "knock", ("scoring", "style"),
         "scoring.style is knock, which settles on each hand's least deadwood, searched with "
         "such melds only in hands of at most 12 cards"),
        (_books_needed(spec) or bool(spec.books.kinds) or _books_counted(spec), ("books",),
         "the pack counts books (books.kinds), whose kinds are sets and runs of one suit"),
    ]
    for n, entry in enumerate(spec.scoring.items):
        if isinstance(entry, dict) and str(entry.get("count", "")).startswith("unmelded"):
            clashes.append((True, ("scoring", "items", n, "count"),
                            f"scoring item {entry.get('item')!r} counts only the cards a hand "
                            f"cannot meld (count: {entry.get('count')}), searched with such "
                            "melds only in hands of at most 12 cards"))
    _refuse_clashes(add, at, where, clashes)


def _check_rearrange(spec: Any, add: Callable[..., None]) -> None:
    """Rearranging the table (``melds.rearrange``) lifts melds off the table mid-turn: not
    with the rules that hold a meld to its maker or count the cards each player laid, nor
    with those that judge a play by the cards left in hand."""
    if not spec.melds.rearrange:
        if spec.melds.restores != 1:
            add(("melds", "restores"), "melds.restores counts the restores of a rearranging "
                "turn, and this pack does not rearrange melds: set melds.rearrange: true, or "
                "remove melds.restores")
        return
    at = ("melds", "rearrange")
    clashes = [
        (spec.scoring.style == "knock", ("scoring", "style"),
         "scoring.style is knock: melds are laid only on a knock"),
        (spec.melds.lay_off.onto == "none", ("melds", "lay_off", "onto"),
         "melds.lay_off.onto is none: a player breaks only melds they may lay off onto"),
        (_books_needed(spec) or bool(spec.books.kinds) or _books_counted(spec), ("books",),
         "the pack counts books (to go out, in scoring, or for a discard ban), which a "
         "broken meld would unmake"),
        (spec.initial_meld.all_at_once, ("initial_meld", "all_at_once"),
         "initial_meld.all_at_once: a player opens by melding the whole hand, which goes "
         "out, so nobody has opened before a turn and no meld could be broken"),
        (spec.deal.reserve > 0, ("deal", "reserve"),
         "the pack deals reserve piles, picked up when a hand is played out"),
        (spec.turn.stock_card == "turned", ("turn", "stock_card"),
         "turn.stock_card is turned, whose card is used at once"),
        (bool(spec.turn.forced), ("turn", "forced"),
         "turn.forced owes a card at once"),
        (_counts_laid(spec), ("scoring", "items"),
         "the scoring item laid counts the cards each player laid, and a broken meld's "
         "cards are laid again"),
        (not spec.going_out.requires_discard and not spec.going_out.by_discard,
         ("going_out", "by_discard"), "going_out.by_discard is false, whose rule judges a "
         "play by the one card it leaves in hand"),
    ]
    _refuse_clashes(add, at, "true", clashes)


def _check_endless_takes(spec: Any, add: Callable[..., None]) -> None:
    """A hand must end: where a player may take from the pile without melding what they
    take (the top card, or the whole pile; unless ``pile.taken_melded: always`` — a card
    taken deep is melded, but the top card is taken as with ``top``), two players may take
    each other's discards turn after turn while the stock never shrinks, so such a pack
    needs ``game.hand_turn_limit`` (a knocking pack: or ``knock.pile_take_limit``)."""
    pile = spec.pile
    if (spec.game.hand_turn_limit is not None or pile.taken_melded == "always"
            or (spec.scoring.style == "knock" and spec.knock.pile_take_limit is not None)):
        return
    what = "the whole pile" if pile.take == "pile" else "the top card"
    bound = ("set a limit, or knock.pile_take_limit" if spec.scoring.style == "knock" else
             "set a limit, or make a taken card be melded (pile.taken_melded: always)")
    add(("game", "hand_turn_limit"), f"null, but a player may take {what} (pile.take: "
        f"{pile.take}) without melding it, so players may take each other's discards turn "
        f"after turn while the stock never shrinks, and the hand might never end — {bound}",
        related=(("pile", "take"), ("knock", "pile_take_limit")))


def _check_reserves(spec: Any, add: Callable[..., None]) -> None:
    """A table pack's reserves: not in a knocking pack (a hand keeps its size there)."""
    if spec.deal.reserve and spec.knock.max_deadwood is not None:
        add(("deal", "reserve"), "reserve piles are for packs that meld during play; in a "
            "knocking pack a hand keeps its size", related=(("knock", "max_deadwood"),))


def _check_books(spec: Any, add: Callable[..., None]) -> None:
    """In a table pack books count only toward going out (``going_out.min_books``,
    ``required_books``) or in a ``books`` scoring item: ``books.*`` with neither is
    refused, as are books in a knocking pack and a taken card owed beside them."""
    books = spec.books
    needs, scored = _books_needed(spec), _books_counted(spec)
    if (books.kinds or books.size != 7) and not (needs or scored):
        key = ("books", "kinds") if books.kinds else ("books", "size")
        add(key, "but nothing counts books in this pack (going_out.min_books or "
            "required_books, a books item in scoring.items, or a discard ban waiting for "
            "a book): add one, or remove it",
            related=(("going_out",), ("scoring", "items")))
    if (needs or scored) and spec.knock.max_deadwood is not None:
        add(("going_out",) if needs else ("scoring", "items"), "books are for packs that meld "
            "during play; in a knocking pack melds are laid only on a knock",
            related=(("knock", "max_deadwood"),))
    if needs and spec.pile.taken_melded != "no":
        add(("pile", "taken_melded"), f"{spec.pile.taken_melded}, but going out needs books "
            "(a play must keep two cards until the side has them), so a taken card owed "
            "could leave no legal play: write no", related=(("going_out",),))


STYLE_OF_ITEM = {"winner_takes": "winner_takes_hands", "penalty": "penalty", "knock": "knock"}
"""The items that are a table style's preset, by the style: listed only under that style
(the style also judges ``game.winner``; a child pack that changes the style would otherwise
keep its parent's items)."""


def check_items(spec: Any, add: Callable[..., None],
                layer: Callable[[tuple], int | None] = lambda path: None) -> None:
    """Each ``scoring.items`` entry (and each sheet's, ``scoring.sheets``) names an item of
    the pack's meld model and only its parameters, with values it takes.  ``layer(path)``
    is the place in the ``extends`` chain of the file that wrote a key (0: the pack
    itself; None: not known)."""
    _check_entries(spec, spec.scoring.items, ("scoring", "items"), add)
    _check_sheets(spec, add)
    _check_targets_reachable(spec, add)
    if not spec.melds.kinds:
        _check_dead_in_hand(spec, add)
        _check_keys_items_read(spec, add, layer)
        _check_highest_wins_bonuses(spec, add)  # (a table pack's: check_table_pack)


def _check_keys_items_read(spec: Any, add: Callable[..., None],
                           layer: Callable[[tuple], int | None]) -> None:
    """A rank-slot pack that lists its items (``scoring.items``, a sheet's) scores a key of
    :data:`~meldkit.kernel.scoring.KEYS_ITEMS_READ` only through its item: a key set,
    whose item no list holds (or every entry of it gives the parameter itself), would
    change nothing, so it is refused
    at its line — where the key is written in the file that lists the items, or in a
    pack extending it.  (A child that lists its items without a parent's key chooses to
    leave that scoring out; a pack that lists no items scores with the preset, which
    lists each item its keys make count.)"""
    from .._pack_limits import key_value
    from .._schema import RulePackSpec, key_default, pack_leaves
    from .scoring import KEYS_ITEMS_READ

    sc = spec.scoring
    lists = [sc.items, *(sh.items for sh in sc.sheets if sh.items is not None)]
    if not any(lists):
        return
    listed = [layer(p) for p in [("scoring", "items")] + [
        ("scoring", "sheets", i, "items") for i, sh in enumerate(sc.sheets) if sh.items]]
    known = [n for n in listed if n is not None]
    lists_at = min(known) if known else None  # the most derived file listing items
    entries = [d for items in lists for d in items if isinstance(d, dict)]
    defaults = {path: key_default(field) for path, field in pack_leaves(RulePackSpec)}
    sheets = " (nor does any sheet's)" if any(sh.items for sh in sc.sheets) else ""
    unread: dict[str, list[tuple[tuple[str, ...], Any, Any]]] = {}
    for path, item, param in KEYS_ITEMS_READ:
        if item == "reserve_cards" and not spec.deal.reserve:
            continue  # (no reserve dealt: refused as such by the loader's reserve check)
        value, default = key_value(spec, path), defaults[".".join(path)]
        own = [d for d in entries if d.get("item") == item]
        at = layer(path)
        if lists_at is not None and at is not None and at > lists_at:
            continue  # (a parent's key, its item left out by a pack extending it)
        if value != default and not any(param is None or param not in d for d in own):
            unread.setdefault(item, []).append((path, value, default))
    def said(v: Any) -> str:
        return "a mapping" if isinstance(v, dict) and v else _yaml_word(v)

    for item, keys in unread.items():
        own = any(d.get("item") == item for d in entries)
        why = (f"every {item} item listed gives its own parameters" if own
               else f"no item listed is {item}{sheets}")
        others = "; ".join(f"{'.'.join(p)}: {said(v)}" for p, v, _ in keys[1:])
        first = said(keys[0][1]) + (f" (and {others})" if others else "")
        back = _and([f"null for each entry of {'.'.join(p)}" if d == {} else
                     f"{'.'.join(p)}: {said(d)}" for p, _, d in keys])
        add(keys[0][0], f"{first}, but {why}, so {'they' if len(keys) > 1 else 'it'} would "
            f"change nothing: list {{item: {item}}}" + (" without them" if own else "")
            + f", or write {back}",
            related=(*(p for p, _, _ in keys[1:]), ("scoring", "items")))


def _check_dead_in_hand(spec: Any, add: Callable[..., None]) -> None:
    """A rank-slot pack's ``scoring.dead_in_hand`` scores through the ``dead_cards`` item
    (its preset lists it): a pack that lists its items, none of them ``dead_cards`` (nor
    any sheet's own), would score a dead card left in hand nothing — ``hand_cards`` leaves
    dead cards out wherever ``dead_in_hand`` is not 0, as they score as dead cards."""
    sc = spec.scoring
    if not sc.dead_in_hand or not spec.cards.dead or not sc.items:
        return  # (dead_in_hand without cards.dead: refused as a key that needs another)
    lists = [sc.items, *(sh.items for sh in sc.sheets if sh.items is not None)]
    if any(isinstance(d, dict) and d.get("item") == "dead_cards"
           for entries in lists for d in entries):
        return
    counted = any(isinstance(d, dict) and d.get("item") == "hand_cards"
                  for entries in lists for d in entries)
    sheets = " (nor does any sheet's)" if any(sh.items for sh in sc.sheets) else ""
    add(("scoring", "items"), f"no item listed counts dead cards{sheets}, but "
        f"scoring.dead_in_hand is {sc.dead_in_hand}: " + (
            "hand_cards leaves dead cards out (they score as dead cards), so a dead card "
            "left in a hand would score nothing: list {item: dead_cards}, or write "
            "scoring.dead_in_hand: 0 to count dead cards at their value with the other "
            "cards left in hand" if counted else
            "it would change nothing: list {item: dead_cards}, or write "
            "scoring.dead_in_hand: 0"),
        related=(("scoring", "dead_in_hand"),))


def _check_sheets(spec: Any, add: Callable[..., None]) -> None:
    """``scoring.sheets``: named, each with its own items checked, a target and from_win in
    range; ``game.sheets_end`` only beside them; no elimination beside them."""
    sheets, game = spec.scoring.sheets, spec.game
    if not sheets:
        if game.sheets_end != "every":
            add(("game", "sheets_end"), f"{game.sheets_end}, but the pack keeps one score "
                "(no scoring.sheets), so it would change nothing: remove it")
        return
    names = [sh.name for sh in sheets]
    for i, sh in enumerate(sheets):
        at = ("scoring", "sheets", i)
        if not re.fullmatch(r"[a-z][a-z0-9_]{0,30}", sh.name):
            add((*at, "name"), f"expected a word of lowercase letters, digits and _ (up to "
                f"31), got {sh.name!r}")
        elif sh.name in names[:i]:
            add((*at, "name"), f"{sh.name!r} names two sheets")
        if sh.items is not None:
            if not sh.items:
                add((*at, "items"), "an empty list scores nothing: list items, or write null "
                    "for the hand's own")
            _check_entries(spec, sh.items, (*at, "items"), add)
            for j, d in enumerate(sh.items):
                if isinstance(d, dict) and d.get("item") == "pay":
                    add((*at, "items", j), "payments are the hand's, recorded with it: list "
                        "pay in scoring.items (a sheet with items: null counts them)")
        if sh.target is not None and not 1 <= sh.target <= 10_000_000:
            add((*at, "target"), f"expected null or 1 to 10000000, got {sh.target}")
        if not 0 <= sh.from_win <= 100:
            add((*at, "from_win"), f"expected 0 to 100, got {sh.from_win}")
        for key in ("game_bonus", "box_bonus"):
            value = getattr(sh, key)
            if value is not None and not -100_000 <= value <= 100_000:
                add((*at, key), f"expected null or -100000 to 100000, got {value}")
    if getattr(game, "eliminate_above", None) is not None:
        add(("scoring", "sheets"), "a player eliminated from the game leaves every sheet: "
            "sheets and game.eliminate_above do not go together",
            related=(("game", "eliminate_above"),))


NO_GAIN_ITEMS = frozenset({"held", "hand_cards", "reserve_cards", "multiply", "game_end"})
"""Items that never raise a side's total: they take points away, scale or bound what the
items above them gave, or pay the game's bonuses once it has ended."""


def _can_gain(spec: Any, entry: Any) -> bool:
    """Whether a scoring entry could ever give a side points (the preset items of the
    pack's style do; an entry whose cards the deck lacks scores 0)."""
    if not isinstance(entry, dict) or not isinstance(entry.get("item"), str):
        return True  # refused by its own check
    name, points = entry.get("item"), entry.get("points")
    if name in NO_GAIN_ITEMS:
        return False
    if name in ("bonus", "dead_cards", "reserve_untaken") and type(points) is int \
            and points <= 0:
        return False
    lacks = {"bonus_cards": not spec.cards.bonus, "dead_cards": not spec.cards.dead,
             "reserve_untaken": not spec.deal.reserve}
    return not lacks.get(name, False)


def _check_targets_reachable(spec: Any, add: Callable[..., None]) -> None:
    """A game played to a target ends when a side reaches it, so a list of items that could
    never give a side points — the hand's, or a score sheet's own, where the game waits for
    that sheet — would leave the game to end only by the no-progress bound, a thousand
    pointless hands on (:data:`meldkit._liveness.MAX_HANDS_WITHOUT_GAIN`)."""
    if spec.game.hands is not None:
        return  # the game ends after its hands, whatever the totals
    hand = spec.scoring.items
    hand_gains = not hand or any(_can_gain(spec, d) for d in hand)
    sheets = spec.scoring.sheets
    if not sheets:
        if not hand_gains:
            add(("scoring", "items"), "no item listed can give a side points (held, "
                "hand_cards and reserve_cards take points away; multiply scales what is "
                "above it; a bonus of 0 or less, or for cards the deck lacks, adds "
                "nothing), so no side reaches game.target and the game could only end as making no "
                "progress: list an item that scores, or set game.hands",
                related=(("game", "target"),))
        return
    dead = [i for i, sh in enumerate(sheets) if not (
        hand_gains if sh.items is None else any(_can_gain(spec, d) for d in sh.items))]
    if spec.game.sheets_end == "first" and len(dead) < len(sheets):
        return
    for i in dead:
        at = ("scoring", "sheets", i)
        add((*at, "items") if sheets[i].items is not None else at,
            f"no item of sheet {sheets[i].name!r} can give a side points, so it never "
            "reaches its target, and the game, which ends when "
            + ("every sheet has" if spec.game.sheets_end == "every" else "a sheet has")
            + " ended, could only end as making no progress: list an item that scores, or "
            "set game.hands",
            related=(("game", "sheets_end"),))


HELD_ITEMS = "winner_takes, penalty, held, and pay with per: point or between: every_pair"
"""The table items that count the cards a player holds at the end of a hand (as the message
refusing ``turn.drop`` names them)."""


def counts_cards_held(spec: Any) -> bool:
    """Whether any item a table pack scores with — its ``scoring.items`` (its style's
    preset when none are listed) or a score sheet's own — counts the cards each player
    holds at the end of a hand (:data:`HELD_ITEMS`; knock counts the deadwood)."""
    from .scoring import PRESETS

    style = spec.scoring.style
    lists = [spec.scoring.items or [{"item": name, **params}
                                    for name, params in PRESETS.get(style) or ()]]
    lists += [sh.items for sh in spec.scoring.sheets if sh.items is not None]
    for entries in lists:
        for d in entries:
            if not isinstance(d, dict):
                continue
            name = d.get("item")
            if name in ("winner_takes", "penalty", "held", "knock") or (
                    name == "pay" and (d.get("per") == "point"
                                       or d.get("between") == "every_pair")):
                return True
    return False


RETIRED_ITEMS = {
    "cap": "is no more: it capped what the items above it had scored, and those count a "
           "player's loss on different lines (the loser's own with held and penalty, the "
           "winner's with winner_takes), so no one cap could be right for all; give the "
           "item that counts the cards left its own cap instead, e.g. "
           "{item: penalty, cap: 80} or {item: winner_takes, cap: 80}",
}
"""Items a pack could once list, and what to write instead."""


def _check_entries(spec: Any, items: list, where: tuple, add: Callable[..., None]) -> None:
    """The entries of one list of items (``scoring.items``, or a sheet's) at ``where``."""
    from .scoring import COUNTED, ITEMS, KNOCK_ITEMS, RANK_SLOT_ITEMS, TABLE_ITEMS

    names = TABLE_ITEMS if spec.melds.kinds else RANK_SLOT_ITEMS
    knocking = spec.scoring.style == "knock"
    listed = [d.get("item") for d in items if isinstance(d, dict)]
    if items and knocking and listed.count("knock") != 1:
        add(where, "a knocking pack scores the knock (style knock): list "
            "{item: knock} once, its parameters from the knock keys",
            related=(("scoring", "style"),))
    for i, entry in enumerate(items):
        at = (*where, i)
        if not isinstance(entry, dict):
            add(at, f"expected {{item: <name>, ...}}, got {entry!r}")
            continue
        name = entry.get("item")
        if not isinstance(name, str):
            add(at, f"expected {{item: <name>, ...}} with a name from {', '.join(names)}, "
                f"got {name!r}")
            continue
        if name in RETIRED_ITEMS and spec.melds.kinds:  # (table packs' items, once)
            add(at, f"item {name!r} {RETIRED_ITEMS[name]}")
            continue
        if name not in names:
            add(at, f"expected {{item: <name>, ...}} with a name from {', '.join(names)}, "
                f"got {name!r}")
            continue
        style = STYLE_OF_ITEM.get(name)
        if style is not None and style != spec.scoring.style:
            add(at, f"item {name!r} is the {style} style's, but scoring.style is "
                f"{spec.scoring.style}", related=(("scoring", "style"),))
            continue
        if knocking and name not in KNOCK_ITEMS:
            add(at, f"item {name!r}, but a knocking pack scores with "
                f"{', '.join(KNOCK_ITEMS)}", related=(("scoring", "style"),))
            continue
        kind = ITEMS[name]
        for key in kind.required:
            if key not in entry:
                add(at, f"item {name!r} needs {key} (one of {', '.join(kind.choices[key])})"
                    if key in kind.choices else f"item {name!r} needs {key}")
        for key, value in entry.items():
            if key == "item":
                continue
            if key not in kind.params:
                takes = ", ".join(p for p in kind.params if p not in kind.fixed)
                add((*at, key), f"item {name!r} takes {takes or 'no parameters'}")
            elif key in kind.fixed:
                add((*at, key), f"item {name!r} takes its {key} from the pack's "
                    + ("knock keys (knock." + key + ")" if name == "knock" else
                       "scoring keys (see scoring.bonus and scoring.dead_in_hand)"))
            elif key in kind.choices:
                if value not in kind.choices[key]:
                    add((*at, key), f"expected one of {', '.join(kind.choices[key])}, got "
                        f"{value!r}")
            else:
                low, high = kind.ranges.get(key, (-1000, 1000))
                if not (value is None or (type(value) is int and low <= value <= high)):
                    add((*at, key), f"expected null or an integer {low}..{high}, got {value!r}")
        if entry.get("count") in COUNTED and name in COUNTING_ITEMS:
            _check_count(spec, at, entry["count"], add)
        idle = _idle_item(spec, name, entry)
        if idle:
            add(at, f"item {name!r}, but {idle}: it would score nothing (remove it)",
                related=(("scoring", "melded_cards"),) if name == "melded_cards" else ())
        if (name == "laid" and spec.melds.kinds and entry.get("wilds") == "as_card"
                and not spec.cards.wild and spec.cards.turned_wild == "none"):
            add((*at, "wilds"), "as_card, but the pack has no wild cards (cards.wild, "
                "cards.turned_wild), so every card laid counts at its own value anyway: "
                "remove it", related=(("cards", "wild"),))
        backwards = _backwards_where_lowest_wins(spec, name, entry)
        if backwards:
            add(at, f"item {name!r} {backwards}, but the lowest total wins this pack "
                "(game.winner: lowest)", related=(("game", "winner"),))


COUNTING_ITEMS = ("winner_takes", "penalty", "held")
"""The table items that count the cards left in hand, all of them or (``count``) only
those their holder cannot meld."""


def most_cards_held(spec: Any) -> tuple[int, str] | tuple[None, tuple[str, ...]]:
    """The most cards a player of a table pack can hold at any moment of a deal, with how
    (``(most, "13 dealt + 1 drawn")``), or ``(None, key path)`` when a hand can grow
    without bound: a whole pile or a card deep in it taken (``pile.take``), or more cards
    drawn than the one discarded each turn (``turn.draw``).  Otherwise a hand grows past
    the deal (or a reserve picked up, ``deal.reserve``) only by what a player buys out of
    turn (``pile.buy_limit`` buys of ``1 + buy_penalty`` cards) and the card drawn before
    the turn's discard; where every card held is banned from the discard and the turn
    passes (``pile.all_banned: pass``), by at most the banned cards of the deck.  A
    plugin's hooks may add cards beyond it (:func:`meldkit.kernel.melds.unmelded_value`
    then counts every card)."""
    from .._cards import kinds_matching, pack_deck_kinds
    from .._pack_limits import MAX_PLAYERS

    if spec.pile.take != "top":
        return None, ("pile", "take")
    turn, deal, pile = spec.turn, spec.deal, spec.pile
    if (turn.draw or 1) > 1:
        return None, ("turn", "draw")
    if any(d > 1 for d in turn.draw_by_players.values()):
        return None, ("turn", "draw_by_players")
    players = spec.players
    bought = pile.buy_limit * (1 + pile.buy_penalty)
    banned = set()
    if pile.discard_bans and pile.all_banned == "pass":
        for ban in pile.discard_bans:
            if ban.unless == "not_going_out":
                continue  # (banned only as a last card: a pass keeps that one card alone)
            for sel in ban.cards:
                try:
                    banned |= kinds_matching(sel)
                except (TypeError, ValueError):
                    continue  # (not a card or rank: refused where it is written)
    best, how = -1, ""
    for n in range(max(players.min, 1), min(players.max, MAX_PLAYERS) + 1):
        start = max(deal.hand_by_players.get(n, deal.hand), deal.reserve)
        most = start + bought + 1
        said = (f"{start} dealt" + (f" + {bought} bought" if bought else "") + " + 1 drawn")
        if banned:
            all_banned = sum(k in banned for k in pack_deck_kinds(spec.deck, n)) + 1
            if all_banned > most:
                most, said = all_banned, (f"{all_banned - 1} cards banned from the discard "
                                          "held at a pass + 1 drawn")
        if most > best:
            best, how = most, said + (f", at {n} players" if n in deal.hand_by_players
                                      else "")
    return best, how


def _check_knock_hand(spec: Any, add: Callable[..., None]) -> None:
    """A knocking pack's hands: small enough to search for their least deadwood, which
    every knock, every knock offered and every hand's end settles on."""
    from .melds import MOST_CARDS_ARRANGED

    most, how = most_cards_held(spec)
    if most is not None and most > MOST_CARDS_ARRANGED:
        add(("deal", "hand"), f"a hand may hold {most} cards here ({how}), but a knocking "
            "pack searches each hand for its least deadwood at every knock, and searches "
            f"hands of at most {MOST_CARDS_ARRANGED} cards: deal fewer",
            related=(("knock", "max_deadwood"),))


def _check_count(spec: Any, at: tuple, count: str, add: Callable[..., None]) -> None:
    """``count: unmelded`` (or ``unmelded_with_contract``) of an item that counts the cards
    left in hand: a contract to hold, and hands that stay small enough to search."""
    from .melds import MOST_CARDS_ARRANGED

    where = (*at, "count")
    if count == "unmelded_with_contract" and not spec.initial_meld.melds:
        add(where, "unmelded_with_contract, but the pack sets no contract (initial_meld."
            "melds), so there is no contract for a hand's melds to hold: write unmelded, or "
            "set one", related=(("initial_meld", "melds"),))
        return
    most, how = most_cards_held(spec)
    searched = (f"the cards a hand cannot meld are searched only in hands of at most "
                f"{MOST_CARDS_ARRANGED} cards")
    if most is None:
        taken = ("the whole pile" if spec.pile.take == "pile" else
                 "a card deep in the pile with every card above it")
        grows = {("pile", "take"): f"a player may take {taken} (pile.take: {spec.pile.take})",
                 ("turn", "draw"): f"a turn draws {spec.turn.draw} cards and discards one "
                                   "(turn.draw)",
                 ("turn", "draw_by_players"): "a turn draws more than one card and discards "
                                              "one at some table (turn.draw_by_players)"}[how]
        add(where, f"{count}, but {grows}, so a hand may grow without bound, and {searched}: "
            "count every card (remove it)", related=(how,))
    elif most > MOST_CARDS_ARRANGED:
        add(where, f"{count}, but a hand may hold {most} cards here ({how}), and {searched}: "
            "count every card (remove it)", related=(("deal", "hand"),))


def _backwards_where_lowest_wins(spec: Any, name: str, entry: dict) -> str | None:
    """How an item would score in the wrong direction where the lowest total wins (it
    raises the total of whom it rewards, or lowers the total of whom it penalises), or None
    (also where the highest total wins)."""
    if spec.game.winner != "lowest":
        return None
    points = entry.get("points")
    if name == "pay":
        return "raises the total of whoever is paid"
    if not spec.melds.kinds:
        return None
    if name == "held":
        return ("takes the cards left in hand off their holder's total, which helps them "
                "(list penalty, which adds them)")
    if name == "laid":
        return "adds the cards a player lays to their total, which counts against them"
    if name == "books" and any(k.value > 0 for k in spec.books.kinds):
        return "adds a book's value to its owner's total, which counts against them"
    if name == "bonus" and type(points) is int and points > 0:
        return (f"adds {points} to the total of whoever goes out, which counts against "
                "them (a reward there is a negative bonus)")
    if name == "reserve_untaken" and type(points) is int and points < 0:
        return (f"takes {-points} off the total of a side that never picked up its reserve, "
                "which helps it (a penalty there is positive)")
    return None


def _idle_item(spec: Any, name: str, entry: dict) -> str | None:
    """Why an item the pack lists could never change a score, or None."""
    if not spec.melds.kinds:
        return _idle_rank_slot_item(spec, name, entry)
    if name == "reserve_untaken" and not spec.deal.reserve:
        return "the pack deals no reserve piles (deal.reserve)"
    if name == "books" and not any(k.value for k in spec.books.kinds):
        return "no book kind has a value (books.kinds)"
    return None


def _idle_rank_slot_item(spec: Any, name: str, entry: dict) -> str | None:
    """Why a rank-slot item contradicts the pack's scoring keys, or None.  (An item that
    counts cards the deck lacks — bonus cards, reserves, dead cards — scores 0 there, as
    its scoring keys do: a child pack that drops the cards keeps its parent's list.)"""
    if name == "melded_cards" and not spec.scoring.melded_cards:
        return "scoring.melded_cards is false (list the items without it)"
    return None


def _and(items) -> str:
    items = list(items)
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def _openspiel_misfits(spec, player_counts: range) -> list[tuple[tuple, str, str]]:
    """What keeps ``knock.test: openspiel`` from judging the pack, as ``(key path, cause,
    fix)``: it needs one standard 52-card deck without jokers at every table of
    ``player_counts`` (the pack's, bounded by the loader; by ``deck.decks_by_players`` and
    ``jokers_by_players`` too) — no two cards of one kind — and no wild card."""
    deck, cards = spec.deck, spec.cards
    out = []
    if cards.wild:
        out.append((("cards", "wild"), f"cards.wild makes {', '.join(map(str, cards.wild))} "
                    "wild", "give cards.wild: []"))
    if cards.turned_wild != "none":
        out.append((("cards", "turned_wild"), f"cards.turned_wild is {cards.turned_wild} (a "
                    "rank turned wild at the deal)", "give cards.turned_wild: none"))
    if deck.ranks:
        kept = len(set(deck.ranks))
        out.append((("deck", "ranks"), f"deck.ranks strips the deck to {kept} of the 13 ranks"
                    if kept < 13 else "deck.ranks lists the ranks (OpenSpiel's test knows only "
                    "the standard deck)", "remove deck.ranks"))
    decks_at = jokers_at = None
    for n in player_counts:
        decks, jokers = deck_plan(deck, n)  # counted, not dealt: a huge count is
        if jokers is None:  # refused by the deck's bounds, never built here
            jokers = deck.jokers_per_deck * decks
        if decks != 1 and decks_at is None:
            decks_at = (n, decks)
        if jokers and jokers_at is None:
            jokers_at = (n, jokers)
    if decks_at is not None:
        n, decks = decks_at
        if n in (deck.decks_by_players or {}):
            out.append((("deck", "decks_by_players"), f"deck.decks_by_players gives {decks} "
                        f"decks at {n} players", "remove deck.decks_by_players"))
        elif deck.decks is None and deck.decks_per_player is None:
            pass  # (refused at deck: no number of decks)
        elif deck.decks is None:
            out.append((("deck", "decks_per_player"), f"deck.decks is null and deck."
                        f"decks_per_player gives {decks} decks at {n} players",
                        "give deck.decks: 1"))
        else:
            out.append((("deck", "decks"), f"deck.decks is {deck.decks}", "give deck.decks: 1"))
    if jokers_at is not None:
        n, jokers = jokers_at
        if n in (deck.jokers_by_players or {}):
            key = "jokers_by_players"
        else:
            key = "jokers" if deck.jokers is not None else "jokers_per_deck"
        out.append((("deck", key), f"deck.{key} adds {jokers} joker{'s' if jokers != 1 else ''}"
                    + (f" at {n} players" if key == "jokers_by_players" else ""),
                    f"remove deck.{key}" if key != "jokers_per_deck" else
                    "give deck.jokers_per_deck: 0"))
    return out
