"""Houses, clause by clause: one scenario per rule of record (``shared/rules/sackson_houses.md``,
SH-1 … SH-12), then variants, conformance over random self-play, and error paths.

Every scenario stacks the whole 32-card deck (:func:`game`), plays scripted actions in
notation (:func:`turns`) and asserts exact outcomes: reason codes from ``check``, groups,
hands, scores.  Tests are named after the clause they prove (``test_sh_7_…``).

Seats: seat 0 plays first; team 0 is seats 0 and 2, team 1 seats 1 and 3.  A seat's
right-hand opponent is the seat before it (seat 3 for seat 0).  Cards a scenario does not
name are dealt from :data:`FILLER`; a seat a script does not care about plays :data:`IDLE`
(the first legal placement; it never steals, moves or removes), so scenarios assert exact
contents only of what they name.

Shared scenarios:

- :func:`seat0_game` — seat 0 builds the given groups, one card a turn, the others idle;
  the game is handed back at seat 0's next turn (the first after the deck, if asked).
- :func:`house_groups_game` — each seat builds the four majors of its own house in space 1
  while drawing that house's four minors; handed back at the first turn after the deck.
  :func:`minors_game` plays it on until every seat has removed its majors and laid out its
  minors; :func:`proposal_game` until only 8 cards are in play (SH-10, SH-12).
- :func:`stuck_game` — seat 0 has four groups nothing fits, a hand that fits none of them
  and nothing to steal or move, on the last turn of the deck (SH-8).
"""

from __future__ import annotations

import json
import random

import pytest

import meldkit
from meldkit import GameState, IllegalActionError, NotationError, RulePackError, SetupError
from meldkit.bots import RandomBot

PACK = "houses"
HOUSES = "SFAP"  # Sun, Flower, Arrow, Pyramid
MAJORS, MINORS = "FLKP", "VSCM"
ALL_CODES = [r + h for h in HOUSES for r in MAJORS + MINORS]  # card id order
FILLER = sorted(ALL_CODES, key=lambda c: (c[0] not in MINORS, c[0], c[1]))
"""The order unnamed cards are dealt in (minors first)."""
IDLE = None
"""A turn in :func:`turns` the scenario does not care about."""
PADS = ["MP", "CP", "SP"]
"""Cards :func:`seat0_game` places in spare turns (a group of Pyramid minors)."""


# --------------------------------------------------------------------------- helpers
def game(hands=None, draws=None, first=0, receives=(), pack=PACK):
    """A game on a fully stacked deck.  ``hands``: {seat: "KS LS ..."} dealt (filled up to
    four from :data:`FILLER`); ``draws``: {seat: "VS SS ..."}, the cards each seat draws, in
    order, assuming seats draw in turn from ``first`` except on the ``(round, seat)`` turns
    in ``receives``, where the seat picks up a passed card instead."""
    hands = {s: h.split() for s, h in (hands or {}).items()}
    draws = {s: d.split() for s, d in (draws or {}).items()}
    named = [c for cards in (*hands.values(), *draws.values()) for c in cards]
    assert len(named) == len(set(named)), "a card is named twice"
    filler = iter(c for c in FILLER if c not in named)
    seats = [(first + i) % 4 for i in range(4)]
    order = []
    for s in seats:
        dealt = hands.get(s, [])
        order += dealt + [next(filler) for _ in range(4 - len(dealt))]
    turn = 0
    while len(order) < len(ALL_CODES):
        rnd, s = turn // 4 + 1, seats[turn % 4]
        turn += 1
        if (rnd, s) not in receives:
            order.append(draws[s].pop(0) if draws.get(s) else next(filler))
    assert not any(draws.values()), "more draws named than the deck holds"
    return meldkit.new_game(pack, players=4, seed=1, options={"first_player": first},
                            deck_order=order)


def take(g):
    """The take at the start of a turn, if the turn has one: receive a passed card, or draw."""
    if g.phase == "take":
        g.apply("receive" if g.incoming[g.current] >= 0 else "draw")


def idle(g):
    """An uninvolved seat's turn: pass the turn if allowed, else the first placement, else
    pass the first card to the partner (only when nothing fits, while the deck lasts)."""
    take(g)
    quiet = [a for a in legal(g) if a == "pass"] + legal(g, "place ") + legal(g, "pass ")
    g.apply(quiet[0])


def turns(g, *acts):
    """Whole turns in order: the take (if any), then the act; :data:`IDLE` idles."""
    for act in acts:
        if act is IDLE:
            idle(g)
        else:
            take(g)
            g.apply(act)


def refusal(g, action):
    """The reason code ``action`` is refused with now (None if legal)."""
    why = g.check(action)
    return None if why is None else why.code


def ids(g, codes):
    """Card ids of space-separated codes."""
    return [g.rules.kind_of_code[c] for c in codes.split()]


def codes(g, cards):
    """Space-separated codes of card ids, in order."""
    return " ".join(g.rules.codes[c] for c in cards)


def table(g, p):
    """Seat ``p``'s group spaces as codes (bottom first), '' for an empty space."""
    return [codes(g, grp) for grp in g.groups[p]]


def hand(g, p):
    """Seat ``p``'s hand as sorted codes."""
    return sorted(g.rules.codes[c] for c in g.hands[p])


def legal(g, verb=""):
    """The legal actions (those starting with ``verb``) as notation."""
    return [str(a) for a in g.legal_actions() if str(a).startswith(verb)]


def assert_conserved(g):
    """Each card of the deck is in exactly one zone."""
    every = [c for cards in g.zone_cards().values() for c in cards]
    assert sorted(every) == list(range(len(g.rules.codes)))


def seat0_game(groups, hold="", post_deck=False, pack=PACK):
    """Seat 0 places ``groups`` (space 1 first, bottom card first), one card a turn, while
    the others idle; returned at seat 0's next turn, after its take, with ``hold`` in hand.
    With ``post_deck`` seat 0 places :data:`PADS` in the next space on its spare turns, so
    that the turn returned is its first after the deck ran out."""
    placements = [(c, s) for s, grp in enumerate(groups, 1) for c in grp.split()]
    if post_deck:
        placements += [(c, len(groups) + 1) for c in PADS[:4 - len(placements)]]
    assert (len(placements) == 4) if post_deck else (len(placements) <= 3)
    cards = [c for c, _ in placements] + hold.split()
    g = game({0: " ".join(cards[:4])}, {0: " ".join(cards[4:])}, pack=pack)
    for card, space in placements:
        turns(g, f"place {card} {space}", IDLE, IDLE, IDLE)
    take(g)
    assert g.current == 0 and g.post_deck == post_deck
    return g


def house_groups_game():
    """Seat 0 builds the Sun majors in space 1 (seat 1 Flower, 2 Arrow, 3 Pyramid) while
    drawing its house's minors; returned at the first turn after the deck, seat 0 to play,
    every hand holding its house's four minors."""
    g = game({s: " ".join(r + h for r in MAJORS) for s, h in enumerate(HOUSES)},
             {s: " ".join(r + h for r in MINORS) for s, h in enumerate(HOUSES)})
    for r in MAJORS:
        turns(g, *(f"place {r}{h} 1" for h in HOUSES))
    assert g.post_deck and g.phase == "act" and g.current == 0
    return g


def every_seat(template, **names):
    """One turn for each seat in order: ``template`` with ``{h}`` the seat's house letter."""
    return [template.format(h=h, **names) for h in HOUSES]


def minors_game():
    """:func:`house_groups_game` played on for five rounds: every seat places its first
    minor in space 2, removes its majors (60 each), then places its other three minors;
    seat 0 to play, every hand empty, 16 cards in play."""
    g = house_groups_game()
    turns(g, *every_seat("place V{h} 2"), *every_seat("remove 1"))
    for r in MINORS[1:]:
        turns(g, *every_seat("place {r}{h} 2", r=r))
    assert (0, [0] * 4, [120, 120]) == (g.current, [len(h) for h in g.hands], g.scores)
    return g


def stuck_game():
    """Seat 0 places KS, LF, VA, CP in four spaces (no two fit together) and ends up
    holding SS MS SF FA PA, the only cards that fit none of them; seat 2 passes it PA in
    round 3, so seat 0 picks it up in round 4 and draws the deck's last card, FA, in round
    5.  Its right-hand opponent, seat 3, builds FP LP KP PP, whose top fits nothing of
    seat 0's.  Returned at seat 0's act in round 5, the deck just exhausted."""
    g = game({0: "KS LF VA CP", 2: "PA", 3: "FP LP KP PP"}, {0: "SS MS SF FA"},
             receives={(4, 0)})
    turns(g, "place KS 1", IDLE, IDLE, "place FP 1",
          "place LF 2", IDLE, IDLE, "place LP 1",
          "place VA 3", IDLE, "pass PA", "place KP 1",
          "place CP 4", IDLE, IDLE, "place PP 1")
    take(g)
    assert g.stock == [] and not g.post_deck
    return g


SMALL = """\
extends: houses
name: houses_small
options:
  group_spaces: 3
  group_max: 3
  scores:
    majors: {3: 35}
    pair: 25
"""
"""A variant that is only a YAML edit: three group spaces, groups of at most three cards,
three majors and pairs worth more (options merge key by key: minors keep 20 and 40)."""


@pytest.fixture(scope="module")
def small():
    return meldkit.load_pack_text(SMALL)


# --------------------------------------------------------------------------- SH-1 deck
def test_sh_1_the_deck_is_32_cards_four_houses_by_eight_roles():
    g = game()
    r = g.rules
    assert sorted(ALL_CODES) == sorted(r.codes)
    assert list(range(32)) == sorted(c for cards in g.zone_cards().values() for c in cards)
    for role in MAJORS + MINORS:  # each rank four cards, one per house
        of_rank = [k for k, c in enumerate(r.codes) if c[0] == role]
        assert sorted(HOUSES) == sorted(r.codes[k][1] for k in of_rank)
        assert {role in MAJORS} == {r.major[k] for k in of_rank}
    for h in range(4):  # each house four majors and four minors
        assert [True] * 4 + [False] * 4 == [r.major[k] for k in range(32) if r.house[k] == h]
    assert ["Sun", "Flower", "Arrow", "Pyramid"] == [h.name for h in r.options.houses]


# --------------------------------------------------------------------------- SH-2 correspondence
def corresponding(pack, major):
    """The Sun minors that fit on the Sun card of ``major`` in seat 0's space 1."""
    g = seat0_game([major + "S"], hold="VS SS CS MS", pack=pack)
    return [m for m in MINORS if g.check(f"place {m}S 1") is None]


@pytest.mark.parametrize("major, minor", [("K", "V"), ("F", "C"), ("L", "M"), ("P", "S")])
def test_sh_2_corresponding_cards_are_the_pack_table(major, minor):
    assert [minor] == corresponding(PACK, major)


@pytest.mark.parametrize("major, minor", [("K", "M"), ("L", "V"), ("F", "C"), ("P", "S")])
def test_sh_2_a_variant_pack_changes_the_correspondence_table(major, minor):
    # under extends, options merge key by key: K and L are rewritten, F and P inherited
    pack = meldkit.load_pack_text("extends: houses\nname: v\noptions:\n"
                                  "  correspondences: {K: M, L: V}\n")
    assert {"K": "M", "F": "C", "L": "V", "P": "S"} == pack.options.correspondences
    assert [minor] == corresponding(pack, major)


# --------------------------------------------------------------------------- SH-3 table
def test_sh_3_four_players_in_two_partnerships_partners_opposite():
    g = game()
    assert [0, 1, 0, 1] == g.team_of
    assert [2, 3, 0, 1] == [g.partner(p) for p in range(4)]
    for players in (3, 5):
        with pytest.raises(SetupError):
            meldkit.new_game(PACK, players=players, seed=1)


def test_sh_3_four_cards_dealt_in_blocks_from_the_first_player_and_sixteen_in_the_deck():
    order = FILLER[::-1]
    g = meldkit.new_game(PACK, players=4, seed=1, options={"first_player": 2}, deck_order=order)
    dealt = {2: order[0:4], 3: order[4:8], 0: order[8:12], 1: order[12:16]}
    assert {p: sorted(c) for p, c in dealt.items()} == {p: hand(g, p) for p in dealt}
    assert order[16:] == [g.rules.codes[c] for c in reversed(g.stock)]  # top first
    assert (2, "take", ["draw"]) == (g.current_player, g.phase, legal(g))


def test_sh_3_play_goes_clockwise_so_the_right_hand_opponent_moved_just_before():
    g = game(first=1)
    movers = []
    for _ in range(8):
        if movers:
            assert movers[-1] == g.right_hand_opponent(g.current)
        movers.append(g.current)
        turns(g, IDLE)
    assert [1, 2, 3, 0, 1, 2, 3, 0] == movers


# --------------------------------------------------------------------------- SH-4 spaces
def test_sh_4_each_player_has_four_group_spaces_and_no_fifth():
    g = stuck_game()
    assert [4, 4, 4, 4] == [len(gs) for gs in g.groups]
    assert ["KS", "LF", "VA", "CP"] == table(g, 0)
    assert ["place/does-not-fit"] * 4 == [refusal(g, f"place SS {s}") for s in range(1, 5)]
    assert "notation/bad-space" == refusal(g, "place SS 5")


# --------------------------------------------------------------------------- SH-5 group types
def fit(groups, card, space=1, pack=PACK):
    """Whether seat 0 may place ``card`` on ``space`` after building ``groups``: None or
    the reason code."""
    return refusal(seat0_game(groups, hold=card, pack=pack), f"place {card} {space}")


@pytest.mark.parametrize("groups, card, code", [
    (["FS LS KS"], "PS", None),                  # four majors of one house
    (["VS SS CS"], "MS", None),                  # four minors of one house
    (["FS LS"], "VS", "place/does-not-fit"),     # majors and minors do not mix
    (["FS LS"], "KF", "place/does-not-fit"),     # nor houses
])
def test_sh_5_type_1_is_majors_or_minors_of_one_house(groups, card, code):
    assert code == fit(groups, card)


@pytest.mark.parametrize("groups, card, code", [
    (["KS KF KA"], "KP", None),                  # four Knights
    (["VS VF"], "VA", None),                     # minors of one rank
    (["KS KF"], "LS", "place/does-not-fit"),     # once of one rank, never of one house
])
def test_sh_5_type_2_is_cards_of_one_rank(groups, card, code):
    assert code == fit(groups, card)


@pytest.mark.parametrize("groups, card, code", [
    (["KS"], "VS", None),                        # major, then its minor
    (["VS"], "KS", None),                        # minor first is allowed (scores nothing)
    (["KS VS"], "LS", "place/does-not-fit"),     # a pair holds exactly two
    (["KS VS"], "KF", "place/does-not-fit"),
    (["KS VS"], "SS", "place/does-not-fit"),
    (["KS"], "VF", "place/does-not-fit"),        # of the same house
])
def test_sh_5_type_3_is_a_corresponding_pair_of_exactly_two(groups, card, code):
    assert code == fit(groups, card)


@pytest.mark.parametrize("groups, card", [(["FS LS KS"], "PS"), (["KS KF KA"], "KP")])
def test_sh_5_type_1_and_2_groups_hold_at_most_group_max_cards(small, groups, card):
    # the High Deck has only four cards of a house's majors and of a rank, so the limit of
    # four shows itself when the pack lowers it (group_max: 3)
    assert None is fit(groups, card)
    assert "place/does-not-fit" == fit(groups, card, pack=small)


# --------------------------------------------------------------------------- SH-6 fitting
def test_sh_6_a_card_that_can_make_no_group_type_is_refused():
    g = seat0_game(["FS LS", "KF"], hold="VS")
    assert ["place/does-not-fit", "place/does-not-fit", None, None] == [
        refusal(g, f"place VS {s}") for s in range(1, 5)]
    assert ["place VS 3", "place VS 4"] == legal(g, "place VS")
    assert "place/not-in-hand" == refusal(g, "place FS 3")


def test_sh_6_any_card_may_go_to_an_empty_space():
    g = seat0_game(["FS LS", "KF"], hold="MP")  # MP fits neither group
    assert ["place MP 3", "place MP 4"] == legal(g, "place MP")
    g.apply("place MP 4")
    assert ["FS LS", "KF", "", "MP"] == table(g, 0)


# --------------------------------------------------------------------------- SH-7 turn
def test_sh_7_a_turn_starts_by_drawing_from_the_deck():
    g = game(draws={0: "MA"})
    assert (["draw"], "turn/draw-first") == (legal(g), refusal(g, "place MA 1"))
    g.apply("draw")
    assert ("act", 15) == (g.phase, len(g.stock))
    assert "MA" in hand(g, 0)
    assert "turn/already-taken" == refusal(g, "draw")


def test_sh_7_a_passed_card_is_face_down_and_must_be_received_instead_of_the_draw():
    g = game({0: "KS"})
    turns(g, "pass KS", IDLE)
    kept = len(g.stock)
    assert (2, ["receive"]) == (g.current_player, legal(g))
    assert "take/must-receive" == refusal(g, "draw")
    for p in range(4):  # no one sees the passed card, only that one waits
        v = g.view(p)
        assert "KS" not in json.dumps(v)
        assert [False, False, True, False] == [q["passed_card_waiting"] for q in v["players"]]
    g.apply("receive")
    assert ("act", kept, -1) == (g.phase, len(g.stock), g.incoming[2])
    assert "KS" in hand(g, 2)
    assert "turn/already-taken" == refusal(g, "draw")


def test_sh_7_place_one_card_on_a_fitting_group_or_into_an_empty_space():
    g = seat0_game(["KS"], hold="LS VF")
    assert "place/does-not-fit" == refusal(g, "place VF 1")
    assert "place/not-in-hand" == refusal(g, "place KS 2")
    g.apply("place LS 1")
    assert (["KS LS", "", "", ""], 1) == (table(g, 0), g.current)
    assert "LS" not in hand(g, 0)


def test_sh_7_steal_takes_only_the_top_card_of_the_right_hand_opponent():
    g = game({0: "LS KS", 1: "LF", 3: "LP VF"})
    turns(g, "place LS 1", "place LF 1", IDLE, "place LP 1",
          "place KS 1")
    take(g)  # seat 1; its right-hand opponent is seat 0 (top KS over LS)
    kept = hand(g, 1)
    # KS fits nothing of seat 1's; neither LS under it nor seat 3's LP can be taken
    assert "steal/does-not-fit" == refusal(g, "steal 1 to 1")
    assert "steal/empty-group" == refusal(g, "steal 2 to 2")
    assert ["steal 1 to 2", "steal 1 to 3", "steal 1 to 4"] == legal(g, "steal")
    g.apply("steal 1 to 2")
    assert (["LS", "", "", ""], ["LF", "KS", "", ""]) == (table(g, 0), table(g, 1))
    assert (kept, 2) == (hand(g, 1), g.current)
    turns(g, IDLE, "place VF 2")
    take(g)  # seat 0 again, after seat 3: LP now fits its LS (one rank)
    g.apply("steal 1 to 1")
    assert (["LS LP", "", "", ""], ["", "VF", "", ""]) == (table(g, 0), table(g, 3))


def test_sh_7_a_move_that_leaves_the_table_as_it_was_is_no_move():
    g = seat0_game(["LS KS", "KF"])
    assert "move/does-not-fit" == refusal(g, "move 2 to 3")  # the lone KF into an empty space
    assert "move 2 to 3" not in legal(g, "move")
    assert "move 1 to 3" in legal(g, "move")  # KS off LS into an empty space changes the table


def test_sh_7_move_the_top_card_to_another_fitting_group_or_an_empty_space():
    g = seat0_game(["LS KS", "KF"])
    kept = hand(g, 0)
    assert ["move 1 to 2", "move 1 to 3", "move 1 to 4"] == legal(g, "move")
    assert "move/does-not-fit" == refusal(g, "move 2 to 1")  # KF on KS (top) fits no type
    assert "move/does-not-fit" == refusal(g, "move 2 to 3")  # a lone card: no change
    assert "move/empty-group" == refusal(g, "move 3 to 1")
    g.apply("move 1 to 2")  # instead of any other play: the turn is over
    assert (["LS", "KF KS", "", ""], kept, 1) == (table(g, 0), hand(g, 0), g.current)


# --------------------------------------------------------------------------- SH-8 forced pass
def test_sh_8_a_player_who_can_place_nowhere_nor_steal_nor_move_must_pass_a_card():
    g = stuck_game()
    assert ["FA", "MS", "PA", "SF", "SS"] == hand(g, 0)
    assert ["FP LP KP PP", "", "", ""] == table(g, 3)
    assert sorted(f"pass {c}" for c in hand(g, 0)) == sorted(legal(g))
    g.apply("pass SS")
    assert (ids(g, "SS")[0], 1) == (g.incoming[2], g.current)


# --------------------------------------------------------------------------- SH-9 after the deck
def test_sh_9_after_the_deck_there_is_no_take_and_no_passing_cards_to_the_partner():
    g = house_groups_game()
    assert ([], ["CS", "MS", "SS", "VS"], "act") == (g.stock, hand(g, 0), g.phase)
    assert "draw/deck-exhausted" == refusal(g, "draw")
    assert "pass/deck-exhausted" == refusal(g, "pass VS")
    assert "pass/must-play" == refusal(g, "pass")
    assert [] == legal(g, "pass")


def test_sh_9_remove_a_complete_scoring_group_only_after_the_deck():
    pre = seat0_game(["FS LS KS"], hold="PS")
    assert "remove/deck-not-exhausted" == refusal(pre, "remove 1")
    g = house_groups_game()
    assert ["remove 1"] == legal(g, "remove")
    assert "remove/not-complete" == refusal(g, "remove 2")
    g.apply("remove 1")
    assert (["", "", "", ""], ["FS LS KS PS"], [60, 0]) == (
        table(g, 0), [codes(g, grp) for grp in g.removed[0]], g.scores)


def test_sh_9_pass_with_an_empty_hand_even_when_a_play_exists():
    g = minors_game()
    assert ["remove 2", "pass"] == legal(g, "remove") + legal(g, "pass")
    g.apply("pass")
    assert 1 == g.current


def test_sh_9_pass_with_cards_in_hand_only_when_no_other_play_exists():
    g = stuck_game()
    turns(g, "pass FA", IDLE, IDLE, "remove 1")  # seat 3 removes FP LP KP PP
    assert (0, ["MS", "PA", "SF", "SS"]) == (g.current, hand(g, 0))
    assert ["pass"] == legal(g)
    assert "pass/deck-exhausted" == refusal(g, "pass SS")


def test_sh_9_a_pack_may_allow_passing_always():
    always = meldkit.load_pack_text("extends: houses\nname: v\noptions:\n"
                                    "  pass_after_deck: always\n")
    g = seat0_game(["FS LS KS PS"], post_deck=True, pack=always)
    assert "pass" in legal(g)


# --------------------------------------------------------------------------- SH-10 end
def test_sh_10_a_team_with_no_cards_left_on_the_table_after_removing_groups_ends_it():
    g = house_groups_game()
    turns(g, "remove 1", "remove 1")  # seat 0's table is empty, seat 2's is not
    assert not g.is_over
    turns(g, "remove 1")
    assert ("table_cleared", None) == (g.hand_results[-1].ended_by, g.current_player)


def proposal_game():
    """:func:`minors_game` after seats 0 and 1 remove their minors (40 each): 8 cards in
    play (seats 2 and 3's minors on the table), seat 2 to play."""
    g = minors_game()
    assert 16 == g.cards_in_play()
    assert "end/too-many-cards" == refusal(g, "propose")
    turns(g, "remove 2")
    assert ("end/too-many-cards", 12) == (refusal(g, "propose"), g.cards_in_play())
    turns(g, "remove 2")
    assert (8, 2) == (g.cards_in_play(), g.current)
    return g


def test_sh_10_with_8_cards_in_play_a_proposal_the_partner_agrees_to_ends_it():
    g = proposal_game()
    g.apply("propose")
    assert ("answer", 0) == (g.phase, g.current_player)  # the partner answers, out of turn
    assert ["agree", "refuse"] == g.view(0)["legal_actions"]
    assert "answer/agree-or-refuse" == refusal(g, "pass")
    g.apply("agree")
    assert ("agreed", True) == (g.hand_results[-1].ended_by, g.is_over)


def test_sh_10_a_refused_proposal_returns_the_turn_to_the_proposer():
    g = proposal_game()
    g.apply("propose")
    g.apply("refuse")
    assert ("act", 2) == (g.phase, g.current_player)
    assert "end/already-proposed" == refusal(g, "propose")
    assert "answer/no-proposal" == refusal(g, "agree")
    g.apply("pass")
    assert (3, None) == (g.current, refusal(g, "propose"))  # a new turn, a new proposal


def test_sh_10_all_four_players_passing_in_succession_ends_it():
    g = proposal_game()
    turns(g, "pass", "move 2 to 1",  # seat 3's move breaks the run of passes
          "pass", "pass", "pass")
    assert not g.is_over
    turns(g, "pass")
    assert ("all_passed", [160, 160]) == (g.hand_results[-1].ended_by, g.scores)


# --------------------------------------------------------------------------- SH-11 scores
@pytest.mark.parametrize("group, points", [
    ("FS LS KS", 30), ("FS LS KS PS", 60),       # type 1
    ("VS SS CS", 20), ("VS SS CS MS", 40),
    ("KS KF KA", 30), ("KS KF KA KP", 60),       # type 2
    ("VS VF VA", 20), ("VS VF VA VP", 40),
    ("KS VS", 20), ("FS CS", 20),                # type 3, major first
])
def test_sh_11_a_removed_group_scores_by_the_table(group, points):
    g = seat0_game([group], post_deck=True)
    g.apply("remove 1")
    assert ([points, 0], [group]) == (g.scores, [codes(g, grp) for grp in g.removed[0]])


@pytest.mark.parametrize("group", ["VS KS", "CS FS", "FS LS", "KS KF"])
def test_sh_11_a_minor_first_pair_or_a_short_group_cannot_be_removed(group):
    g = seat0_game([group], post_deck=True)
    assert "remove/not-complete" == refusal(g, "remove 1")
    assert "remove 1" not in legal(g)


# --------------------------------------------------------------------------- SH-12 result
def test_sh_12_groups_on_the_table_and_cards_in_hand_score_nothing_and_higher_wins():
    g = house_groups_game()
    turns(g, "remove 1", "remove 1", "remove 1")
    last = g.hand_results[-1]
    # seat 3's four Pyramid majors on the table and every hand of four minors score nothing
    assert ["FP LP KP PP", "", "", ""] == table(g, 3)
    assert [4, 4, 4, 4] == [len(h) for h in g.hands]
    assert ([120, 60], (120, 60), 0) == (g.scores, last.totals, g.winner)
    assert [["FS LS KS PS", "FA LA KA PA"], ["FF LF KF PF"]] == [
        [" ".join(grp.cards) for grp in s.groups] for s in last.scores]
    assert (120, 60) == g.rescore(last)


def test_sh_12_a_tie_has_no_winner():
    g = proposal_game()
    g.apply("propose")
    g.apply("agree")
    # team 0 removed 60 + 60 + 40, team 1 the same; seats 2 and 3's minors (40) stay out
    assert ([160, 160], None) == (g.scores, g.winner)


# --------------------------------------------------------------------------- a variant
def test_variant_is_a_yaml_edit_three_spaces(small):
    g = game(pack=small)
    assert (3, 3) == (small.options.group_spaces, len(g.groups[0]))
    assert "notation/bad-space" == refusal(g, "place KS 4")


def test_variant_is_a_yaml_edit_a_player_with_three_full_spaces_must_pass_a_card(small):
    # SH-8 comes a round earlier: three groups nothing fits, before the deck runs out
    g = game({0: "KS LF VA SS", 3: "VP SP CP"}, {0: "MS SF FA PA"}, pack=small)
    turns(g, "place KS 1", IDLE, IDLE, "place VP 1",
          "place LF 2", IDLE, IDLE, "place SP 1",
          "place VA 3", IDLE, IDLE, "place CP 1")
    take(g)
    assert (False, ["FA", "MS", "PA", "SF", "SS"]) == (g.post_deck, hand(g, 0))
    assert ["pass FA", "pass MS", "pass PA", "pass SF", "pass SS"] == sorted(legal(g))


@pytest.mark.parametrize("group, points", [
    ("FS LS KS", 35), ("KS VS", 25), ("VS SS CS", 20)])
def test_variant_is_a_yaml_edit_scoring_table(small, group, points):
    g = seat0_game([group], post_deck=True, pack=small)
    g.apply("remove 1")
    assert [points, 0] == g.scores


# --------------------------------------------------------------------------- conformance
def every_notation():
    """Every action text of the game, legal or not at any moment."""
    spaces = range(1, 5)
    return ([f"place {c} {s}" for c in ALL_CODES for s in spaces]
            + [f"pass {c}" for c in ALL_CODES]
            + [f"{v} {a} to {b}" for v in ("steal", "move") for a in spaces for b in spaces]
            + [f"remove {s}" for s in spaces]
            + ["draw", "receive", "pass", "propose", "agree", "refuse"])


NOTATIONS = every_notation()


def hidden_codes(g, p):
    """Codes of the cards ``p`` may not see: other hands and every passed card."""
    cards = [c for q in range(4) if q != p for c in g.hands[q]]
    return {g.rules.codes[c] for c in cards + [c for c in g.incoming if c >= 0]}


def assert_view_hides(g):
    """No seat's view names a card in another hand or a passed card."""
    for p in range(4):
        seen = set(json.dumps(g.view(p)).replace('"', " ").replace(",", " ").split())
        assert not seen & hidden_codes(g, p)


def self_play(seed, probe=None, max_actions=5000):
    """A random game to its end, conserving cards; ``probe(g, rng)`` runs after every
    action."""
    g = meldkit.new_game(PACK, players=4, seed=seed)
    bot, rng = RandomBot(seed=seed, meld_first=False), random.Random(seed)
    n = 0
    while not g.is_over:
        assert n < max_actions, f"seed {seed}: no end after {max_actions} actions"
        g.apply(bot.choose(g))
        n += 1
        assert_conserved(g)
        if probe:
            probe(g, rng)
    return g


def probe_illegal(g, rng):
    """A few random illegal actions: each raises and leaves the save unchanged."""
    if g.is_over or rng.random() > 0.1:
        return
    before = g.to_json()
    allowed = set(legal(g))
    for text in rng.sample(NOTATIONS, 6):
        if text in allowed:
            continue
        why = g.check(text)
        with pytest.raises(IllegalActionError) as e:
            g.apply(text)
        assert (why.code, before) == (e.value.code, g.to_json())


def probe_view(g, rng):
    """Now and then, every seat's view hides what it should."""
    if rng.random() < 0.05:
        assert_view_hides(g)


@pytest.mark.parametrize("seed", range(30))
def test_random_self_play_ends_conserving_cards_and_refusing_illegal_actions(seed):
    g = self_play(seed, lambda g, rng: (probe_illegal(g, rng), probe_view(g, rng)))
    assert g.hand_results[-1].ended_by in {"table_cleared", "agreed", "all_passed", "repetition"}
    assert tuple(g.scores) == g.hand_results[-1].totals == g.rescore(g.hand_results[-1])
    assert [] == g.legal_actions()
    assert "game/over" == refusal(g, "pass")


@pytest.mark.parametrize("seed", [3, 11, 23])
def test_save_and_load_mid_game_then_continuing_gives_the_same_game(seed):
    g = meldkit.new_game(PACK, players=4, seed=seed)
    bot = RandomBot(seed=seed, meld_first=False)
    saves = 0
    while not g.is_over:
        if len(g.history) % 97 == 0 or g.phase == "answer":
            loaded = GameState.from_json(g.to_json())
            assert (loaded, legal(loaded)) == (g, legal(g))
            g, saves = loaded, saves + 1
        g.apply(bot.choose(g))
    assert saves >= 3
    replay = meldkit.new_game(PACK, players=4, seed=seed)
    for text in g.history:
        replay.apply(text)
    assert (replay.to_json(), replay.scores) == (g.to_json(), g.scores)


def test_view_shows_no_other_hand_nor_any_passed_card():
    g = game({0: "KS LS"})
    turns(g, "pass KS")
    assert_view_hides(g)
    v = g.view(0)
    assert (4, 4, 15) == (len(v["hand"]), v["players"][1]["hand_size"], v["stock_size"])
    assert "LS" in v["hand"]
    assert {"hand_size", "passed_card_waiting", "groups", "removed", "seat", "team"} == set(
        v["players"][2])


# --------------------------------------------------------------------------- error paths
@pytest.mark.parametrize("text, code", [
    ("place XX 9", "notation/bad-card"),
    ("place KS 9", "notation/bad-space"),
    ("place KS 0", "notation/bad-space"),
    ("place KS", "notation/args"),
    ("steal 1 from 2", "notation/args"),
    ("remove", "notation/args"),
    ("pass KS LS", "notation/args"),
    ("fly KS", "notation/unknown-verb"),
    ("add 2 to wild wild", "notation/unknown-verb"),  # the verb first, then the length
    ("move 1 to 2 now", "notation/too-long"),
    ("", "notation/empty"),
])
def test_bad_notation_gives_notation_error_codes(text, code):
    g = game()
    before = g.to_json()
    assert code == refusal(g, text)
    with pytest.raises(NotationError) as e:
        g.apply(text)
    assert (code, before) == (e.value.code, g.to_json())


@pytest.mark.parametrize("options, where, message", [
    ("{group_spacez: 3}", "variant.yaml:3:11: options.group_spacez",
     "unknown key (did you mean 'group_spaces'?)"),
    ("{correspondences: {V: K}}", "variant.yaml:3:29: options.correspondences.V",
     "'V' is not a major role (F, K, L, P)"),
    ("{correspondences: {K: M}}", "variant.yaml:3:29: options.correspondences.K",
     "'M' is also the corresponding minor of L"),
])
def test_a_bad_variant_option_gives_file_line_and_a_hint(options, where, message):
    text = f"extends: houses\nname: v\noptions: {options}\n"
    with pytest.raises(RulePackError) as e:
        meldkit.load_pack_text(text, filename="variant.yaml")
    first = str(e.value.problems[0])
    assert first.startswith(where) and message in first
    assert not [p for p in e.value.problems if p.path.startswith("deck")]


def test_sh_10_resolved_the_third_occurrence_of_a_position_after_the_deck_ends_the_game():
    g = minors_game()  # seat 0 moves the top minor of its space 2 out and back; the others pass
    start = g.position_key()
    turns(g, "move 2 to 1", "pass", "pass", "pass", "move 1 to 2", "pass", "pass", "pass")
    assert (start, 2, False) == (g.position_key(), g.positions[start], g.is_over)
    turns(g, "move 2 to 1", "pass", "pass", "pass")  # the other position, a second time
    assert (0, False) == (g.current_player, g.is_over)
    turns(g, "move 1 to 2", "pass", "pass", "pass")  # the first position, a third time
    assert ("repetition", None) == (g.hand_results[-1].ended_by, g.current_player)
    assert ([120, 120], (120, 120)) == (g.scores, g.hand_results[-1].totals)


def test_sh_10_resolved_the_number_of_repetitions_is_a_pack_setting():
    twice = meldkit.load_pack_text("extends: houses\nname: v\noptions: {repetitions: 2}\n")
    assert 2 == twice.options.repetitions
    g = seat0_game(["FS LS KS PS"], post_deck=True, pack=twice)
    start = g.position_key()
    assert {start: 1} == {k: v for k, v in g.positions.items() if k == start}
    assert 3 == meldkit.load_pack("houses").options.repetitions


def test_sh_10_resolved_no_turn_counter_ends_the_game():
    with pytest.raises(RulePackError) as e:
        meldkit.load_pack_text(
            "extends: houses\nname: short\noptions: {turn_limit_after_deck: 3}\n",
            filename="short.yaml")
    assert "options.turn_limit_after_deck" in str(e.value)
    assert "this option was removed: the game ends when a position repeats" in str(e.value)
    with pytest.raises(RulePackError, match="expected at least 2"):
        meldkit.load_pack_text("extends: houses\nname: v\noptions: {repetitions: 1}\n")


def test_sh_10_a_position_is_the_cards_in_every_space_hand_and_pass_and_the_player_to_move():
    g = minors_game()
    key = g.position_key()
    other = g.clone()
    other.current = 1
    assert key != other.position_key()  # another player to move
    other = g.clone()
    other.groups[0][0], other.groups[0][1] = other.groups[0][1], other.groups[0][0]
    assert key != other.position_key()  # the same cards in other spaces
    other = g.clone()
    other.removed[0] = []  # removed groups are out of play: not part of the position
    assert key == other.position_key()


def _random_positions(seeds):
    """Every position of random self-play games, one per seed, after each move."""
    for seed in seeds:
        g = meldkit.new_game("houses", players=4, seed=seed)
        rng = random.Random(seed)
        while not g.is_over:
            acts = g.legal_actions()
            g.apply(acts[rng.randrange(len(acts))])
            yield g


def test_sh_10_the_position_hash_kept_move_by_move_is_the_one_computed_afresh():
    """Play updates SH-10's position hash with a few XORs per move; over random games,
    at every position, saved and loaded, it equals the hash computed from the zones."""
    checked = 0
    for g in _random_positions(range(6)):
        if g.is_over:
            continue
        assert g.zhash == g._full_hash(), f"after {g.history[-1]}"
        checked += 1
        if checked % 40 == 0:
            loaded = meldkit.GameState.from_json(g.to_json())
            assert (loaded.zhash, loaded.position_key()) == (g.zhash, g.position_key())
    assert checked > 2000


def test_the_fit_and_scoring_tables_kept_move_by_move_equal_those_computed_afresh():
    """Legal-move generation reads what fits on each group space and whether it scores
    from tables the moves keep up to date (and the cards removed from a count): over
    random games, saved and loaded, they equal the tables computed from the zones."""
    checked = 0
    for g in _random_positions(range(4)):
        removed = sum(len(grp) for gs in g.removed for grp in gs)
        assert (g.fit, g.scoring, g.n_removed) == (
            g._fit_sets(), g._scoring_groups(), removed), f"after {g.history[-1]}"
        checked += 1
        if checked % 50 == 0:
            loaded = meldkit.GameState.from_json(g.to_json())
            assert (loaded.fit, loaded.scoring) == (g.fit, g.scoring)
    assert checked > 1000


# --------------------------------------------------------------------------- the rules sheet


def test_the_rules_sheet_states_every_clause_from_the_packs_options():
    """``meldkit rules houses`` printed the options only (a clause audit, stop 47): the
    plugin's ``rules`` hook now words SH-1 to SH-12, from the options a pack sets."""
    from meldkit.rulesheet import rules_sheet

    sheet = rules_sheet("houses")
    for n in range(1, 13):
        assert f"SH-{n})" in sheet, n
    assert "Knight–Vassal, Father–Child, Lover–Maid and Priest–Sinner" in sheet  # SH-2
    assert "the other 16 are the deck" in sheet and "4 group spaces" in sheet  # SH-3, SH-4
    assert "occurs for the third time" in sheet  # SH-10 (repetitions: 3)
    assert "3 majors 30, 4 majors 60, 3 minors 20 and 4 minors 40" in sheet  # SH-11
    assert "at the end score nothing" in sheet  # SH-12 (resolved)
    variant = meldkit.load_pack_text(
        "extends: houses\nname: v\noptions: {repetitions: 5, pass_after_deck: always, "
        "table_groups_score: true, group_spaces: 3}\n")
    sheet = rules_sheet(variant)
    assert "occurs for the fifth time" in sheet and "3 group spaces" in sheet
    assert "a player may always pass the turn" in sheet
    assert "at the end score for their team too" in sheet


def test_a_rule_hook_plugins_rules_join_the_kernel_sheet_and_a_bad_hook_is_named():
    import attrs

    from meldkit.plugins import Plugin
    from meldkit.plugins import _registry as registry
    from meldkit.plugins import register
    from meldkit.rulesheet import rules_sheet

    class Tip(Plugin):
        name = "tip_rules_test"
        given: object = ["Each side scores 10 more every hand."]

        def adjust_scores(self, state, final, scores):
            return [attrs.evolve(s, adjustments=s.adjustments + (("tip", 10),))
                    for s in scores]

        def rules(self, spec, options):
            return self.given

    plugin = Tip()
    register(plugin)
    try:
        pack = meldkit.load_pack_text(f"extends: pony_tail\nname: t\nplugin: {Tip.name}\n")
        sheet = rules_sheet(pack)
        assert sheet.rstrip().endswith(f"## The `{Tip.name}` plugin\n\n"
                                       "Each side scores 10 more every hand.")
        plugin.given = "not a list"
        with pytest.raises(meldkit.PluginError, match="its rules hook must give a list of "
                                                      "strings, not str"):
            rules_sheet(pack)
    finally:
        registry.pop(Tip.name, None)
