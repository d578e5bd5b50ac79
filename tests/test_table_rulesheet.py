"""The table packs' rules sheet says how the game ends as the table kernel plays it:
``game.hands`` (a fixed number of hands) and ``game.target_by_players`` (the target for
the table's size) as well as ``game.target``."""

from __future__ import annotations

import random

import meldkit
from meldkit.kernel.rulesheet import table_sections


def pack(tmp_path, text: str) -> meldkit.RulePack:
    path = tmp_path / "variant.yaml"
    path.write_text(text, encoding="utf-8")
    return meldkit.load_pack(str(path))


def game_end(p: meldkit.RulePack) -> list[str]:
    lines = table_sections(p.spec)
    start = lines.index("## The end of the game")
    return [line for line in lines[start + 1:] if line.startswith("- ")]


def play(p: meldkit.RulePack, players: int, seed: int = 3):
    rng = random.Random(seed)
    g = meldkit.new_game(p, players=players, seed=seed)
    for _ in range(200_000):
        if g.is_over:
            return g
        g.apply(rng.choice(g.legal_actions()))
    raise AssertionError("the game did not end")


def test_a_fixed_number_of_hands_is_what_the_sheet_says_and_what_is_played(tmp_path):
    p = pack(tmp_path, "extends: gin_rummy\ngame: {hands: 2}\n")
    assert ["- The game is 2 hands, whatever the scores; the highest total then wins."] == \
        game_end(p)[:1]
    assert 2 == len(play(p, 2).hand_results)


def test_the_target_by_table_size_is_what_the_sheet_says_and_what_is_played(tmp_path):
    p = pack(tmp_path, "extends: rummy\ngame: {target: 100, target_by_players: {3: 40}}\n")
    assert ["- The game ends when a player reaches 100 (40 with 3 players); the highest "
            "total wins (if two or more share it, another hand is played)."] == game_end(p)[:1]
    g = play(p, 3)
    before_last = [sum(r.totals[t] for r in g.hand_results[:-1]) for t in range(g.n_teams)]
    assert max(before_last) < 40 <= max(g.scores) < 100  # it ends on reaching 40, not 100


def test_a_plain_target_reads_as_before():
    assert ["- The game ends when a player reaches 100; the highest total wins (if two or "
            "more share it, another hand is played)."] == \
        game_end(meldkit.load_pack("gin_rummy"))[:1]


def test_the_sheet_says_a_side_reaches_the_target_where_partners_play():
    assert ["- The game ends when a side reaches 3000; the highest total wins (if two or "
            "more share it, another hand is played)."] == \
        game_end(meldkit.load_pack("buraco"))[:1]


def test_the_sheet_says_whether_a_hand_ended_by_the_stock_scores(tmp_path):
    def stock(p) -> list[str]:
        return [line for line in section(table_sections(p.spec), "The stock")
                if "stock runs out" in line or "stock empty" in line]
    assert ["- When the stock runs out, play goes on while each player in turn takes from "
            "the discard pile; the hand ends when the player to draw does not or cannot "
            "take (`pass`), with nobody going out, and it is scored as below."] == stock(
        meldkit.load_pack("rummy_500"))
    assert ["- When a turn ends with the stock empty, the hand ends with nobody going out, "
            "and it is scored as below."] == stock(meldkit.load_pack("buraco"))
    p = pack(tmp_path, "extends: rummy\nstock: {when_empty: end_at_once}\n")
    assert ["- When a turn ends with the stock empty, the hand ends with no score."] == stock(p)
    g = meldkit.new_game("rummy_500", players=3, seed=1)
    g._end_hand("stock_empty", None)  # as the sheet says: held cards count
    assert any(g.hand_results[0].totals)


# --------------------------------------------------------------------------- contracts, buying


def section(lines: list[str], title: str) -> list[str]:
    start = lines.index(f"## {title}")
    end = next((i for i in range(start + 1, len(lines)) if lines[i].startswith("## ")),
               len(lines))
    return [line for line in lines[start + 1:end] if line]


def test_contract_rummy_states_each_deals_contract_and_hand_size():
    lines = table_sections(meldkit.load_pack("contract_rummy").spec)
    assert ("- Each player is dealt 10 cards in deals 1 to 4 and 12 cards in deals 5 to 7."
            in section(lines, "The deal"))
    opening = section(lines, "Opening")
    assert opening[0] == (
        "- **The contract:** before melding anything else, a player must lay down the deal's "
        "contract, all in one turn: deal 1: two sets; deal 2: a set and a run; deal 3: two "
        "runs; deal 4: three sets; deal 5: two sets and a run; deal 6: a set and two runs; "
        "deal 7: three runs.")
    assert "(`withdraw`" in opening[1] and "may not discard while any is pending" in opening[1]
    assert opening[2] == "- A player who has not opened may not lay off cards on the table's melds."


def test_the_contract_and_hand_size_the_sheet_gives_are_those_dealt():
    p = meldkit.load_pack("contract_rummy")
    g = meldkit.new_game(p, players=3, seed=2)
    rng = random.Random(2)
    seen = {}
    while not g.is_over and len(seen) < 7:
        v = g.view(0)
        seen.setdefault(v["hand_number"], (len(v["hand"]), v["contract"]["melds"]))
        g.apply(rng.choice(g.legal_actions()))
    assert seen == {1: (10, ["set", "set"]), 2: (10, ["set", "run"]), 3: (10, ["run", "run"]),
                    4: (10, ["set", "set", "set"]), 5: (12, ["set", "set", "run"]),
                    6: (12, ["set", "run", "run"]), 7: (12, ["run", "run", "run"])}


def test_buying_names_the_limit_the_penalty_and_who_is_asked():
    lines = section(table_sections(meldkit.load_pack("contract_rummy").spec),
                    "Buying out of turn")
    assert lines == [
        "- When the player whose turn it is draws from the stock instead of taking the "
        "discard, the other players — in turn after that player, but not the one who "
        "discarded it — are asked whether they **buy** it (or **pass**). The first who buys "
        "takes the discard together with 1 card from the top of the stock as a penalty; then "
        "the player whose turn it is draws.",
        "- Buying is open only while the stock holds 2 cards or more, and only for a card just "
        "discarded, not the first upcard.",
        "- Each player may buy 3 times a deal; a player who has bought that often is no "
        "longer asked."]


def test_a_buy_takes_the_discard_and_the_penalty_then_the_drawer_draws(tmp_path):
    p = pack(tmp_path, "extends: rummy\npile: {buy_limit: 1, buy_penalty: 2}\n")
    assert "together with 2 cards from the top of the stock" in "\n".join(
        section(table_sections(p.spec), "Buying out of turn"))
    g = meldkit.new_game(p, players=3, seed=1, options={"first_player": 0})
    g.apply("draw")
    g.apply(f"discard {g.view(0)['hand'][0]}")
    top, sizes = g.view(0)["pile"]["top"], g.view(0)["hand_sizes"]
    g.apply("draw")                    # seat 1 draws: seat 2 is asked first (not seat 0)
    assert (g.phase, g.current_player) == ("buy", 2)
    g.apply("buy")
    after = g.view(2)
    assert top in after["hand"] and after["hand_sizes"] == [sizes[0], sizes[1] + 1, sizes[2] + 3]
    assert (g.phase, g.current_player) == ("play", 1)
    assert "Each player may buy once a deal" in "\n".join(table_sections(p.spec))


def test_a_schedule_says_what_changes_by_deal_and_what_later_deals_play(tmp_path):
    p = pack(tmp_path, (
        "extends: contract_rummy\n"
        "initial_meld: {lay_off_before: true}\n"
        "game: {hands: null, target: 500}\n"
        "schedule:\n"
        "  - {initial_meld: {melds: [set, set]}, pile: {buy_limit: 0}}\n"
        "  - {deal: {hand: 11}, initial_meld: {melds: [run, set]},"
        " going_out: {requires_discard: true}}\n"))
    lines = table_sections(p.spec)
    assert "- Each player is dealt 10 cards in deal 1 and later deals and 11 cards in deal 2." \
        in lines
    assert section(lines, "Opening")[0].endswith(
        "all in one turn: deal 1 and later deals: two sets; deal 2: a run and a set.")
    assert "- A player who has not opened may already lay off cards on the table's melds." \
        in lines
    assert ("- Each player may buy 3 times a deal in deal 2 and later deals; there is no buying "
            "in deal 1; a player who has bought that often is no longer asked.") in lines
    assert ("- A player goes out by getting rid of every card: by melding, laying off or "
            "discarding the last cards in deal 1 and later deals; by discarding the last card "
            "in deal 2.") in lines


def test_an_opening_minimum_in_a_table_pack(tmp_path):
    p = pack(tmp_path, "extends: rummy\ninitial_meld: {minimums: [{below: 100, minimum: 30},"
                       " {minimum: 50}]}\n")
    assert section(table_sections(p.spec), "Opening")[0] == (
        "- A player's first melds of a deal, laid in one turn, must be worth a minimum in card "
        "values that depends on the player's score so far: 30 below 100, 50 from 100 on.")
    plain = table_sections(meldkit.load_pack("rummy").spec)
    assert "## Opening" not in plain and "## Buying out of turn" not in plain


def test_no_take_before_opening_and_opening_all_at_once(tmp_path):
    p = pack(tmp_path, "extends: contract_rummy\ninitial_meld: {take_before: false}\n")
    assert ("- A player who has not opened may not take from the discard pile: they draw from "
            "the stock (buying out of turn is not taking).") in section(
                table_sections(p.spec), "Opening")
    p = pack(tmp_path, "extends: rummy\ninitial_meld: {all_at_once: true}\n")
    assert section(table_sections(p.spec), "Opening")[0] == (
        "- A player opens only by melding the whole hand in one turn (all but the card a last "
        "discard needs), going out at once.")


# --------------------------------------------------------------------------- opening, the end

PENALTY = """\
meldkit: 1
name: variant
deck: {decks: 2, jokers: 2}
players: {min: 2, max: 5, partners: never}
deal: {hand: 13, upcard: true}
cards:
  wild: [JK]
  values: {A: 11, K: 10, Q: 10, J: 10, "10": 10, "9": 9, "8": 8, "7": 7, "6": 6, "5": 5,
           "4": 4, "3": 3, "2": 2, JK: 15}
melds:
  kinds:
    - {name: set, type: set, min_size: 3, max_size: 4, distinct_suits: true, max_wilds: 2}
    - {name: run, type: run, min_size: 3, ace: high, max_wilds: 2}
  lay_off: {onto: any}
pile: {take: top}
going_out: {requires_discard: false}
scoring: {style: penalty}
game: {winner: lowest, hand_turn_limit: 600}
"""


def penalty(tmp_path, extra: str) -> meldkit.RulePack:
    """A penalty pack with jokers wild (Kalooki's shape), ``extra`` merged over it."""
    (tmp_path / "penalty.yaml").write_text(PENALTY, encoding="utf-8")
    return pack(tmp_path, "extends: penalty.yaml\nname: variant\n" + extra)


def test_opening_with_the_whole_hand_is_going_out_and_claims_no_lay_off(tmp_path):
    p = pack(tmp_path, "extends: rummy\nmelds: {lay_off: {onto: none}}\n"
                       "initial_meld: {all_at_once: true}\n")
    lines = table_sections(p.spec)
    opening = section(lines, "Opening")
    assert opening[-1].endswith("Once it is complete the player has **opened**, which is going "
                                "out (see *Going out*).")
    assert not any("lay off" in line or "lays off" in line for line in opening)
    assert "- Cards are never laid off on melds on the table." in lines
    assert ("2. **Meld:** lay down melds only to open, and opening is melding the whole hand in "
            "one turn, which goes out (see *Opening*).") in section(lines, "A turn")
    p = pack(tmp_path, "extends: rummy\nmelds: {lay_off: {onto: none}}\n"
                       "initial_meld: {minimums: [{minimum: 30}]}\n")
    lines = table_sections(p.spec)
    assert any(line.endswith("has **opened**, and melds freely from then on.")
               for line in section(lines, "Opening"))
    assert ("2. **Meld:** once you have opened (see *Opening*), lay down new melds, as many as "
            "you like; before that, only the melds of your opening.") in lines
    p = pack(tmp_path, "extends: rummy\ninitial_meld: {minimums: [{minimum: 30}]}\n")
    assert any(line.endswith("has **opened**, and melds and lays off freely from then on.")
               for line in section(table_sections(p.spec), "Opening"))


def test_the_sheet_says_how_a_wild_card_counts_toward_the_opening_minimum(tmp_path):
    def said(as_card: str) -> list[str]:
        p = penalty(tmp_path, "initial_meld: {minimums: [{minimum: 40}], "
                                   f"wild_as_card: {as_card}}}\n")
        return [line for line in section(table_sections(p.spec), "Opening")
                if "Toward the opening minimum" in line]

    assert said("true") == [("- Toward the opening minimum, a wild card in a meld counts as "
                             "the card it stands for (in a run, the card of its place; in a "
                             "set, a card of the set's rank), not at its own value.")]
    assert said("false") == [("- Toward the opening minimum, a wild card in a meld counts at "
                              "its own value (the table above), not as the card it stands "
                              "for.")]
    plain = pack(tmp_path, "extends: rummy\ninitial_meld: {minimums: [{minimum: 30}]}\n")
    assert "Toward the opening minimum" not in "\n".join(table_sections(plain.spec))  # no wilds


def test_elimination_ends_the_game_with_one_player_left_not_at_a_target(tmp_path):
    p = penalty(tmp_path, "game: {eliminate_above: 150}\n")
    lines = table_sections(p.spec)
    assert game_end(p) == [("- The game ends when only one player is left in (see "
                            "*Elimination*), and that player wins. If the last players in all "
                            "leave after the same hand, the lowest total wins.")]
    assert "## Elimination" in lines and "## Dropping and elimination" not in lines
    p = penalty(tmp_path, "game: {eliminate_above: 150, hands: 4}\n"
                                "turn: {drop: [20, 40]}\n")
    assert game_end(p)[0] == ("- The game ends when only one player is left in (see "
                              "*Elimination*), and that player wins, or after 4 hands, whatever "
                              "the scores, when the lowest total wins. If the last players in "
                              "all leave after the same hand, the lowest total wins.")
    assert "## Dropping and elimination" in table_sections(p.spec)


def test_the_taken_card_owed_at_once_is_said_with_the_turn(tmp_path):
    p = penalty(tmp_path, "initial_meld: {minimums: [{minimum: 40}]}\n"
                                "pile: {taken_melded: until_opened}\n")
    lines = table_sections(p.spec)
    assert ("**The taken card.** The top card of the discard pile taken by a player who has not "
            "opened must be used at once: the first meld or lay-off after the take holds it, "
            "toward an opening they make that turn (the melds laid with it are not taken "
            "back); it may be taken only when it can be.") in section(lines, "A turn")
    assert not any(line.startswith("## Dropping") or line == "## Elimination" for line in lines)


def test_the_card_values_say_what_the_pack_counts_with_them(tmp_path):
    from meldkit.rulesheet import rules_sheet

    def caption(p) -> str:
        return next(line for line in rules_sheet(p).splitlines()
                    if line.startswith("Card values"))

    assert caption("gin_rummy") == "Card values (for deadwood):"
    assert caption("rummy") == "Card values (for cards left in hand):"
    assert caption("rummy_500") == "Card values (for cards laid and cards left in hand):"
    opening = pack(tmp_path, "extends: rummy\ninitial_meld: {minimums: [{minimum: 40}]}\n")
    assert caption(opening) == "Card values (for the opening minimum and cards left in hand):"
    assert caption("pony_tail") == (
        "Card values (for melds, the initial meld and cards left in hand):")


def test_the_rules_sheet_names_a_table_book_kinds_ranks_and_counts_its_points():
    """A pack author's Panguingue read '**valle** (1 points): a set.' for a book of 3s, 5s
    and 7s (stop 41): the engine filters by the kind's ranks, and now the sheet says so."""
    from meldkit.rulesheet import rules_sheet

    p = meldkit.load_pack_text("extends: rummy\nscoring: {items: [{item: winner_takes}, "
                               "{item: books}]}\nbooks: {size: 3, kinds: [{name: valle, "
                               "ranks: ['3', '5', '7'], value: 1}, {name: other, value: 2}]}\n")
    lines = rules_sheet(p).splitlines()
    assert "- **valle** (1 point): a set of 3s, 5s or 7s." in lines
    assert "- **other** (2 points): a set." in lines


def test_a_schedules_wild_ranks_are_stated_deal_by_deal():
    """Three Thirteen's wild rank follows the hand size: the sheet says so for every deal
    (it once gave only the first deal's, and "There are no wild cards" where only the
    schedule made any)."""
    pack = meldkit.load_pack_text(
        "extends: rummy\nname: sched_wild\nmelds:\n  kinds:\n"
        "    - {name: set, type: set, min_size: 3, max_wilds: 2}\n"
        "schedule:\n  - {cards: {wild: ['5']}}\n  - {cards: {wild: ['9']}}\n",
        filename="sched_wild.yaml")
    from meldkit.rulesheet import rules_sheet

    sheet = rules_sheet(pack)
    assert "- **Wild cards:** 5s in deal 1; 9s in deal 2; none in later deals." in sheet
    assert "There are no wild cards" not in sheet


def test_a_pack_scored_by_payments_alone_does_not_say_cards_count_at_their_values():
    from meldkit.rulesheet import rules_sheet

    paid = meldkit.load_pack_text("extends: rummy\nname: paid\nscoring:\n  items:\n"
                                  "    - {item: pay, stake: 1, per: hand}\n")
    sheet = rules_sheet(paid)
    assert "Cards count at their values" not in sheet and "for scoring" not in sheet
    assert "\nCard values:\n" in sheet  # the table, for nothing the sheet claims
    assert "- Cards count at their values" in rules_sheet(meldkit.load_pack("rummy"))


def test_an_opening_with_the_whole_hand_in_one_deal_only_is_worded_deal_by_deal():
    from meldkit.rulesheet import rules_sheet

    pack = meldkit.load_pack_text(
        "extends: contract_rummy\nname: seven\ngame: {hands: 2}\nschedule:\n"
        "  - {initial_meld: {melds: [set, set]}}\n"
        "  - {deal: {hand: 12}, initial_meld: {melds: [run, run, run], all_at_once: true},\n"
        "     going_out: {by_discard: false}}\n")
    sheet = rules_sheet(pack)
    assert ("- A player opens in deal 1, as the deal's contract or minimum says; in deal 2, "
            "only by melding the whole hand in one turn (every card: no last discard), going "
            "out at once.") in sheet
    assert "not only by" not in sheet


def test_decks_by_player_count_are_worded_once_for_each_run_of_counts():
    from meldkit.rulesheet import rules_sheet

    pack = meldkit.load_pack_text(
        "extends: contract_rummy\nname: eight\nplayers: {max: 8}\n"
        "deck: {decks: 2, jokers: 4, decks_by_players: {5: 2, 6: 3, 7: 3, 8: 3},\n"
        "       jokers_by_players: {5: 4, 6: 6, 7: 6, 8: 6}}\n")
    assert ("- **Deck:** 2 standard 52-card decks and 4 jokers (108 cards); 3 standard 52-card "
            "decks and 6 jokers (162 cards) with 6 to 8 players.") in rules_sheet(pack)


def test_a_lowest_count_knock_without_bonuses_does_not_word_a_bonus_of_zero():
    from meldkit.rulesheet import rules_sheet

    pack = meldkit.load_pack_text(
        "extends: gin_rummy\nname: low\nplayers: {max: 4}\n"
        "knock: {settle: lowest, gin_bonus: 0, undercut_bonus: 0, test: best_discard}\n")
    sheet = rules_sheet(pack)
    assert "bonus of 0" not in sheet and "pays the winner 0" not in sheet
    assert "pays the winner the difference, and nothing besides." in sheet
