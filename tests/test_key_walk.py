"""The schema walk: every key of the pack format, for every engine, is either honoured — a
named test proves its effect — or refused by the loader at the key's ``file:line:col`` with
a sentence naming the engine that reads it.  No key is accepted and ignored.

The keys are generated from the schema classes (:func:`meldkit._schema.pack_leaves`, and
the keys of the items of lists of mappings), so a new key cannot be left out: it fails
:func:`test_every_key_has_owners_and_every_honoured_pair_names_a_test` until
``KEY_READERS`` and :data:`HONOURED` say what becomes of it.  The table itself is printed
by ``benchmarks/key_table.py``.
"""

from __future__ import annotations

import ast
import functools
import pathlib
import random
import typing
from typing import Any, Literal

import attrs
import pytest

import meldkit
from meldkit import plugins
from meldkit._errors import RulePackError
from meldkit._loader import load_pack_text
from meldkit._schema import (
    CANASTA,
    ENGINE_NAMES,
    ENGINE_PACKS,
    ENGINES,
    HOUSES,
    KEY_READERS,
    TABLE,
    key_default,
    owners_of,
    pack_leaves,
)
from meldkit.kernel.checks import HOOKS_RUN, RULE_HOOKS
from meldkit.schema_docs import inline_yaml

TESTS = pathlib.Path(__file__).parent

# --------------------------------------------------------------------------- the keys


def _optional(tp: Any) -> tuple[bool, Any]:
    args = typing.get_args(tp)
    if type(None) in args and len(args) == 2:
        return True, next(a for a in args if a is not type(None))
    return False, tp


def _item_class(tp: Any) -> type | None:
    """The attrs class of a list, table or optional of mappings (its items' keys are keys)."""
    tp = _optional(tp)[1]
    origin, args = typing.get_origin(tp), typing.get_args(tp)
    if attrs.has(tp):
        return tp
    if origin is list and attrs.has(args[0]):
        return args[0]
    if origin is dict and typing.get_origin(args[1]) is list and attrs.has(
            typing.get_args(args[1])[0]):
        return typing.get_args(args[1])[0]
    return None


def _item_step(tp: Any) -> str:
    tp = _optional(tp)[1]
    if attrs.has(tp):
        return "."
    return "[]." if typing.get_origin(tp) is list else "[n][]."


def all_keys() -> list[tuple[str, Any, Any]]:
    """``(path, type, default)`` of every key: each leaf of the schema, then the keys of its
    items when it is a list, table or optional of mappings (``books.kinds[].value``)."""
    out = []
    for path, field in pack_leaves():
        owner = field.type if not isinstance(field.type, str) else None
        del owner
        hints = typing.get_type_hints(_owner_class(path))
        tp = hints[field.name]
        out.append((path, tp, key_default(field)))
        item = _item_class(tp)
        if item is not None:
            item_hints = typing.get_type_hints(item)
            for f in attrs.fields(item):
                out.append((path + _item_step(tp) + f.name, item_hints[f.name], key_default(f)))
    return out


def _owner_class(path: str) -> type:
    from meldkit._schema import RulePackSpec

    cls: type = RulePackSpec
    for step in path.split(".")[:-1]:
        cls = typing.get_type_hints(cls)[step]
    return cls


KEYS = all_keys()
SWITCHES = {("melds.kinds", CANASTA): TABLE}
"""(key, engine) → the engine a pack of that engine setting the key is played by instead:
a canasta pack with melds.kinds is a table-meld pack, so there the key is neither read nor
ignored (a plugin's engine still plays a Houses pack that sets it: refused there)."""

# --------------------------------------------------------------------------- honoured keys

PT, CC, PC = "test_pony_tail_rules", "test_classic_canasta_rules", "test_pony_canasta_rules"
SA, HF, CF = "test_samba_rules", "test_hand_and_foot_rules", "test_canasta_family_keys"
RK, GR, OG = "test_resolved_keys", "test_gin_rummy_rules", "test_oklahoma_gin_rules"
RU, TK, KM = "test_rummy_rules", "test_table_kernel", "test_kernel_melds"
HO, PL, HP = "test_houses_rules", "test_pack_loading", "test_hardening_packs"
CL, WK, CO = "test_cli", "test_key_walk", "test_contracts"
SI, RS, TB = "test_table_scoring_items", "test_rank_slot_schedule", "test_table_books"
TR = "test_table_reserves"
SS, RJ = "test_score_sheets", "test_rejoin"
_SHEETS_TESTS = {
    TABLE: [(SS, "test_hollywood_gin_counts_each_hand_on_the_sheets_a_win_has_opened")],
    CANASTA: [(SS, "test_a_rank_slot_pack_counts_each_sheet_with_its_own_items_and_ends_on_"
                   "the_first")]}
WN = "test_wild_cards_in_runs"
RA = "test_rearrange"
FM = "test_flexible_melds"
PC2 = "test_player_contracts"
BD = "test_books_discards_sides"

_META = {
    "meldkit": (PL, "test_unsupported_format_version_is_reported"),
    "name": (PL, "test_pack_without_a_name_is_named_after_its_file"),
    "title": (CL, "test_packs_lists_the_bundled_packs_with_titles"),
    "description": (CL, "test_rules_prints_a_markdown_sheet_from_the_pack"),
    "extends": (PL, "test_child_extends_a_bundled_pack_by_name"),
    "plugin": (PL, "test_a_missing_plugin_says_which_package_to_install"),
    "plugin_package": (PL, "test_a_missing_plugin_says_which_package_to_install"),
}
_SEATING = (WK, "test_the_seating_keys_seat_every_engine")

HONOURED: dict[str, dict[str, list[tuple[str, str]]]] = {
    **{key: {e: [test] for e in ENGINES} for key, test in _META.items()},
    "options": {CANASTA: [(HP, "test_an_options_class_that_raises_is_a_located_error")],
                TABLE: [(WK, "test_a_rule_hook_plugin_with_options_only_loads_on_every_kernel")],
                HOUSES: [(HO, "test_variant_is_a_yaml_edit_three_spaces")]},
    "deck.decks": {CANASTA: [(PT, "test_pt_1_six_decks_with_jokers_324_cards")],
                   TABLE: [(GR, "test_GR_1_two_players_one_52_card_deck_without_jokers")]},
    "deck.decks_per_player": {
        CANASTA: [(PC, "test_pc_1_each_player_brings_two_decks_and_their_jokers")],
        TABLE: [(WK, "test_table_decks_per_player_and_decks_by_players")]},
    "deck.jokers_per_deck": {
        CANASTA: [(PT, "test_pt_1_six_decks_with_jokers_324_cards")],
        TABLE: [(GR, "test_GR_1_two_players_one_52_card_deck_without_jokers")]},
    "deck.decks_by_players": {
        CANASTA: [(CC, "test_CC_2_two_decks_and_four_jokers_three_decks_for_six")],
        TABLE: [(WK, "test_table_decks_per_player_and_decks_by_players")]},
    **{key: {engine: [(CO, "test_deck_jokers_counts_the_jokers_of_the_whole_pack_in_both_"
                           "meld_models")] for engine in (CANASTA, TABLE)}
       for key in ("deck.jokers", "deck.jokers_by_players")},
    "initial_meld.melds": {
        TABLE: [(CO, "test_a_contract_meld_is_pending_until_the_whole_contract_is_down"),
                (CO, "test_a_meld_of_a_kind_the_contract_does_not_need_is_not_offered")]},
    "initial_meld.take_before": {
        TABLE: [(CO, "test_no_pile_take_before_opening_where_the_pack_says_so")]},
    "initial_meld.all_at_once": {
        TABLE: [(CO, "test_all_at_once_opens_only_by_melding_the_whole_hand")]},
    "initial_meld.wild_as_card": {
        TABLE: [(CO, "test_a_wild_card_may_count_as_the_card_it_stands_for_toward_the_minimum")]},
    "initial_meld.lay_off_before": {
        TABLE: [(CO, "test_no_lay_off_before_opening_where_the_pack_says_so")]},
    "books.reopen": {
        CANASTA: [("test_books_reopen", "test_no_new_meld_of_a_closed_rank_where_the_pack_says_so")]},
    "game.shutout_multiplier": {
        TABLE: [("test_gin_rummy_rules",
                 "test_a_shutout_doubles_the_winners_total_where_the_pack_says_so")]},
    "pile.discard_layable": {
        TABLE: [("test_discard_layable",
                 "test_a_card_that_fits_a_meld_on_the_table_is_laid_off_not_discarded")]},
    "initial_meld.melds_after": {
        TABLE: [("test_once_down", "test_once_down_a_player_lays_no_new_meld_but_may_lay_off")]},
    "initial_meld.lay_off_same_turn": {
        TABLE: [("test_once_down", "test_lay_offs_wait_for_the_turn_after_the_opening")]},
    "initial_meld.low_ace": {
        TABLE: [("test_opening_low_ace", "test_an_ace_low_in_a_run_counts_low_ace_so_the_"
                                         "opening_is_made_exactly_at_the_minimum")]},
    "pile.buy_limit": {
        TABLE: [(CO, "test_a_discard_the_next_player_passes_by_is_offered_in_turn_order"),
                (CO, "test_nobody_buys_when_all_pass_and_a_buyer_runs_out_of_buys")]},
    "pile.taken_melded": {
        TABLE: [(CO, "test_a_taken_card_must_be_melded_at_once_where_the_pack_says_so"),
                (CO, "test_until_opened_the_taken_card_must_go_toward_the_contract")]},
    "pile.taken_new_meld": {
        TABLE: [("test_pack_author_findings", "test_a_card_taken_into_a_new_meld_only_is_never_laid_off")]},  # noqa: E501
    "pile.buy_penalty": {
        TABLE: [(CO, "test_a_discard_the_next_player_passes_by_is_offered_in_turn_order")]},
    "pile.buy_after_opening": {
        TABLE: [(CO, "test_a_player_who_has_opened_is_asked_to_buy_only_where_buy_after_opening")]},  # noqa: E501
    "turn.stock_card": {
        TABLE: [("test_turned_cards", "test_a_turned_card_is_melded_at_once_and_never_held"),
                ("test_turned_cards", "test_a_turned_card_passed_goes_onto_the_pile_and_the_turn_ends")]},  # noqa: E501
    "turn.turned_passes": {
        TABLE: [("test_turned_cards", "test_a_turned_card_passed_on_is_the_next_players_until_all_have_passed")]},  # noqa: E501
    "turn.forced": {
        TABLE: [("test_turned_cards", "test_forcing_refuses_a_pass_of_a_turned_card_that_can_be_used"),  # noqa: E501
                ("test_turned_cards", "test_forcing_makes_the_next_player_take_a_discard_they_can_use_and_use_it")]},  # noqa: E501
    "turn.drop": {
        TABLE: [(CO, "test_a_player_may_drop_before_drawing_and_scores_the_rounds_penalty"),
                (CO, "test_a_drop_after_the_first_round_costs_the_second_penalty")]},
    "game.eliminate_above": {
        TABLE: [(CO, "test_a_player_past_the_elimination_limit_leaves_and_the_last_one_in_"
                     "wins")]},
    "game.rejoin": {TABLE: [(RJ, "test_a_player_past_the_limit_rejoins_at_the_highest_total_"
                                 "still_in_plus_add")]},
    "game.rejoin.add": {TABLE: [(RJ, "test_a_rejoin_waits_on_its_conditions")]},
    "game.rejoin.times": {TABLE: [(RJ, "test_rejoin_moves_directly")]},
    "game.rejoin.while_highest_at_most": {TABLE: [(RJ, "test_a_rejoin_waits_on_its_conditions")]},
    "game.rejoin.least_in": {TABLE: [(RJ, "test_a_rejoin_waits_on_its_conditions")]},
    "scoring.sheets": _SHEETS_TESTS,
    "game.sheets_end": {
        TABLE: [(SS, "test_sheets_end_first_ends_a_table_game_with_the_first_sheet_to_end")],
        CANASTA: _SHEETS_TESTS[CANASTA]},
    "scoring.items": {
        TABLE: [(SI, "test_an_ace_low_in_a_run_counts_low_ace_and_cards_held_count_against")],
        CANASTA: [("test_rank_slot_scoring_items",
                   "test_a_rank_slot_pack_scores_only_the_items_it_lists")]},
    "deck.ranks": {
        CANASTA: [("test_stripped_deck", "test_a_stripped_rank_slot_deck_deals_only_its_ranks")],
        TABLE: [("test_stripped_deck", "test_a_stripped_table_deck_keeps_its_ranks_and_runs_stop_at_a_gap")]},  # noqa: E501
    "cards.turned_wild": {
        TABLE: [("test_turned_wild", "test_the_card_turned_at_the_deal_makes_its_rank_wild_for_the_deal"),  # noqa: E501
                ("test_turned_wild", "test_next_rank_makes_the_rank_above_the_turned_card_wild")]},  # noqa: E501
    "deck.run_gaps": {
        TABLE: [("test_run_gaps", "test_a_table_pack_lays_and_grows_a_run_across_the_ranks_left_out")],  # noqa: E501
        CANASTA: [("test_run_gaps", "test_a_rank_slot_pack_that_skips_gaps_runs_its_sequences_across_them")]},  # noqa: E501
    "schedule": {
        TABLE: [(CO, "test_a_schedule_gives_each_deal_its_own_contract_and_hand_size")],
        CANASTA: [(RS, "test_a_rank_slot_schedule_deals_draws_and_sets_the_minimum_by_deal")]},
    "players.min": {CANASTA: [(PT, "test_pt_2_three_or_seven_players_refused")],
                    TABLE: [(RU, "test_RU_1_two_to_six_players_with_one_deck_and_no_jokers")],
                    HOUSES: [_SEATING]},
    "players.max": {CANASTA: [(PT, "test_pt_2_three_or_seven_players_refused")],
                    TABLE: [(RU, "test_RU_1_two_to_six_players_with_one_deck_and_no_jokers")],
                    HOUSES: [_SEATING]},
    "players.partners": {
        CANASTA: [(PC, "test_pc_2_each_plays_alone_without_partners")], TABLE: [_SEATING],
        HOUSES: [(HO, "test_sh_3_four_players_in_two_partnerships_partners_opposite")]},
    "players.teams": {
        CANASTA: [(PT, "test_pt_2_two_teams_seated_alternately")], TABLE: [_SEATING],
        HOUSES: [(HO, "test_sh_3_four_players_in_two_partnerships_partners_opposite")]},
    "players.team_size": {
        CANASTA: [(PC, "test_pc_2_partners_sit_alternately_in_teams_of_two")],
        TABLE: [_SEATING], HOUSES: [_SEATING]},
    "players.min_for_partners": {
        CANASTA: [(PC, "test_pc_2_partners_refused_with_an_odd_count_or_fewer_than_four")],
        TABLE: [_SEATING], HOUSES: [_SEATING]},
    "players.counts": {
        CANASTA: [(CC, "test_CC_1_five_and_other_counts_are_not_played")],
        TABLE: [_SEATING], HOUSES: [_SEATING]},
    "players.partners_by_players": {
        CANASTA: [(CC, "test_CC_1_two_and_three_play_alone_four_and_six_in_two_partnerships")],
        TABLE: [_SEATING], HOUSES: [_SEATING]},
    "deal.hand": {
        CANASTA: [(PT, "test_pt_3_deal_fifteen_cards_and_a_thirteen_card_pony_tail")],
        TABLE: [(GR, "test_GR_2_ten_cards_each_then_the_upcard_then_the_stock")],
        HOUSES: [(HO, "test_sh_3_four_cards_dealt_in_blocks_from_the_first_player_and_sixteen_in_the_deck")]},  # noqa: E501
    "deal.hand_by_players": {
        CANASTA: [(CC, "test_CC_3_hand_size_by_player_count")],
        TABLE: [(RU, "test_RU_2_ten_cards_for_two_seven_for_three_or_four_six_for_five_or_six")]},
    "deal.reserve": {
        CANASTA: [(PT, "test_pt_3_deal_fifteen_cards_and_a_thirteen_card_pony_tail")],
        TABLE: [(TR, "test_a_hand_melded_out_picks_up_the_dead_pile_and_the_turn_goes_on")]},
    "deal.reserve_name": {CANASTA: [(CF, "test_hand_and_foot_sheet_states_its_rules")],
                          TABLE: [(TR, "test_the_rules_sheet_says_the_dead_piles")]},
    "deal.reserve_per": {
        CANASTA: [(TR, "test_reserves_are_checked_where_written_and_in_saves")],
        TABLE: [(TR, "test_dead_piles_per_side_keep_cards_conserved_over_random_play_at_four")]},
    "deal.order": {CANASTA: [(PC, "test_pc_3_pony_of_12_is_dealt_before_the_hand_of_13")]},
    "deal.upcard": {
        CANASTA: [(PT, "test_pt_3_plain_upcard_is_not_turned_again")],
        TABLE: [(GR, "test_GR_2_ten_cards_each_then_the_upcard_then_the_stock")]},
    "deal.upcard_turn_again": {
        CANASTA: [(PT, "test_pt_3_red_three_or_wild_upcard_turns_another_and_freezes")]},
    "deal.first_player": {
        CANASTA: [(PC, "test_pc_4_first_player_by_high_card_is_fixed_by_the_seed")],
        TABLE: [(GR, "test_GR_2_the_first_dealer_is_chosen_by_lot"),
                (WK, "test_table_first_player_high_card_is_the_highest_card_drawn")]},
    "deal.high_card_order": {
        CANASTA: [(PC, "test_pc_4_first_player_by_high_card_is_fixed_by_the_seed")],
        TABLE: [(WK, "test_table_first_player_high_card_is_the_highest_card_drawn")]},
    "deal.next_hand_first": {
        CANASTA: [(RK, "test_pc_4_next_hand_first_high_card_draws_again"),
                  ("test_pack_author_findings", "test_the_winner_of_a_hand_plays_first_in_the_next")],  # noqa: E501
        TABLE: [(GR, "test_GR_2_the_deal_alternates"),
                (WK, "test_table_next_hand_first_high_card_draws_for_each_hand"),
                ("test_pack_author_findings", "test_the_winner_of_a_hand_plays_first_in_the_next")]},  # noqa: E501
    "cards.wild": {
        CANASTA: [(PT, "test_pt_5_jokers_and_deuces_are_wild_sevens_natural")],
        TABLE: [(WK, "test_table_wild_cards_are_single_cards")]},
    "cards.bonus": {CANASTA: [(PT, "test_pt_8_red_three_dealt_is_laid_out_and_replaced")]},
    "cards.dead": {CANASTA: [(PT, "test_pt_24_25_scores_when_the_stock_runs_out")]},
    "cards.unmeldable": {CANASTA: [(HF, "test_HF_3_threes_are_never_melded")]},
    "cards.values": {
        CANASTA: [(PT, "test_pt_23_card_values")],
        TABLE: [(GR, "test_GR_6_deadwood_counts_ace_1_pips_and_court_cards_10")]},
    "turn.draw": {CANASTA: [(PT, "test_pt_7_turn_is_draw_two_then_meld_then_discard")],
                  TABLE: [(CO, "test_a_table_pack_draws_one_card_unless_it_says_and_a_knocking_pack_only_one")]},  # noqa: E501
    "turn.draw_by_players": {
        CANASTA: [(CC, "test_CC_7_draw_one_card_two_with_two_players_and_discard_one")],
        TABLE: [(CO, "test_a_table_pack_draws_turn_draw_cards_and_a_schedule_may_change_it_by_deal")]},  # noqa: E501
    "turn.keep_card_to_discard": {CANASTA: [(PT, "test_pt_20_melding_down_to_no_card_refused")]},
    "melds.min_size": {
        CANASTA: [(PT, "test_pt_9_meld_shape_three_cards_two_naturals_three_wilds")]},
    "melds.min_naturals": {
        CANASTA: [(PT, "test_pt_9_meld_shape_three_cards_two_naturals_three_wilds")]},
    "melds.max_wilds": {CANASTA: [(SA, "test_SA_7_a_meld_of_a_rank_needs_two_naturals_and_takes_at_most_two_wild_cards")]},  # noqa: E501
    "melds.no_wild_ranks": {CANASTA: [(PT, "test_pt_9_sevens_take_no_wild_cards")]},
    "melds.going_out_ranks": {
        CANASTA: [(CC, "test_CC_9_black_threes_may_not_be_melded_without_going_out")]},
    "melds.wild_melds": {CANASTA: [(PT, "test_pt_10_wild_meld_three_to_seven_wild_cards")]},
    "melds.kinds": {TABLE: [(GR, "test_GR_5_sets_of_three_or_four_and_runs_of_three_or_more_of_one_suit")]},  # noqa: E501
    "melds.kinds[].name": {TABLE: [(KM, "test_first_declared_kind_wins")]},
    "melds.kinds[].type": {TABLE: [(KM, "test_run_needs_one_suit_and_distinct_ranks")]},
    "melds.kinds[].min_size": {TABLE: [(KM, "test_sizes_bound_a_meld_laid_down")]},
    "melds.kinds[].max_size": {TABLE: [(KM, "test_sizes_bound_a_meld_laid_down")]},
    "melds.kinds[].ace": {TABLE: [(KM, "test_ace_mode_decides_where_the_ace_stands")]},
    "melds.kinds[].max_wilds": {TABLE: [(KM, "test_max_wilds_bounds_the_wild_cards_of_a_meld")]},
    "melds.kinds[].wilds_adjacent": {
        TABLE: [(KM, "test_wilds_not_adjacent_moves_a_wild_to_the_other_end_or_refuses")]},
    "melds.kinds[].all_wild": {TABLE: [(KM, "test_all_wild_meld_only_where_allowed")]},
    "melds.kinds[].distinct_suits": {
        TABLE: [(KM, "test_distinct_suits_refuses_two_cards_of_one_suit_in_a_set")]},
    "initial_meld.contracts": {
        TABLE: [(PC2, "test_laying_a_contract_meets_it_and_the_next_hand_asks_for_the_next")]},
    "melds.kinds[].mixed_suits": {
        TABLE: [(FM, "test_a_run_of_mixed_suits_is_laid_grows_at_either_end_and_meets_the_contract")]},  # noqa: E501
    "melds.kinds[].wild_natural_in_place": {
        TABLE: [(WN, "test_a_wild_card_in_its_own_place_in_a_run_is_a_natural_card"),
                (WN, "test_a_table_pack_offers_and_lays_a_run_with_a_wild_card_in_its_own_place")]},  # noqa: E501
    "melds.lay_off.onto": {TABLE: [(TK, "test_lay_off_scope")]},
    "melds.lay_off.max_per_end": {
        TABLE: [(TK, "test_max_per_end_limits_lay_offs_at_each_end_of_a_run")]},
    "melds.lay_off.win_back": {
        TABLE: [(WN, "test_a_joker_in_a_run_is_won_back_by_the_card_it_stands_for")]},
    "melds.lay_off.wilds_stay": {
        TABLE: [(WN, "test_with_wilds_stay_a_wild_card_keeps_its_place_and_is_reached_only_by_a_trade")]},  # noqa: E501
    "melds.lay_off.within_max_size": {
        TABLE: [(TK, "test_within_max_size_keeps_lay_offs_from_growing_a_meld_past_its_kinds_max_size")]},  # noqa: E501
    "melds.rearrange": {
        TABLE: [(RA, "test_breaking_a_meld_lays_its_cards_loose_until_they_are_melded_again")]},
    "melds.restores": {
        TABLE: [(RA, "test_with_two_restores_a_player_tries_a_second_rearrangement_in_the_same_turn")]},  # noqa: E501
    "turn.play_or_draw": {
        TABLE: [(RA, "test_a_turn_is_to_play_and_say_done_or_to_draw")]},
    "turn.discard": {
        TABLE: [(RA, "test_a_turn_with_no_discard_draws_then_ends_with_done")]},
    "melds.sequences": {
        CANASTA: [(SA, "test_SA_6_three_or_more_cards_of_one_suit_in_order_make_a_sequence")]},
    "melds.sequences.ranks": {CANASTA: [(SA, "test_SA_6_four_is_low_and_ace_high")]},
    "melds.sequences.min_size": {CANASTA: [(CF, "test_sequences_bounds_come_from_the_pack")]},
    "melds.sequences.max_size": {CANASTA: [(CF, "test_sequences_bounds_come_from_the_pack")]},
    "books.size": {CANASTA: [(PT, "test_pt_11_book_closes_at_seven_and_takes_no_more")],
                   TABLE: [(TB, "test_min_books_counts_any_book_of_the_pack")]},
    "books.close_at_size": {
        CANASTA: [(PC, "test_pc_8_canastas_keep_growing_and_keep_their_kind")]},
    "books.kinds": {CANASTA: [(PT, "test_pt_11_book_kinds_and_values")],
                    TABLE: [(TB, "test_a_clean_run_of_seven_counts_as_a_clean_book_and_the_hand_goes_out")]},  # noqa: E501
    "books.kinds[].name": {CANASTA: [(HF, "test_HF_10_one_dirty_book_short_is_refused_and_named")]},
    "books.kinds[].sequence": {
        CANASTA: [(CF, "test_a_sequence_book_kind_scores_a_sequence_of_book_size")],
        TABLE: [(TB, "test_a_clean_run_of_seven_counts_as_a_clean_book_and_the_hand_goes_out")]},  # noqa: E501
    "books.kinds[].adds": {
        CANASTA: [(BD, "test_a_book_kind_says_what_its_books_still_take_rank_slot")],
        TABLE: [(BD, "test_a_book_kind_says_what_its_books_still_take_table"),
                (BD, "test_a_closed_table_book_takes_no_lay_off_and_gives_no_wild_card_back")]},
    "books.kinds[].counts_as": {
        CANASTA: [(TB, "test_counts_as_lets_a_rank_slot_book_stand_in_for_another_kind_to_go_out")],  # noqa: E501
        TABLE: [(TB, "test_a_clean_run_of_seven_counts_as_a_clean_book_and_the_hand_goes_out")]},  # noqa: E501
    "initial_meld.minimums": {
        CANASTA: [(PT, "test_pt_13_initial_meld_minimum_by_team_score")],
        TABLE: [(CO, "test_an_opening_minimum_holds_a_table_players_melds_pending_until_"
                     "worth_it")]},
    "initial_meld.minimums_by_players": {
        CANASTA: [(CC, "test_CC_11_initial_meld_minimum_by_the_sides_score")],
        TABLE: [(CO, "test_the_minimum_by_players_and_by_hand_in_a_table_pack")]},
    "initial_meld.by_hand": {
        CANASTA: [(HF, "test_HF_7_the_initial_minimum_rises_with_the_hand_50_90_120_150")],
        TABLE: [(CO, "test_the_minimum_by_players_and_by_hand_in_a_table_pack")]},
    "initial_meld.pile_top_counts": {
        CANASTA: [(PT, "test_pt_14_initial_take_top_card_counts_toward_minimum")]},
    "pile.freezes_on": {CANASTA: [(PT, "test_pt_15_pile_freezes_on_seven_deuce_or_joker")]},
    "pile.blocked_by": {CANASTA: [(PT, "test_pt_14_black_three_on_top_blocks_the_pile")]},
    "pile.requires_melded": {
        CANASTA: [(PC, "test_pc_12_pile_refused_before_the_side_has_melded")]},
    "pile.take_with": {
        CANASTA: [(PT, "test_pt_14_take_pile_with_natural_pair_or_natural_and_wild"),
                  (BD, "test_the_pile_taken_freely_comes_whole_into_the_hand_melding_nothing")]},
    "pile.take": {TABLE: [(TK, "test_take_top_takes_one_card_only"),
                          (TK, "test_pile_take_pile_takes_the_whole_pile")]},
    "pile.first_upcard": {
        TABLE: [(GR, "test_GR_3_the_non_dealer_then_the_dealer_may_take_the_first_upcard")]},
    "pile.discard_taken_card": {
        TABLE: [(TK, "test_discard_taken_card_false_refuses_giving_back_the_card_taken")]},
    "pile.frozen_until_melded": {
        CANASTA: [(CC, "test_CC_13_the_pile_is_frozen_for_a_side_that_has_not_melded")]},
    "pile.single_card_rule": {
        CANASTA: [(CC, "test_CC_15_a_single_card_may_not_take_a_single_card_pile")]},
    "pile.take_count": {CANASTA: [(HF, "test_HF_8_only_the_top_seven_cards_are_taken")]},
    "pile.onto_book": {
        CANASTA: [(CF, "test_onto_book_decides_whether_the_top_card_alone_goes_onto_a_canasta")]},
    "players.sides_form": {
        CANASTA: [(BD, "test_the_first_to_take_the_pile_plays_alone_and_the_others_play_one_sides_melds"),  # noqa: E501
                  (BD, "test_the_formed_sides_score_each_of_the_others_the_sides_total")]},
    "pile.discard_bans": {
        CANASTA: [(BD, "test_no_seven_is_discarded_until_the_side_holds_a_book_of_sevens_rank_slot"),  # noqa: E501
                  (BD, "test_a_wild_card_is_discarded_only_going_out_and_a_hand_all_banned_lifts_the_bans")],  # noqa: E501
        TABLE: [(BD, "test_no_seven_is_discarded_until_the_side_holds_a_book_of_sevens_table"),
                (BD, "test_all_banned_pass_in_a_table_pack_and_a_ban_until_opened")]},
    "pile.all_banned": {
        CANASTA: [(BD, "test_all_banned_pass_ends_the_turn_without_a_discard_rank_slot")],
        TABLE: [(BD, "test_all_banned_pass_in_a_table_pack_and_a_ban_until_opened")]},
    "pile.frozen_take_with": {
        CANASTA: [(PT, "test_pt_15_frozen_pile_taken_with_two_deuces_for_a_deuce")]},
    "reserve.pickup_on_book": {
        CANASTA: [(PT, "test_pt_16_closing_the_teams_first_book_picks_up_the_pony_tail")]},
    "reserve.pickup_at_turn_start": {
        CANASTA: [(PT, "test_pt_17_partner_picks_up_at_the_start_of_a_later_turn")]},
    "reserve.bonus_replaced": {
        CANASTA: [(PT, "test_pt_8_red_three_in_pony_tail_is_laid_out_not_replaced")]},
    "reserve.pickup_on_empty_hand": {
        CANASTA: [(HF, "test_HF_9_melding_the_last_card_picks_up_the_foot_and_play_goes_on")]},
    "stock.when_empty": {
        TABLE: [(TK, "test_turn_pile_turns_the_pile_over_as_the_new_stock"),
                (TK, "test_end_hand_when_the_stock_is_empty"),
                ("test_stock_renewal", "test_a_turn_ending_with_the_stock_empty_renews_it_from_the_pile"),  # noqa: E501
                ("test_stock_renewal", "test_end_at_once_ends_the_hand_where_end_hand_offers_the_next_player_the_pile")],  # noqa: E501
        CANASTA: [("test_stock_renewal", "test_a_turn_ending_with_the_stock_empty_renews_it_from_the_pile"),  # noqa: E501
                  ("test_stock_renewal", "test_end_at_once_ends_the_hand_where_end_hand_offers_the_next_player_the_pile")]},  # noqa: E501
    "stock.wall": {TABLE: [(GR, "test_GR_14_book_the_hand_is_void_at_the_wall_at_once")]},
    "stock.empty_winner": {TABLE: [("test_stock_renewal", "test_empty_winner_lowest_count_gives_the_hand_to_the_least_held")]},  # noqa: E501
    "stock.wall_knock_with_upcard": {TABLE: [(GR, "test_GR_14_openspiel_at_the_wall_the_next_player_may_knock_with_the_last_discard")]},  # noqa: E501
    "knock.max_deadwood": {TABLE: [(GR, "test_GR_7_knock_with_ten_or_less_after_the_discard")]},
    "knock.from_upcard": {TABLE: [(OG, "test_OG_1_the_first_upcard_sets_the_knock_value")]},
    "knock.test": {TABLE: [("test_gin_vs_openspiel", "test_openspiel_deadwood_port_equals_openspiel_on_meld_rich_hands")]},  # noqa: E501
    "knock.spade_upcard_doubles": {TABLE: [(OG, "test_OG_2_a_spade_upcard_doubles_the_hand")]},
    "knock.gin_bonus": {TABLE: [(GR, "test_GR_13_gin_scores_the_defenders_deadwood_and_25")]},
    "knock.big_gin_bonus": {TABLE: [(GR, "test_GR_9_book_big_gin_melds_all_eleven_cards_for_31")]},
    "knock.undercut_bonus": {
        TABLE: [(GR, "test_GR_12_undercut_the_defender_scores_the_difference_and_25")]},
    "knock.tie_is_undercut": {TABLE: [(GR, "test_GR_12_openspiel_equal_deadwood_scores_nothing"),
                                      (GR, "test_GR_12_book_equal_deadwood_is_an_undercut")]},
    "knock.settle": {TABLE: [("test_knock_multiplayer",
                              "test_the_lowest_count_collects_the_difference_from_everyone"),
                             ("test_knock_multiplayer",
                              "test_a_knock_settled_by_the_lowest_count_in_a_stacked_hand")]},
    "knock.before_draw": {TABLE: [("test_knock_before_draw", "test_a_player_knocks_before_"
                                                          "drawing_and_the_lowest_count_"
                                                          "collects_from_everyone")]},
    "knock.after_draw": {TABLE: [("test_knock_before_draw", "test_with_after_draw_false_a_"
                                                         "player_knocks_only_before_drawing")]},
    "knock.lay_off_on_gin": {TABLE: [(GR, "test_GR_8_gin_the_defender_may_not_lay_off")]},
    "knock.pile_take_limit": {
        TABLE: [(GR, "test_GR_15_openspiel_void_on_the_50th_take_of_the_discard")]},
    "knock.returned_card_limit": {
        TABLE: [(GR, "test_GR_15_openspiel_void_when_both_players_throw_back_the_card_they_took")]},
    "going_out.required_books": {CANASTA: [(PT, "test_pt_18_going_out_needs_all_four_books")],
                                 TABLE: [(TB, "test_going_out_needs_the_required_book_a_play_keeps_two_cards_until_then")]},  # noqa: E501
    "going_out.min_books": {CANASTA: [(PC, "test_pc_14_going_out_needs_a_canasta")],
                            TABLE: [(TB, "test_min_books_counts_any_book_of_the_pack")]},
    "going_out.min_books_by_players": {
        CANASTA: [(CC, "test_CC_16_two_canastas_are_needed_with_two_or_six_players")],
        TABLE: [(TB, "test_min_books_by_players_sets_the_books_to_go_out_for_the_table_size")]},
    "going_out.requires_reserve": {
        CANASTA: [(PT, "test_pt_19_going_out_needs_the_players_pony_tail")]},
    "going_out.requires_discard": {
        CANASTA: [(HF, "test_HF_10_the_last_card_is_discarded_not_melded")],
        TABLE: [(TK, "test_requires_discard_true_keeps_a_card_to_discard")]},
    "going_out.by_discard": {
        TABLE: [("test_going_out_by_melding",
                 "test_the_last_card_is_never_discarded_and_a_player_goes_out_by_laying_it_off")]},
    "going_out.last_turns": {
        TABLE: [("test_last_turns",
                 "test_the_others_each_take_one_last_turn_and_the_first_out_wins_the_hand")]},
    "hand_end.stock_empty": {
        CANASTA: [(PT, "test_pt_22_empty_stock_and_no_take_ends_the_hand")]},
    "hand_end.players_out_without_discard": {
        CANASTA: [(PC, "test_pc_15_a_player_with_no_card_to_discard_sits_out_the_hand")]},
    "hand_end.one_side_left": {
        CANASTA: [(PC, "test_pc_15_the_hand_ends_when_only_one_partnership_has_players")]},
    "hand_end.last_card_bonus": {
        CANASTA: [(CC, "test_CC_18_a_red_three_drawn_last_ends_play_its_drawer_may_meld_but_not_discard"),  # noqa: E501
                  (CC, "test_CC_18_other_tables_end_at_once_or_play_on_after_a_red_three_drawn_last")]},  # noqa: E501
    "scoring.style": {
        CANASTA: [(PT, "test_pt_24_25_scores_when_a_player_goes_out")],
        TABLE: [(TK, "test_winner_takes_hands_scores_the_cards_left_in_the_other_hands"),
                (TK, "test_penalty_scoring_counts_own_cards_and_the_lowest_total_wins")]},
    "scoring.melded_cards": {CANASTA: [(CC, "test_CC_19_scores_canastas_melded_cards_going_out_and_cards_left_in_hand")]},  # noqa: E501
    "scoring.bonus.value": {CANASTA: [(CC, "test_CC_19_fewer_red_threes_score_100_each")]},
    "scoring.bonus.set_size": {CANASTA: [(PC, "test_pc_19_four_red_treys_score_1000")]},
    "scoring.bonus.set_value": {CANASTA: [(PC, "test_pc_19_four_red_treys_score_1000")]},
    "scoring.bonus.negative_if_not_melded": {
        CANASTA: [(PC, "test_pc_19_red_treys_count_against_a_side_that_has_not_melded")]},
    "scoring.bonus.by_count": {
        CANASTA: [(CC, "test_CC_19_six_players_five_red_threes_score_1000_and_six_1200")]},
    "scoring.bonus.sets_by": {
        CANASTA: [(CF, "test_bonus_sets_by_side_counts_a_partnerships_red_threes_together")]},
    "scoring.dead_in_hand": {CANASTA: [(PT, "test_pt_24_25_scores_when_the_stock_runs_out")]},
    "scoring.hand_penalty": {CANASTA: [(PT, "test_pt_24_25_scores_when_a_player_goes_out")]},
    "scoring.reserve_penalty": {
        CANASTA: [(PC, "test_pc_21_hands_and_unpicked_ponies_count_against_every_side")]},
    "scoring.reserve_values": {CANASTA: [(PT, "test_pt_24_25_scores_when_the_stock_runs_out")]},
    "scoring.going_out": {CANASTA: [(PC, "test_pc_20_going_out_concealed_scores_100_and_200")]},
    "scoring.concealed_going_out": {CANASTA: [(CC, "test_CC_17_going_out_concealed_scores_200")]},
    "scoring.concealed_needs_book": {
        CANASTA: [(CC, "test_CC_17_a_concealed_hand_needs_a_canasta_of_its_own")]},
    "game.target": {
        CANASTA: [(PT, "test_pt_27_game_ends_after_the_hand_reaching_50000")],
        TABLE: [(GR, "test_GR_16_the_first_to_100_wins_and_game_and_box_bonuses_are_added")]},
    "game.target_by_players": {
        CANASTA: [(CC, "test_CC_20_the_game_ends_after_the_hand_in_which_a_side_reaches_5000")],
        TABLE: [(WK, "test_table_target_by_players_sets_the_target_of_a_table")]},
    "game.hands": {
        CANASTA: [(HF, "test_HF_13_four_hands_make_a_game_whatever_the_scores")],
        TABLE: [(WK, "test_table_game_hands_plays_that_many_hands")]},
    "game.winner": {
        TABLE: [(TK, "test_penalty_scoring_counts_own_cards_and_the_lowest_total_wins")]},
    "game.game_bonus": {TABLE: [(TK, "test_box_and_game_bonuses_are_added_when_the_game_ends")]},
    "game.box_bonus": {TABLE: [(TK, "test_box_and_game_bonuses_are_added_when_the_game_ends")]},
    "game.hand_turn_limit": {
        TABLE: [(RU, "test_RU_12_resolved_a_hand_still_going_after_500_turns_is_void")],
        CANASTA: [(BD, "test_a_rank_slot_hand_still_going_after_the_turn_limit_is_void")]},
    "game.tie": {
        CANASTA: [(RK, "test_pt_27_game_tie_draw_ends_a_level_game_with_no_winner")],
        TABLE: [(GR, "test_GR_16_resolved_a_tie_at_100_plays_another_hand")]},
}
"""(key, engine) → tests that prove the key's effect in that engine.  A key of the items of
a list (``books.kinds[].value``) not listed here goes with its list's tests."""


def _honoured_by(path: str, engine: str) -> list[tuple[str, str]]:
    found = HONOURED.get(path, {}).get(engine)
    if found is None and ("[" in path or path.count(".") > 1):
        container = next((p for p, _ in pack_leaves() if path.startswith(p + "[")
                          or path.startswith(p + ".")), None)
        if container is not None:
            found = HONOURED.get(container, {}).get(engine)
    return found or []


@functools.cache
def _test_names(module: str) -> frozenset[str]:
    """The test functions a test module defines (read with ``ast``: what pytest collects)."""
    tree = ast.parse((TESTS / f"{module}.py").read_text(encoding="utf-8"))
    return frozenset(n.name for n in tree.body
                     if isinstance(n, ast.FunctionDef) and n.name.startswith("test_"))


def test_every_key_has_owners_and_every_honoured_pair_names_a_test():
    missing, unknown = [], []
    for path, _, _ in KEYS:
        readers = owners_of(path).readers
        for engine in ENGINES:
            if engine not in readers:
                continue
            tests = _honoured_by(path, engine)
            if not tests:
                missing.append(f"{path} in {engine}")
            unknown += [f"{m}::{t}" for m, t in tests if t not in _test_names(m)]
    assert [] == missing, "honoured keys without a test that proves their effect"
    assert [] == unknown, "named tests that do not exist"
    assert set(KEY_READERS) == {p for p, _ in pack_leaves()}
    assert set(HONOURED) <= {p for p, _, _ in KEYS}


# --------------------------------------------------------------------------- refused keys

BASE = {CANASTA: "pony_tail", TABLE: "gin_rummy", HOUSES: "houses"}
_BASE_PLAYERS = {CANASTA: 4, TABLE: 2, HOUSES: 4}


def _refusing_value(tp: Any, inert: Any, engine: str) -> Any:
    """A value of type ``tp`` other than ``inert``, that the loader structures."""
    optional, tp = _optional(tp)
    origin, args = typing.get_origin(tp), typing.get_args(tp)
    if tp is bool:
        return not inert
    if tp is int:
        return inert + 1 if isinstance(inert, int) else 1
    if tp is str:
        return "other"
    if origin is Literal:
        return next(c for c in args if c != inert)
    if attrs.has(tp):
        return {}
    if origin is list:
        item = args[0]
        if attrs.has(item):
            return [{}]
        if typing.get_origin(item) is Literal:
            return [c for c in typing.get_args(item) if [c] != inert][:1] if (
                len(typing.get_args(item)) > 2) else list(reversed(typing.get_args(item)))
        if typing.get_origin(item) is dict:  # schedule: one item that sets a deal key
            return [{"deal": {"hand": 5}}]
        if typing.get_origin(item) is list:  # initial_meld.contracts: one contract
            return [["5"]]
        return [10] if item is int else ["5"]
    if origin is dict:
        key, value = args
        if key is int:
            n = _BASE_PLAYERS[engine]
            if typing.get_origin(value) is list:
                return {n: [{"minimum": 10}]}
            return {n: True if value is bool else 1}
        return {"5": 1}
    raise AssertionError(f"no refusing value for {tp}")


def _refused_cases() -> list[tuple[str, str]]:
    """Every (key, engine) where the engine does not read the key, but melds.kinds (and
    its items) in a canasta pack, which makes it a table-meld pack."""
    return [(path, engine) for path, _, _ in KEYS for engine in ENGINES
            if engine not in owners_of(path).readers
            and (path.split("[")[0], engine) not in SWITCHES]


REFUSED = _refused_cases()


def _pack_text(engine: str, path: str, tp: Any, default: Any) -> tuple[str, int, int, str]:
    """A pack of ``engine`` setting ``path`` to a value the engine would ignore; the line
    and column the refusal is expected at, and the key path it names."""
    from meldkit._schema import inert_value

    if "[" in path or path not in KEY_READERS:  # a key of the items of a list, or optional
        container = next(p for p, _ in pack_leaves() if path.startswith(p + "[")
                         or path.startswith(p + "."))
        item_key = path.rsplit(".", 1)[1]
        value = _refusing_value(tp, default, engine)
        ctp = typing.get_type_hints(_owner_class(container))[container.rsplit(".", 1)[-1]]
        item = {item_key: value}
        inner = _optional(ctp)[1]
        if attrs.has(inner):
            leaf_value: Any = item
        elif typing.get_origin(inner) is list:
            leaf_value = [item]
        else:
            leaf_value = {_BASE_PLAYERS[engine]: [item]}
        path = container
    else:
        leaf_value = _refusing_value(tp, inert_value(path), engine)
    steps = path.split(".")
    lines = [f"extends: {BASE[engine]}"]
    for depth, step in enumerate(steps[:-1]):
        lines.append("  " * depth + f"{step}:")
    lines.append("  " * (len(steps) - 1) + f"{steps[-1]}: {inline_yaml(leaf_value)}")
    return "\n".join(lines) + "\n", len(steps) + 1, 2 * len(steps) - 1, path


@pytest.mark.parametrize(("path", "engine"), REFUSED, ids=[f"{p}-{e}" for p, e in REFUSED])
def test_a_key_its_engine_does_not_read_is_refused_at_its_line(path, engine):
    tp, default = next((t, d) for p, t, d in KEYS if p == path)
    text, line, col, key = _pack_text(engine, path, tp, default)
    with pytest.raises(RulePackError) as caught:
        load_pack_text(text, filename="walk.yaml")
    readers = owners_of(key).readers
    by = " and ".join(f"{ENGINE_NAMES[e]} ({ENGINE_PACKS[e]})" for e in ENGINES if e in readers)
    sentence = f"is read only by {by}; this pack is played by {ENGINE_NAMES[engine]}"
    found = [p for p in caught.value.problems
             if p.path == key and p.message.startswith("is read only by")]
    assert [(line, col, True)] == [(p.line, p.col, p.message.startswith(sentence))
                                   for p in found], text + str(caught.value)
    assert "which would ignore it: remove it" in found[0].message


def test_every_key_is_honoured_or_refused_in_every_engine():
    """The whole walk, counted: each (key, engine) is exactly one of honoured, refused, or
    (melds.kinds in a canasta pack) the key that chooses the engine."""
    honoured = {(p, e) for p, _, _ in KEYS for e in ENGINES if e in owners_of(p).readers}
    refused = set(REFUSED)
    selects = {(p, e) for p, _, _ in KEYS for e in ENGINES if (p.split("[")[0], e) in SWITCHES}
    everything = {(p, e) for p, _, _ in KEYS for e in ENGINES}
    assert honoured | refused | selects == everything
    assert not honoured & refused and not selects & (honoured | refused)
    assert {e for _, e in selects} == {CANASTA}


# --------------------------------------------------------------------------- other refusals


def _problems(text: str) -> list[str]:
    try:
        load_pack_text(text, filename="walk.yaml")
    except RulePackError as exc:
        return [str(p) for p in exc.problems]
    return []


def test_a_suited_wild_card_in_a_rank_only_pack_is_refused_at_the_card():
    found = _problems("extends: pony_tail\ncards:\n  wild: [JK, 2H]\n")
    assert ["walk.yaml:3:14: cards.wild[1]: '2H' is a card code, but the rank-slot meld model "
            "(packs without melds.kinds) makes whole ranks wild: every 2 would be wild "
            "(write '2'; only a pack with melds.kinds makes single cards wild)"] == found


def test_a_suited_wild_card_in_a_table_meld_pack_is_one_card():
    assert [] == _problems("extends: rummy\ncards:\n  wild: [2H, JK]\n")


def test_dead_in_hand_without_dead_cards_is_refused():
    found = _problems("extends: classic_canasta\nscoring:\n  dead_in_hand: -100\n")
    assert ["walk.yaml:3:3: scoring.dead_in_hand: -100, but no card is dead (cards.dead is "
            "empty), so it would score nothing: list the dead cards in cards.dead, or remove "
            "it"] == found


def test_a_key_written_with_the_value_the_engine_plays_anyway_is_accepted():
    assert [] == _problems("extends: gin_rummy\ncards: {bonus: [], unmeldable: []}\n"
                           "turn: {draw: 1}\npile: {freezes_on: [], take: top}\n")
    assert [] == _problems("extends: pony_tail\npile: {take: pile}\nstock: {wall: 0}\n")


def test_keys_a_child_inherits_into_another_engine_are_refused_at_the_childs_line():
    found = _problems("extends: pony_tail\nmelds:\n  kinds: [{type: set}]\n")
    assert ("walk.yaml:3:3: reserve.pickup_on_book: is read only by the rank-slot meld model"
            in "\n".join(found))
    assert all(p.startswith("walk.yaml:3:3: ") for p in found if "is read only by" in p)


# --------------------------------------------------------------------------- plugin hooks


def _hook_plugin(name: str, hook: str) -> plugins.Plugin:
    from meldkit.plugins import ActionHook

    body: dict[str, Any] = {"name": name}
    if hook == "actions":
        body["actions"] = lambda self: [ActionHook(
            "bury", "play", legal=lambda s: [], check=lambda s, a: None,
            apply=lambda s, a: None)]
    elif hook == "adjust_scores":
        body["adjust_scores"] = lambda self, state, final, scores: scores
    elif hook == "view":
        body["view"] = lambda self, state, player: None
    return type(f"Hook_{hook}", (plugins.Plugin,), body)()


def test_the_capability_table_lists_every_rule_hook_of_the_plugin_api():
    outside_play = {"deck_size", "validate",  # at load, in every pack
                    "rules"}  # in the rules sheet, in every pack
    api = {n for n, v in vars(plugins.Plugin).items()
           if callable(v) and not n.startswith("_")} - outside_play
    assert api == set(RULE_HOOKS)
    assert set(HOOKS_RUN) <= set(ENGINES)


@pytest.mark.parametrize("engine", [CANASTA, TABLE])
@pytest.mark.parametrize("hook", RULE_HOOKS)
def test_a_plugin_hook_the_engine_does_not_run_is_refused_naming_the_hook(
        monkeypatch, hook, engine):
    monkeypatch.setattr(plugins, "_registry", dict(plugins._registry))
    name = f"walk_{hook}"
    plugins.register(_hook_plugin(name, hook))
    base = {CANASTA: "pony_tail", TABLE: "gin_rummy"}[engine]
    found = _problems(f"extends: {base}\nplugin: {name}\n")
    refusal = [p for p in found if f"gives the {hook} hook" in p]
    if hook in HOOKS_RUN[engine]:
        assert [] == refusal
    else:
        assert [f"walk.yaml:2:1: plugin: plugin {name!r} gives the {hook} hook, which "
                f"{ENGINE_NAMES[engine]} ({ENGINE_PACKS[engine]}) does not run: it would "
                "never be called (it runs in the rank-slot meld model (packs without "
                "melds.kinds))"] == refusal


def test_a_rule_hook_plugin_with_options_only_loads_on_every_kernel(monkeypatch):
    monkeypatch.setattr(plugins, "_registry", dict(plugins._registry))

    @attrs.frozen
    class Options:
        level: int = 1

    class Settings(plugins.Plugin):
        name = "walk_settings"
        options_class = Options

        def validate(self, spec, options):
            return [] if options.level < 5 else [(("level",), "at most 4")]

    plugins.register(Settings())
    for base in ("pony_tail", "gin_rummy"):
        text = f"extends: {base}\nplugin: walk_settings\noptions:\n  level: 2\n"
        assert 2 == load_pack_text(text).options.level
        assert ["walk.yaml:4:3: options.level: at most 4"] == _problems(
            text.replace("level: 2", "level: 7"))


# --------------------------------------------------------------------------- newly honoured


def _play_out(game, seed: int = 0) -> None:
    rng = random.Random(seed)
    for _ in range(200_000):
        if game.is_over:
            return
        game.apply(rng.choice(game.legal_actions()))
    raise AssertionError("the game did not end")


def test_table_game_hands_plays_that_many_hands(tmp_path):
    """game.hands in a table-meld pack: one-hand gin episodes, whatever the scores (a
    parent's target of 1 is not used; one written beside game.hands is refused)."""
    one = load_pack_text("extends: gin_rummy\ngame:\n  hands: 1\n")
    (tmp_path / "to_one.yaml").write_text(
        "meldkit: 1\nextends: rummy\nname: to_one\ngame: {target: 1}\n", encoding="utf-8")
    three = load_pack_text("extends: to_one.yaml\ngame:\n  hands: 3\n", base_dir=tmp_path)
    for seed in range(4):
        g = meldkit.new_game(one, players=2, seed=seed)
        _play_out(g, seed)
        assert 1 == len(g.hand_results)
        h = meldkit.new_game(three, players=3, seed=seed)
        _play_out(h, seed)
        assert 3 == len(h.hand_results)


def test_table_target_by_players_sets_the_target_of_a_table():
    pack = load_pack_text("extends: rummy\ngame:\n  target: 100000\n  target_by_players: {3: 1}\n")
    g = meldkit.new_game(pack, players=3, seed=2)
    _play_out(g, 2)
    assert max(g.scores) >= 1 and len(g.hand_results) >= 1
    h = meldkit.new_game(pack, players=2, seed=2)
    assert h.rules.target_for(2) == 100000 and h.rules.target_for(3) == 1


def test_table_decks_per_player_and_decks_by_players():
    pack = load_pack_text("extends: rummy\ndeck:\n  decks: null\n  decks_per_player: 1\n"
                          "  decks_by_players: {6: 3}\n")
    sizes = {n: len(meldkit.new_game(pack, players=n, seed=1).kind_of) for n in (2, 5, 6)}
    assert {2: 104, 5: 260, 6: 156} == sizes


def test_table_wild_cards_are_single_cards():
    pack = load_pack_text("extends: rummy\ncards:\n  wild: [2H]\nmelds:\n  kinds:\n"
                          "    - {type: set, max_wilds: 1}\n")
    g = meldkit.new_game(pack, players=2, seed=1)
    assert {k for k in range(53) if k in g.rules.wild} == {meldkit._cards.kind_of_code("2H")}


def _high_card_seat(pack, players: int, key: str) -> int:
    """The seat that draws the highest card, drawn as the rules say (an independent
    reading: each player draws a card of the deck at random, again on a tie)."""
    order = [meldkit._cards.rank_index(c) for c in pack.spec.deal.high_card_order]
    kinds = meldkit.new_game(pack, players=players, seed=0).kind_of
    rng = random.Random(key)
    while True:
        ranks = [kinds[rng.randrange(len(kinds))] // 4 for _ in range(players)]
        places = [order.index(r) if r in order else 99 for r in ranks]
        if min(places) != 99 and places.count(min(places)) == 1:
            return places.index(min(places))


def test_table_first_player_high_card_is_the_highest_card_drawn():
    pack = load_pack_text("extends: rummy\ndeal:\n  first_player: high_card\n"
                          "  high_card_order: [A, K]\n")
    firsts = [meldkit.new_game(pack, players=4, seed=s).current for s in range(12)]
    assert firsts == [_high_card_seat(pack, 4, f"meldkit:{s}:first") for s in range(12)]
    plain = [meldkit.new_game("rummy", players=4, seed=s).current for s in range(12)]
    assert plain == [random.Random(f"meldkit:{s}:first").randrange(4) for s in range(12)]


def test_table_next_hand_first_high_card_draws_for_each_hand():
    pack = load_pack_text("extends: rummy\ndeal:\n  next_hand_first: high_card\ngame:\n"
                          "  hands: 3\n")
    g = meldkit.new_game(pack, players=3, seed=5)
    firsts = [g.current]
    rng = random.Random(5)
    while not g.is_over:
        before = g.hand_number
        g.apply(rng.choice(g.legal_actions()))
        if g.hand_number != before and not g.is_over:
            firsts.append(g.hand_first)
    assert firsts[1:] == [_high_card_seat(pack, 3, f"meldkit:5:first:{n}") for n in (1, 2)]


@pytest.mark.parametrize("engine", ENGINES)
def test_the_seating_keys_seat_every_engine(engine):
    """players.*: the seating every engine shares (min, max and counts bound the table;
    partners, teams or team_size, min_for_partners and partners_by_players form sides)."""
    base = {CANASTA: "pony_canasta", TABLE: "rummy", HOUSES: "houses"}[engine]
    lo = 4 if engine == HOUSES else 2
    pack = load_pack_text(
        f"extends: {base}\nplayers:\n  min: {lo}\n  max: 4\n  counts: [{lo}, 4]\n"
        "  partners: optional\n  teams: null\n  team_size: 2\n  min_for_partners: 4\n"
        "  partners_by_players: {4: true}\n"
        + ("deal:\n  hand_by_players: null\n" if engine == TABLE else ""))
    assert [0, 1, 0, 1] == list(meldkit.new_game(pack, players=4, seed=1).team_of)
    for n in (lo - 1, 5) if engine == HOUSES else (1, 3, 5):
        with pytest.raises(meldkit.SetupError):
            meldkit.new_game(pack, players=n, seed=1)
    if engine != HOUSES:
        alone = meldkit.new_game(pack, players=4, seed=1, options={"partners": False})
        assert [0, 1, 2, 3] == list(alone.team_of)
