"""Issue 11, the runtime side: a client's save, a player's move and a plugin's hook can
never hurt the host.  One group per item of the issue (1, 2, 7, 8, 9, 10, 11); the rule
fixes of item 12 are proved clause by clause in ``test_pony_canasta_rules.py`` (PC-20) and
``test_houses_rules.py`` (SH-7, SH-9, SH-10), and by the Houses stacking tests here.
Hypothesis campaigns over mutated saves and moves are in ``test_fuzz_saves_moves.py``."""

from __future__ import annotations

import json
import os
import pickle
import re
import signal
import sys

import pytest

import meldkit
from meldkit import (
    Action,
    GameState,
    IllegalActionError,
    NotationError,
    PluginError,
    RulePackError,
    SaveError,
    SetupError,
)
from meldkit import plugins as plugin_registry
from meldkit.bots import RandomBot
from meldkit.cli import main
from meldkit.houses import HousesPlugin
from meldkit.houses._engine import HousesRules, HousesState
from meldkit.testing import stacked_game


def played(pack: str = "pony_tail", players: int = 4, steps: int = 120, seed: int = 3,
           **kw) -> GameState:
    """A game some way in (random play)."""
    g = meldkit.new_game(pack, players=players, seed=seed, **kw)
    bot = RandomBot(seed=seed)
    for _ in range(steps):
        if g.is_over:
            break
        g.apply(bot.choose(g))
    return g


def edited(g: GameState, change) -> str:
    """``g``'s save after ``change(save_dict)``."""
    d = json.loads(g.to_json())
    change(d)
    return json.dumps(d)


@pytest.fixture
def alarm():
    """Fail (instead of hanging the run) if the test blocks for 10 s."""
    if not hasattr(signal, "SIGALRM"):
        yield
        return

    def boom(*_):
        raise TimeoutError("blocked")

    old = signal.signal(signal.SIGALRM, boom)
    signal.alarm(10)
    yield
    signal.alarm(0)
    signal.signal(signal.SIGALRM, old)


# --------------------------------------------------------------------------- 1 saves open no path
def test_1_a_save_naming_a_file_never_opens_it(tmp_path):
    secret = tmp_path / "secret.yaml"
    secret.write_text("TOP-SECRET-LINE: 1\n")
    text = edited(played(), lambda d: d.update(pack=str(secret), pack_source=str(secret)))
    with pytest.raises(SaveError) as e:
        GameState.from_json(text)
    assert "TOP-SECRET" not in str(e.value)
    assert "a save never names a file to open" in str(e.value)


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")
def test_1_a_save_naming_a_fifo_or_a_device_returns_at_once(tmp_path, alarm):
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    for path in (str(fifo), "/dev/zero", "/dev/urandom"):
        text = edited(played(), lambda d, p=path: d.update(pack=p, pack_source=p))
        with pytest.raises(SaveError, match="not a bundled pack"):
            GameState.from_json(text)


def test_1_a_digest_mismatch_with_the_callers_pack_is_refused_not_looked_up(tmp_path):
    right = tmp_path / "family.yaml"
    right.write_text("extends: pony_tail\nname: family\n")
    g = meldkit.new_game(str(right), players=4, seed=1)
    other = meldkit.load_pack_text("extends: pony_tail\nname: family\ngame: {target: 9000}\n")
    with pytest.raises(SaveError, match="another version of pack 'family'"):
        GameState.from_json(g.to_json(), pack=other)  # pack_source names the right file
    assert GameState.from_json(g.to_json(), pack=meldkit.load_pack(str(right))) == g
    with pytest.raises(SaveError, match=r"made with pack 'family', not with the pack given "
                                        r"\('rummy'\)"):  # another pack: not "another version"
        GameState.from_json(g.to_json(), pack=meldkit.load_pack("rummy"))


def test_1_a_changed_pack_without_a_name_is_another_version_of_its_file(tmp_path):
    """A pack file without ``name:`` is named by its stem, in the save and in the pack: a
    save refused against the changed file says another version of that pack (it said "not
    with the pack given (a pack without a name)", comparing the missing ``name:``)."""
    path = tmp_path / "family.yaml"
    path.write_text("extends: pony_tail\ngame: {target: 20000}\n")
    saved = meldkit.new_game(str(path), players=4, seed=1).to_json()
    path.write_text("extends: pony_tail\ngame: {target: 30000}\n")
    with pytest.raises(SaveError, match="made with another version of pack 'family' "):
        GameState.from_json(saved, pack=meldkit.load_pack(str(path)))


def test_1_a_resolver_gets_the_name_and_digest_and_old_saves_of_bundled_packs_load_by_name():
    g = played()
    asked = []

    def resolver(name, digest):
        asked.append((name, digest))
        return meldkit.load_pack("pony_tail") if name == "pony_tail" else None

    assert GameState.from_json(g.to_json(), resolver=resolver) == g
    assert [("pony_tail", g.pack.digest)] == asked
    assert GameState.from_json(g.to_json()) == g  # by name: a bundled pack, not a path
    with pytest.raises(SaveError, match="must be a RulePack"):
        GameState.from_json(g.to_json(), resolver=lambda n, d: "pony_tail")


# --------------------------------------------------------------------------- 2 saves are checked
def _move_card(d, src, dst):
    d[dst[0]][dst[1]].append(d[src[0]][src[1]].pop())


KERNEL_DAMAGE = [
    ("a card twice", lambda d: d["hands"][0].append(d["stock"][0]), "is also in stock: a card"),
    ("a card missing", lambda d: d["stock"].pop(), "card(s) of the deck are in no zone"),
    ("id -1", lambda d: d["stock"].__setitem__(0, -1), "stock[0]: card id -1 is not in this deck"),
    ("id 10**6", lambda d: d["pile"].append(10**6), "card id 1000000 is not in this deck"),
    ("id true", lambda d: d["stock"].__setitem__(0, True), "stock[0]: expected a card id"),
    ("current 99", lambda d: d.update(current=99), "current: expected 0 to 3, got 99"),
    ("phase banana", lambda d: d.update(phase="banana"), "phase: expected one of draw, play"),
    ("another player count", lambda d: d.update(players=5), "hands: expected 5 items"),
    ("NaN score", None, "NaN is not a number a save may hold"),
    ("a float score", lambda d: d["scores"].__setitem__(0, 1.5), "scores[0]: expected a whole"),
    ("scores not the hands' sum", lambda d: d["scores"].__setitem__(0, 5),
     "are not the sum of the hands' scores"),
    ("a meld of two ranks", lambda d: d["melds"][0].append([8, [d["stock"].pop()], False,
                                                            False]), "melds[0]["),
    ("hand_number out of step", lambda d: d.update(hand_number=7), "hand_number: 7 does not follow"),
    ("a string for a list", lambda d: d.update(reserves="abc"), "reserves: expected a list"),
    ("history of numbers", lambda d: d["history"].append(3), "history["),
    ("a bool for a seat", lambda d: d.update(dealer=True), "dealer: expected a whole number"),
    ("an unknown option", lambda d: d["options"].update(x=1), "unknown game option"),
    ("a bad deck order", lambda d: d.update(deck_order=["ZZ"]), "deck_order[0]"),
    ("deep plugin data", lambda d: d.update(ext={"a": json.loads("[" * 40 + "]" * 40)}),
     "ext.a[0][0]"),
    ("plugin data that is not an object", lambda d: d.update(ext=[1]), "ext: expected an object"),
]


@pytest.mark.parametrize("what, change, message", KERNEL_DAMAGE, ids=[k[0] for k in KERNEL_DAMAGE])
def test_2_a_damaged_kernel_save_is_a_save_error_naming_the_field(what, change, message):
    g = played(steps=200)
    assert g.hand_number == 2 or g.history  # some way in
    if change is None:  # NaN is JSON only to Python's lenient parser
        text = g.to_json().replace('"scores":[', '"scores":[NaN,', 1)
    else:
        text = edited(g, change)
    with pytest.raises(SaveError) as e:
        GameState.from_json(text)
    assert message in str(e.value)


HOUSES_DAMAGE = [
    ("a card twice", lambda d: d["hands"][0].append(d["hands"][1][0]), "a card is in one place"),
    ("a card missing", lambda d: d["hands"][0].pop(), "in no zone"),
    ("an incoming id out of range", lambda d: d["incoming"].__setitem__(0, 99), "incoming[0]"),
    ("a group that does not fit", None, "does not fit on that group"),
    ("a removed group that scores nothing", None, "not a complete scoring group"),
    ("answer without a proposal", lambda d: d.update(phase="answer"), "an answer with no proposal"),
    ("ended_by while playing", lambda d: d.update(ended_by="agreed"), "ended_by: expected one of"),
    ("scores from nowhere", lambda d: d.update(scores=[60, 0]), "are not the points"),
    ("a bad position digest", lambda d: d.update(positions={"zz": 1}), "positions.zz"),
    ("five group spaces", lambda d: d["groups"][0].append([]), "groups[0]: expected 4 items"),
]


def _houses_game():
    g = meldkit.new_game("houses", players=4, seed=2)
    bot = RandomBot(seed=2, meld_first=True)
    while len(g.stock) > 4:
        g.apply(bot.choose(g))
    return g


@pytest.mark.parametrize("what, change, message", HOUSES_DAMAGE, ids=[k[0] for k in HOUSES_DAMAGE])
def test_2_a_damaged_houses_save_is_a_save_error_naming_the_field(what, change, message):
    g = _houses_game()
    r = g.rules
    if what == "a group that does not fit":
        def change(d):
            # two cards of different houses and roles, one on the other
            a = next(c for c in d["stock"])
            b = next(c for c in d["stock"] if r.house[c] != r.house[a] and r.role[c] != r.role[a]
                     and not (r.partner_role[r.role[a]] == r.role[c]))
            d["stock"] = [c for c in d["stock"] if c not in (a, b)]
            d["groups"][0][3] = [a, b]
    elif what == "a removed group that scores nothing":
        def change(d):
            d["removed"][0].append([d["stock"].pop()])
    with pytest.raises(SaveError) as e:
        GameState.from_json(edited(g, change))
    assert message in str(e.value)


def test_2_another_packs_save_relabelled_is_refused():
    houses = json.loads(played("houses", steps=20).to_json())
    tail = meldkit.load_pack("pony_tail")
    houses.update(pack="pony_tail", pack_digest=tail.digest)
    with pytest.raises(SaveError, match="damaged meldkit save: "):
        GameState.from_json(json.dumps(houses))


@pytest.mark.parametrize("text, message", [
    ("[" * 100_000 + "]" * 100_000, "JSON nested too deeply"),
    ('{"format": "meldkit-save/1", "a": ' + "[" * 900 + "]" * 900 + "}", "pack: missing"),
    ('{"format": "meldkit-save/1", "a": ' + "[" * 9000 + "]" * 9000 + "}", "nested too deeply"),
    (b"\xff\xfe", "not UTF-8"),
    ("3", "not a meldkit save"),
    (12, "expected JSON text"),
    ('{"format": "meldkit-save/1", "seed": ' + "7" * 5000 + "}",
     rf"not a meldkit save: a number of more than {sys.get_int_max_str_digits():,} digits$"),
])
def test_2_non_json_or_deep_json_is_a_save_error_not_a_recursion_error(text, message):
    with pytest.raises(SaveError, match=message):
        GameState.from_json(text)


def test_2_every_save_of_real_play_still_loads_equal():
    for pack, players, opts in [("pony_tail", 4, None), ("pony_canasta", 4, {"partners": True}),
                                ("pony_canasta", 3, None), ("houses", 4, None)]:
        g = meldkit.new_game(pack, players=players, seed=7, options=opts)
        bot = RandomBot(seed=7)
        for step in range(3000):
            if g.is_over:
                break
            g.apply(bot.choose(g))
            if step % 41 == 0:
                assert GameState.from_json(g.to_json()) == g
        assert GameState.from_json(g.to_json()) == g


def test_2_a_save_from_before_pc_20_was_judged_per_player_still_loads():
    g = played("pony_canasta", steps=60, options={"partners": True})
    text = edited(g, lambda d: d.pop("player_melded"))
    loaded = GameState.from_json(text)
    assert [loaded.melded[loaded.team_of[p]] for p in range(4)] == loaded.player_melded
    assert loaded.legal_actions() == g.legal_actions()


# --------------------------------------------------------------------------- 7 moves
def _draw_phase_game():
    return meldkit.new_game("pony_tail", players=4, seed=5)


@pytest.mark.parametrize("action", [
    Action("discard", (-1,), -1, "discard JK"),          # a negative rank
    Action("discard", (99,), -1, "discard 99"),
    Action("draw", (), -1, "meld 9 9 9"),                # forged text
    Action("meld", [8, 8, 8], -1, "meld 9 9 9"),          # a list, not a tuple
    Action("meld", ("9", "9"), -1, "meld 9 9"),           # strings for ranks
    Action(7, (), -1, "draw"),                           # a number for the type
    Action("draw", (), None, "draw"),                    # None for the target
    Action("draw", (), -1, None),                        # no text
    Action("add", (8,), 10**9, "add 9 to 9"),
], ids=lambda a: repr(tuple(a)) + repr(a.__dict__.get("_text")))
def test_7_a_malformed_hand_built_action_is_refused_with_a_reason(action):
    g = _draw_phase_game()
    before = g.to_json()
    why = g.check(action)
    assert why is not None and why.code == "action/malformed"
    with pytest.raises(IllegalActionError) as e:
        g.apply(action)
    assert (e.value.code, g.to_json()) == ("action/malformed", before)


def test_7_the_history_records_the_canonical_text_of_a_hand_built_action():
    g = _draw_phase_game()
    g.apply(Action("draw", (), -1, "  DRAW "))
    assert ["draw"] == g.history
    legal = g.legal_actions()[0]
    g.apply(Action(legal.type, legal.cards, legal.target, str(legal).upper()))
    assert str(legal) == g.history[-1]
    for text in g.history:
        g.parse_action(text)  # every recorded text parses


@pytest.mark.parametrize("text, code", [
    ("place KS ²", "notation/bad-space"),
    ("place KS ٣", "notation/bad-space"),
    ("steal ¹ to 2", "notation/bad-space"),
    ("remove " + "1 " * 10, "notation/too-long"),
])
def test_7_houses_notation_with_unicode_digits_is_a_notation_error(text, code):
    g = meldkit.new_game("houses", players=4, seed=1)
    g.apply("draw")
    with pytest.raises(NotationError) as e:
        g.apply(text)
    assert code == e.value.code
    assert code == g.check(text).code


def test_7_overlong_notation_is_refused_before_any_work():
    g = _draw_phase_game()
    assert "notation/too-long" == g.check("meld " + "9 " * 100_000).code


def test_7_apply_accepts_exactly_what_check_accepts_for_odd_actions():
    g = played(steps=40)
    odd = [Action("discard", (r,), -1, f"discard {meldkit.RANKS[r]}") for r in range(14)]
    odd += [g.parse_action(t) for t in ("meld 9 9 9", "take 9 9", "add 2 to 9", "pickup",
                                        "withdraw", "end", "draw")]
    for a in odd:
        before = g.to_json()
        ok = g.check(a) is None
        try:
            g.clone().apply(a)
            applied = True
        except IllegalActionError:
            applied = False
        assert (ok, before) == (applied, g.to_json()), str(a)


# --------------------------------------------------------------------------- 8 memory from input
def test_8_only_legal_actions_are_interned():
    g = _draw_phase_game()
    table = g.actions._table
    g.legal_actions()
    size = len(table)
    for n in range(3, 60):
        g.check("meld " + " ".join(["9"] * n))
        g.check(f"add {'K ' * (n % 9 + 1)}to Q")
    assert size == len(table)
    h = meldkit.new_game("houses", players=4, seed=1)
    h.legal_actions()
    size = len(h.rules._actions)
    for code in h.rules.codes:
        for space in "1234":
            h.check(f"place {code} {space}")
    assert size == len(h.rules._actions)


def test_8_compiled_houses_packs_are_cached_without_growing_for_ever(monkeypatch):
    monkeypatch.setattr(HousesRules, "CACHE_SIZE", 2)
    monkeypatch.setattr(HousesRules, "_cache", {})
    for i in range(5):
        meldkit.new_game(meldkit.load_pack_text(
            f"extends: houses\nname: v{i}\noptions: {{end_proposal_max_cards: {i + 1}}}\n"),
            players=4, seed=1)
    assert 2 == len(HousesRules._cache)


# --------------------------------------------------------------------------- 9 plugins
class _Boom(meldkit.Plugin):
    """Pony Tail with a ``boom`` action whose hooks fail on request."""

    name = "hardening_boom"
    fail: set = set()

    def actions(self):
        def legal(state):
            if "legal" in self.fail:
                raise KeyError("legal")
            return [state.actions.get("boom")] if state.phase == "play" else []

        def check(state, action):
            if "check" in self.fail:
                raise ValueError("check")
            return None

        def apply(state, action):
            state.ext["boom"] = state.ext.get("boom", 0) + 1  # half-applied …
            p = state.current
            card = state.hand_cards(p)[0]
            state.remove_from_hand(p, card)
            state.put_on_stock(card)
            if "apply" in self.fail:
                raise ZeroDivisionError("apply")  # … then fails
            state.stock.pop()
            state.add_to_hand(p, card)

        return [meldkit.ActionHook("boom", "play", legal, check, apply, cards=0)]

    def adjust_scores(self, state, final, scores):
        if "adjust_scores" in self.fail:
            raise RuntimeError("adjust")
        return scores

    def view(self, state, player):
        if "view" in self.fail:
            raise TypeError("view")
        return None


@pytest.fixture(scope="module")
def boom_pack():
    plugin = _Boom()
    if "hardening_boom" not in plugin_registry._registry:
        plugin_registry.register(plugin)
    return plugin_registry._registry["hardening_boom"], meldkit.load_pack_text(
        "extends: pony_tail\nname: boom\nplugin: hardening_boom\n")


@pytest.mark.parametrize("hook", ["apply", "check", "legal"])
def test_9_a_hook_that_raises_leaves_the_state_as_it_was_and_names_plugin_and_hook(boom_pack,
                                                                                     hook):
    plugin, pack = boom_pack
    g = meldkit.new_game(pack, players=4, seed=3)
    g.apply("draw")
    before = g.to_json()
    plugin.fail = {hook}
    try:
        with pytest.raises(PluginError) as e:
            g.legal_actions() if hook == "legal" else g.apply("boom")
    finally:
        plugin.fail = set()
    assert f"plugin 'hardening_boom': hook boom.{hook} raised" in str(e.value)
    assert before == g.to_json()
    g.apply("boom")  # and the game goes on
    assert 1 == g.ext["boom"]


def test_9_scoring_and_view_hook_errors_are_plugin_errors(boom_pack):
    plugin, pack = boom_pack
    g = meldkit.new_game(pack, players=4, seed=3)
    plugin.fail = {"view"}
    try:
        with pytest.raises(PluginError, match="hook view raised TypeError"):
            g.view(0)
    finally:
        plugin.fail = set()
    plugin.fail = {"adjust_scores"}
    bot = RandomBot(seed=1)
    try:
        with pytest.raises(PluginError, match="hook adjust_scores raised RuntimeError"):
            while not g.hand_results:
                before = g.to_json()
                action = bot.choose(g)
                g.apply(action if action.type != "boom" else g.legal_actions()[0])
    finally:
        plugin.fail = set()
    assert before == g.to_json() and not g.hand_results  # the hand did not half end


class _FlakyHouses(HousesState):
    """A third-party engine whose ``_do`` fails half-way on a 'pass'."""

    __slots__ = ()

    def _do(self, a):
        self.history.append("junk")
        self.scores[0] += 1000
        if a.type == "pass":
            raise RuntimeError("engine bug")
        self.scores[0] -= 1000
        self.history.pop()
        super()._do(a)


class _ClashingHouses(HousesState):
    __slots__ = ()

    def _state_dict(self):
        d = super()._state_dict()
        d["seed"] = 0
        return d


def _engine_pack(name, engine):
    class P(HousesPlugin):
        pass

    P.name = name
    P.engine = engine
    if name not in plugin_registry._registry:
        plugin_registry.register(P())
    return meldkit.load_pack_text(f"extends: houses\nname: {name}\nplugin: {name}\n")


def test_9_an_engine_plugin_that_raises_in_apply_leaves_the_state_as_it_was():
    g = meldkit.new_game(_engine_pack("hardening_flaky", _FlakyHouses), players=4, seed=1)
    g.apply("draw")
    pass_card = next(a for a in g.legal_actions() if a.type == "pass")
    before = g.to_json()
    with pytest.raises(PluginError, match="plugin 'hardening_flaky': its engine _FlakyHouses "
                                          "raised RuntimeError"):
        g.apply(pass_card)
    assert before == g.to_json()


def test_9_an_engines_save_data_cannot_overwrite_the_save_envelope():
    g = meldkit.new_game(_engine_pack("hardening_clash", _ClashingHouses), players=4, seed=1)
    with pytest.raises(PluginError, match="uses the key\\(s\\) 'seed' of the save envelope"):
        g.to_json()


# --------------------------------------------------------------------------- 10 secrets
def test_10_unseeded_games_draw_a_128_bit_seed_from_the_os():
    seeds = {meldkit.new_game("pony_tail", players=4).seed for _ in range(8)}
    assert 8 == len(seeds)
    assert all(0 <= s < 2**128 for s in seeds) and max(seeds) > 2**64
    assert 0 == meldkit.new_game("pony_tail", players=4, seed=0).seed  # a seed still fixes it


PONY_TAIL_HAND = "KC KD KH QC QD QH 8C 8D 8H 8S 9C 9D 9H 9S 9C".split()
RED_TREYS = ["3H"] * 6 + ["3D"] * 6 + ["4C"]
PLAIN = "4C 4D 5C 5D 6C 6D 10C 10D JC JD AC AD 4S".split()


@pytest.mark.parametrize("reserve", [RED_TREYS, PLAIN], ids=["red-treys", "plain"])
def test_10_whether_a_book_may_be_melded_does_not_depend_on_the_unseen_reserve(reserve):
    g = stacked_game("pony_tail", 4, hands={0: PONY_TAIL_HAND}, reserves={0: reserve},
                     stock=["9D", "9H"])
    for a in ("draw", "meld K K K", "meld Q Q Q", "meld 8 8 8 8"):
        g.apply(a)
    # melding the seven 9s empties the hand and completes the side's first book, which
    # picks up the Pony Tail: the same answer whatever the Pony Tail holds
    assert g.check("meld 9 9 9 9 9 9 9") is None
    g.apply("meld 9 9 9 9 9 9 9")
    if reserve is RED_TREYS:  # twelve red 3s laid out: one card left that may not go out
        assert (1, True, 1, 12) == (g.hand_size[0], g.out[0], g.current_player, len(g.bonus[0]))
    else:
        assert (13, False, 0) == (g.hand_size[0], g.out[0], g.current_player)


def test_10_legal_actions_never_depend_on_the_stock_order_or_the_movers_reserve():
    g = meldkit.new_game("pony_tail", players=4, seed=11)
    bot = RandomBot(seed=11)
    for step in range(400):
        if g.is_over:
            break
        if step % 7 == 0 and g.stock:
            p = g.current_player
            twin = g.clone()
            hidden = twin.stock + twin.reserves[p]
            hidden.reverse()
            twin.stock, twin.reserves[p] = hidden[:len(g.stock)], hidden[len(g.stock):]
            twin._legal_cache = None
            assert [str(a) for a in g.legal_actions()] == [str(a) for a in twin.legal_actions()]
        g.apply(bot.choose(g))


# --------------------------------------------------------------------------- 11 tooling
@pytest.mark.parametrize("error", [
    IllegalActionError("pile/frozen-needs-pair", "the pile is frozen", Action("draw", (), -1, "draw")),
    NotationError("notation/bad-card", "'9x' is not a rank"),
    SaveError("damaged"),
    PluginError("plugin 'x': hook y raised KeyError: 1"),
    RulePackError("bad pack"),
    SetupError("no"),
], ids=lambda e: type(e).__name__)
def test_11_errors_survive_pickling(error):
    back = pickle.loads(pickle.dumps(error))
    assert (type(back), str(back)) == (type(error), str(error))
    assert getattr(back, "code", None) == getattr(error, "code", None)


def test_11_an_error_raised_in_a_worker_reaches_the_pool():
    import multiprocessing

    ctx = multiprocessing.get_context("fork" if sys.platform != "win32" else "spawn")
    with ctx.Pool(1) as pool:
        result = pool.apply_async(_apply_in_worker, ("discard 9x",))
        with pytest.raises(NotationError) as e:
            result.get(timeout=60)
    assert "notation/bad-card" == e.value.code


def _apply_in_worker(text):
    meldkit.new_game("pony_tail", players=4, seed=1).apply(text)


def _feed(monkeypatch, text):
    import io

    monkeypatch.setattr(sys, "stdin", io.StringIO(text))


@pytest.mark.parametrize("command", ["replay", "play"])
@pytest.mark.parametrize("damage", [
    lambda d: d.update(current=99),
    lambda d: d.update(pack="/etc/passwd", pack_source="/etc/passwd"),
    lambda d: d.update(play=[1]),
    lambda d: d.update(play={"seat": "x"}),
    lambda d: d.update(play={"bot_seed": "x"}),
    lambda d: d["hands"][0].append(d["stock"][0]),
], ids=["current", "path", "play-list", "seat", "bot-seed", "card-twice"])
def test_11_replay_and_resume_on_a_hostile_save_give_one_line(command, damage, tmp_path,
                                                              monkeypatch, capsys):
    save = tmp_path / "s.json"
    save.write_text(edited(played(steps=10), damage))
    _feed(monkeypatch, "quit\n")
    argv = ["replay", str(save)] if command == "replay" else ["play", "--resume", str(save)]
    assert 1 == main(argv)
    err = capsys.readouterr().err
    assert "Traceback" not in err
    assert 1 == len(err.strip().splitlines()) and err.startswith("meldkit: error: ")


def test_11_a_deep_save_on_the_command_line_is_one_line(tmp_path, capsys):
    save = tmp_path / "deep.json"
    save.write_text("[" * 200_000 + "]" * 200_000)
    assert 1 == main(["replay", str(save)])
    assert "JSON nested too deeply" in capsys.readouterr().err


def test_11_one_odd_line_never_ends_play(monkeypatch, capsys):
    _feed(monkeypatch, "²\n١\n" + "1\n" * 3 + "quit\n")
    assert 0 == main(["play", "pony_tail", "--seed", "3"])
    out = capsys.readouterr().out
    assert "Game left unfinished." in out


def test_11_a_failed_save_keeps_the_older_save(monkeypatch, tmp_path, capsys):
    save = tmp_path / "g.json"
    _feed(monkeypatch, f"save {save}\nquit\n")
    assert 0 == main(["play", "pony_tail", "--seed", "3"])
    older = save.read_text()

    def broken(*a, **k):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "fsync", broken)
    _feed(monkeypatch, f"1\n1\nsave {save}\nquit\n")
    assert 0 == main(["play", "pony_tail", "--seed", "3"])
    assert "could not save" in capsys.readouterr().out
    assert older == save.read_text()
    assert ["g.json"] == sorted(os.listdir(tmp_path))  # no temporary file left behind


def test_11_a_deep_set_value_is_a_clean_error(capsys):
    value = "[" * 5000 + "]" * 5000
    assert 1 == main(["simulate", "pony_tail", "--games", "1", "--set", f"game.target={value}"])
    err = capsys.readouterr().err
    assert "Traceback" not in err and "nests 5000 deep" in err


def test_11_a_save_of_a_pack_file_resumes_with_the_pack_named(tmp_path, monkeypatch, capsys):
    pack = tmp_path / "fam.yaml"
    pack.write_text("extends: pony_tail\nname: fam\n")
    save = tmp_path / "g.json"
    _feed(monkeypatch, f"save {save}\nquit\n")
    assert 0 == main(["play", str(pack), "--seed", "3"])
    assert 1 == main(["replay", str(save)])
    assert "name the pack" in capsys.readouterr().err
    assert 0 == main(["replay", str(save), "--pack", str(pack)])
    _feed(monkeypatch, "quit\n")
    assert 0 == main(["play", str(pack), "--resume", str(save)])


# --------------------------------------------------------------------------- 12 stacking Houses
def test_12_stacked_game_deals_houses_hands_and_the_top_of_the_deck():
    g = stacked_game("houses", players=4, hands={1: ["KS", "LS"], 3: ["VF"]},
                     stock=["PP", "MP"], first_player=1)
    codes = g.rules.codes
    assert 1 == g.current_player
    assert {"KS", "LS"} <= {codes[c] for c in g.hands[1]}
    assert "VF" in {codes[c] for c in g.hands[3]}
    assert ["PP", "MP"] == [codes[c] for c in g.stock[::-1][:2]]
    g.apply("draw")
    assert "PP" in {codes[c] for c in g.hands[1]}


@pytest.mark.parametrize("kw, message", [
    ({"hands": {0: ["XX"]}}, "'XX' is not a card of this deck"),
    ({"hands": {0: ["KS"]}, "stock": ["KS"]}, "KS is named twice"),
    ({"hands": {0: ["KS", "LS", "FS", "PS", "VS"]}}, "5 cards, but 4 are dealt"),
    ({"upcard": "KS"}, "deals no upcard"),
    ({"reserves": {0: ["KS"]}}, "deals no reserves"),
])
def test_12_stacking_houses_refuses_what_cannot_be_dealt(kw, message):
    with pytest.raises(SetupError, match=message):
        stacked_game("houses", players=4, **kw)


# --------------------------------------------------------------------------- signed saves
_KEY = b"0123456789abcdef0123456789abcdef"


def test_a_signed_save_comes_back_whole_with_its_key():
    from meldkit import saves

    game = meldkit.new_game("samba", players=4, seed=3)
    game.apply("draw")
    signed = saves.sign(game.to_json(), _KEY)
    assert signed.splitlines()[0].startswith(saves.SIGNED_HEADER)
    assert meldkit.GameState.from_json(saves.verify(signed, _KEY)) == game
    assert saves.verify(signed.encode(), _KEY) == game.to_json()  # bytes from a socket


@pytest.mark.parametrize("tamper", [
    lambda s: s.replace('"current":', '"current": ', 1),          # one space in the body
    lambda s: s[:60] + ("0" if s[60] != "0" else "1") + s[61:],  # one digit of the MAC
    lambda s: s.partition("\n")[2],                              # the signature line removed
    lambda s: s + " ",                                           # a character appended
])
def test_a_changed_signed_save_is_refused_as_not_a_save(tamper):
    from meldkit import SaveError, saves

    signed = saves.sign(meldkit.new_game("pony_tail", players=4, seed=1).to_json(), _KEY)
    with pytest.raises(SaveError, match="^not a meldkit save: "):
        saves.verify(tamper(signed), _KEY)


def test_a_save_signed_with_another_key_or_garbage_is_refused():
    from meldkit import SaveError, saves

    signed = saves.sign("{}", _KEY)
    with pytest.raises(SaveError, match="signature does not match"):
        saves.verify(signed, _KEY[::-1])
    with pytest.raises(SaveError, match="not UTF-8"):
        saves.verify(b"\xff\xfe", _KEY)
    with pytest.raises(SaveError, match="expected signed text, got int"):
        saves.verify(7, _KEY)
    with pytest.raises(ValueError, match="at least 16 bytes"):
        saves.sign("{}", b"short")


@pytest.mark.parametrize("pack, players, kw, says", [
    ("pony_tail", 4, {"hands": {7: ["9H"]}}, "hands: 7 is not a seat 0..3"),
    ("gin_rummy", 2, {"hands": {2: ["9H"]}}, "hands: 2 is not a seat 0..1"),
    ("pony_tail", 4, {"hands": {0: ["XX"]}}, "hand of seat 0: 'XX' is not a card code"),
    ("rummy", 3, {"stock": ["9H", "9H"]}, "stock: no 9H left in the deck"),
    ("pony_tail", 4, {"reserves": {1: "4C 5C 6C 8C 9C 10C JC QC KC AC 4D 5D 6D 8D".split()}},
     "reserve of seat 1: 14 cards, but 13 are dealt"),
])
def test_a_stacked_deck_that_cannot_be_dealt_is_refused_with_the_place(pack, players, kw, says):
    from meldkit import SetupError
    from meldkit.testing import stacked_game

    with pytest.raises(SetupError, match=re.escape(says)):
        stacked_game(pack, players, **kw)


# ------------------------------------------------------------------ the library's arguments
# (a caller's arguments are untrusted too: each bad one refused, named, before any work)

@pytest.mark.parametrize("pack,players", [("gin_rummy", 2), ("pony_tail", 4), ("houses", 4)])
@pytest.mark.parametrize("kw,message", [
    (dict(options=3), "options must be a dict of game options"),
    (dict(options=[("partners", True)]), "options must be a dict"),
    (dict(deck_order="AS KS"), "deck_order must be a list of card codes"),
    (dict(deck_order=5), "deck_order must be a list of card codes"),
    (dict(deck_order=[1, 2]), "deck_order must be a list of card codes"),
])
def test_new_game_refuses_options_or_a_deck_order_of_the_wrong_shape(pack, players, kw,
                                                                     message):
    # options=3 raised a bare TypeError ('int' object is not iterable)
    with pytest.raises(SetupError, match=message):
        meldkit.new_game(pack, players=players, seed=1, **kw)


def test_new_game_reads_a_deck_order_given_as_any_iterable_once():
    g = meldkit.new_game("gin_rummy", players=2, seed=1, deck_order=iter(["AS", "KS"]))
    assert g.deck_order == ["AS", "KS"]


@pytest.mark.parametrize("pack,players", [("gin_rummy", 2), ("rummy", 4), ("pony_tail", 4),
                                          ("houses", 4)])
def test_a_seat_given_as_a_bool_is_refused_on_every_engine_and_path(pack, players):
    # the table kernel's view(True) answered as seat 1 (isinstance(True, int))
    g = meldkit.new_game(pack, players=players, seed=1)
    for ask in (g.view, g.observation, g.information_state, g.resample):
        with pytest.raises(SetupError, match="player must be a seat 0..*, not True"):
            ask(True)


@pytest.mark.parametrize("bad", [53, -1, True, 2.0, "AS"])
def test_card_code_refuses_what_is_not_a_card_kind(bad):
    # card_code(99) raised IndexError and card_code(True) answered 'AD'
    with pytest.raises(ValueError, match="is not a card kind"):
        meldkit.card_code(bad)


def test_score_hand_refuses_arguments_of_the_wrong_type_naming_them():
    with pytest.raises(TypeError, match="score_hand takes the pack's Rules .* not str and int"):
        meldkit.score_hand("gin_rummy", 5)


@pytest.mark.parametrize("call,says", [
    (lambda: meldkit.load_pack(5), "a pack is a bundled pack's name or a file path"),
    (lambda: meldkit.new_game(None, 2), "a pack is a bundled pack's name or a file path"),
    (lambda: meldkit.load_pack("gin_rummy", 5), "search_roots are directories"),
    (lambda: meldkit.load_pack("gin_rummy", ["ok", 5]), "search_roots are directories"),
    (lambda: meldkit.load_pack_text(5), "load_pack_text's text must be a str, not int"),
    (lambda: meldkit.load_pack_text(b"extends: gin_rummy"), "text must be a str, not bytes"),
    (lambda: meldkit.load_pack_text("extends: gin_rummy", filename=5), "filename must be"),
    (lambda: meldkit.load_pack_text("extends: gin_rummy", base_dir=5), "base_dir must be"),
])
def test_the_loaders_refuse_arguments_of_the_wrong_type_naming_them(call, says):
    # load_pack(5) and new_game(None, 2) raised a bare TypeError from os.fspath, and
    # load_pack_text(filename=5) an AttributeError
    with pytest.raises(meldkit.RulePackError, match=re.escape(says)):
        call()
    assert meldkit.check_pack(5)[0].message.startswith("a pack is a bundled pack's name")


_HUGE = "y" * 100_000


@pytest.mark.parametrize("call", [
    lambda g: g.apply("discard " + _HUGE),
    lambda g: g.apply(_HUGE),
    lambda g: g.view(_HUGE),
    lambda g: g.action_space.id_of("discard " + _HUGE),
    lambda g: meldkit.new_game("gin_rummy", players=_HUGE),
    lambda g: meldkit.new_game("gin_rummy", players=2, seed=_HUGE),
    lambda g: meldkit.new_game("gin_rummy", players=2, options={_HUGE: 1}),
    lambda g: meldkit.new_game("pony_tail", players=4, options={"first_player": _HUGE}),
    lambda g: meldkit.new_game(_HUGE, players=2),
    lambda g: meldkit.load_pack_text("extends: nosuch\n", filename=_HUGE + ".yaml"),
    lambda g: meldkit.load_pack_text("extends: gin_rummy\nknock:\n  test: " + _HUGE[:5000]
                                     + "\n", filename="x.yaml"),  # the longest allowed: 10,000
    lambda g: plugin_registry.get_plugin(_HUGE),
    lambda g: meldkit.load_pack_text("extends: gin_rummy\nplugin: " + _HUGE[:5000] + "\n",
                                     filename="x.yaml"),
    lambda g: stacked_game("pony_tail", players=4, hands={_HUGE: ["9H"]}),
], ids=["apply-discard", "apply-word", "view", "id_of", "players", "seed", "option-key",
        "option-value", "pack-name", "filename", "pack-value", "plugin", "pack-plugin",
        "stacked-seat"])
def test_a_refusal_never_repeats_a_huge_input_whole(call):
    """A server logs what meldkit refuses, and what it was given may be a client's text of
    any length: a message repeats at most ``SHOWN_CHARS`` of a value (a file's name, the
    last ``SHOWN_PATH_CHARS``), where it once echoed all 100,000 characters."""
    game = meldkit.new_game("gin_rummy", players=2, seed=1)
    with pytest.raises(meldkit.MeldkitError) as e:
        call(game)
    assert len(str(e.value)) < 600, str(e.value)[:300]
    assert "yyyy…" in str(e.value) or "…yyyy" in str(e.value)  # shown, and shown cut


def test_a_refused_actions_error_keeps_the_whole_action():
    game = meldkit.new_game("gin_rummy", players=2, seed=1)
    with pytest.raises(NotationError) as e:
        game.apply("discard " + _HUGE)
    assert e.value.action == "discard " + _HUGE and e.value.code == "notation/too-long"
    assert str(e.value).startswith("discard yyy") and "…: " in str(e.value)


@pytest.mark.parametrize("pack,players", [("gin_rummy", 2), ("pony_tail", 4), ("houses", 4)])
def test_new_game_reads_no_more_of_an_endless_deck_order_than_a_deck_can_hold(pack, players):
    """An endless iterable as ``deck_order`` was read until memory ran out."""
    import itertools

    with pytest.raises(SetupError, match="deck_order"):
        meldkit.new_game(pack, players=players, seed=1, deck_order=itertools.repeat("AS"))


def _nested(depth: int) -> list:
    top = inner = []
    for _ in range(depth):
        inner.append([])
        inner = inner[0]
    return top


@pytest.mark.parametrize("value", [_nested(100_000), 10**5000],
                         ids=["nested-100000-deep", "5000-digit-int"])
@pytest.mark.parametrize("call", [
    lambda v: meldkit.new_game("gin_rummy", players=v),
    lambda v: meldkit.new_game("gin_rummy", players=2, seed=v),
    lambda v: meldkit.new_game("pony_tail", players=4, options={"first_player": v}),
    lambda v: meldkit.new_game("gin_rummy", players=2, seed=1).view(v),
], ids=["players", "seed", "first_player", "view"])
def test_a_refusal_quotes_a_deep_or_huge_value_without_failing_itself(call, value):
    """Quoting the value in the message raised RecursionError (a list nested 100,000 deep)
    or ValueError (an int past Python's 4,300 digits) instead of the refusal."""
    with pytest.raises(SetupError) as e:
        call(value)
    assert len(str(e.value)) < 300


@pytest.mark.parametrize("pack,players", [("gin_rummy", 2), ("pony_tail", 4), ("houses", 4)])
def test_an_action_id_past_pythons_digit_limit_is_refused_not_a_value_error(pack, players):
    """``apply(10**5000)`` raised ValueError (Python's 4,300-digit limit) while wording
    the refusal of an id outside the action space."""
    game = meldkit.new_game(pack, players=players, seed=1)
    with pytest.raises(IllegalActionError, match="about 5,000 digits is outside"):
        game.apply(10**5000)
    assert "about 5,000 digits" in str(game.check(-10**5000))


def test_1_a_packs_long_keys_and_many_problems_make_a_bounded_message():
    """A server audit: an unknown key of 9,000 characters was quoted whole in the
    RulePackError, and 27 of them made a 250 KB message; each step of a key path is now cut
    as values are, and the message lists 50 problems and counts the rest."""
    with pytest.raises(meldkit.RulePackError) as e:
        meldkit.load_pack_text("extends: gin_rummy\n? " + "k" * 9000 + "\n: 1\n",
                               filename="up.yaml")
    (problem,) = e.value.problems
    assert problem.path == "k" * 59 + "…" and len(str(e.value)) < 400
    text = "extends: gin_rummy\n" + "".join(f"k{i:04d}{'x' * 300}: 1\n" for i in range(120))
    with pytest.raises(meldkit.RulePackError) as e:
        meldkit.load_pack_text(text, filename="up.yaml")
    assert len(e.value.problems) == 120
    lines = str(e.value).splitlines()
    assert lines[0] == "120 problems in rule pack:" and len(lines) == 52
    assert lines[-1] == "  … and 70 more (the error's problems list every one)"
