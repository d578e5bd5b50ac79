"""Conformance suite: the invariants every rule pack gets for free (DESIGN.md), checked by
random play-outs for every row of ``strategies.CONFORMANCE_TABLES``.

Each property is one test, parametrised by table (pack, players).  A play-out is a
starting position (a seed, maybe some unchecked self-play) and a list of choices that
:func:`strategies.pick` maps onto legal actions; the invariant is checked after every
action.  Choose the number of examples with ``--hypothesis-profile`` (see conftest.py).
"""

from __future__ import annotations

import json
import os
import random

import pytest
from hypothesis import given, note
from hypothesis import strategies as st
from strategies import (
    CHOICE_MAX,
    CONFORMANCE_TABLES,
    MAX_ACTIONS_PER_HAND,
    Start,
    Table,
    assert_cards_conserved,
    bot_rngs,
    choice_lists,
    is_rummy,
    notation_actions,
    pick,
    play,
    play_bot,
    play_hands,
    probes,
    shuffle_hidden,
    starts,
    table_id,
)

from meldkit import GameState, HandFinal, IllegalActionError, NotationError, SaveError, score_hand

each_table = pytest.mark.parametrize("table", CONFORMANCE_TABLES, ids=table_id)

CHECKED_STEPS = 400
"""Longest checked play-out per example (after the unchecked warm-up)."""
PROBED_STEPS = 60
"""Steps of a play-out at which random candidate actions are tried (each try compares the
whole saved state, so these play-outs are shorter)."""


# ------------------------------------------------------------------------- 1. conservation
@each_table
@given(data=st.data())
def test_every_card_is_in_exactly_one_zone_after_every_action(table, data):
    state = data.draw(starts(table), label="start").build()
    assert_cards_conserved(state, "the deal (and warm-up)")
    play(state, data.draw(choice_lists(CHECKED_STEPS), label="choices"),
         after=assert_cards_conserved)


# ------------------------------------------------------------------------- 2. legal actions apply
APPLIED_SAMPLE = 2
"""How many legal actions a position of the whole-game soak applies (all are checked)."""


def assert_every_legal_action_applies(state: GameState, _action=None,
                                      applied: random.Random | None = None) -> None:
    """Every legal action passes ``check`` and applies to a clone — or, given ``applied``
    (a seeded generator), every one passes ``check`` and :data:`APPLIED_SAMPLE` of them,
    drawn by it, apply (the whole-game soak: applying is nine tenths of its cost)."""
    legal = state.legal_actions()
    if state.is_over:
        assert legal == [], "a game that is over offers actions"
        return
    assert legal, f"no legal action in {state!r}: the game is stuck"
    assert len(set(legal)) == len(legal), f"legal_actions() repeats actions: {legal}"
    for a in legal:
        why = state.check(a)
        assert why is None, f"{a} is in legal_actions() but check refuses it: {why}"
    if applied is not None and len(legal) > APPLIED_SAMPLE:
        legal = applied.sample(legal, APPLIED_SAMPLE)
    for a in legal:
        try:
            state.clone().apply(a)
        except IllegalActionError as e:
            raise AssertionError(f"{a} is in legal_actions() but apply refuses it: {e}") from e


@each_table
@given(data=st.data())
def test_every_legal_action_is_accepted_by_check_and_apply(table, data):
    state = data.draw(starts(table), label="start").build()
    assert_every_legal_action_applies(state)
    play(state, data.draw(choice_lists(CHECKED_STEPS), label="choices"),
         after=assert_every_legal_action_applies)


# ------------------------------------------------------------------------- 3. illegal actions
def probe(state: GameState, candidate) -> None:
    """check agrees with legal_actions and apply; a refused action changes nothing."""
    legal = set(state.legal_actions())
    try:
        action = state.parse_action(candidate)
    except NotationError as e:
        why = state.check(candidate)
        assert why is not None and why.code == e.code, (
            f"{candidate!r} does not parse ({e}) but check says {why}")
        with pytest.raises(NotationError):
            state.apply(candidate)
        return
    why = state.check(action)
    assert (why is None) == (action in legal), (
        f"check({action}) is {why}, but it is {'' if action in legal else 'not '}"
        "in legal_actions()")
    assert state.check(str(action)) == why, "check disagrees between an action and its notation"
    if why is None:
        state.clone().apply(action)  # must not raise: check accepted it
        return
    with pytest.raises(IllegalActionError) as refused:
        state.apply(action)
    assert refused.value.code == why.code, (
        f"apply({action}) refused with {refused.value.code}, check with {why.code}")


@each_table
@given(data=st.data())
def test_check_agrees_with_apply_and_refused_actions_change_nothing(table, data):
    state = data.draw(starts(table, max_warmup=900), label="start").build()
    steps = data.draw(st.integers(0, PROBED_STEPS), label="steps")
    candidates = st.lists(probes(state), min_size=1, max_size=4)
    for _ in range(steps + 1):
        if state.is_over:
            break
        before = state.to_json()
        tried = [p.resolve(state) for p in data.draw(candidates, label="candidates")]
        for c in tried:
            probe(state, c)
        if state.to_json() != before:  # find which refused action left a trace
            for c in tried:
                s = GameState.from_json(before)
                try:
                    s.apply(c)
                except IllegalActionError:
                    assert s.to_json() == before, f"refused {c!r} changed the state"
            raise AssertionError(f"probing {tried} changed the state")
        state.apply(pick(state, data.draw(st.integers(0, CHOICE_MAX))))


# ------------------------------------------------------------------------- 4. determinism
@each_table
@given(data=st.data())
def test_same_seed_and_same_actions_give_the_same_game(table, data):
    start = data.draw(starts(table), label="start")
    choices = data.draw(choice_lists(CHECKED_STEPS), label="choices")
    first, second = start.build(), start.build()
    play(first, choices)
    play(second, choices)
    assert first.to_json() == second.to_json()
    # the same actions again, as notation text, from a fresh deal
    replay = start.new_game()
    for text in first.history:
        replay.apply(text)
    assert replay.to_json() == first.to_json()


# ------------------------------------------------------------------------- 5. save / load
@each_table
@given(data=st.data())
def test_save_and_load_mid_game_gives_an_identical_continuation(table, data):
    start = data.draw(starts(table), label="start")
    choices = data.draw(choice_lists(CHECKED_STEPS), label="choices")
    at = data.draw(st.integers(0, len(choices)), label="save after")
    original = start.build()
    play(original, choices[:at])
    saved = original.to_json()
    loaded = GameState.from_json(saved)
    assert loaded.to_json() == saved
    assert loaded.legal_actions() == original.legal_actions()
    play(original, choices[at:])
    play(loaded, choices[at:])
    assert loaded.to_json() == original.to_json()


# ------------------------------------------------------------------------- 6. hidden information
UNREACHABLE = ("no game reaches such a position",
               "the position at the start of this turn is not counted",
               "is not the kind of a card in the hand of the player to move")
"""What a save check says of a position no game can reach: a shuffle of hidden cards may
make one (gin: a knocker's hand that can no longer get down to the knock value; Houses
after the deck: the repetition count keys each position by where every card lies, hidden
ones too, so a shuffled save no longer holds its own position; Rummy 500: a card taken
deep from the face-up pile, owed at once, is a public fact the shuffle may move away)."""


def assert_views_blind_to_hidden_cards(state: GameState, rng: random.Random) -> None:
    for p in range(state.n_players):
        for _ in range(20):  # shuffle again when the shuffle made an unreachable position
            try:
                shuffled = shuffle_hidden(state, p, rng)
                break
            except SaveError as e:
                if not any(why in str(e) for why in UNREACHABLE):
                    raise
        else:
            continue
        assert_cards_conserved(shuffled, f"shuffling the cards hidden from seat {p}")
        assert shuffled.view(p) == state.view(p), (
            f"seat {p}'s view changed when only cards hidden from them were shuffled")


@each_table
@given(data=st.data())
def test_a_view_does_not_change_when_hidden_cards_are_shuffled(table, data):
    state = data.draw(starts(table, max_warmup=1500), label="start").build()
    rng = random.Random(data.draw(st.integers(0, 2**32 - 1), label="shuffle seed"))
    every = 23

    def check_sometimes(state, _action):
        if len(state.history) % every == 0:
            assert_views_blind_to_hidden_cards(state, rng)

    assert_views_blind_to_hidden_cards(state, rng)
    play(state, data.draw(choice_lists(200), label="choices"), after=check_sometimes)
    assert_views_blind_to_hidden_cards(state, rng)


# ------------------------------------------------------------------------- 7. scoring
def assert_rummy_final_scores(state, hr) -> None:
    if getattr(state, "plugin", None) is None:  # a plugin may adjust the table's scores
        assert list(hr.scores) == score_hand(state.rules, hr.final)
    reloaded = HandFinal.from_dict(json.loads(json.dumps(hr.final.to_dict())))
    assert reloaded == hr.final, "a hand's final zones do not survive JSON"
    final = hr.final
    ids = [c for zone in (*final.hands, *final.reserves, *final.bonus) for c in zone]
    ids += [c for team in final.melds for _, cards in team for c in cards]
    assert len(ids) == len(set(ids)), "a card is in two final zones"


@each_table
@given(data=st.data())
def test_hand_scores_are_a_function_of_the_final_zones(table, data):
    state = data.draw(starts(table, max_warmup=2000), label="start").build()
    hands = data.draw(st.integers(1, 2), label="hands")
    play_hands(state, data.draw(bot_rngs(), label="bot"), hands)
    assert state.hand_results, "self-play finished no hand"
    totals = [0] * len(state.scores)
    for hr in state.hand_results:
        assert state.rescore(hr) == hr.totals, f"hand {hr.hand_number} rescored differently"
        if isinstance(hr.final, HandFinal):  # the rummy kernel: itemised, pure scoring
            assert_rummy_final_scores(state, hr)
        for team, total in enumerate(hr.totals):
            totals[team] += total
    assert totals == state.scores
    loaded = GameState.from_json(state.to_json())
    assert [h.scores for h in loaded.hand_results] == [h.scores for h in state.hand_results]


# ------------------------------------------------------------------------- 8. self-play, clones
@each_table
@given(data=st.data())
def test_self_play_finishes_hands_and_clones_are_independent(table, data):
    start = data.draw(starts(table), label="start")
    state = start.build()
    every = 29
    kept: list[tuple[GameState, str]] = []

    def check_clones(state, _action):
        if len(state.history) % every:
            return
        for old, old_json in kept:  # the original has moved on; earlier clones must not
            assert old.to_json() == old_json, "acting on a game changed its earlier clone"
        before = state.to_json()
        clone = state.clone()
        assert clone.to_json() == before
        assert clone.legal_actions() == state.legal_actions()
        kept[:] = [(clone.clone(), before)]
        play_bot(clone, random.Random(len(state.history)), 6)
        assert state.to_json() == before, "acting on a clone changed the original"

    lengths = play_hands(state, data.draw(bot_rngs(), label="bot"), 1, after=check_clones)
    note(f"hand lengths {lengths}")
    assert all(n < MAX_ACTIONS_PER_HAND for n in lengths)


# ------------------------------------------------------------------------- 9. notation
@each_table
@given(data=st.data())
def test_the_notation_of_every_action_round_trips(table, data):
    state = data.draw(starts(table), label="start").build()
    seen: set = set()

    def round_trip(state, _action=None):
        for a in state.legal_actions():
            if a not in seen:
                seen.add(a)
                parsed = state.parse_action(str(a))
                assert parsed == a and parsed is a, f"{a!r} parses as {parsed!r}"

    round_trip(state)
    play(state, data.draw(choice_lists(CHECKED_STEPS), label="choices"), after=round_trip)
    if is_rummy(state):  # every action the rank notation can write
        for a in data.draw(st.lists(notation_actions(state.actions), max_size=20), label="any"):
            assert state.parse_action(str(a)) is a, f"{a!r} does not round-trip"


# ------------------------------------------------------------------------- whole hands and games
@each_table
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_random_self_play_finishes_whole_hands(table, seed):
    state = Start(table, seed).build()
    lengths = play_hands(state, random.Random(seed), 2,
                         after=lambda s, a: assert_cards_conserved(s, a))
    assert len(lengths) == len(state.hand_results)
    assert len(lengths) == 2 or state.is_over  # a game may be a single deal (Houses)


@each_table
@pytest.mark.parametrize("seed", [0, 1])
def test_a_whole_game_reaches_the_target_and_ends(table, seed):
    state = Start(table, seed).build()
    cap = 20_000
    played = play_bot(state, random.Random(seed), cap,
                      after=lambda s, a: assert_cards_conserved(s, a))
    assert state.is_over, f"not over after {played} actions, scores {state.scores}"
    if is_rummy(state):  # the game ends after the hand a side reaches the target, untied
        best = max(state.scores)
        assert best >= state.rules.target and state.scores.count(best) == 1
        assert state.scores[state.winner] == best
    assert state.current_player is None and state.legal_actions() == []
    totals = [sum(h.totals[t] for h in state.hand_results) for t in range(len(state.scores))]
    assert totals == state.scores
    saved = state.to_json()  # a finished game, every hand's record with it, saves and loads
    assert GameState.from_json(saved).to_json() == saved


def _soak_games() -> int:
    raw = os.environ.get("MELDKIT_SOAK_GAMES", "1")
    if not raw.strip().isdigit() or int(raw) < 1:
        raise pytest.UsageError(f"MELDKIT_SOAK_GAMES={raw!r}: expected a whole number of "
                                "games per table, 1 or more")
    return int(raw)


SOAK_SEEDS = range(3, 3 + _soak_games())


@pytest.mark.parametrize("raw", ["x", "0", "-2", "1.5", ""])
def test_a_soak_games_knob_that_is_not_a_whole_number_is_refused_by_name(monkeypatch, raw):
    monkeypatch.setenv("MELDKIT_SOAK_GAMES", raw)
    with pytest.raises(pytest.UsageError, match=f"MELDKIT_SOAK_GAMES={raw!r}"):
        _soak_games()
"""The whole-game soak's seeds: one game per table in CI (the quick properties above play
every table too); ``MELDKIT_SOAK_GAMES=8`` (say) plays more in a long run by hand."""


@pytest.mark.slow
@each_table
@pytest.mark.parametrize("seed", SOAK_SEEDS)
def test_whole_games_keep_every_invariant_at_every_action(table, seed):
    """Long soak: whole games with conservation and legal-action checks at every action
    (every legal action checked, a sample of them applied: the quick property above applies
    every one at random positions of every table), and a save/load round trip at every
    hand boundary."""
    state = Start(table, seed).build()
    hands_done = [0]
    applied = random.Random(f"applied:{seed}")

    def check(state, action):
        assert_cards_conserved(state, action)
        assert_every_legal_action_applies(state, applied=applied)
        if len(state.hand_results) != hands_done[0]:
            hands_done[0] = len(state.hand_results)
            saved = state.to_json()
            assert GameState.from_json(saved).to_json() == saved

    play_bot(state, random.Random(seed), 20_000, after=check)
    assert state.is_over


# ------------------------------------------------------------------------- found by this suite
def test_drawing_only_bonus_cards_at_the_end_of_the_stock_ends_the_hand():
    """Found by the legal-actions property (6 players): a player holding one card drew the
    last card of the stock, a red 3, which is laid out and cannot be replaced, and was left
    with one card that may not be discarded (it would mean going out without the required
    books) and no meld: no legal action.  The hand now ends there, as on an empty stock."""
    state = Start(Table("pony_tail", 4), seed=11, first_player=0).build()
    saved = json.loads(state.to_json())
    p = saved["current"]
    bonus_kinds = [k for k, bonus in enumerate(state.rules.is_bonus_kind) if bonus]
    red_three = next(c for c in saved["stock"] if state.kind_of[c] in bonus_kinds)
    keep = next(c for c in saved["hands"][p] if state.kind_of[c] not in bonus_kinds)
    spare = [c for c in saved["stock"] + saved["hands"][p] if c not in (red_three, keep)]
    saved["pile"] = spare + saved["pile"]  # below the top card: out of play for this test
    saved["stock"], saved["hands"][p] = [red_three], [keep]
    state = GameState.from_json(json.dumps(saved))
    assert_cards_conserved(state, "the edit")

    state.apply("draw")

    assert [h.ended_by for h in state.hand_results] == ["stock_empty"]
    assert state.hand_number == 2 and state.legal_actions()
    assert red_three in state.hand_results[0].final.bonus[p]


@pytest.mark.parametrize("pack,players", [("pony_tail", 4), ("pony_canasta", 3), ("houses", 4),
                                          ("rummy", 3), ("contract_rummy", 3),
                                          ("contract_rummy", 8), ("rummy_500", 2),
                                          ("rummy_500", 8), ("buraco", 2), ("buraco", 4)])
def test_the_public_conformance_check_passes_for_every_bundled_pack(pack, players):
    from meldkit.testing import check_conformance

    assert check_conformance(pack, players, games=1, max_actions=20000) > 100


@pytest.mark.parametrize("pack", ["gin_rummy", "oklahoma_gin"])
def test_the_public_conformance_check_passes_for_gin_by_hands(pack):
    """Gin's uniformly random hands end at the wall, so a whole game is out of reach: the
    public check plays a number of hands instead."""
    from meldkit.testing import check_conformance

    assert check_conformance(pack, 2, games=1, hands=5) > 100
