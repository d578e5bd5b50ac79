"""One engine class for every pack that is not a whole-engine plugin (issue 19, item 1):
:class:`meldkit.KernelState`, one state machine over a phase table, with the pack's meld
model chosen once.  These tests pin the class, the phase tables and the per-model lookup."""

from __future__ import annotations

import random

import pytest

import meldkit
from meldkit._game import GameState
from meldkit._registry import engine_for
from meldkit._state import RankSlotModel
from meldkit.kernel.state import MODELS, KernelState, PerModel, _raw, model_for
from meldkit.kernel.table import TableModel

KERNEL_PACKS = [name for name in meldkit.available_packs()
                if engine_for(meldkit.load_pack(name)) is KernelState]


def test_one_engine_class_plays_every_non_plugin_bundled_pack():
    assert len(KERNEL_PACKS) >= 8, KERNEL_PACKS  # the eight of issue 19, and contract rummy
    assert "houses" not in KERNEL_PACKS  # a whole-engine plugin keeps its own engine
    models = set()
    for name in KERNEL_PACKS:
        pack = meldkit.load_pack(name)
        game = meldkit.new_game(pack, players=pack.spec.players.min, seed=3)
        assert type(game) is KernelState
        assert game.model is model_for(pack)
        models.add(game.meld_model)
    assert models == {"rank_slot", "table"}


@pytest.mark.parametrize("name", KERNEL_PACKS)
def test_every_action_goes_through_the_phase_table(name, monkeypatch):
    pack = meldkit.load_pack(name)
    game = meldkit.new_game(pack, players=pack.spec.players.min, seed=5)
    seen: list[str] = []
    table = {phase: tuple(_spy(seen, phase, i, f) for i, f in enumerate(row))
             for phase, row in game.phases.items()}
    game.phases = table
    rng = random.Random(0)
    for _ in range(60):
        if game.is_over:
            break
        game.apply(rng.choice(game.legal_actions()))
    rooms = {s.split(":")[0] for s in seen}
    assert {"legal", "do"} <= {s.split(":")[1] for s in seen}
    assert rooms <= set(game.phases) and len(rooms) >= 2


def _spy(seen, phase, i, f):
    if f is None:
        return None
    role = ("legal", "check", "do")[i]

    def call(*args):
        seen.append(f"{phase}:{role}")
        return f(*args)
    return call


def test_a_phase_table_room_has_legal_check_and_do_for_every_phase_a_game_reaches():
    for name in KERNEL_PACKS:
        pack = meldkit.load_pack(name)
        game = meldkit.new_game(pack, players=pack.spec.players.min, seed=1)
        for phase, (legal, check, do) in game.phases.items():
            assert callable(legal) and callable(check), (name, phase)
            assert (do is None) == (phase == "over"), (name, phase)


def test_each_per_model_attribute_is_the_models_own():
    """A name both models define (or one defines over GameState's) is the game's model's:
    a table game never runs a rank-slot method and the other way round."""
    gin = meldkit.new_game("gin_rummy", players=2, seed=1)
    tail = meldkit.new_game("pony_tail", players=4, seed=1)
    names = [n for n, v in vars(KernelState).items() if isinstance(v, PerModel)]
    assert {"view", "zone_cards", "_state_dict", "_end_hand", "winner"} - {"view"} <= set(names)
    for game, model in ((gin, TableModel), (tail, RankSlotModel)):
        for name in names:
            raw = _raw(model, name)
            if raw is None:  # the other model's public name: absent here
                assert not hasattr(game, name), (model.NAME, name)
                continue
            got = getattr(game, name)
            want = raw.__get__(game, type(game)) if hasattr(raw, "__get__") else raw
            if callable(want) and hasattr(want, "__func__"):
                assert got.__func__ is want.__func__, (model.NAME, name)
            else:
                assert got == want, (model.NAME, name)


def test_every_name_two_models_share_is_looked_up_per_model():
    """No method of one model can shadow the other's through the class's MRO: every name
    both define, or that one defines over GameState's, is a PerModel (or defined by hand on
    KernelState, which dispatches itself)."""
    def names(model):
        return {n for k in model.__mro__ if k is not object for n in vars(k)
                if not (n.startswith("__") and n.endswith("__")) and n != "SLOTS"}

    rank, table = names(RankSlotModel), names(TableModel)
    base = {n for k in GameState.__mro__ if k is not object for n in vars(k)}
    for name in (rank & table) | (rank & base) | (table & base):
        assert name in vars(KernelState), name
    assert MODELS == (RankSlotModel, TableModel)


def test_the_greedy_policy_is_the_table_models_alone():
    gin = meldkit.new_game("gin_rummy", players=2, seed=1)
    tail = meldkit.new_game("pony_tail", players=4, seed=1)
    assert getattr(tail, "greedy_policy", None) is None  # the greedy bot reads its view
    assert gin.greedy_policy(gin) in gin.legal_actions()
    assert KernelState.greedy_policy(gin) in gin.legal_actions()  # as a function of a game
    with pytest.raises(AttributeError, match="rank_slot meld model has no 'meld_by_id'"):
        tail.meld_by_id(1)


def test_clones_saves_and_undo_keep_the_model():
    for name, n in (("gin_rummy", 2), ("samba", 4)):
        game = meldkit.new_game(name, players=n, seed=2)
        game.keep_undo()
        first = game.legal_actions()[0]
        game.apply(first)
        copy = game.clone()
        loaded = GameState.from_json(game.to_json())
        assert copy.model is loaded.model is game.model
        assert copy.phases is game.phases and loaded == game
        game.undo()
        assert game.model is model_for(game.pack) and game.history == []


@pytest.mark.parametrize("name", KERNEL_PACKS + ["houses"])
def test_a_game_pickles_through_its_save_for_other_processes(name):
    import pickle

    pack = meldkit.load_pack(name)
    game = meldkit.new_game(pack, players=pack.spec.players.min, seed=8)
    rng = random.Random(8)
    for _ in range(40):
        if game.is_over:
            break
        game.apply(rng.choice(game.legal_actions()))
    copy = pickle.loads(pickle.dumps(game))
    assert copy == game and copy.legal_actions() == game.legal_actions()
