"""Integer action ids (issue 13, item 1): every legal action met in random play of every
bundled pack has an id, the mapping round-trips, ``apply(int)`` plays it, the mask matches
the legal list, bad ids are clear errors, and the ids are pinned by a digest in the save."""

from __future__ import annotations

import json
import random
import subprocess
import sys

import pytest
from ai_tables import seats, tables

import meldkit
from meldkit import GameState, IllegalActionError, SaveError
from meldkit.ai import ActionSpaceError

# (pack, players): every bundled pack, at its smallest and a larger table
TABLES = tables(*[("rummy", 2), ("rummy", 4), ("pony_tail", 6), ("pony_canasta", 4)])


def random_positions(pack, players, games, max_actions, seed=0):
    """Yield every position of ``games`` random games (at most ``max_actions`` each)."""
    rng = random.Random(seed)
    for g_i in range(games):
        g = meldkit.new_game(pack, players=players, seed=rng.randrange(2**32))
        for _ in range(max_actions):
            if g.is_over:
                break
            yield g
            g.apply(rng.choice(g.legal_actions()))


@pytest.mark.parametrize("pack,players", TABLES)
def test_every_legal_action_in_random_play_has_an_id_that_round_trips(pack, players):
    players = seats(pack, players)
    seen = 0
    for g in random_positions(pack, players, games=3, max_actions=400):
        space = g.action_space
        legal = g.legal_actions()
        ids = g.legal_ids()
        assert len(set(ids)) == len(legal)
        for a, i in zip(legal, ids):
            assert space.id_of(a) == i
            assert space.action_of(i) == a and str(space.action_of(i)) == str(a)
            assert space.id_of(str(a)) == i
        mask = g.legal_mask()
        assert len(mask) == space.size and sum(mask) == len(legal)
        assert sorted(i for i, on in enumerate(mask) if on) == sorted(ids)
        seen += len(legal)
    assert seen > 100


@pytest.mark.parametrize("pack,players", TABLES)
def test_apply_an_id_plays_the_same_game_as_notation(pack, players):
    players = seats(pack, players)
    rng = random.Random(7)
    a = meldkit.new_game(pack, players=players, seed=11)
    b = meldkit.new_game(pack, players=players, seed=11)
    for _ in range(150):
        if a.is_over:
            break
        i = rng.choice(a.legal_ids())
        a.apply(i)
        b.apply(str(b.action_space.action_of(i)))
    assert a == b


def test_wrong_types_and_ids_are_clear_errors():
    g = meldkit.new_game("gin_rummy", players=2, seed=1)
    with pytest.raises(IllegalActionError, match=r"outside the action space .*0\.\.1125"):
        g.apply(12345)
    with pytest.raises(IllegalActionError, match="outside"):
        g.apply(-1)
    with pytest.raises(IllegalActionError, match="not bool"):
        g.apply(True)
    with pytest.raises(IllegalActionError, match="not float"):
        g.apply(1.0)
    illegal = g.action_space.id_of("knock")
    with pytest.raises(IllegalActionError) as e:
        g.apply(illegal)
    assert "knock" in str(e.value)
    with pytest.raises(ActionSpaceError, match="not in the action space"):
        g.action_space.id_of("add 7H to m99")
    assert g.check(12345).code == "action/bad-id"


def test_numpy_integers_are_ids():
    np = pytest.importorskip("numpy")
    g = meldkit.new_game("gin_rummy", players=2, seed=1)
    g.apply(np.int64(g.legal_ids()[0]))
    assert len(g.history) == 1


# The ids of each bundled pack, pinned: a change of numbering must be deliberate (and then
# old saves with ids say so).
PINNED = {("gin_rummy", 2): 1126, ("houses", 4): 198, ("oklahoma_gin", 2): 1126,
          ("pony_canasta", 4): 7073, ("pony_tail", 4): 1112, ("rummy", 4): 1270}


@pytest.mark.parametrize("table", sorted(PINNED))
def test_action_space_size_is_pinned(table):
    pack, players = table
    assert meldkit.new_game(pack, players=players, seed=0).action_space.size == PINNED[table]


def test_ids_are_the_same_in_another_process():
    code = ("import meldkit; g = meldkit.new_game('pony_tail', players=4, seed=0); "
            "print(g.action_space.digest)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout.strip()
    assert out == meldkit.new_game("pony_tail", players=4, seed=9).action_space.digest


def test_the_save_carries_the_action_space_digest_and_refuses_another():
    g = meldkit.new_game("rummy", players=3, seed=4)
    d = json.loads(g.to_json())
    assert d["action_space_digest"] == g.action_space.digest
    assert GameState.from_json(g.to_json()) == g
    d["action_space_digest"] = "0" * 64
    with pytest.raises(SaveError, match="action_space_digest"):
        GameState.from_json(json.dumps(d))
    del d["action_space_digest"]
    assert GameState.from_json(json.dumps(d)) == g


def test_deepcopy_is_a_clone_sharing_the_compiled_rules():
    import copy

    g = meldkit.new_game("pony_tail", players=4, seed=2)
    c = copy.deepcopy(g)
    assert c == g and c is not g and c.rules is g.rules
    c.apply(c.legal_actions()[0])
    assert c != g


def test_a_table_packs_action_universe_does_not_fill_the_bounded_interner():
    """The table model interns the actions play lists (a bounded, module-wide cache, so that
    a legal list costs no allocation); its action universe — every meld a pack could ever
    allow, up to 100,000 of them — is looked up, not interned, so building one neither
    fills the cache nor changes which actions later play interns (a full cache once made
    listed actions stop parsing back to the very objects listed)."""
    from meldkit.kernel import table

    g = meldkit.new_game("contract_rummy", players=5, seed=3)
    listed = {tuple(a) for a in g.legal_actions()}
    before = set(table._ACTION_CACHE)
    universe = g.action_space.actions
    assert len(universe) > 5000
    assert set(table._ACTION_CACHE) - before <= listed
    some = universe[len(universe) // 2]
    assert g.action_space.id_of(str(some)) == len(universe) // 2  # still found by value


def _table_packs():
    from meldkit.kernel.table import TableRules

    for name in meldkit.available_packs():
        for players in (2, 4, 6, 8):
            try:
                g = meldkit.new_game(name, players=players, seed=0)
            except meldkit.MeldkitError:
                continue
            if isinstance(g.rules, TableRules):
                yield g
    for name, players in (("rummy", 4), ("oklahoma_gin", 2), ("gin_rummy", 2)):
        knock = "" if name == "rummy" else "knock:\n  test: best_discard\n"  # one deck only
        yield meldkit.new_game(meldkit.load_pack_text(
            f"extends: {name}\ndeck:\n  decks_by_players:\n    {players}: 5\n{knock}"),
            players=players, seed=0)


def test_the_table_universe_lists_the_melds_of_every_copy_from_the_copies_one_meld_holds():
    """The table universe lists melds from as many copies of a card as one meld can hold
    (kernel/universe._meldable_copies): the same melds as the whole deck, for every bundled
    table pack at each player count it takes, and rummy and two gins of five decks."""
    from meldkit.kernel.universe import _meldable_copies

    capped = 0
    for g in _table_packs():
        kinds = sorted(g.kind_of)
        mr = g.rules.melds
        fewer = _meldable_copies(mr, kinds)
        if fewer != kinds:
            capped += 1
            assert mr.melds_in(fewer) == mr.melds_in(kinds), (g.pack.name, g.n_players)
    assert capped >= 3  # the cap was proved where it drops cards


@pytest.mark.parametrize("opening", ["minimums: [{minimum: 30}]", "all_at_once: true",
                                     "by_hand: [30, 50]"])
def test_an_opening_of_points_has_its_withdraw_in_the_action_space(opening):
    """fuzz_saves_moves (seed 3450, stop 41) found Scala 40's ``legal_ids()`` raising
    KeyError at a legal ``withdraw``: the table universe listed ``withdraw`` only for a
    contract (``initial_meld.melds``), not for an opening of points or of the whole hand."""
    pack = meldkit.load_pack_text(f"extends: rummy\ninitial_meld: {{{opening}}}\n",
                                  filename="opening.yaml")
    g = meldkit.new_game(pack, players=2, seed=1)
    withdraw = g.parse_action("withdraw")
    (i,) = g.action_space.ids([withdraw])
    assert g.action_space.size > i >= 0
    rng = random.Random(3)
    seen = 0
    for _ in range(3000):
        if g.is_over:
            break
        ids = g.legal_ids()  # every legal action has its id, withdraw included
        seen += i in ids
        g.apply(rng.choice(ids))
    assert seen  # a pending opening was withdrawable, by its id


def test_too_many_melds_over_a_schedules_deals_is_found_before_any_is_ordered(monkeypatch):
    """Three Thirteen's deals each make a wild rank, about 38,000 melds a deal and more than
    60,000 over two: the table universe counts the deals' melds as multisets first and
    refuses the action space before laying any meld in order (which took 1.8 s of CPU, on
    the first save of a game, where counting takes 0.2 s)."""
    from pathlib import Path

    from meldkit.kernel.melds import MeldRules

    pack = meldkit.load_pack(Path(__file__).parents[1] / "examples/packs/three_thirteen.yaml")
    g = meldkit.new_game(pack, players=2, seed=0)
    matched = []
    monkeypatch.setattr(MeldRules, "match", lambda self, cards: matched.append(cards))
    with pytest.raises(ActionSpaceError, match="more than 60,000 meld actions"):
        g.action_space
    assert matched == []
    assert "action_space_digest" not in json.loads(g.to_json())


def test_meld_multisets_are_the_melds_of_a_hand_unordered():
    """``MeldRules.meld_multisets`` lists what ``melds_in`` lists, each meld sorted, and
    ``laid`` puts a multiset back in the order ``melds_in`` gives: on hands of every
    bundled table pack's meld rules, with wild and repeated cards."""
    rng = random.Random(5)
    checked = 0
    for g in _table_packs():
        mr = g.rules.melds
        kinds = sorted(g.kind_of)
        for _ in range(3):
            hand = rng.sample(kinds, 14)
            melds = mr.melds_in(hand)
            multisets = mr.meld_multisets(hand)
            assert multisets == sorted(tuple(sorted(m)) for m in melds)
            assert sorted(map(mr.laid, multisets)) == melds
            checked += len(melds)
    assert checked > 100


def test_an_id_sent_to_a_pack_without_an_action_space_is_an_illegal_action():
    """A server audit: ``check(3)`` and ``apply(3)`` on Rommé raised ActionSpaceError, which
    a server catching IllegalActionError around ``apply`` (the cookbook's loop) did not
    catch, and ``check`` raised instead of answering; now both refuse it as
    ``action/bad-id``, naming the id, and the game is unchanged."""
    from pathlib import Path

    from meldkit import IllegalActionError

    pack = meldkit.load_pack(Path(__file__).parents[1] / "examples/packs/romme.yaml")
    g = meldkit.new_game(pack, players=4, seed=1)
    before = g.to_json()
    for sent in (0, 3, 10**30):
        why = g.check(sent)
        assert why.code == "action/bad-id"
        assert why.sentence.startswith(f"action id {sent} names no action: romme at 4 "
                                       "players allows more than 60,000 meld actions")
        with pytest.raises(IllegalActionError) as e:
            g.apply(sent)
        assert e.value.code == "action/bad-id"
    assert g.to_json() == before
