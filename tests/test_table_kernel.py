"""The table-melds kernel's mechanics, from stacked decks: pile take modes (top, whole,
deep), lay-off scope, the stock running out, the wall, scoring styles and lowest-wins games,
saves, atomicity, views — and the loader refusing table-meld packs that cannot run or end.

Rule-clause tests for the bundled packs live in ``test_gin_rummy_rules.py`` and
``test_rummy_rules.py``; these prove the keys themselves."""

from __future__ import annotations

import json

import pytest

import meldkit
from meldkit import IllegalActionError, RulePackError, SaveError

RUMMY_BASE = """
meldkit: 1
extends: rummy
name: test_rummy
deal: {hand_by_players: {2: 7}}
"""


def pack(extra: str = "", base: str = RUMMY_BASE):
    return meldkit.load_pack_text(base + extra)


def deal(p, players, hands, upcard, stock=(), seed=0, first=0):
    """A game whose first hand deals ``hands`` (full, seat by seat from ``first``), then the
    upcard, then ``stock`` from the top."""
    order = [c for h in hands for c in h] + [upcard] + list(stock)
    return meldkit.new_game(p, players=players, seed=seed,
                            options={"first_player": first}, deck_order=order)


def texts(g):
    return sorted(str(a) for a in g.legal_actions())


# --------------------------------------------------------------------------- drawing


def test_take_top_takes_one_card_only():
    g = deal(pack(), 2, [["2C", "5D", "9H", "JS", "KC", "3D", "6H"],
                         ["4C", "7D", "10H", "QS", "AC", "8D", "8H"]],
             "5S", stock=["KS"])
    assert "take" in texts(g)
    g.apply("take")
    assert "5S" in g.view(0)["hand"] and g.view(0)["pile"]["cards"] == []


def test_discard_taken_card_false_refuses_giving_back_the_card_taken():
    g = deal(pack(), 2, [["2C", "5D", "9H", "JS", "KC", "3D", "6H"],
                         ["4C", "7D", "10H", "QS", "AC", "8D", "8H"]], "7S", stock=["KS"])
    g.apply("take")
    why = g.check("discard 7S")
    assert why is not None and why.code == "discard/taken-card"
    assert g.check("discard 2C") is None


def test_pile_take_pile_takes_the_whole_pile():
    p = pack("pile: {take: pile}\n")
    g = deal(p, 2, [["2C", "5D", "9H", "JS", "KC", "3D", "6H"],
                    ["4C", "7D", "10H", "QS", "AC", "8D", "8H"]], "5S", stock=["KS", "2D"])
    g.apply("draw")
    g.apply("discard 2C")
    g.apply("take")
    assert {"5S", "2C"} <= set(g.view(1)["hand"]) and g.view(1)["pile"]["cards"] == []


DEEP = "pile: {take: deep, discard_taken_card: true}\n"


def test_deep_take_down_to_a_chosen_card_that_must_be_used_at_once():
    # Rummy 500: take 4H and everything above it; 4H must be melded (with 5H 6H) at once.
    p = pack(DEEP)
    g = deal(p, 2, [["5H", "6H", "9C", "JS", "KC", "3D", "QD"],
                    ["2C", "7D", "10H", "QS", "AC", "8D", "8S"]], "4H",
             stock=["KS", "2D", "9D"])
    g.apply("draw")
    g.apply("discard 9C")         # pile: 4H 9C
    g.apply("draw")
    g.apply("discard 8S")         # pile: 4H 9C 8S
    legal = texts(g)
    assert "take 4H" in legal and "take" in legal
    assert "take 9C" not in legal  # 9C could not be melded at once
    g.apply("take 4H")
    assert {"4H", "9C", "8S"} <= set(g.view(0)["hand"]) and g.view(0)["pile"]["cards"] == []
    # until 4H is used, only melds or lay-offs that use it are legal
    assert texts(g) == ["meld 4H 5H 6H"]
    assert g.check("discard 9C").code == "pile/must-use"
    g.apply("meld 4H 5H 6H")
    assert any(t.startswith("discard") for t in texts(g))


def test_deep_take_refused_for_a_card_that_cannot_be_used():
    p = pack(DEEP)
    g = deal(p, 2, [["5H", "6H", "9C", "JS", "KC", "3D", "QD"],
                    ["2C", "7D", "10H", "QS", "AC", "8D", "8S"]], "KH", stock=["KS", "2D"])
    g.apply("draw")
    g.apply("discard 9C")
    assert g.check("take KH").code == "pile/cannot-take"


# --------------------------------------------------------------------------- laying off

HANDS_LAYOFF = [["5H", "6H", "7H", "JS", "KC", "3D", "QD"],
                ["8H", "2C", "10H", "QS", "AC", "8D", "8S"]]


@pytest.mark.parametrize("onto, refused", [("any", None), ("own", "add/not-your-meld"),
                                            ("none", "add/not-allowed")])
def test_lay_off_scope(onto, refused):
    p = pack(f"melds: {{lay_off: {{onto: {onto}}}}}\n")
    g = deal(p, 2, HANDS_LAYOFF, "9C", stock=["KS", "2D", "4D"])
    g.apply("draw")
    g.apply("meld 5H 6H 7H")
    g.apply("discard KC")
    g.apply("draw")
    why = g.check("add 8H to m1")
    assert refused == (why and why.code)


def test_lay_off_names_the_target_meld_and_a_wrong_target_is_refused():
    g = deal(pack(), 2, HANDS_LAYOFF, "9C", stock=["KS", "2D", "4D"])
    g.apply("draw")
    g.apply("meld 5H 6H 7H")
    g.apply("discard KC")
    g.apply("draw")
    assert g.check("add 8H to m2").code == "meld/no-such-meld"
    g.apply("add 8H to m1")
    assert g.view(1)["melds"][0]["cards"] == ["5H", "6H", "7H", "8H"]


def test_max_per_end_limits_lay_offs_at_each_end_of_a_run():
    p = pack("melds: {lay_off: {onto: any, max_per_end: 1}}\n")
    g = deal(p, 2, [["5H", "6H", "7H", "JS", "KC", "3D", "QD"],
                    ["8H", "9H", "10H", "QS", "AC", "8D", "8S"]], "9C", stock=["KS", "2D"])
    g.apply("draw")
    g.apply("meld 5H 6H 7H")
    g.apply("discard KC")
    g.apply("draw")
    g.apply("add 8H to m1")
    assert g.check("add 9H to m1").code == "add/end-full"  # the cap, named


# --------------------------------------------------------------------------- going out


def test_going_out_by_melding_every_card_without_a_discard():
    g = deal(pack(), 2, [["5H", "6H", "7H", "8H", "JS", "JC", "JD"],
                         ["2C", "4C", "10H", "QS", "AC", "8D", "8S"]], "KC", stock=["9H"])
    g.apply("draw")                   # 9H
    g.apply("meld 5H 6H 7H 8H 9H")
    g.apply("meld JC JD JS")          # the last cards: out, no discard needed
    r = g.hand_results[0]
    assert (r.ended_by, r.went_out) == ("went_out", 0)
    assert g.hand_number == 2


def test_requires_discard_true_keeps_a_card_to_discard():
    p = pack("going_out: {requires_discard: true}\n")
    g = deal(p, 2, [["5H", "6H", "7H", "JS", "JC", "JD", "QD"],
                    ["8H", "2C", "10H", "QS", "AC", "8D", "8S"]], "9C", stock=["QH"])
    g.apply("draw")
    g.apply("meld 5H 6H 7H")
    g.apply("meld JC JD JS")
    # two cards left (QD QH): a meld of all of them would leave nothing to discard
    g.apply("discard QH")
    assert g.view(0)["hand"] == ["QD"]


def test_winner_takes_hands_scores_the_cards_left_in_the_other_hands():
    g = deal(pack(), 2, [["5H", "6H", "7H", "JS", "JC", "JD", "QD"],
                         ["8H", "2C", "10H", "QS", "AC", "8D", "8S"]], "9C",
             stock=["QH", "3C", "8C"])
    g.apply("draw")                   # QH
    g.apply("meld 5H 6H 7H")
    g.apply("meld JC JD JS")
    g.apply("discard QH")             # p0 keeps QD
    g.apply("draw")                   # p1: 3C
    g.apply("meld 8D 8H 8S")
    g.apply("discard 3C")             # p1 keeps 2C 10H QS AC: 23 points
    g.apply("draw")                   # p0: 8C
    g.apply("add 8C to m3")           # onto p1's meld (lay_off.onto: any)
    g.apply("discard QD")             # out by a last discard
    r = g.hand_results[0]
    assert (r.ended_by, r.went_out) == ("went_out", 0)
    assert r.scores[0].items == (("cards_in_other_hands", 23),)
    assert r.scores[1].items == ()
    assert r.net == (23, -23) and g.scores == [23, 0]


# --------------------------------------------------------------------------- stock


def test_turn_pile_turns_the_pile_over_as_the_new_stock():
    p = pack()
    g = deal(p, 2, [["2C", "5D", "9H", "JS", "KC", "3D", "6H"],
                    ["4C", "7D", "10H", "QS", "AC", "8D", "8H"]], "5S")
    g.stock[:] = g.stock[-2:]   # shorten the stock: two cards left
    moved = g.pile[:]
    g.apply("draw")
    g.apply("discard 2C")
    g.apply("draw")
    g.apply("discard 4C")       # stock empty: the pile but its top becomes the stock
    assert g.view(0)["pile"]["cards"] == ["4C"]
    assert g.view(0)["stock"] == 2 and g.hand_number == 1
    assert g.stock[-1] == moved[0]  # the bottom card of the pile is drawn first


def test_end_hand_when_the_stock_is_empty():
    """``stock.when_empty: end_hand``: with the stock empty the next player may still take
    the last discard, and ``pass`` (not taking) ends the hand — as the canasta kernel's
    ``end`` does; ``end_at_once`` ends it as the turn that emptied the stock ends."""
    def emptied(how: str):
        g = deal(pack(f"stock: {{when_empty: {how}}}\n"), 2,
                 [["2C", "5D", "9H", "JS", "KC", "3D", "6H"],
                  ["4C", "7D", "10H", "QS", "AC", "8D", "8H"]], "5S")
        g.stock[:] = g.stock[-1:]
        g.apply("draw")
        g.apply("discard 2C")
        return g

    g = emptied("end_hand")
    assert not g.hand_results and [str(a) for a in g.legal_actions()] == ["pass", "take"]
    assert g.check("draw").code == "draw/stock-empty"
    g.apply("pass")
    assert g.hand_results[0].ended_by == "stock_empty"
    assert g.hand_results[0].totals == (0, 0)
    g = emptied("end_at_once")
    assert g.hand_results[0].ended_by == "stock_empty"
    assert g.hand_results[0].totals == (0, 0)
    g = emptied("end_hand")
    g.apply("take")  # play goes on with the 2C
    g.apply("discard 4C")
    assert not g.hand_results and g.legal_actions()[0].type == "pass"
    assert g.check("pass") is None


# --------------------------------------------------------------------------- scoring styles


def test_penalty_scoring_counts_own_cards_and_the_lowest_total_wins():
    p = pack("scoring: {style: penalty}\ngame: {winner: lowest, target: 10}\n")
    g = deal(p, 2, [["5H", "6H", "7H", "JS", "JC", "JD", "QD"],
                    ["8H", "2C", "10H", "QS", "KC", "8D", "8S"]], "9C", stock=["QH", "3C"])
    g.apply("draw")
    g.apply("meld 5H 6H 7H")
    g.apply("meld JC JD JS")
    g.apply("discard QH")
    g.apply("draw")
    g.apply("meld 8D 8H 8S")
    g.apply("discard 3C")
    g.apply("take")
    g.apply("discard QD")            # p0 still holds 3C … play p0's last card out:
    assert not g.is_over or g.winner is not None
    while not g.is_over:
        legal = g.legal_actions()
        melds = [a for a in legal if a.type in ("meld", "add")]
        g.apply(melds[0] if melds else legal[-1])
    r = g.hand_results[-1]
    assert all(s.total >= 0 for s in r.scores)
    assert g.winner == g.scores.index(min(g.scores))


def test_loader_refuses_penalty_scoring_with_a_highest_wins_target():
    with pytest.raises(RulePackError) as e:
        pack("scoring: {style: penalty}\n")
    assert "game.winner" in str(e.value) and "lowest" in str(e.value)


def test_loader_refuses_a_deal_that_leaves_too_little_stock():
    with pytest.raises(RulePackError) as e:  # 2 × 25 + the upcard: one card left, no wall
        meldkit.load_pack_text("meldkit: 1\nextends: rummy\ndeal: {hand: 25, "
                               "hand_by_players: null}\nplayers: {max: 2}\n"
                               "stock: {wall: 2, when_empty: end_hand}\n")
    assert ("2 players × 25 cards + 1 upcard leave 1 cards in a stock of 52, but play needs "
            "at least 3 (stock.wall + 1) left in the stock") in str(e.value)


def test_loader_refuses_knocking_without_knock_scoring():
    with pytest.raises(RulePackError) as e:
        pack("knock: {max_deadwood: 10}\n")
    assert "knock.max_deadwood" in str(e.value)


def test_loader_refuses_table_keys_in_a_canasta_pack():
    with pytest.raises(RulePackError) as e:
        meldkit.load_pack_text("meldkit: 1\nextends: pony_tail\nscoring: {style: penalty}\n")
    assert "melds.kinds" in str(e.value)


def test_loader_locates_a_bad_meld_kind():
    with pytest.raises(RulePackError) as e:
        pack("melds:\n  kinds:\n    - {type: set, min_size: 1}\n")
    assert "<string>:8:19: melds.kinds[0].min_size" in str(e.value)


# --------------------------------------------------------------------------- saves, atomicity


def test_save_and_load_mid_hand_continue_identically():
    from meldkit.bots import GreedyBot

    g = meldkit.new_game("rummy", players=3, seed=4)
    bot = GreedyBot(seed=1)
    for _ in range(40):
        g.apply(bot.choose(g))
    h = meldkit.GameState.from_json(g.to_json())
    assert h == g
    for _ in range(40):
        a = bot.choose(g)
        g.apply(a)
        h.apply(str(a))
    assert h == g


def test_a_save_with_a_card_twice_is_refused():
    g = meldkit.new_game("gin_rummy", players=2, seed=4)
    d = json.loads(g.to_json())
    d["hands"][0][0] = d["hands"][1][0]
    with pytest.raises(SaveError, match="one place only"):
        meldkit.GameState.from_json(json.dumps(d))


def test_an_illegal_action_changes_nothing():
    g = meldkit.new_game("gin_rummy", players=2, seed=4)
    before = g.to_json()
    with pytest.raises(IllegalActionError):
        g.apply("knock")
    with pytest.raises(IllegalActionError):
        g.apply("meld 4H 5H 6H")
    assert g.to_json() == before


def test_view_hides_the_other_hand_and_the_stock():
    g = meldkit.new_game("gin_rummy", players=2, seed=4)
    v = g.view(0)
    theirs = {meldkit.card_code(g.kind_of[c]) for c in g.hands[1]}
    text = json.dumps(v)
    assert v["hand_sizes"] == [10, 10]
    assert not any(f'"{c}"' in text for c in theirs - set(v["pile"]["cards"]))


def test_notation_round_trips_with_suits():
    g = meldkit.new_game("rummy", players=2, seed=4)
    for text in ("meld 4H 5H 6H", "add 7H to m3", "discard 10C", "take 5H", "draw", "knock"):
        assert str(g.parse_action(text)) == text
    with pytest.raises(meldkit.NotationError):
        g.parse_action("add 7H to m²")
    with pytest.raises(meldkit.NotationError):
        g.parse_action("meld 4 5 6")


# --------------------------------------------------------------------------- knocking (GRA keys)

GRA = """
meldkit: 1
extends: gin_rummy
name: gin_gra
knock: {big_gin_bonus: 31, tie_is_undercut: true}
"""
P1_HAND = ["KC", "KD", "QC", "QD", "JC", "JD", "10C", "10S", "9D", "2S"]  # 91 unmelded


def gin_deal(p0, p1=P1_HAND, upcard="5H", stock=("5S",), extra=""):
    p = meldkit.load_pack_text(GRA + extra)
    return meldkit.new_game(p, players=2, seed=0, options={"first_player": 0},
                            deck_order=list(p0) + list(p1) + [upcard] + list(stock))


def test_big_gin_melds_all_eleven_cards_without_a_discard():
    g = gin_deal(["AC", "2C", "3C", "4C", "5D", "6D", "7D", "8D", "9H", "9S"], stock=["9C"])
    g.apply("pass")
    g.apply("pass")
    g.apply("draw")                               # 9C: eleven cards, all melded
    g.apply("knock")
    assert "meld AC 2C 3C 4C" in texts(g)         # big gin may skip the discard
    for m in ("meld AC 2C 3C 4C", "meld 5D 6D 7D 8D", "meld 9C 9H 9S"):
        g.apply(m)
    assert texts(g) == ["done"]
    g.apply("done")
    g.apply("done")                               # no lay-offs on gin: the defender melds
    r = g.hand_results[0]
    assert r.ended_by == "big_gin"
    assert r.scores[0].items[:2] == (("deadwood", 91), ("big_gin", 31))


def test_equal_deadwood_is_an_undercut_with_tie_is_undercut():
    p0 = ["2C", "3C", "4C", "5D", "6D", "7D", "9H", "9S", "9C", "AC"]
    p1 = ["KC", "KD", "KH", "QC", "QD", "QH", "JC", "JD", "JH", "AD"]
    g = gin_deal(p0, p1, upcard="5H", stock=["8H"])
    for a in ("pass", "pass", "draw", "knock", "discard 8H", "meld 2C 3C 4C", "meld 5D 6D 7D",
              "meld 9C 9H 9S", "done",                      # p0 knocks with AC: 1
              "done", "meld KC KD KH", "meld QC QD QH", "meld JC JD JH", "done"):  # p1: AD: 1
        g.apply(a)
    r = g.hand_results[0]
    assert r.final.deadwood == (1, 1)
    assert r.ended_by == "undercut"
    assert r.scores[1].items == (("undercut", 25),) and r.net == (-25, 25)


def test_equal_deadwood_scores_nothing_in_openspiels_settings():
    p0 = ["2C", "3C", "4C", "5D", "6D", "7D", "9H", "9S", "9C", "AC"]
    p1 = ["KC", "KD", "KH", "QC", "QD", "QH", "JC", "JD", "JH", "AD"]
    g = meldkit.new_game("gin_rummy", players=2, seed=0, options={"first_player": 0},
                         deck_order=p0 + p1 + ["5H", "8H"])
    for a in ("pass", "pass", "draw", "knock", "discard 8H", "meld 2C 3C 4C", "meld 5D 6D 7D",
              "meld 9C 9H 9S", "done", "done", "meld KC KD KH", "meld QC QD QH",
              "meld JC JD JH", "done"):
        g.apply(a)
    r = g.hand_results[0]
    assert (r.ended_by, r.net, r.totals) == ("knock", (0, 0), (0, 0))


def test_box_and_game_bonuses_are_added_when_the_game_ends():
    p = meldkit.load_pack_text(GRA + "game: {target: 1}\n")
    g = meldkit.new_game(p, players=2, seed=0, options={"first_player": 0},
                         deck_order=["AC", "2C", "3C", "4C", "5D", "6D", "7D", "8D", "9H", "9S"]
                         + P1_HAND + ["5H", "9C"])
    for a in ("pass", "pass", "draw", "knock", "meld AC 2C 3C 4C", "meld 5D 6D 7D 8D",
              "meld 9C 9H 9S", "done", "done"):
        g.apply(a)
    assert g.is_over and g.winner == 0
    items = dict(g.hand_results[-1].scores[0].items)
    assert items["box"] == 25 and items["game"] == 100
    assert g.scores == [91 + 31 + 25 + 100, 0]


# --------------------------------------------------------------------------- bad table keys


@pytest.mark.parametrize("extra, where, says", [
    ("cards: {wild: ['2']}\n", "knock.test", "openspiel judges"),
    ("deal: {hand_by_players: {9: 5}}\n", "deal.hand_by_players.9", "not a player count"),
    ("melds: {lay_off: {max_per_end: -1}}\n", "melds.lay_off.max_per_end", "at least 0"),
    ("deal: {upcard: false}\npile: {first_upcard: offer}\n", "pile.first_upcard", "no upcard"),
    ("knock: {max_deadwood: 5000}\n", "knock.max_deadwood", "0 to 1000"),
    ("stock: {wall: -2}\n", "stock.wall", "at least 0"),
    ("melds:\n  kinds:\n    - {type: set, ace: high}\n", "melds.kinds[0].ace", "runs only"),
    ("game: {hand_turn_limit: 0}\n", "game.hand_turn_limit", "expected null or at least 1, got 0"),
])
def test_a_bad_table_key_is_refused_at_its_line(extra, where, says):
    parent = "gin_rummy" if extra.startswith(("knock", "stock", "cards")) else "rummy"
    base = f"meldkit: 1\nextends: {parent}\nname: bad\n"
    with pytest.raises(RulePackError) as e:
        meldkit.load_pack_text(base + extra, filename="bad.yaml")
    hit = [p for p in e.value.problems if p.path == where]
    assert hit and hit[0].line is not None and says in hit[0].message, str(e.value)


# --------------------------------------------------------------------------- greedy rummy
def _going_out_rate(players: int, memory: bool, games: int = 12) -> tuple[int, int]:
    from meldkit.bots import GreedyBot, play_game
    from meldkit.kernel.table import TableModel

    class Forgetful(GreedyBot):  # the greedy choice without what the player has seen
        def choose(self, state):
            return TableModel.greedy_policy(state)

    ended = []
    for seed in range(games):
        g = meldkit.new_game("rummy", players=players, seed=seed)
        play_game(g, [(GreedyBot if memory else Forgetful)() for _ in range(players)])
        ended += [h.ended_by for h in g.hand_results]
    return sum(e == "went_out" for e in ended), len(ended)


@pytest.mark.parametrize("players", [4, 6])
def test_greedy_rummy_lets_dead_cards_go_and_hands_end_by_going_out(players):
    """Once the stock has turned over, a card no meld can hold with the cards still in
    play is let go first; without it, split pairs stall hands to the 500-turn limit."""
    out, hands = _going_out_rate(players, memory=True)
    assert out >= 0.95 * hands
    stalled_out, stalled_hands = _going_out_rate(players, memory=False)
    assert stalled_out <= 0.8 * stalled_hands  # what the memory fixes


def test_table_memory_reads_public_discards_and_the_stock_turning_over():
    from meldkit._cards import kind_of_code
    from meldkit.kernel.policy import TableMemory

    g = meldkit.new_game("rummy", players=2, seed=3)
    memory = TableMemory()
    memory.update(g)
    assert not memory.turned and memory.seen == set()
    while not memory.turned:
        acts = g.legal_actions()
        draw = next((a for a in acts if a.type == "draw"), None)
        g.apply(draw or next(a for a in acts if a.type == "discard"))
        memory.update(g)
    discards = {kind_of_code(t[8:]) for t in g.history if t.startswith("discard ")}
    assert memory.seen == discards and memory.turned


def test_a_dead_card_is_one_no_meld_can_hold_with_the_cards_still_in_play():
    from types import SimpleNamespace

    from meldkit.kernel.policy import TableMemory

    C2, D2, H2, C3, C4 = 4, 5, 6, 8, 12  # kinds: rank * 4 + suit (clubs 0, diamonds 1 …)
    table = SimpleNamespace(kind_of=list(range(52)), melds=[], pile=[])
    memory = TableMemory()
    assert not memory.dead(table, C2, [D2])  # before the stock turns over: never
    memory.turned = True
    assert memory.dead(table, C2, [D2])  # a pair, the other twos never seen: held elsewhere
    memory.seen = {H2}
    assert not memory.dead(table, C2, [D2])  # 2H circulates: a set of twos can still come
    memory.seen = {C4}
    assert not memory.dead(table, C2, [C3])  # 2C 3C and 4C seen: a run can still come
    table.melds = [SimpleNamespace(cards=[C4, 13, 14])]
    assert memory.dead(table, C2, [C3])  # 4C is on the table now, not in play


WITHIN_MAX = """\
meldkit: 1
extends: rummy
name: four_max
melds:
  kinds:
    - {name: set, type: set, min_size: 3, max_size: 4}
    - {name: run, type: run, min_size: 3, max_size: 4}
  lay_off: {within_max_size: true}
"""


def test_within_max_size_keeps_lay_offs_from_growing_a_meld_past_its_kinds_max_size():
    from meldkit.testing import refusal, stacked_game

    p = meldkit.load_pack_text(WITHIN_MAX, filename="four_max.yaml")
    g = stacked_game(p, 2, hands={0: "5H 6H 7H 8H 9H 2C 2D".split()}, upcard="KS",
                     stock=["QS"])
    g.apply("draw")
    g.apply("meld 5H 6H 7H")
    g.apply("add 8H to m1")  # four: its kind's max_size
    why = refusal(g, "add 9H to m1")
    assert why.code == "add/meld-full" and "within_max_size" in why.sentence
    assert "add 4H to m1" not in [str(a) for a in g.legal_actions()]
    plain = meldkit.load_pack_text(WITHIN_MAX.replace("  lay_off: {within_max_size: true}\n",
                                                      ""), filename="plain.yaml")
    h = stacked_game(plain, 2, hands={0: "5H 6H 7H 8H 9H 2C 2D".split()}, upcard="KS",
                     stock=["QS"])
    for move in ("draw", "meld 5H 6H 7H", "add 8H to m1", "add 9H to m1"):
        h.apply(move)  # without it, max_size bounds a meld only as it is laid
    assert len(h.melds[0].cards) == 5


@pytest.mark.parametrize("extra,says", [
    ("", "no meld kind sets a max_size"),
    ("    onto: none\n", "no card is ever laid off"),
])
def test_within_max_size_is_refused_where_it_could_change_nothing(extra, says):
    text = WITHIN_MAX.replace("  lay_off: {within_max_size: true}\n",
                              "  lay_off:\n    within_max_size: true\n" + extra)
    if not extra:
        text = text.replace(", max_size: 4", "")
    with pytest.raises(meldkit.RulePackError, match=says):
        meldkit.load_pack_text(text, filename="bad.yaml")


def test_a_forced_take_counts_only_new_melds_where_a_card_owed_goes_into_a_new_meld():
    """Fuzz seed 3470 (a bug older than this stop): with turn.forced [discard] and
    pile.taken_new_meld, a discard that could only be laid off was still forced on the
    player, who then could neither lay it off nor meld it — a dead end."""
    from meldkit.testing import stacked_game

    text = ("extends: rummy_500\nname: forced_new\npile: {taken_melded: always, "
            "taken_new_meld: true}\nturn: {forced: [discard]}\n")
    p = meldkit.load_pack_text(text, filename="forced_new.yaml")
    g = stacked_game(p, 2, hands={0: "5H 6H 7H 8H 2C 4D 9S QC KD".split(),
                                  1: "2D 3C 6D JS 10C 4S 9D QH KS".split()},
                     stock=["AS", "AD"])
    for move in ("draw", "meld 5H 6H 7H", "discard 8H"):
        g.apply(move)
    # seat 1 could lay the 8H off on m1, but not meld it: the take is neither forced nor legal
    legal = [str(a) for a in g.legal_actions()]
    assert "draw" in legal and "take" not in legal, legal
