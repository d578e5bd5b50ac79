"""The one notation grammar (docs/notation.md, ``meldkit.notation``): one tokenizer, a
dialect per pack, card order that never matters, each kernel's spelling of a run read in
the other as an alias, and canonical texts that stay what they were.

Clause by clause:

* **N-1** ``action = verb {card} [to target]``; a card is a rank, a rank and a suit, or
  ``JK``; a target a rank, ``wild``, a span (``4H-6H``) or a meld id (``m3``).
* **N-2** The cards of a meld may be written in any order, in every pack: they are put in
  canonical order before the action is looked up.
* **N-3** Canonical texts — ``str(action)`` — are byte-identical to before the one
  grammar: histories, saves and action-space digests depend on them.
* **N-4** One form for runs in every pack: the table kernel reads ``run`` as ``meld`` and
  ``extend``/``add … to <span>`` as ``add … to m<id>``; Samba reads a suited ``meld`` of one
  suit as ``run`` and ``add … to <span>`` as ``extend``.
* **N-5** Rank-only forms where the pack's rules never look at suits: there a suited card
  is refused (``notation/bad-card``, the sentence names the rank to write).
* **N-6** A plugin's verbs keep parsing, and are never read as an alias.
"""

from __future__ import annotations

import random

import pytest

import meldkit
from meldkit import NotationError, load_pack_text
from meldkit.bots import make_bot
from meldkit.kernel import table as table_kernel
from meldkit.notation import Span, rank_dialect, split_words, table_dialect
from meldkit.testing import refusal, stacked_game

KERNEL_PACKS = {"gin_rummy": 2, "oklahoma_gin": 2, "rummy": 3, "samba": 4, "pony_tail": 4,
                "pony_canasta": 4, "classic_canasta": 4, "hand_and_foot": 4}
"""Every bundled pack the two kernels play (Houses has its own engine and no melds)."""

TABLE_PACKS = ("gin_rummy", "oklahoma_gin", "rummy")

DIGESTS = {
    "gin_rummy": "f3e6d53b67538e90c6ef0afa49bacd19ec890c9bc8b5f4c0a6787449c7632785",
    "oklahoma_gin": "f3e6d53b67538e90c6ef0afa49bacd19ec890c9bc8b5f4c0a6787449c7632785",
    "rummy": "a115ad19b1a62b167b1beb4b80e9ccee036507df0640b9cd296f32a5b0771112",
    "samba": "1ddd16f30b65c5e6ec5bc61076c35785776aafe19723f7f8684f20d9e9a5d3cf",
    "pony_tail": "21c49709f84659ba2b94153c67c9f7be62003fd56ea106653ccd2249274abb5e",
    "pony_canasta": "e3abba345026c9b7b69e96771af79b39aec150a7dc6fde167d5e68f57fff420d",
    "classic_canasta": "4fab119244d442a3fe91592bb74af556943d38672e2bdc04552ecc418289c7fa",
    "hand_and_foot": "b92f1f84c2a0a6fa13ffaeb3716e88e801fdd263dd37fca5fc346fd1f2bee28c",
    "houses": "3c4f2257c5545d36abd7a02a8a8f150737f4d7712239eabe0475c495023e72da",
}
"""The action-space digests (every action's canonical text, in id order) before the one
grammar; a change here is a change of notation, and must be a deliberate one."""


def positions(pack, players: int, seeds=range(4), steps: int = 300):
    """Positions of self-play, half random and half greedy (which knocks and melds): each
    game at every step (the same object, moved on)."""
    for seed in seeds:
        rng = random.Random(seed)
        greedy = make_bot("greedy", seed)
        g = meldkit.new_game(pack, players=players, seed=seed)
        for _ in range(steps):
            if g.is_over:
                break
            legal = g.legal_actions()
            if not legal:
                break
            yield g, legal
            g.apply(greedy.choose(g) if rng.random() < 0.5 else rng.choice(legal))


def shuffled(action, rng: random.Random) -> str:
    """The action's text with its cards in a random order and random case."""
    words = str(action).split()
    verb, rest, tail = words[0], words[1:], []
    if len(rest) >= 2 and rest[-2] == "to":
        rest, tail = rest[:-2], rest[-2:]
    rng.shuffle(rest)
    return " ".join(w.lower() if rng.random() < 0.5 else w for w in [verb, *rest, *tail])


def rummy(*hands: str, upcard: str = "AS", stock: str = "") -> meldkit.GameState:
    order = [c for hand in hands for c in hand.split()] + [upcard, *stock.split()]
    return meldkit.new_game("rummy", players=len(hands), seed=1,
                            options={"first_player": 0}, deck_order=order)


SEAT1 = "3C 6C 10C 10S JS KS 10H 8S 7C 5D"


# --------------------------------------------------------------------------- N-2 card order

@pytest.mark.parametrize("pack", sorted(KERNEL_PACKS))
def test_N_2_every_legal_action_with_its_cards_shuffled_parses_to_the_same_action(pack):
    rng = random.Random(pack)
    tried = 0
    for g, legal in positions(pack, KERNEL_PACKS[pack]):
        for a in legal:
            if len(a.cards) < 2:
                continue
            text = shuffled(a, rng)
            again = g.parse_action(text)
            assert (tuple(a), str(a)) == (tuple(again), str(again)), text
            assert g.check(text) is None, text
            tried += 1
    assert tried > 20, f"{pack}: too few actions of several cards were tried ({tried})"


WILD_ACE_PACK = """
extends: rummy
cards:
  wild: [JK]
melds:
  kinds:
    - {name: set, type: set, min_size: 3, max_wilds: 1}
    - {name: run, type: run, min_size: 3, ace: both, max_wilds: 1}
"""


def test_N_2_card_order_never_matters_with_wild_cards_and_an_ace_high_or_low():
    """Canonical order is the order the meld lies in (a run low to high, each wild card
    where it stands) — the order legal generation lists it in — whatever the order
    written: ``meld AH JK KH`` is ``meld JK KH AH`` (the joker stands for the queen)."""
    pack = load_pack_text(WILD_ACE_PACK)
    rng = random.Random(5)
    tried = 0
    for g, legal in positions(pack, 2, seeds=range(12), steps=200):
        for a in legal:
            if a.type == "meld":
                assert a == g.parse_action(shuffled(a, rng))
                tried += 1
    assert tried > 50
    g = meldkit.new_game(pack, players=2, seed=1)
    assert "meld QH KH AH" == str(g.parse_action("meld AH QH KH"))
    assert "meld JK KH AH" == str(g.parse_action("meld AH JK KH"))


def test_N_2_a_set_or_a_run_written_out_of_order_is_legal_in_a_table_pack():
    """The issue's examples: ``meld QD QC QH`` and ``meld 3H 2H 4H`` were refused
    (``meld/not-now``) while ``meld QC QD QH`` was legal."""
    g = rummy("QD QH QS 3H 2H 4H 9S 9D 5C KC", SEAT1, stock="8D")
    g.apply("draw")
    assert g.check("meld QS QH QD") is None
    g.apply("meld QS QD QH")
    g.apply("meld 3H 2H 4H")
    assert ["meld QD QH QS", "meld 2H 3H 4H"] == g.history[-2:]
    assert [["QD", "QH", "QS"], ["2H", "3H", "4H"]] == [m["cards"] for m in g.view(0)["melds"]]


def test_N_2_a_meld_of_ranks_is_kept_naturals_by_rank_then_wild_cards():
    g = meldkit.new_game("pony_tail", players=4, seed=1)
    assert "meld 9 9 2 JK" == str(g.parse_action("meld jk 9 2 9"))
    assert "take 9 9" == str(g.parse_action("TAKE 9 9"))
    samba = meldkit.new_game("samba", players=4, seed=1)
    assert "run JC QC KC AC" == str(samba.parse_action("run ac jc kc qc"))


# --------------------------------------------------------------------------- N-3 canonical texts

@pytest.mark.parametrize("pack", sorted(DIGESTS))
def test_N_3_the_action_space_of_every_bundled_pack_keeps_its_canonical_texts(pack):
    g = meldkit.new_game(pack, players=KERNEL_PACKS.get(pack, 4), seed=1)
    assert DIGESTS[pack] == g.action_space.digest
    if pack in KERNEL_PACKS:
        for a in g.action_space.actions:
            again = g.parse_action(str(a))
            assert (tuple(a), str(a)) == (tuple(again), str(again))


@pytest.mark.parametrize("pack", sorted(KERNEL_PACKS))
def test_N_3_every_legal_text_parses_back_to_itself(pack):
    for g, legal in positions(pack, KERNEL_PACKS[pack], seeds=range(2), steps=150):
        for a in legal:
            assert g.parse_action(str(a)) == a
            assert str(g.parse_action(str(a))) == str(a)


def test_N_3_parsed_table_text_is_looked_up_and_never_interned():
    g = meldkit.new_game("rummy", players=2, seed=1)
    before = len(table_kernel._ACTION_CACHE)
    for i in range(40):
        g.check(f"meld {i % 13 + 1}H {i % 13 + 1}S {i % 13 + 1}D 9C 8C")
    assert before == len(table_kernel._ACTION_CACHE)
    legal = g.legal_actions()[0]
    assert g.parse_action(str(legal)) is legal


# --------------------------------------------------------------------------- N-4 aliases

def test_N_4_run_in_a_table_pack_is_meld():
    g = rummy("4H 5H 6H 7H 9S 9D 9C 2C 3D KD", SEAT1, stock="8D")
    assert "meld 4H 5H 6H" == str(g.parse_action("run 6H 4H 5H"))
    g.apply("draw")
    g.apply("run 4H 5H 6H")
    assert "meld 4H 5H 6H" == g.history[-1]


def test_N_4_extend_in_a_table_pack_is_add_to_the_run_with_those_ends():
    g = rummy("4H 5H 6H 7H 8H 9S 9D 9C 2C KD", SEAT1, stock="8D")
    play = ["draw", "meld 9S 9D 9C", "meld 4H 5H 6H"]
    for move in play:
        g.apply(move)
    assert "add 7H to m2" == str(g.parse_action("extend 7H to 4H-6H"))
    assert "add 7H to m2" == str(g.parse_action("add 7h to 4h-6h"))
    assert "add 7H to m2" == str(g.parse_action("extend 7H to m2"))
    g.apply("extend 7H to 4H-6H")
    assert "add 7H to m2" == g.history[-1]
    assert "add 8H to m2" == str(g.parse_action("extend 8H to 4H-7H"))  # the grown run
    for text, code in [("extend 8H to 4H-6H", "notation/no-such-meld"),
                       ("extend 8H to 4C-6C", "notation/no-such-meld"),
                       ("extend 8H to 4H-6S", "notation/bad-sequence"),
                       ("extend 8H to 4H-XX", "notation/bad-card"),
                       ("extend 8H 9H to 4H-7H", "notation/one-card"),
                       ("extend 8H", "notation/add"),
                       ("add 8H to 4H", "notation/meld-id")]:
        assert code == g.check(text).code, text
        with pytest.raises(NotationError):
            g.apply(text)


def test_N_4_a_span_two_runs_share_is_refused_naming_their_ids():
    pack = load_pack_text("extends: rummy\ndeck:\n  decks: 2\n")
    order = ("4H 5H 6H 4H 5H 6H 9S 9D 9C KD " + SEAT1 + " AS 8D").split()
    g = meldkit.new_game(pack, players=2, seed=1, options={"first_player": 0},
                         deck_order=order)
    for move in ["draw", "meld 4H 5H 6H", "meld 6H 5H 4H"]:
        g.apply(move)
    why = g.check("extend 7H to 4H-6H")
    assert ("notation/ambiguous-meld", "2 runs on the table are 4H-6H (m1, m2): name one by "
            "its id") == (why.code, why.sentence)


def test_N_4_a_span_with_no_game_to_read_it_is_refused():
    with pytest.raises(NotationError) as e:
        table_kernel.parse_table_action("extend 7H to 4H-6H")
    assert "notation/meld-id" == e.value.code


def test_N_4_samba_reads_a_suited_meld_of_one_suit_as_run_and_add_to_a_span_as_extend():
    g = meldkit.new_game("samba", players=4, seed=1)
    assert "run 4H 5H 6H" == str(g.parse_action("meld 6H 4H 5H"))
    assert "extend 7H to 4H-6H" == str(g.parse_action("add 7H to 4H-6H"))
    assert "extend 7H 8H to 4H-6H" == str(g.parse_action("add 8h 7h to 4H-6H"))
    assert "take to 4H-6H" == str(g.parse_action("take to 4H-6H"))
    assert "meld 9 9 2" == str(g.parse_action("meld 9 2 9"))  # a meld of a rank: ranks
    assert "add 9 to 9" == str(g.parse_action("add 9 to 9"))
    assert "run/wild" == g.check("meld 4H 5H JK").code  # a sequence takes no wild card


def test_N_4_samba_plays_the_table_spelling_of_a_run():
    from clauses import cards

    g = stacked_game("samba", 4, hands={0: cards("6H 7H 8H 9H KC KD KH")},
                     upcard=["4C"], stock=cards("5C 5D"))
    for move in ["draw", "meld 8H 6H 7H", "meld K K K", "add 9H to 6H-8H"]:
        g.apply(move)
    assert ["run 6H 7H 8H", "meld K K K", "extend 9H to 6H-8H"] == g.history[-3:]


def test_N_4_run_stays_unknown_in_a_pack_without_runs():
    g = meldkit.new_game("classic_canasta", players=4, seed=1)
    assert "notation/unknown-verb" == g.check("run 4H 5H 6H").code


# --------------------------------------------------------------------------- N-5 rank-only packs

@pytest.mark.parametrize("pack", ["pony_tail", "classic_canasta", "hand_and_foot", "samba"])
def test_N_5_a_suited_card_in_a_meld_of_ranks_is_refused_naming_the_rank(pack):
    g = meldkit.new_game(pack, players=4, seed=1)
    before = g.to_json()
    why = refusal(g, "meld 9H 9S 2C")
    assert "notation/bad-card" == why.code
    assert why.sentence.endswith("actions name ranks, not suits: write '9'")
    assert before == g.to_json()


def test_N_5_a_rank_in_a_table_pack_is_refused_naming_card_codes():
    g = meldkit.new_game("gin_rummy", players=2, seed=1)
    why = g.check("meld 9 9 9")
    assert ("notation/bad-card",
            "'9' is not a card code (a rank and a suit, such as 7H, 10D, QS, or JK)") == (
        why.code, why.sentence)


# --------------------------------------------------------------------------- N-1 the grammar

@pytest.mark.parametrize("pack, text, code", [
    ("pony_tail", "", "notation/empty"),
    ("pony_tail", "fold", "notation/unknown-verb"),
    ("pony_tail", "add 9 9", "notation/add-needs-target"),
    ("pony_tail", "draw 9", "notation/no-cards"),
    ("pony_tail", "meld", "notation/needs-cards"),
    ("pony_tail", "discard 9 9", "notation/one-discard"),
    ("pony_tail", "meld " + "9 " * 65, "notation/too-long"),
    ("samba", "discard 9", "notation/bad-card"),
    ("samba", "run 4H 5H 6H to 4H-6H", "notation/shape"),
    ("samba", "take 5H to 4H-6H", "notation/shape"),
    ("samba", "extend 7H to 6H-4H", "notation/bad-sequence"),
    ("gin_rummy", "add 7H", "notation/add"),
    ("gin_rummy", "add 7H to 3", "notation/meld-id"),
    ("gin_rummy", "discard 7H 8H", "notation/one-card"),
    ("gin_rummy", "fold", "notation/unknown"),
    ("gin_rummy", "meld", "notation/meld"),
    ("gin_rummy", "draw 7H", "notation/no-cards"),
    ("gin_rummy", "meld " + "9H " * 70, "notation/too-long"),
])
def test_N_1_notation_that_cannot_be_read_is_refused_with_a_stable_code(pack, text, code):
    g = meldkit.new_game(pack, players=KERNEL_PACKS[pack], seed=1)
    assert code == g.check(text).code
    with pytest.raises(NotationError) as e:
        g.apply(text)
    assert code == e.value.code


def test_N_1_one_tokenizer_splits_on_any_space_and_bounds_the_text():
    assert ["meld", "9", "9", "2"] == split_words(" meld\t9  9\n2 ")
    with pytest.raises(NotationError) as e:
        split_words("x" * 401)
    assert "notation/too-long" == e.value.code


def test_N_1_the_dialects_read_cards_targets_and_spans():
    table = table_dialect()
    p = table.parse("ADD 7h TO M3")
    assert ("add", (26,), 3) == (p.verb, p.cards, p.target)
    assert Span(14, 22, "4H-6H") == table.parse("extend 7H to 4H-6H").target
    rank = rank_dialect(["add"])
    p = rank.parse("add 2 9 to wild")
    assert ("add", (1, 8), 14) == (p.verb, p.cards, p.target)


# --------------------------------------------------------------------------- N-6 plugin verbs

def test_N_6_a_plugin_verb_is_never_read_as_an_alias():
    table = table_dialect({"run": (1, False)})
    p = table.parse("run 9H")
    assert ("run", (34,)) == (p.verb, p.cards)
    assert "bury 9H" == str(table_kernel.parse_table_action("BURY 9h", {"bury": (1, False)}))
    rank = rank_dialect(["meld", "bury"], {"bury": (1, True)})
    p = rank.parse("bury 9 to 9")
    assert ("bury", (8,), 8) == (p.verb, p.cards, p.target)
    with pytest.raises(NotationError) as e:
        rank.parse("bury 9")
    assert ("notation/shape", "write 'bury <rank> to <rank>'") == (e.value.code, e.value.reason)
