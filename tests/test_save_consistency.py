"""Issue 20 item 4: a save that loads is consistent and live.

Every engine checks each save field against the phase and the rest of the state — a field
only one phase holds (``must_use``, ``taken``, ``knocker`` …) only there, counters within
the pack's limits, owners and cards where a game can put them, the hand records against the
scores — and refuses with a :class:`~meldkit.SaveError` naming the field; a loaded game that
is not over has a legal action.  Each test takes a real save of a game in the phase at
issue, proves it loads, changes one field and proves the refusal names that field.
"""

from __future__ import annotations

import json
from collections.abc import Callable

import pytest

import meldkit
from meldkit import GameState, SaveError
from meldkit.bots import make_bot

Mutation = Callable[[dict], None]


# --------------------------------------------------------------------------- helpers


def reach(pack: str, players: int, until: Callable[[GameState], bool], bot: str = "random",
          seeds: range = range(40), max_steps: int = 4000) -> GameState:
    """A game of ``pack`` played by bots until ``until(state)`` holds (trying seeds)."""
    for seed in seeds:
        g = meldkit.new_game(pack, players=players, seed=seed)
        bots = [make_bot(bot, seed=seed * 10 + p) for p in range(players)]
        for _ in range(max_steps):
            if g.is_over:
                break
            if until(g):
                return g
            g.apply(bots[g.current_player].choose(g))
    raise AssertionError(f"no {pack} game reached the position wanted")


def loads_back(state: GameState) -> dict:
    """The save of ``state``, after proving that it loads back equal."""
    text = state.to_json()
    assert text == GameState.from_json(text, pack=state.pack).to_json()
    return json.loads(text)


def refusal(state: GameState, mutate: Mutation) -> str:
    """The SaveError message for ``state``'s save changed by ``mutate``."""
    d = loads_back(state)
    mutate(d)
    with pytest.raises(SaveError) as e:
        GameState.from_json(json.dumps(d), pack=state.pack)
    return str(e.value)


def assert_refused(state: GameState, mutate: Mutation, field: str, expected: str) -> None:
    message = refusal(state, mutate)
    assert f"damaged meldkit save: {field}: " in message, message
    assert expected in message, message


def move(d: dict, src: list, dst: list, count: int | None = None) -> None:
    """Move ``count`` card ids (all when None) from the end of ``src`` to ``dst``: every card
    stays in exactly one zone, so only the checks under test can refuse."""
    count = len(src) if count is None else count
    for _ in range(count):
        dst.append(src.pop())


def setter(**fields) -> Mutation:
    return lambda d: d.update(fields)


# --------------------------------------------------------------------------- table kernel


@pytest.fixture(scope="module")
def rummy_draw() -> GameState:
    return reach("rummy", 2, lambda g: g.phase == "draw" and g.pile and len(g.history) > 4)


@pytest.fixture(scope="module")
def rummy_play() -> GameState:
    return reach("rummy", 2, lambda g: g.phase == "play" and g.taken is not None)


@pytest.fixture(scope="module")
def gin_upcard() -> GameState:
    return reach("gin_rummy", 2, lambda g: g.phase == "first_upcard" and g.passes == 1)


@pytest.fixture(scope="module")
def gin_draw() -> GameState:
    return reach("gin_rummy", 2, lambda g: g.phase == "draw" and g.hand_results)


@pytest.fixture(scope="module")
def gin_discard() -> GameState:
    return reach("gin_rummy", 2, lambda g: g.phase == "discard" and g.taken is not None)


@pytest.fixture(scope="module")
def gin_knock() -> GameState:
    return reach("gin_rummy", 2, lambda g: g.phase == "knock" and g.melds, bot="greedy")


@pytest.fixture(scope="module")
def gin_layoff() -> GameState:
    return reach("gin_rummy", 2, lambda g: g.phase == "layoff", bot="greedy")


def test_the_issue_example_rummy_must_use_in_the_draw_phase_is_refused(rummy_draw) -> None:
    # before: the save loaded and after 'take' no action was legal in a game not over
    hand = loads_back(rummy_draw)["hands"][rummy_draw.current]
    kind = rummy_draw.kind_of[hand[0]]
    assert_refused(rummy_draw, setter(must_use=kind), "must_use",
                   "expected null in the draw phase")


def test_rummy_must_use_in_the_play_phase_of_a_pack_without_deep_takes(rummy_play) -> None:
    def owe(d):
        d["must_use"], d["taken"] = rummy_play.kind_of[d["hands"][d["current"]][0]], None
    assert_refused(rummy_play, owe, "must_use", "pile.take is top")


def test_taken_is_only_remembered_until_its_taker_discards(rummy_draw, gin_discard) -> None:
    assert_refused(rummy_draw, setter(taken=5), "taken", "expected null in the draw phase")
    in_hand = {gin_discard.kind_of[c] for c in gin_discard.hands[gin_discard.current]}
    other = next(k for k in range(52) if k not in in_hand)
    assert_refused(gin_discard, setter(taken=other), "taken",
                   "is not in the hand of the player to move")


def test_knocker_and_knock_discarded_belong_to_the_knock(gin_draw, gin_knock) -> None:
    assert_refused(gin_draw, setter(knocker=0), "knocker", "expected null in the draw phase")
    assert_refused(gin_draw, setter(knock_discarded=True), "knock_discarded",
                   "expected false in the draw phase")
    assert_refused(gin_knock, setter(knocker=1 - gin_knock.current), "knocker",
                   "the player to move is not the knocker")


def test_defenders_and_layoff_stage_belong_to_the_layoff(gin_draw, gin_layoff) -> None:
    assert_refused(gin_draw, setter(defenders=[1]), "defenders", "expected [] in the draw")
    assert_refused(gin_draw, setter(layoff_stage=1), "layoff_stage", "expected 0 in the draw")
    assert_refused(gin_layoff, setter(layoff_stage=0), "layoff_stage",
                   "expected 1 or 2 in the layoff phase")
    assert_refused(gin_layoff, setter(defenders=[gin_layoff.knocker]), "defenders",
                   "the seats after the knocker")


def test_knock_value_and_multiplier_follow_the_pack(gin_draw) -> None:
    assert_refused(gin_draw, setter(knock_value=7), "knock_value",
                   "expected 10 (knock.max_deadwood)")
    assert_refused(gin_draw, setter(multiplier=2), "multiplier", "doubles no hand")


def test_counters_stay_below_the_limits_that_end_a_hand(gin_draw, rummy_draw) -> None:
    assert_refused(gin_draw, setter(pile_takes=50), "pile_takes", "knock.pile_take_limit")
    assert_refused(gin_draw, setter(returned_in_row=2), "returned_in_row",
                   "knock.returned_card_limit")
    assert_refused(rummy_draw, setter(turns=500), "turns", "game.hand_turn_limit")


def test_hands_hold_the_cards_their_phase_allows(gin_draw, rummy_draw) -> None:
    assert_refused(gin_draw, lambda d: move(d, d["hands"][1], d["stock"], 1), "hands[1]",
                   "expected 10 cards in the draw phase")
    assert_refused(gin_draw, lambda d: move(d, d["stock"], d["hands"][0], 1), "hands[0]",
                   "expected 10 cards")
    other = 1 - rummy_draw.current
    assert_refused(rummy_draw, lambda d: move(d, d["hands"][other], d["stock"]),
                   f"hands[{other}]", "empty in the draw phase")


def test_melds_of_a_knock_pack_are_the_knockers(gin_knock) -> None:
    def owner(d):
        d["melds"][0][1] = 1 - gin_knock.knocker
    assert_refused(gin_knock, owner, "melds[0][1]", "cannot have laid a meld")


def test_the_first_upcard_phase_follows_its_passes(gin_upcard, rummy_draw) -> None:
    assert_refused(gin_upcard, setter(current=gin_upcard.hand_first), "current",
                   "after 1 pass(es) of the upcard")
    assert_refused(rummy_draw, setter(phase="first_upcard"), "phase",
                   "does not offer the upcard")


def test_the_wall_ends_a_hand(gin_draw) -> None:
    assert_refused(gin_draw, lambda d: move(d, d["stock"], d["pile"], len(d["stock"]) - 2),
                   "stock", "a hand ends at the wall of 2")
    assert_refused(gin_draw, setter(phase="wall"), "phase", "above the wall")


def test_table_hand_records_agree_with_the_scores(gin_draw) -> None:
    def bump(key, value):
        def mutate(d):
            d["hand_results"][0][key] = value
        return mutate
    assert_refused(gin_draw, bump("hand_number", 2), "hand_results[0].hand_number",
                   "expected 1")
    assert_refused(gin_draw, bump("ended_by", "fell_asleep"), "hand_results[0].ended_by",
                   "expected one of")

    def score(d):
        d["hand_results"][0]["scores"][0]["items"] = [["deadwood", 99]]
    assert_refused(gin_draw, score, "hand_results[0].scores", "not what its final zones score")

    def team(d):
        d["hand_results"][0]["final"]["team_of"] = [0, 0]
    assert_refused(gin_draw, team, "hand_results[0].final.team_of", "the game's seating")
    assert_refused(gin_draw, lambda d: d["scores"].__setitem__(0, d["scores"][0] + 1),
                   "scores", "are not the sum of the hands' scores")
    assert_refused(gin_draw, setter(wins=[7, 7]), "wins", "the hands each team won")
    assert_refused(gin_draw, lambda d: d.update(hand_number=d["hand_number"] + 1),
                   "hand_number", "finished hand(s) in hand_results")
    assert_refused(gin_draw, lambda d: d.update(phase="over", hand_number=d["hand_number"] - 1),
                   "phase", "no team has reached the target")


def test_a_table_position_with_no_legal_action_is_refused(rummy_draw) -> None:
    def starve(d):  # nothing to draw and nothing to take
        move(d, d["stock"], d["hands"][d["current"]])
        move(d, d["pile"], d["hands"][d["current"]])
    assert_refused(rummy_draw, starve, "phase", "draw, but the player to move would have no "
                                                "legal action")


# --------------------------------------------------------------------------- canasta kernel


@pytest.fixture(scope="module")
def pony_draw() -> GameState:
    return reach("pony_tail", 4, lambda g: g.phase == "draw" and len(g.history) > 8
                 and not g.reserve_taken[(g.current + 1) % 4]
                 and not g.melded[g.team_of[g.current]])


@pytest.fixture(scope="module")
def pony_later() -> GameState:
    """Pony Tail after two hands that ended on an empty stock."""
    return reach("pony_tail", 4, lambda g: len(g.hand_results) >= 2 and g.phase == "draw",
                 seeds=range(1), max_steps=20_000)


@pytest.fixture(scope="module")
def classic_melded() -> GameState:
    return reach("classic_canasta", 4, lambda g: g.phase == "draw" and g.pile
                 and g.melded[g.team_of[g.current]], bot="greedy")


@pytest.fixture(scope="module")
def classic_play() -> GameState:
    return reach("classic_canasta", 4, lambda g: g.phase == "play" and not g.pending)


@pytest.fixture(scope="module")
def hand_and_foot_over() -> GameState:
    g = meldkit.new_game("hand_and_foot", players=4, seed=2)
    bots = [make_bot("greedy", seed=p) for p in range(4)]
    while not g.is_over:
        g.apply(bots[g.current_player].choose(g))
    return g


def test_a_reserve_not_picked_up_holds_the_cards_dealt(pony_draw) -> None:
    p = (pony_draw.current + 1) % 4
    assert_refused(pony_draw, lambda d: move(d, d["reserves"][p], d["stock"], 1),
                   f"reserves[{p}]", "expected the 13 cards dealt")


def test_out_and_empty_hands_agree(pony_draw) -> None:
    p = (pony_draw.current + 1) % 4
    assert_refused(pony_draw, lambda d: d["out"].__setitem__(p, True), f"out[{p}]",
                   "leaves the hand only with no card to discard")
    assert_refused(pony_draw, lambda d: move(d, d["hands"][p], d["stock"]), f"hands[{p}]",
                   "empty, but the seat is not out of the hand")


def test_melded_needs_a_meld_on_the_table(pony_draw) -> None:
    team = pony_draw.team_of[pony_draw.current]
    assert_refused(pony_draw, lambda d: d["melded"].__setitem__(team, True), f"melded[{team}]",
                   "the side has no meld on the table")


def test_a_frozen_pile_is_not_empty(classic_melded) -> None:
    def empty(d):
        move(d, d["pile"], d["stock"])
        d["pile_frozen"] = True
    assert_refused(classic_melded, empty, "pile_frozen", "the discard pile is empty")


def test_failed_initial_belongs_to_a_side_still_to_meld(classic_melded) -> None:
    assert_refused(classic_melded, setter(failed_initial=True), "failed_initial",
                   "the side to move has melded")


def test_melded_at_turn_start_needs_the_player_to_have_melded(pony_draw) -> None:
    assert_refused(pony_draw, setter(melded_at_turn_start=True), "melded_at_turn_start",
                   "has not melded this hand")


def test_over_agrees_with_the_end_of_the_game(pony_later, hand_and_foot_over) -> None:
    assert_refused(pony_later, lambda d: d.update(phase="over", hand_number=d["hand_number"] - 1),
                   "phase", "the game goes on")
    def reopen(d):
        team = hand_and_foot_over.team_of[d["current"]]
        d.update(phase="draw", hand_number=d["hand_number"] + 1,
                 turn_start_sizes=[len(m[1]) for m in d["melds"][team]])
    assert_refused(hand_and_foot_over, reopen, "phase", "draw, but the game ended after hand 4")


def test_no_progress_ends_only_the_last_hand(pony_later) -> None:
    assert pony_later.hand_results[0].ended_by == "stock_empty"

    def relabel(d):
        d["hand_results"][0]["ended_by"] = "no_progress"
    assert_refused(pony_later, relabel, "hand_results[0].ended_by",
                   "only the last hand can end so")


def test_a_canasta_position_with_no_legal_action_is_refused(classic_play) -> None:
    def empty_hand(d):  # the player to move holds nothing to meld or discard
        move(d, d["hands"][d["current"]], d["stock"])
    assert_refused(classic_play, empty_hand, "phase", "play, but seat")


# --------------------------------------------------------------------------- Houses


@pytest.fixture(scope="module")
def houses_act() -> GameState:
    return reach("houses", 4, lambda g: g.phase == "act" and len(g.history) > 6)


@pytest.fixture(scope="module")
def houses_take() -> GameState:
    return reach("houses", 4, lambda g: g.phase == "take" and not g.post_deck
                 and len(g.history) > 6)


@pytest.fixture(scope="module")
def houses_post_take() -> GameState:
    return reach("houses", 4, lambda g: g.phase == "take" and g.post_deck)


@pytest.fixture(scope="module")
def houses_removed() -> GameState:
    return reach("houses", 4, lambda g: g.phase == "act" and any(g.removed) and not g.proposed,
                 bot="greedy")


def test_houses_a_passed_card_is_received_first(houses_act) -> None:
    p = houses_act.current
    assert_refused(houses_act, lambda d: d.update(incoming=[
        d["hands"][p].pop() if q == p else c for q, c in enumerate(d["incoming"])]),
        f"incoming[{p}]", "picked up before anything else")


def test_houses_turn_flags_follow_the_phase(houses_take, houses_act) -> None:
    assert_refused(houses_take, setter(proposed=True), "proposed", "true in the take phase")
    assert_refused(houses_act, setter(passes_in_row=1), "passes_in_row",
                   "0 while the deck lasts")
    assert_refused(houses_act, setter(phase="answer", proposed=True), "phase",
                   "an end may be proposed only with")


def test_houses_positions_are_counted_after_the_deck(houses_take, houses_post_take) -> None:
    assert_refused(houses_take, setter(positions={"0" * 16: 1}), "positions",
                   "only after the deck is exhausted")
    assert_refused(houses_post_take, setter(positions={}), "positions",
                   "the position at the start of this turn is not counted")
    key = houses_post_take.position_key()

    def thrice(d):
        d["positions"][key] = 3
    assert_refused(houses_post_take, thrice, f"positions.{key}", "the game ends at the 3th")


def test_houses_groups_are_removed_after_the_deck(houses_removed) -> None:
    assert_refused(houses_removed, setter(post_deck=False), "removed",
                   "groups are removed only after the deck is exhausted")


def test_houses_an_ending_must_have_happened(houses_act) -> None:
    assert_refused(houses_act, setter(phase="over", ended_by="agreed", proposed=False),
                   "ended_by", "agreed, but the position does not end the game")


def test_a_pending_take_of_the_piles_last_card_keeps_the_pile_frozen_and_saves():
    """Pony Tail, 6 players: a side that has not melded takes a frozen pile of one card
    toward its initial meld; the pile is empty but still frozen (a withdrawal puts the card
    back), and the save of that position loads (Hypothesis found it refused)."""
    import random

    g = meldkit.new_game("pony_tail", players=6, seed=35)
    rng = random.Random(35)
    while not (g.pile_frozen and not g.pile):
        g.apply(rng.choice(g.legal_actions()))
    assert g.pile_pending and GameState.from_json(g.to_json()) == g
    g.apply("withdraw")
    assert g.pile_frozen and len(g.pile) == 1


@pytest.mark.parametrize("pack, players", [("pony_tail", 4), ("houses", 4), ("gin_rummy", 2)])
@pytest.mark.parametrize("field", ["seed", "scores", "hand_number"])
def test_a_huge_number_in_a_save_is_refused_without_repeating_it(pack, players, field):
    data = json.loads(meldkit.new_game(pack, players=players, seed=3).to_json())
    data[field] = [10**4000] * len(data["scores"]) if field == "scores" else 10**4000
    with pytest.raises(SaveError) as e:
        GameState.from_json(json.dumps(data))
    assert len(str(e.value)) < 200 and "0" * 61 not in str(e.value)  # security.md: 60 shown
