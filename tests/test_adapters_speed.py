"""The PettingZoo env's fast path (issue 22, item 5) changes no value: the table kernel's
observation (written by kept positions) equals the straightforward fill it replaced at
every step of seeded games, for every seat; the env's observation equals the state's; each
observe() returns new arrays; env() keeps PettingZoo's wrappers and their checks."""

from __future__ import annotations

import random
from array import array

import pytest

np = pytest.importorskip("numpy")
pytest.importorskip("pettingzoo")

from pettingzoo.utils import wrappers

import meldkit
from meldkit.adapters.pettingzoo import env, raw_env
from meldkit.ai.observation import fill_scores, kinds_index, observation_into, rel
from meldkit.kernel.melds import shown_deadwood
from meldkit.kernel.universe import _table_phases

WILD_RUMMY = """meldkit: 1
extends: rummy
name: wild_twos_rummy
cards: {wild: ["2"]}
melds:
  kinds:
    - {name: set, type: set, min_size: 3, max_wilds: 1}
    - {name: run, type: run, min_size: 3, max_wilds: 1}
"""
"""One deck (every card its own kind) with wild cards: the kept observation's deadwood
is computed afresh whenever a wild card is in the hand."""

TURNED_RUMMY = """meldkit: 1
extends: rummy
name: turned_rummy
turn: {stock_card: turned}
"""
"""A card turned from the stock: the ``turned`` slice lies between the card slices."""

WILD_RANK_RUMMY = """meldkit: 1
extends: rummy
name: wild_rank_rummy
cards: {turned_wild: rank}
melds:
  kinds:
    - {name: set, type: set, min_size: 3, max_size: 4, max_wilds: 2}
    - {name: run, type: run, min_size: 3, max_wilds: 2}
"""
"""A wild rank turned each deal: the ``wild_rank`` slice, and wild cards by deal."""

GAPS_RUMMY = """meldkit: 1
extends: rummy
name: forty_rummy
deck: {ranks: [A, "2", "3", "4", "5", "6", "7", J, Q, K], run_gaps: skip}
"""
"""A stripped deck whose runs skip its gaps (its own rank order): the kept path's deadwood."""

TABLE_PACKS = [("gin_rummy", 2), ("oklahoma_gin", 2), ("rummy", 2), ("rummy", 4),
               ("rummy_500", 2), ("contract_rummy", 4), (WILD_RUMMY, 3), (TURNED_RUMMY, 3),
               (WILD_RANK_RUMMY, 3), (GAPS_RUMMY, 2)]
"""Own-kind decks (gin, oklahoma, rummy, wild twos, run gaps) take the kept path; rummy
500's and contract rummy's decks (jokers, several decks) are written afresh, as are packs
with a turned card's slice; contract rummy has the ``opened`` and ``buys`` slices."""


def _pack(pack):
    return meldkit.load_pack_text(pack) if pack.startswith("meldkit:") else pack


def reference_table_observation(state, p: int) -> array:
    """The table kernel's observation as it was written before the fast path (one slice
    at a time, looking every card's kind up)."""
    spec = state.observation_spec()
    out = array("f", bytes(4 * spec.size))
    _, idx = kinds_index(state.kind_of)
    nk, n, kind_of = len(idx), state.n_players, state.kind_of
    b = spec["hand"].start
    for c in state.hands[p]:
        out[b + idx[kind_of[c]]] += 1
    b = spec["pile"].start
    for c in state.pile:
        out[b + idx[kind_of[c]]] += 1
    if state.pile:
        out[spec["pile_top"].start + idx[kind_of[state.pile[-1]]]] = 1
    b = spec["melds"].start
    for m in state.melds:
        base = b + rel(p, m.owner, n) * nk
        for c in m.cards:
            out[base + idx[kind_of[c]]] += 1
    b = spec["hand_sizes"].start
    for q in range(n):
        out[b + rel(p, q, n)] = len(state.hands[q])
    out[spec["stock"].start] = len(state.stock)
    fill_scores(state, p, spec, out)
    out[spec["phase"].start + _table_phases(state.pack).index(state.phase)] = 1
    if state.phase != "over":
        out[spec["to_move"].start + rel(p, state.current, n)] = 1
    if state.knocker is not None:
        out[spec["knocker"].start + rel(p, state.knocker, n)] = 1
    out[spec["knock_value"].start] = -1 if state.knock_value is None else state.knock_value
    least = shown_deadwood(state.rules.melds, state._kinds(state.hands[p]))
    out[spec["deadwood"].start] = -1 if least is None else least
    out[spec["hand_number"].start] = state.hand_number
    for name in ("opened", "buys"):
        if name in spec:
            for q, v in enumerate(getattr(state, name)):
                out[spec[name].start + rel(p, q, n)] = v
    if "turned" in spec and state.turned is not None:
        out[spec["turned"].start + idx[kind_of[state.turned]]] = 1
    if "wild_rank" in spec and state.rules.wild_rank is not None:
        out[spec["wild_rank"].start + state.rules.wild_rank] = 1
    return out


def _play(e, seed: int, steps: int):
    """Random legal ids from the mask, as a user's loop picks them; yields before each."""
    rng = random.Random(seed)
    e.reset(seed=seed)
    for _ in range(steps):
        obs, _, term, trunc, _ = e.last()
        if term or trunc:
            return
        yield
        legal = np.flatnonzero(obs["action_mask"])
        e.step(int(legal[rng.randrange(len(legal))]))


@pytest.mark.parametrize("pack,players", TABLE_PACKS)
def test_observations_equal_the_old_fill_at_every_step(pack, players):
    """The env's kept buffers (one a seat, written over with what changed) and the
    state's observation equal the from-scratch fill for every seat at every step."""
    e = env(_pack(pack), players=players)
    raw = e.unwrapped
    melded = 0
    for seed in range(3):
        for _ in _play(e, seed, 600):
            s = raw.state_
            melded += bool(s.melds)
            for agent in e.possible_agents:
                i = raw.agent_name_mapping[agent]
                want = reference_table_observation(s, i)
                assert s.observation(i) == want
                got = e.observe(agent)["observation"]
                assert got.dtype == np.float32 and got.shape == (len(want),)
                assert np.array_equal(got, np.asarray(want, np.float32))
    if pack in ("rummy", WILD_RUMMY):
        assert melded  # the meld slices were exercised


def _positions(pack, players: int, rng: random.Random) -> list:
    """States of several seeded random games: each position of some (clones), games
    taken back with undo() (kept and replayed), a game over and a new deal."""
    out = []
    for seed in range(3):
        g = meldkit.new_game(_pack(pack), players=players, seed=seed)
        if seed == 1:
            g.keep_undo()  # undo restores kept states (seed 2's replays the game)
        for _ in range(rng.randrange(150, 400)):
            if g.is_over:
                break
            out.append(g.clone())
            g.apply(rng.choice(g.legal_actions()))
            if seed and rng.random() < 0.1:
                for _ in range(rng.randrange(1, 4)):
                    g.undo()
                    out.append(g.clone())
        out.append(g)  # (the last: over, or mid-game)
    g = meldkit.new_game(_pack(pack), players=players, seed=9)
    while not g.is_over:
        g.apply(rng.choice(g.legal_actions()))
    out.append(g)  # a game over: nobody to move
    out.append(meldkit.new_game(_pack(pack), players=players, seed=10))  # a new deal
    return out


@pytest.mark.parametrize("pack,players", [("gin_rummy", 2), ("oklahoma_gin", 2), ("rummy", 4),
                                          (WILD_RUMMY, 3), ("contract_rummy", 4),
                                          (TURNED_RUMMY, 3), (WILD_RANK_RUMMY, 3),
                                          (GAPS_RUMMY, 2)])
def test_seat_writer_equals_the_fill_whatever_it_last_wrote(pack, players):
    """A seat's writer (table_seat_writer: it writes only what changed since its last
    call) leaves in its buffer what a from-scratch fill gives, for every seat, whichever
    position it last wrote: the next step, a step taken back (undo, kept or replayed),
    any position of another game, a game over, a new deal; its first call writes over
    whatever the buffer held."""
    from meldkit.kernel.universe import table_seat_writer

    rng = random.Random(7)
    positions = _positions(pack, players, rng)
    spec = positions[0].observation_spec()
    bufs = [array("f", [5.0] * spec.size) for _ in range(players)]
    writers = [table_seat_writer(positions[0], p, spec, bufs[p]) for p in range(players)]
    for k in range(900):
        s = positions[rng.randrange(len(positions))] if k % 3 == 0 else \
            positions[k // 3 % len(positions)]  # mostly in order, now and then anywhere
        seat = rng.randrange(players)
        writers[seat](s)
        assert bufs[seat] == reference_table_observation(s, seat), (k, seat)


def test_a_seat_writer_whose_write_raised_writes_afresh():
    """A write that raises part way (here after the hand's cards, at a state without
    meld rules) leaves the buffer half written: the writer's next call writes it whole
    (the deadwood too, though the hand is the one the failed call saw)."""
    from meldkit.kernel.universe import table_seat_writer

    rng = random.Random(3)
    g = meldkit.new_game("gin_rummy", players=2, seed=3)
    spec = g.observation_spec()
    buf = array("f", bytes(4 * spec.size))
    write = table_seat_writer(g, 0, spec, buf)
    dw = spec["deadwood"].start
    while True:
        write(g)
        before = buf[dw]
        g.apply(rng.choice(g.legal_actions()))
        if reference_table_observation(g, 0)[dw] != before:
            break  # seat 0's deadwood changed
    broken = g.clone()
    broken.rules = None
    with pytest.raises(AttributeError):
        write(broken)  # the hand's card written, then no rules.melds
    write(g)
    assert buf == reference_table_observation(g, 0)


def test_observation_into_writes_over_a_kept_buffer():
    g = meldkit.new_game("gin_rummy", players=2, seed=4)
    buf = array("f", [7.0] * g.observation_spec().size)  # not zeros: written over whole
    for _ in range(40):
        for p in range(2):
            observation_into(g, p, buf)
            assert buf == g.observation(p)
        g.apply(g.legal_ids()[0])
    with pytest.raises(ValueError):
        observation_into(g, 0, array("f", bytes(8)))
    with pytest.raises(ValueError):
        observation_into(g, 2, buf)


@pytest.mark.parametrize("pack,players", [("pony_tail", 4), ("houses", 4)])
def test_other_engines_through_the_env_equal_the_state(pack, players):
    e = env(pack, players=players)
    raw = e.unwrapped
    for _ in _play(e, 1, 150):
        for agent in e.possible_agents:
            i = raw.agent_name_mapping[agent]
            got = e.observe(agent)["observation"]
            assert np.array_equal(got, np.asarray(raw.state_.observation(i), np.float32))


def test_a_pickled_or_copied_env_observes_its_own_state():
    """The kept buffers and records do not travel: a deep copy or an unpickled env writes
    its observations afresh, from its own state, into its own buffers."""
    import copy
    import pickle

    e = env("gin_rummy")
    e.reset(seed=2)
    rng = random.Random(2)
    for _ in range(30):
        e.step(int(rng.choice(np.flatnonzero(e.last()[0]["action_mask"]))))
    for c in (copy.deepcopy(e), pickle.loads(pickle.dumps(e))):
        raw = c.unwrapped
        for _ in range(40):
            for agent in c.possible_agents:
                want = raw.state_.observation(raw.agent_name_mapping[agent])
                assert np.array_equal(c.observe(agent)["observation"],
                                      np.asarray(want, np.float32))
            c.step(int(rng.choice(np.flatnonzero(c.last()[0]["action_mask"]))))
    assert e.unwrapped.state_.history != raw.state_.history  # the copies moved on alone


def test_each_observe_gives_new_arrays_and_the_kept_mask_decides():
    e = env("gin_rummy")
    e.reset(seed=3)
    agent = e.agent_selection
    a, b = e.observe(agent), e.observe(agent)
    assert a["observation"] is not b["observation"]
    assert a["action_mask"] is not b["action_mask"]
    want = b["observation"].copy()
    legal = int(np.flatnonzero(b["action_mask"])[0])
    a["observation"][:] = -5  # the caller changes what it was given
    a["action_mask"][:] = 0
    c = e.observe(agent)
    assert np.array_equal(c["observation"], want)
    assert c["action_mask"][legal] == 1
    obs, *_ = e.last()
    assert np.array_equal(obs["observation"], want)
    e.step(legal)  # legal though the caller zeroed its copy of the mask
    assert not e.terminations[agent]
    assert e.unwrapped.state_.history


def test_env_keeps_pettingzoos_wrappers_and_checks():
    e = env("gin_rummy")
    assert isinstance(e, wrappers.OrderEnforcingWrapper)
    assert isinstance(e.env, wrappers.AssertOutOfBoundsWrapper)
    assert isinstance(e.unwrapped, type(raw_env()))
    assert str(e) == str(e.unwrapped)
    with pytest.raises(AttributeError):
        e.last()  # before reset: PettingZoo's error
    with pytest.raises(AttributeError):
        _ = e.agent_selection
    e.reset(seed=0)
    n = e.action_space(e.agent_selection).n
    for bad in (n, -1, np.int64(n), "1", 1.0):
        with pytest.raises(AssertionError):
            e.step(bad)
    with pytest.raises(meldkit.IllegalActionError):
        e.step(True)  # in the space for gymnasium (bool is an int); refused by the env
    mask = e.observe(e.agent_selection)["action_mask"]
    e.step(np.int64(np.flatnonzero(mask)[0]))  # a numpy id takes the checked path
    assert len(e.unwrapped.state_.history) == 1


def test_an_env_decision_runs_four_env_frames_one_fill_and_one_id_list():
    """A decision through env() (last, a mask id, step) enters the environment's code four
    times (the order wrapper's last and step, observe, the env's checked-id step: the
    bounds wrapper and PettingZoo's bookkeeping are not called, nor the env's own step,
    whose id checks the order wrapper's did), calls the seat's observation writer once
    and lists the legal ids once (observe's list is kept for step's check)."""
    import sys
    from collections import Counter

    e = env("gin_rummy")
    e.reset(seed=5)
    rng = random.Random(5)

    def decision() -> None:
        obs, _, term, trunc, _ = e.last()
        legal = obs["action_mask"].nonzero()[0]
        e.step(int(legal[rng.randrange(len(legal))]))

    for _ in range(300):
        decision()
    frames: Counter = Counter()

    def counter(frame, event, arg):
        if event == "call":
            code = frame.f_code
            frames[(code.co_filename.rsplit("/", 1)[-1], code.co_name)] += 1

    decisions = 200
    sys.setprofile(counter)
    try:
        for _ in range(decisions):
            decision()
    finally:
        sys.setprofile(None)
    assert not e.unwrapped.state_.is_over
    ours = {k: v for k, v in frames.items() if k[0] in ("pettingzoo.py", "observation.py",
                                                         "env.py", "base.py",
                                                         "order_enforcing.py")}
    assert ours == {("pettingzoo.py", "last"): decisions, ("pettingzoo.py", "observe"): decisions,
                    ("pettingzoo.py", "step"): decisions,
                    ("pettingzoo.py", "_step"): decisions}, ours
    assert frames[("universe.py", "write")] == decisions  # (the seat's writer)
    assert frames[("_game.py", "legal_ids")] == decisions


@pytest.mark.parametrize("pack,players", [("rummy", 2), ("gin_rummy", 2)])
def test_rewards_and_infos_are_those_of_every_step_recomputed(pack, players):
    """Mid-game the env leaves the all-zero rewards and the hand's infos as they are: at
    every step they equal what recomputing them gives (0 rewards and cumulative rewards,
    each agent's hand_number the state's), new info dicts when the hand changes, and at the
    end the returns."""
    e = env(pack, players=players)
    raw = e.unwrapped
    hands = set()
    for seed in range(2):
        for _ in _play(e, seed, 3000):
            s = raw.state_
            hands.add(s.hand_number)
            assert raw.rewards == dict.fromkeys(e.agents, 0.0)
            assert raw._cumulative_rewards == dict.fromkeys(e.agents, 0.0)
            assert raw.infos == {a: {"hand_number": s.hand_number} for a in e.agents}
            assert not any(raw.terminations.values()) and not any(raw.truncations.values())
        s = raw.state_
        if s.is_over:
            assert raw.rewards == dict(zip(e.possible_agents, s.player_returns()))
            assert all(raw.terminations.values())
    assert len(hands) > 1  # a new hand was dealt (new infos)


def test_step_without_observe_checks_the_ids_itself():
    """step() checks an id against the legal ids observe() kept at this position; at a
    position nobody observed it asks the state."""
    from pettingzoo.utils.env_logger import EnvLogger

    e = raw_env("gin_rummy")
    for seed in range(5):
        e.reset(seed=seed)
        rng = random.Random(seed)
        for _ in range(30):  # never observed: step lists the legal ids
            e.step(rng.choice(e.state_.legal_ids()))
        e.observe(e.agent_selection)  # observed, then moved: the kept list is stale
        e.step(e.state_.legal_ids()[0])
        bad = next(i for i in range(e.ids.size) if i not in e.state_.legal_ids())
        mover, moves = e.agent_selection, len(e.state_.history)
        EnvLogger.suppress_output()
        try:
            e.step(bad)
        finally:
            EnvLogger.unsuppress_output()
        assert all(e.terminations.values()) and len(e.state_.history) == moves
        assert e.infos[mover]["illegal_move"] is True and e.rewards[mover] == -1.0
