"""Fast game-AI paths (issue 22, item 5): the integer-id path plays exactly the object
path's games; information_state() and public_history(), kept incrementally, equal a
from-scratch replay at every position (also after a save and load, a clone, an undo); an
undo from the states kept equals the replay undo at every position."""

from __future__ import annotations

import random
import sys
import time

import pytest
from ai_tables import seats, tables

import meldkit
from meldkit import IllegalActionError, MeldkitError
from meldkit.ai.chance import ChanceGame
from meldkit.ai.chance import undo as replay_undo
from meldkit.ai.infostate import information_state_afresh, public_history_afresh

TABLES = tables(("rummy", 4), ("gin_rummy", 2))
SOME = [("gin_rummy", 2), ("pony_tail", 4), ("rummy", 3), ("houses", 4), ("samba", None),
        ("hand_and_foot", None)]


def random_game(pack, players, seed, actions):
    rng = random.Random(seed)
    g = meldkit.new_game(pack, players=players, seed=seed)
    for _ in range(actions):
        if g.is_over:
            break
        g.apply(rng.choice(g.legal_actions()))
    return g, rng


# --------------------------------------------------------------------------- the id path
@pytest.mark.parametrize("pack,players", TABLES)
def test_the_id_path_plays_the_object_paths_game_and_lists_the_spaces_ids(pack, players):
    players = seats(pack, players)
    games = []
    for by_id in (False, True):
        rng = random.Random(5)
        g = meldkit.new_game(pack, players=players, seed=5)
        space = g.action_space
        for _ in range(250):
            if g.is_over:
                break
            legal = g.legal_actions()
            ids = g.legal_ids()
            assert ids == [space.id_of(a) for a in legal]
            mask = g.legal_mask()
            assert sum(mask) == len(set(ids)) and all(mask[i] for i in ids)
            k = rng.randrange(len(legal))
            g.apply(ids[k] if by_id else legal[k])
        games.append(g)
    assert games[0].history == games[1].history
    assert games[0] == games[1]


def test_an_illegal_id_is_refused_with_the_rules_reason_and_a_bad_one_by_range():
    g = meldkit.new_game("pony_tail", players=4, seed=7)
    space = g.action_space
    g.legal_ids()
    discard = space.id_of(g.parse_action("discard 9"))
    with pytest.raises(IllegalActionError) as e:
        g.apply(discard)
    assert "turn/draw-first" == e.value.code
    for bad in (-1, space.size, True):
        with pytest.raises(IllegalActionError) as e:
            g.apply(bad)
        assert "action/bad-id" == e.value.code
    assert [] == g.history
    g.apply(g.legal_ids()[0])
    assert ["draw"] == g.history


def test_the_id_path_costs_about_what_the_object_path_costs():
    """Function calls (Python and C) per decision, counted as tests/test_work_budget.py does:
    a deterministic stand-in for time, so a busy machine cannot fail it. The id path's extra
    work is the id conversion (a few calls a decision), not the 1.9x path it replaced; the
    timed bar (1.10) is benchmarks/bench_ai.py --only fast's."""
    def calls(by_id: bool) -> int:
        def play(profiler=None) -> int:
            rng = random.Random(3)
            g = meldkit.new_game("gin_rummy", players=2, seed=3)
            count = 0

            def counter(frame, event, arg):
                nonlocal count
                if event in ("call", "c_call"):
                    count += 1

            sys.setprofile(counter if profiler else None)
            try:
                for _ in range(300):
                    if g.is_over:
                        break
                    legal = g.legal_ids() if by_id else g.legal_actions()
                    g.apply(legal[rng.randrange(len(legal))])
            finally:
                sys.setprofile(None)
            return count

        play()  # warm the memo tables and the action space
        return play(profiler=True)

    assert calls(True) <= calls(False)


def _python_calls(fn) -> list[str]:
    """The Python functions ``fn()`` enters, in order (C calls not counted)."""
    names: list[str] = []

    def counter(frame, event, arg):
        if event == "call":
            names.append(frame.f_code.co_name)

    sys.setprofile(counter)
    try:
        fn()
    finally:
        sys.setprofile(None)
    return names


@pytest.mark.parametrize("pack,players", TABLES)
def test_legal_ids_reads_the_ids_the_action_objects_carry(pack, players):
    """After warming up, legal_ids() is one Python call (the ids are read off the engine's
    interned action objects in C), and apply(id) hands the engine its own interned object,
    found in the legal list by identity: no parse, no _canonical, no second legality check."""
    players = seats(pack, players)
    g, rng = random_game(pack, players, 2, 0)
    space = g.action_space
    for _ in range(2):  # a second game: every object of the first is known
        g, rng = random_game(pack, players, 2, 0)
        checked = 0
        for _ in range(150):
            if g.is_over:
                break
            legal = g.legal_actions()
            ids = g.legal_ids()
            assert ids == [space.id_of(a) for a in legal]
            k = rng.randrange(len(legal))
            if _python_calls(g.legal_ids) == ["legal_ids"]:
                checked += 1
            seen = []
            do = type(g)._do

            def spy(state, a, _do=do):
                seen.append(a)
                return _do(state, a)

            type(g)._do = spy
            try:
                names = _python_calls(lambda: g.apply(ids[k]))
            finally:
                type(g)._do = do
            assert seen[0] is legal[k]
            before = names[:names.index("spy")]  # (the move itself may list the next actions)
            assert "_canonical" not in before and "_check" not in before, before
        assert checked > 100  # (a new object the first time ids() meets it)
    assert g.history == random_game(pack, players, 2, 150)[0].history


def test_ids_of_actions_the_space_has_not_tagged_and_of_two_spaces_sharing_objects():
    """An action object without its space's tag (a copy, a pickled one, a plain tuple) is
    still numbered by value; two spaces whose engines share interned objects (rummy at 2
    and at 4 seats) each read their own tag."""
    import copy
    import pickle

    two = meldkit.new_game("rummy", players=2, seed=1)
    four = meldkit.new_game("rummy", players=4, seed=1)
    for _ in range(60):
        for g in (two, four):
            if not g.is_over:
                legal = g.legal_actions()
                assert g.legal_ids() == [g.action_space.id_of(a) for a in legal]
                g.apply(g.legal_ids()[-1])
    space = two.action_space
    legal = two.legal_actions()
    want = [space.id_of(a) for a in legal]
    assert space.ids([copy.deepcopy(a) for a in legal]) == want
    assert space.ids([pickle.loads(pickle.dumps(a)) for a in legal]) == want
    assert space.ids([tuple(a) for a in legal]) == want
    assert space._tagged <= 4 * space.size
    for a in space.actions:  # the space's own actions read back their ids
        assert space.id_of(a) == space._id_of_object(a)
    again = copy.deepcopy(legal[0])
    two.apply(again)  # a copy applies by value, as before
    assert two.history[-1] == str(legal[0])


@pytest.mark.parametrize("pack,players", TABLES)
def test_the_id_path_records_the_texts_the_object_path_records(pack, players):
    """apply(id) writes the space's text of the id into the history: the engine's own
    text of that action, on every pack."""
    players = seats(pack, players)
    g, _ = random_game(pack, players, 4, 200)
    space = g.action_space
    for i, a in enumerate(space._live):
        assert str(a) == space.texts[i]


def test_the_id_path_takes_at_most_a_little_more_time_than_the_object_path():
    """Timed, with a generous margin (the bar of benchmarks/bench_ai.py --only ids is
    1.10): the best of several alternating runs of the same random gin games."""
    def run(by_id: bool) -> float:
        rng = random.Random(9)
        g = meldkit.new_game("gin_rummy", players=2, seed=9)
        t = time.thread_time()
        for _ in range(400):
            if g.is_over:
                break
            legal = g.legal_ids() if by_id else g.legal_actions()
            g.apply(legal[rng.randrange(len(legal))])
        return time.thread_time() - t

    run(True)
    best = {True: float("inf"), False: float("inf")}
    for r in range(7):
        for by_id in ((True, False) if r % 2 else (False, True)):
            best[by_id] = min(best[by_id], run(by_id))
    assert best[True] < 1.3 * best[False]


# --------------------------------------------------------------------------- info states
def assert_same_as_afresh(g) -> None:
    assert public_history_afresh(g) == g.public_history()
    for p in range(g.n_players):
        assert information_state_afresh(g, p) == g.information_state(p)


@pytest.mark.parametrize("pack,players", TABLES)
def test_incremental_information_state_equals_a_replay_at_every_position(pack, players):
    players = seats(pack, players)
    rng = random.Random(11)
    g = meldkit.new_game(pack, players=players, seed=11)
    for n in range(160):
        p = n % players
        assert information_state_afresh(g, p) == g.information_state(p), n
        if g.is_over:
            break
        g.apply(rng.choice(g.legal_actions()))
    assert_same_as_afresh(g)


@pytest.mark.parametrize("pack,players", SOME)
def test_incremental_information_state_after_save_load_clone_and_undo(pack, players):
    players = seats(pack, players)
    g, rng = random_game(pack, players, 4, 60)
    g.information_state(0)
    loaded = meldkit.GameState.from_json(g.to_json())
    assert_same_as_afresh(loaded)
    twin = g.clone()  # may share the record: each steps its own
    for _ in range(8):
        for s in (g, twin):
            if not s.is_over:
                s.apply(rng.choice(s.legal_actions()))
        assert_same_as_afresh(twin)
        assert_same_as_afresh(g)
    for s in (g, loaded):
        for _ in range(3):
            if not s.is_over:
                s.apply(rng.choice(s.legal_actions()))
                s.information_state(1)
                s.undo()
                assert_same_as_afresh(s)
    loaded.undo()
    loaded.undo()
    assert_same_as_afresh(loaded)


def test_a_state_that_does_not_replay_is_refused_as_by_the_replay():
    g, rng = random_game("gin_rummy", 2, 2, 10)
    g.information_state(0)
    sample = g.resample(0, rng=random.Random(1))  # (keeps seat 0's: see test_ai_resample)
    sample = type(sample).from_json(sample.to_json(), pack=sample.pack)  # a save: none
    for fn in (lambda s: s.information_state(0), lambda s: information_state_afresh(s, 0),
               lambda s: s.public_history()):
        with pytest.raises(MeldkitError, match="does not replay"):
            fn(sample)
    chance = ChanceGame(meldkit.new_game("rummy", players=2, seed=4,
                                         options={"first_player": 0}))
    chance.state.information_state(0)
    while not chance.is_chance_node():
        chance.apply(chance.legal_actions()[0])
    chance.apply_chance(chance.chance_outcomes()[-1][0])
    for fn in (lambda s: s.information_state(0), lambda s: information_state_afresh(s, 0)):
        with pytest.raises(MeldkitError, match="does not replay"):
            fn(chance.state)


def test_information_state_costs_far_less_than_a_replay_late_in_a_game():
    g, _ = random_game("pony_tail", 4, 9, 300)
    g.information_state(0)

    def best(fn) -> float:
        runs = []
        for _ in range(5):
            t = time.thread_time()
            fn()
            runs.append(time.thread_time() - t)
        return min(runs)

    assert best(lambda: g.information_state(1)) * 5 < best(
        lambda: information_state_afresh(g, 1))


# --------------------------------------------------------------------------- undo
@pytest.mark.parametrize("pack,players", TABLES)
def test_undo_from_the_kept_states_equals_the_replay_undo_at_every_position(pack, players):
    players = seats(pack, players)
    rng = random.Random(8)
    g = meldkit.new_game(pack, players=players, seed=8)
    g.keep_undo()
    for n in range(150):
        if g.is_over:
            break
        before = g.clone()
        g.apply(rng.choice(g.legal_actions()))
        replayed = g.clone()
        replay_undo(replayed)
        g.undo()
        assert before == replayed == g, n
        assert replayed.legal_actions() == g.legal_actions()
        g.apply(rng.choice(g.legal_actions()))
        if n % 7 == 0 and not g.is_over:  # two back, then on
            g.apply(rng.choice(g.legal_actions()))
            want = g.clone()
            replay_undo(want)
            replay_undo(want)
            g.undo()
            g.undo()
            assert want == g, n


def test_undo_falls_back_to_the_replay_beyond_its_depth_on_clones_and_loads():
    g, rng = random_game("gin_rummy", 2, 6, 20)
    g.keep_undo(depth=2)
    for _ in range(4):
        g.apply(rng.choice(g.legal_actions()))
    want = g.clone()
    for _ in range(4):
        replay_undo(want)
        g.undo()  # two kept states, then replays
        assert want == g
    for other in (g.clone(), meldkit.GameState.from_json(g.to_json())):
        want = other.clone()
        other.apply(rng.choice(other.legal_actions()))
        other.undo()
        assert want == other
    g.keep_undo(0)
    assert g._undo is None
    with pytest.raises(ValueError, match="depth"):
        g.keep_undo(-1)
    fresh = meldkit.new_game("gin_rummy", players=2, seed=1)
    with pytest.raises(IllegalActionError, match="no action to undo"):
        fresh.undo()


def test_an_illegal_move_leaves_the_kept_states_as_they_were():
    g, rng = random_game("pony_tail", 4, 3, 30)
    g.keep_undo()
    g.apply(rng.choice(g.legal_actions()))
    kept = len(g._undo.states)
    legal = set(g.legal_ids())
    illegal = next(i for i in range(g.action_space.size) if i not in legal)
    with pytest.raises(IllegalActionError):
        g.apply(illegal)  # refused by the rules, before anything is kept
    assert kept == len(g._undo.states)


def test_undo_kept_mid_hand_costs_under_a_millisecond():
    g, rng = random_game("pony_tail", 4, 1, 40)
    g.keep_undo()
    runs = []
    for _ in range(20):
        g.apply(rng.choice(g.legal_actions()))
        t = time.thread_time()
        g.undo()
        runs.append(time.thread_time() - t)
    assert min(runs) < 0.001  # the bar is 100 us (benchmarks/bench_ai.py); a busy machine


# --------------------------------------------------------------------------- deadwood kept
def _gin_like(wild: bool):
    from meldkit.kernel.melds import MeldKind, MeldRules

    return MeldRules([MeldKind("set", "set", max_size=4, max_wilds=1 if wild else 0),
                      MeldKind("run", "run", max_size=5, max_wilds=1 if wild else 0)],
                     wild_kinds=[4, 5, 6, 7] if wild else [])


@pytest.mark.parametrize("wild", [False, True])
def test_deadwood_derived_a_card_at_a_time_equals_the_search_at_every_hand(wild):
    """mask_deadwood_from follows a hand a card at a time (a draw, a discard, sometimes
    several cards at once): at every hand its deadwood (and its meldable cards, where it
    knows them) equal a fresh search's."""
    rules = _gin_like(wild)
    rng = random.Random(11)
    for _ in range(40):
        hand = set(rng.sample(range(52), 10))
        kept = None
        for _ in range(60):
            r = rng.random()
            if r < 0.45 and len(hand) < 14:
                hand.add(rng.choice([c for c in range(52) if c not in hand]))
            elif r < 0.9 and len(hand) > 1:
                hand.discard(rng.choice(sorted(hand)))
            else:  # several cards at once (a pile taken): computed afresh
                hand ^= set(rng.sample(range(52), 3))
            mask = sum(1 << c for c in hand)
            kept = rules.mask_deadwood_from(kept, mask)
            assert kept[0] == mask
            assert kept[2] == rules.min_deadwood(sorted(hand)) == rules.mask_deadwood(mask)
            if kept[1] >= 0:
                assert kept[1] == rules._meldable(mask)


def test_byte_table_sums_equal_the_cards_values_one_by_one():
    """valsum and sum_top (seven byte lookups) equal a sum over the cards, negative
    values included; the kept last meldable mask answers every mask as a fresh one."""
    from meldkit.kernel.melds import MeldKind, MeldRules

    rng = random.Random(3)
    values = [rng.randrange(-5, 60) for _ in range(53)]
    rules = MeldRules([MeldKind("set", "set"), MeldKind("run", "run")], values=values)
    fresh = MeldRules([MeldKind("set", "set"), MeldKind("run", "run")], values=values)
    for _ in range(500):
        cards = rng.sample(range(53), rng.randrange(0, 20))
        mask = sum(1 << c for c in cards)
        total = sum(values[c] for c in cards)
        assert rules._valsum(mask) == total
        assert rules._sum_top(mask) == (total, max([0] + [values[c] for c in cards]))
        for m in (mask, mask ^ 1, mask):  # asked again, and after another mask
            assert rules._meldable(m) == fresh._meldable(m | 1 << 63) & ~(1 << 63)


def test_hand_bits_kept_from_the_last_hand_equals_the_sum_of_its_cards():
    """hand_bits keeps the last hand it was asked: asked again, asked with cards put after
    it (a draw), with a card taken from its middle, or for another list, it gives the sum
    of the hand's bits; the list it is given is never changed, nor kept."""
    from meldkit.kernel.melds import hand_bits

    rng = random.Random(5)
    hands = [rng.sample(range(52), 10) for _ in range(3)]
    for _ in range(600):
        hand = rng.choice(hands)
        r = rng.random()
        if r < 0.35 and len(hand) < 14:
            hand.append(rng.choice([c for c in range(52) if c not in hand]))
        elif r < 0.7 and len(hand) > 1:
            hand.remove(rng.choice(hand))
        elif r < 0.8:
            hand[rng.randrange(len(hand))] = rng.choice([c for c in range(52) if c not in hand])
        before = hand[:]
        assert hand_bits(hand) == sum(1 << c for c in hand)
        assert hand == before
    hand = [1, 2, 3]
    hand_bits(hand)
    hand.append(9)  # changed after the ask: the kept copy is not the list
    assert hand_bits([1, 2, 3]) == 0b1110


@pytest.mark.parametrize("wild", [False, True])
def test_mask_within_answers_as_deadwood_within_for_every_discard_rule(wild):
    """mask_within (the knock test on a kept mask) equals deadwood_within on the hand's
    cards, and min_deadwood against the limit, for every ``discard`` and limits around
    the hand's deadwood; a bad ``discard`` is refused as min_deadwood refuses it."""
    rules = _gin_like(wild)
    rng = random.Random(8)
    for _ in range(300):
        hand = sorted(rng.sample(range(52), rng.choice((10, 11))))
        mask = sum(1 << c for c in hand)
        for discard in (False, True, "best", "openspiel"):
            if discard == "openspiel" and wild and mask & sum(1 << c for c in (4, 5, 6, 7)):
                with pytest.raises(ValueError):
                    rules.mask_within(mask, 10, discard)
                continue
            least = rules.min_deadwood(hand, discard=discard)
            for limit in (0, least - 1, least, least + 1, 10, 200):
                if limit < 0:
                    continue
                want = least <= limit
                assert rules.mask_within(mask, limit, discard) is want
                assert rules.deadwood_within(hand, limit, discard=discard) is want
    with pytest.raises(ValueError, match="'discard' must be"):
        rules.mask_within(sum(1 << c for c in (0, 4, 8)), 500, "most")
