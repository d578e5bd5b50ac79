"""Plugin rule hooks in the table-melds kernel (packs with ``melds.kinds``): an action hook
(legal, check, apply, notation with suits), ``adjust_scores``, ``view`` and ``state.ext``
run in a pack extending ``gin_rummy`` and in one extending ``rummy``, as in the canasta
kernel; a hook whose phase the pack lacks is refused when the pack loads."""

from __future__ import annotations

import random

import attrs
import pytest

import meldkit
from meldkit import ActionHook, Plugin, Reason
from meldkit.kernel.scoring import TableScore
from meldkit.plugins import _registry, register
from meldkit.testing import stacked_game

SWAP = "tt_swap"


def _counts(ext: dict, hand: int, n: int) -> list[int]:
    data = ext.get(SWAP)
    return list(data["count"]) if data and data["hand"] == hand else [0] * n


def _swap_legal(state):
    if _counts(state.ext, state.hand_number, state.n_players)[state.current]:
        return []
    kinds = sorted({state.card_kind(c) for c in state.hand_cards(state.current)})
    return [state.actions.get("swap", (k,)) for k in kinds]


def _swap_check(state, action):
    if _counts(state.ext, state.hand_number, state.n_players)[state.current]:
        return Reason("swap/once", "you have swapped this hand")
    if action.cards[0] not in {state.card_kind(c) for c in state.hand_cards(state.current)}:
        return Reason("swap/not-held", "you do not hold that card")
    return None


def _swap_apply(state, action):
    """Put the card under the stock and take the top card of the stock (a hand keeps its
    size, as gin needs)."""
    p = state.current
    card = next(c for c in state.hand_cards(p) if state.card_kind(c) == action.cards[0])
    state.remove_from_hand(p, card)
    state.put_on_stock(card, bottom=True)
    state.add_to_hand(p, state.stock.pop())
    counts = _counts(state.ext, state.hand_number, state.n_players)
    counts[p] += 1
    state.ext[SWAP] = {"hand": state.hand_number, "count": counts}
    if "apply" in FAIL:  # half-applied, then fails
        raise ZeroDivisionError("apply")


FAIL: set = set()


class SwapPlugin(Plugin):
    """Before drawing, swap a card with the stock's top card, once a hand, for 7 points."""

    name = SWAP
    scored: list = []  # one entry per adjust_scores call: the hand number

    def actions(self):
        return (ActionHook("swap", "draw", _swap_legal, _swap_check, _swap_apply, cards=1),)

    def adjust_scores(self, state, final, scores):
        type(self).scored.append(final.hand_number)
        counts = _counts(final.ext, final.hand_number, len(final.team_of))
        out = []
        for s in scores:
            n = sum(c for seat, c in enumerate(counts) if final.team_of[seat] == s.team)
            out.append(attrs.evolve(s, items=s.items + (("swaps", -7 * n),)) if n else s)
        return out

    def view(self, state, player):
        return {"swaps": _counts(state.ext, state.hand_number, state.n_players)}

    def action_universe(self, state):
        return [state.actions.get("swap", (k,)) for k in sorted(set(state.kind_of))]


def _phase_plugin(name: str, phase: str, verb: str = "tap") -> Plugin:
    """A plugin whose one action (no cards) is played in ``phase``."""

    def legal(state):
        return [state.actions.get(verb)] if SHOWN not in state.ext else []

    def apply(state, action):
        state.ext[SHOWN] = state.current

    hook = ActionHook(verb, phase, legal, lambda s, a: None, apply, cards=0)
    return type(f"P_{name}", (Plugin,), {"name": name, "actions": lambda self: (hook,)})()


SHOWN = "tt_tap"


def _registered(plugin: Plugin) -> Plugin:
    return _registry.get(plugin.name) or register(plugin)


_registered(SwapPlugin())
_registered(_phase_plugin("tt_discard_tap", "discard"))
_registered(_phase_plugin("tt_play_tap", "play"))
_registered(_phase_plugin("tt_knock_tap", "knock"))
_registered(_phase_plugin("tt_pass_verb", "draw", verb="pass"))


class DropPlugin(Plugin):
    """A broken plugin: its action takes a card out of the hand and puts it nowhere."""

    name = "tt_drop"

    def actions(self):
        def drop(state, action):
            state.remove_from_hand(state.current, state.hand_cards(state.current)[0])

        return (ActionHook("lose", "draw", lambda s: [s.actions.get("lose")],
                           lambda s, a: None, drop, cards=0),)


_registered(DropPlugin())


def pack(base: str, plugin: str = SWAP):
    return meldkit.load_pack_text(f"extends: {base}\nname: {base}_{plugin}\nplugin: {plugin}\n")


def to_draw(g):
    """Play on (the first listed action, never a plugin's) to seat 1's draw phase."""
    while (g.current_player, g.phase) != (1, "draw"):
        g.apply(next(a for a in g.legal_actions() if a.type not in ("swap", "tap", "lose")))
    return g


def game(base: str):
    """Seat 1 to draw in a fresh hand, holding the nine of hearts."""
    return to_draw(stacked_game(pack(base), players=2, hands={1: ["9H", "2C", "KS"]}))


BASES = ["gin_rummy", "rummy"]


def cards_conserved(g) -> bool:
    ids = sorted(c for cards in g.zone_cards().values() for c in cards)
    return ids == list(range(len(g.kind_of)))


# --------------------------------------------------------------------------- actions
@pytest.mark.parametrize("base", BASES)
def test_a_hook_action_is_legal_in_its_phase_and_applies(base):
    g = game(base)
    assert (type(g).__name__, g.meld_model) == ("KernelState", "table")
    legal = [str(a) for a in g.legal_actions()]
    assert "swap 9H" in legal and "swap KS" in legal
    assert legal.index("draw") < legal.index("swap 9H")  # the kernel's own actions first
    hand, stock = len(g.hands[1]), len(g.stock)
    g.apply("swap 9H")
    assert g.history[-1] == "swap 9H"
    assert g.card_code(g.stock[0]) == "9H"
    assert (len(g.hands[1]), len(g.stock)) == (hand, stock)
    assert (g.current_player, g.phase) == (1, "draw")
    assert g.ext[SWAP] == {"hand": 1, "count": [0, 1]}
    assert not [a for a in g.legal_actions() if a.type == "swap"]
    assert cards_conserved(g)


@pytest.mark.parametrize("base", BASES)
def test_hook_notation_names_cards_with_suits_and_round_trips(base):
    g = game(base)
    a = g.parse_action("SWAP 9h")
    assert (a.type, a.cards, a.target, str(a)) == ("swap", (meldkit.kind_of_code("9H"),), -1,
                                                   "swap 9H")
    assert g.parse_action(str(a)) is a
    for text, code in (("swap", "notation/shape"), ("swap 9H 2C", "notation/shape"),
                       ("swap 9H to m1", "notation/shape"), ("swap 9", "notation/bad-card"),
                       ("swop 9H", "notation/unknown")):
        assert code == g.check(text).code, text


@pytest.mark.parametrize("base", BASES)
def test_check_gives_the_hooks_reasons_and_the_kernels(base):
    g = game(base)
    assert "swap/not-held" == g.check("swap QD").code
    g.apply("swap 9H")
    assert "swap/once" == g.check("swap KS").code
    with pytest.raises(meldkit.IllegalActionError) as e:
        g.apply("swap KS")
    assert "swap/once" == e.value.code
    g2 = game(base)
    g2.apply("draw")
    why = g2.check("swap 9H")
    assert "turn/not-now" == why.code
    assert why.sentence.startswith("'swap' is played before drawing")


@pytest.mark.parametrize("base", BASES)
def test_saves_and_clones_keep_plugin_data(base):
    g = game(base)
    before = g.to_json()
    g.legal_actions(), g.check("swap 9H"), g.view(0)  # reading writes nothing
    assert before == g.to_json()
    c = g.clone()
    c.apply("swap 9H")
    assert SWAP not in g.ext
    loaded = meldkit.GameState.from_json(c.to_json(), pack=c.pack)
    assert loaded == c
    assert {"hand": 1, "count": [0, 1]} == loaded.ext[SWAP]
    assert "swap/once" == loaded.check("swap KS").code
    assert loaded.legal_actions() == c.legal_actions()


@pytest.mark.parametrize("base", BASES)
def test_integer_action_ids_include_the_plugins_actions(base):
    g = game(base)
    space = g.action_space
    assert sorted(g.legal_ids()) == sorted(space.id_of(a) for a in g.legal_actions())
    g.apply(space.id_of("swap 9H"))
    assert g.history[-1] == "swap 9H"


# --------------------------------------------------------------------------- scores and view
@pytest.mark.parametrize("base", BASES)
def test_adjust_scores_is_called_once_per_hand_and_changes_the_score(base):
    g = game(base)
    g.apply("swap 9H")
    SwapPlugin.scored.clear()
    rng = random.Random(5)
    while len(g.hand_results) < 2:
        g.apply(rng.choice(g.legal_actions()))
    assert [1, 2] == SwapPlugin.scored
    first = g.hand_results[0]
    assert all(isinstance(s, TableScore) for s in first.scores)
    team = g.team_of[1]
    assert ("swaps", -7) in first.scores[team].items
    assert first.final.ext[SWAP]["count"][1] >= 1
    assert g.rescore(first) == first.totals
    assert sum(r.totals[team] for r in g.hand_results) == g.scores[team]
    loaded = meldkit.GameState.from_json(g.to_json(), pack=g.pack)
    assert loaded == g and loaded.hand_results[0].final.hand_number == 1


@pytest.mark.parametrize("base", BASES)
def test_the_view_has_the_plugins_key(base):
    g = game(base)
    assert {"swaps": [0, 0]} == g.view(0)["plugin"]
    g.apply("swap 9H")
    assert {"swaps": [0, 1]} == g.view(0)["plugin"]
    assert "plugin" not in meldkit.new_game(base, players=2, seed=1).view(0)


def test_a_hook_in_a_gin_phase_runs_there():
    g = to_draw(meldkit.new_game(pack("gin_rummy", "tt_discard_tap"), players=2, seed=3))
    assert "turn/not-now" == g.check("tap").code
    g.apply("draw")
    assert "discard" == g.phase and "tap" in [str(a) for a in g.legal_actions()]
    g.apply("tap")
    assert (g.phase, g.ext[SHOWN]) == ("discard", 1)


def test_a_hook_that_raises_leaves_the_state_unchanged():
    g = game("gin_rummy")
    before = g.to_json()
    FAIL.add("apply")
    try:
        with pytest.raises(meldkit.PluginError, match=r"hook swap\.apply raised"):
            g.apply("swap 9H")
    finally:
        FAIL.clear()
    assert before == g.to_json()
    g.apply("swap 9H")  # and the game goes on


@pytest.mark.parametrize("base", BASES)
def test_a_hook_that_loses_a_card_is_refused_and_changes_nothing(base):
    g = to_draw(meldkit.new_game(pack(base, "tt_drop"), players=2, seed=1))
    before = g.to_json()
    with pytest.raises(meldkit.PluginError, match=r"hook lose\.apply broke card conservation"):
        g.apply("lose")
    assert before == g.to_json()


# --------------------------------------------------------------------------- the loader
@pytest.mark.parametrize("base, plugin, phase", [("gin_rummy", "tt_play_tap", "play"),
                                                 ("rummy", "tt_knock_tap", "knock"),
                                                 ("rummy", "tt_discard_tap", "discard")])
def test_a_hook_naming_a_phase_the_pack_lacks_is_refused_at_load(base, plugin, phase):
    with pytest.raises(meldkit.RulePackError) as e:
        pack(base, plugin)
    [problem] = e.value.problems
    assert "plugin" == problem.path
    assert f"action 'tap' is played in the {phase} phase, which this pack does not have" in \
        problem.message


def test_a_hook_phase_is_accepted_where_the_pack_has_it():
    assert pack("gin_rummy", "tt_knock_tap").spec.plugin == "tt_knock_tap"
    assert pack("rummy", "tt_play_tap").spec.plugin == "tt_play_tap"


def test_a_hook_verb_of_the_table_kernel_is_refused_at_load():
    with pytest.raises(meldkit.RulePackError, match="action verb 'pass' clashes"):
        pack("gin_rummy", "tt_pass_verb")


@pytest.mark.parametrize("verb", ["", "po ke", "Poke", "9H", "a\nb", "to", 7])
def test_a_plugin_verb_that_cannot_be_typed_is_refused(verb):
    """A plugin audit: verbs such as 'po ke', 'Poke' or '9H' loaded and were listed as
    legal moves that no typed move could name (notation reads a lower-case first word)."""
    from meldkit import PluginError
    from meldkit.plugins import validate_plugin

    hook = ActionHook(verb, "play", lambda s: [], lambda s, a: None, lambda s, a: None)
    plugin = type("P_verbs", (Plugin,), {"name": "verbs", "actions": lambda self: (hook,)})()
    with pytest.raises(PluginError, match="a verb is one lower-case word"):
        validate_plugin(plugin, "verbs")


def test_a_hook_taking_its_arguments_with_defaults_or_star_args_is_accepted():
    """A plugin audit: ``adjust_scores(self, *args)`` and ``apply(s, a, x=1)`` were
    refused for their parameter count, though each takes the arguments given."""
    from meldkit import PluginError
    from meldkit.plugins import validate_plugin

    def apply(state, action, extra=1):
        return None

    hook = ActionHook("tap", "play", lambda s: [], lambda s, a: None, apply)
    plugin = type("P_args", (Plugin,), {"name": "args", "actions": lambda self: (hook,),
                                        "adjust_scores": lambda self, *args: args[-1]})()
    assert validate_plugin(plugin, "args") is plugin
    narrow = ActionHook("tap", "play", lambda s: [], lambda s, a: None, lambda s: None)
    plugin = type("P_args2", (Plugin,), {"name": "args2", "actions": lambda self: (narrow,)})()
    with pytest.raises(PluginError, match="apply takes 1 argument\\(s\\), expected 2"):
        validate_plugin(plugin, "args2")
