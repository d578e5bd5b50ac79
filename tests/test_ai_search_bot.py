"""The search bot ``pimc`` (issue 22): legal moves in every bundled pack within its time
budget, the fast gin rollout model agreeing with the engine's greedy play, the gin particle
filter's hands consistent with what the bot saw, and no obviously bad move on fixed deals.
Its strength is measured by ``benchmarks/strength.py`` (too slow for the suite)."""

from __future__ import annotations

import random
import time

import pytest
from ai_tables import seats, tables

import meldkit
from meldkit.bots import BOTS, GreedyBot, make_bot
from meldkit.pimc import GinRollout, GinSim, PIMCBot


def test_pimc_is_a_registered_bot():
    assert BOTS["pimc"] is PIMCBot
    assert isinstance(make_bot("pimc", seed=1), PIMCBot)


@pytest.mark.parametrize("pack,players", tables())
def test_pimc_plays_legal_moves_within_its_budget_in_every_pack(pack, players):
    players = seats(pack, players)
    rng = random.Random(3)
    g = meldkit.new_game(pack, players=players, seed=11)
    bot = PIMCBot(seed=1, time_limit=0.05, max_samples=6, rollout_depth=30)
    searched = 0
    for step in range(80):
        if g.is_over or searched >= 4:
            break
        legal = g.legal_actions()
        if len(legal) > 1 and step % 3 == 0:
            t0 = time.process_time()
            a = bot.choose(g)
            spent = time.process_time() - t0
            assert a in legal
            # one determinization may start just before the limit: a rollout per candidate
            assert spent < 0.05 + 1.0, (pack, spent)
            searched += 1
            g.apply(a)
        else:
            g.apply(rng.choice(legal))


def test_pimc_respects_its_time_limit_at_gin():
    g = meldkit.new_game("gin_rummy", players=2, seed=4, options={"first_player": 0})
    bot = PIMCBot(seed=2, time_limit=0.2, max_samples=10_000)
    worst = 0.0
    for _ in range(12):
        if g.hand_results:
            break
        t0 = time.process_time()
        a = bot.choose(g)
        worst = max(worst, time.process_time() - t0)
        g.apply(a)
    assert worst < 0.2 + 0.1
    assert bot.last_samples >= 0


def test_pimc_is_reproducible_with_a_seed():
    g = meldkit.new_game("gin_rummy", players=2, seed=7)
    g.apply(g.legal_actions()[0])
    picks = {str(PIMCBot(seed=5, time_limit=100, max_samples=8).choose(g)) for _ in range(2)}
    assert len(picks) == 1


def test_the_fast_gin_rollout_plays_the_hand_the_engine_plays():
    # the greedy policy for both seats from the same full state: the model's net points
    # equal the engine's on nearly every hand (lay-off details may differ)
    agree = n = 0
    for seed in range(40):
        g = meldkit.new_game("gin_rummy", players=2, seed=seed)
        for _ in range(random.Random(seed).randrange(0, 24)):
            if g.hand_results:
                break
            g.apply(type(g).greedy_policy(g))
        if g.hand_results or not GinRollout.applies(g):
            continue
        s = g.clone()
        while not s.hand_results:
            s.apply(type(s).greedy_policy(s))
        n += 1
        agree += GinRollout(g).play(g.clone()) == list(s.hand_results[0].net)
    assert n >= 25 and agree >= n - 2, (agree, n)


def test_the_fast_rollout_is_used_only_for_the_gin_it_models():
    first_upcard = meldkit.new_game("gin_rummy", players=2, seed=1)
    assert GinRollout.applies(first_upcard) is False
    g = meldkit.new_game("gin_rummy", players=2, seed=1)
    while g.phase == "first_upcard":
        g.apply(g.legal_actions()[-1])  # pass, pass, draw
    assert g.phase == "discard" and GinRollout.applies(g)
    ok = meldkit.new_game("oklahoma_gin", players=2, seed=1)
    while ok.phase == "first_upcard":
        ok.apply(ok.legal_actions()[-1])
    # Oklahoma gin: the knock value comes from the upcard
    assert ok.phase == "discard" and not GinRollout.applies(ok)
    assert not GinRollout.applies(meldkit.new_game("pony_tail", players=4, seed=1))


# a deal (top first: ten cards for seat 0, ten for seat 1, the upcard, the stock) in which
# seat 0 takes the upcard 5H to hold 5C 5D 5H 5S 6H 7H 8H 2C 3C 4C KD: gin after KD goes
GIN_DEAL = ("5C 5D 5S 6H 7H 8H 2C 3C 4C KD  9S JS QD KC 9D JD 2S 4S 6S 8S  5H").split()


def _gin_game():
    return meldkit.new_game("gin_rummy", players=2, seed=3, options={"first_player": 0},
                            deck_order=GIN_DEAL)


def test_pimc_takes_the_upcard_knocks_and_goes_gin():
    g = _gin_game()
    bot = PIMCBot(seed=1, time_limit=0.3)
    assert g.phase == "first_upcard" and g.current_player == 0
    assert str(bot.choose(g)) == "take"
    g.apply("take")
    assert str(bot.choose(g)) == "knock"
    g.apply("knock")
    assert str(bot.choose(g)) == "discard KD"


def test_pimc_knocks_for_gin_when_it_draws_it():
    # seat 0 passes the upcard, seat 1 passes, seat 0 draws the stock's top card: 5H
    deal = GIN_DEAL[:20] + ["QS", "5H"]
    g = meldkit.new_game("gin_rummy", players=2, seed=3, options={"first_player": 0},
                         deck_order=deal)
    bot = PIMCBot(seed=1, time_limit=0.3)
    g.apply("pass")
    g.apply("pass")
    g.apply("draw")
    assert "5H" in g.view(0)["hand"]
    assert str(bot.choose(g)) == "knock"


def test_pimc_does_not_break_a_meld_to_keep_deadwood():
    # seat 0 holds three melds and KD, QS after drawing: any discard but KD or QS breaks
    # a meld for nothing
    deal = "5C 5D 5S 6H 7H 8H 2C 3C 4C KD  9S JS QD KC 9D JD 2S 4S 6S 8S  AH QS".split()
    g = meldkit.new_game("gin_rummy", players=2, seed=3, options={"first_player": 0},
                         deck_order=deal)
    g.apply("pass")
    g.apply("pass")
    g.apply("draw")
    a = PIMCBot(seed=1, time_limit=0.3).choose(g)
    assert str(a) in ("discard KD", "discard QS", "knock"), a


def _greedy_positions(n, seed0=0):
    """Gin positions of greedy self-play, some turns into the hand (draw or discard)."""
    out = []
    for seed in range(seed0, seed0 + 4 * n):
        g = meldkit.new_game("gin_rummy", players=2, seed=seed)
        for _ in range(random.Random(seed).randrange(6, 26)):
            if g.hand_results:
                break
            g.apply(type(g).greedy_policy(g))
        if not g.hand_results and g.phase in ("draw", "discard"):
            out.append(g)
        if len(out) >= n:
            break
    return out


def test_the_mask_gin_model_plays_the_hand_the_list_model_plays():
    # GinSim (bit masks) is GinRollout (lists of kinds) made faster: the same hands
    for g in _greedy_positions(30, seed0=500):
        ko = g.kind_of
        hands = [[ko[c] for c in h] for h in g.hands]
        stock = [ko[c] for c in g.stock]
        pile = [ko[c] for c in g.pile]
        a = GinRollout(g).play_lists([h[:] for h in hands], stock[:], pile[:],
                                     g.current_player, g.phase, g.taken, g.returned_in_row)
        masks = [sum(1 << c for c in h) for h in hands]
        b = GinSim(g).play(masks, stock[:], pile[:], g.current_player, g.phase, g.taken,
                           g.returned_in_row)
        assert a[0] == b


def test_the_mask_gin_model_plays_a_take_and_its_planned_discard_as_the_engine_does():
    # "take;discard X" (follow): the take, the discard X, then the hand on greedily — the
    # net points the engine reaches with those two moves and greedy play; where they
    # differ, the model's plain take (greedy's discard after it) differs too (lay-offs)
    def engine(g, moves):
        s = g.clone()
        for m in moves:
            s.apply(m)
        while not s.hand_results:
            s.apply(type(s).greedy_policy(s))
        return s.hand_results[0].net[0]

    def model(g, move):
        ko = g.kind_of
        return GinSim(g).play_move([sum(1 << ko[c] for c in h) for h in g.hands],
                                   [ko[c] for c in g.stock], [ko[c] for c in g.pile],
                                   g.current_player, "draw", g.taken, g.returned_in_row, move)

    n = agree = 0
    for g in _greedy_positions(40, seed0=700):
        if g.phase != "draw" or not any(a.type == "take" for a in g.legal_actions()):
            continue
        after = g.clone()
        after.apply("take")
        plain = model(g, "take") == engine(g, ["take"])
        for a in after.legal_actions():
            ok = model(g, f"take;{a}") == engine(g, ["take", a])
            assert ok or not plain, (g.seed, str(a))
            n += 1
            agree += ok
    assert n >= 150 and agree >= 0.9 * n, (agree, n)


def test_pimc_follow_takes_for_a_planned_discard_and_keeps_to_it():
    # with follow, a take may be chosen for a discard after it other than greedy's; the
    # bot then holds that discard as the choice to beat at its next decision, once
    from meldkit.pimc import _Then

    planned = 0
    for g in _greedy_positions(60, seed0=900):
        if g.phase != "draw":
            continue
        bot = PIMCBot(seed=3, max_samples=60, follow=3)
        cands = bot._candidates(g, g.legal_actions(), GreedyBot().choose(g))
        ups = bot._follow_ups(g, cands)
        assert all(isinstance(u, _Then) and str(u).startswith("take;discard ") for u in ups)
        assert len(ups) <= 3
        a = bot.choose(g)
        assert a in g.legal_actions()
        if bot._plan is None:
            continue
        planned += 1
        assert str(a) == "take"
        then = bot._plan[1]
        nxt = g.clone()
        nxt.apply(a)
        bot.choose(nxt)
        assert str(bot._prior) == then and bot._plan is None
        again = PIMCBot(seed=3, max_samples=60, follow=0)  # no plan: greedy's discard to beat
        again.choose(nxt)
        assert again._prior is None
    assert planned >= 1


def test_pimc_keeps_the_gin_model_of_each_compiled_rules_not_of_an_id():
    # the model is kept with the rules it models: another pack's rules, even under a
    # reused id, get their own (here its knock limit)
    bot = PIMCBot(seed=1, max_samples=4)
    gin = meldkit.new_game("gin_rummy", players=2, seed=1)
    pack = meldkit.load_pack_text("extends: gin_rummy\nknock:\n  max_deadwood: 5\n",
                                  filename="k5.yaml")
    five = meldkit.new_game(pack, players=2, seed=1)
    assert bot._gin_sim(gin) is bot._gin_sim(gin) and bot._gin_sim(gin).knock_limit == 10
    bot._sims[id(five.rules)] = (gin.rules, GinSim(gin))  # as if gin's id were reused
    assert bot._gin_sim(five).knock_limit == 5


def test_pimc_reseed_makes_a_decision_a_function_of_the_position():
    # with reseed the search's samples come from the seed and the bot's view of the game,
    # not from what it searched before: the same values after another decision or none;
    # without it, the earlier search moves the random numbers and the values differ
    positions = [g for g in _greedy_positions(6, seed0=1300) if g.phase == "discard"][:2]
    elsewhere = meldkit.new_game("gin_rummy", players=2, seed=9)
    elsewhere.apply(elsewhere.legal_actions()[0])
    for reseed in (True, False):
        seen = []
        for warm in (False, True):
            bot = PIMCBot(seed=2, max_samples=40, reseed=reseed)
            if warm:
                bot.choose(elsewhere)
            seen.append([(str(bot.choose(g)), bot.last_values) for g in positions])
        assert (seen[0] == seen[1]) is reseed


def test_the_gin_worlds_keep_what_the_bot_knows():
    # a determinization: the opponent's hand holds the upcards it took and kept, the
    # right number of cards, none of the bot's or the pile's; the stock is the rest
    for g in _greedy_positions(12, seed0=900):
        bot = PIMCBot(seed=3)
        me = g.current_player
        opp = 1 - me
        sim = bot._gin_sim(g)
        obs, early, known, unseen = bot._gin_info(g, me)
        truth = {g.kind_of[c] for c in g.hands[opp]}
        assert known <= truth and truth - known <= set(unseen)
        kmask = sum(1 << k for k in known)
        m = len(g.hands[opp]) - len(known)
        worlds = bot._worlds(g, sim, obs, early, kmask, m, unseen)
        for _ in range(5):
            hm, stock = next(worlds)
            assert hm & kmask == kmask and hm.bit_count() == len(g.hands[opp])
            assert sorted(stock + [k for k in range(52) if hm >> k & 1 and k not in known]) \
                == sorted(unseen)


def test_the_sampled_opponent_hands_are_kept_hands_not_random_ones():
    # a greedy player's hand some turns in has far less deadwood than ten dealt cards:
    # the sampler's hands are near the true ones, uniform deals far above them
    true = kept = uniform = 0
    for g in _greedy_positions(20, seed0=1300):
        me = g.current_player
        opp = 1 - me
        for select, acc in ((1.3, "kept"), (0.0, "uniform")):
            bot = PIMCBot(seed=4, select=select)
            sim = bot._gin_sim(g)
            obs, early, known, unseen = bot._gin_info(g, me)
            kmask = sum(1 << k for k in known)
            worlds = bot._worlds(g, sim, obs, early, kmask, len(g.hands[opp]) - len(known),
                                 unseen)
            dw = sum(sim.top(next(worlds)[0]) for _ in range(10)) / 10
            if acc == "kept":
                kept += dw
            else:
                uniform += dw
        true += GinSim(g).top(sum(1 << g.kind_of[c] for c in g.hands[opp]))
    assert abs(kept - true) < abs(uniform - true)
    assert kept < uniform


def test_pimc_beats_random_at_gin():
    # (a random player that takes the upcard and throws it back twice voids the hand)
    won = lost = 0
    for seed in range(6):
        g = meldkit.new_game("gin_rummy", players=2, seed=seed, options={"first_player": 0})
        bots = [PIMCBot(seed=seed, time_limit=0.02, max_samples=12), BOTS["random"](seed=seed)]
        steps = 0
        while not g.hand_results and steps < 2000:
            g.apply(bots[g.current_player].choose(g))
            steps += 1
        net = g.hand_results[0].net[0]
        won += net > 0
        lost += net < 0
    assert won >= 4 and lost == 0


def test_pimc_particle_filter_follows_a_greedy_opponent():
    # every particle that weighs is a hand the opponent can hold: its size, none of the
    # cards seat 0 sees, the upcards it kept; followed from decision to decision
    g = meldkit.new_game("gin_rummy", players=2, seed=3, options={"first_player": 0})
    bot = PIMCBot(seed=1, particles=300, max_samples=2)
    checked = 0
    while not g.hand_results and checked < 4:
        if g.current_player == 0 and g.phase == "draw":
            bot.observe(g)
            sim = bot._gin_sim(g)
            obs, early, known, unseen = bot._gin_info(g, 0)
            kmask = sum(1 << k for k in known)
            m = len(g.hands[1]) - len(known)
            hands, ws = bot._filter(g, sim, unseen, kmask, m)
            assert len(hands) == 300 and sum(ws) > 0
            ko = g.kind_of
            seen = sum(1 << ko[c] for c in list(g.hands[0]) + list(g.pile))
            for h, w in zip(hands, ws):
                if w:
                    assert h.bit_count() == len(g.hands[1])
                    assert not h & seen and h & kmask == kmask
            checked += 1
        g.apply(type(g).greedy_policy(g))
    assert checked == 4


def _gin_discard_position(seed=21, turns=9):
    g = meldkit.new_game("gin_rummy", players=2, seed=seed, options={"first_player": 0})
    while True:
        g.apply(type(g).greedy_policy(g))
        if g.phase == "discard" and not g.hand_results:
            turns -= 1
            if turns <= 0 and len(PIMCBot()._candidates(g, g.legal_actions(),
                                                        type(g).greedy_policy(g))) > 2:
                return g


def test_pimc_searches_a_fixed_number_of_determinizations_whatever_the_clock(monkeypatch):
    # by default the work is counted, not timed: a clock racing ahead changes nothing
    import meldkit.pimc as pimc

    g = _gin_discard_position()
    calm = PIMCBot(seed=9)
    a = calm.choose(g)
    assert pimc.GIN_SAMPLES // 4 < calm.last_samples <= pimc.GIN_SAMPLES  # GIN_WORK's cap
    ticks = iter(range(0, 10**9, 1000))
    monkeypatch.setattr(pimc.time, "process_time", lambda: float(next(ticks)))
    rushed = PIMCBot(seed=9)
    assert rushed.choose(g) == a and rushed.last_samples == calm.last_samples
    assert rushed.last_values == calm.last_values


@pytest.mark.parametrize("bad", [-1, 2.5, True, "100"])
def test_pimc_refuses_a_max_work_that_is_not_a_whole_number_of_units(bad):
    with pytest.raises(ValueError, match="max_work must be a whole number"):
        PIMCBot(max_work=bad)


@pytest.mark.parametrize("name,bad,expected", [
    ("time_limit", 0, "a number > 0 or None"), ("time_limit", -1.0, "> 0"),
    ("max_samples", 0, "a whole number >= 1 or None"), ("top_k", 0, ">= 1"),
    ("window", -1, "a number >= 0"), ("window", float("nan"), "a number >= 0"),
    ("race", 2.5, "a whole number >= 1"), ("keep", -1, ">= 0"),
    ("scale", 0.0, "> 0 or None"), ("win_weight", -1, ">= 0"),
    ("margin", float("inf"), "a number"), ("confidence", -0.5, ">= 0"),
    ("rollout_depth", 0, ">= 1"), ("fast", 1, "True or False"),
    ("infer", True, "a whole number"), ("depth_back", -2, ">= 0"),
    ("strength", "0.1", "a number"), ("select", -1.3, ">= 0"), ("proposals", 0, ">= 1"),
    ("particles", -5, ">= 0"), ("eps", 1.5, ">= 0 and <= 1"), ("tie", -0.1, "<= 1"),
    ("tries", 0, ">= 1"), ("safety", -8.0, ">= 0"), ("danger_samples", 0, ">= 1"),
    ("safe_rollouts", "yes", "True or False"), ("weights", (1.0, 2.0), "four numbers"),
    ("follow", -1, ">= 0"), ("follow", 1.5, "a whole number"), ("reseed", 1, "True or False"),
    ("weights", (1.0, 2.0, -1.0, 0.0), "four numbers >= 0"),
])
def test_pimc_refuses_every_setting_out_of_its_range_naming_it(name, bad, expected):
    with pytest.raises(meldkit.SetupError, match=f"PIMCBot: {name} must be .*") as e:
        PIMCBot(**{name: bad})
    assert expected in str(e.value) and repr(bad) in str(e.value)


def test_pimc_checks_every_setting_it_takes():
    import inspect

    from meldkit.pimc import _SETTINGS

    taken = set(inspect.signature(PIMCBot).parameters) - {"seed", "weights"}
    assert taken == set(_SETTINGS)  # a new setting needs its kind and range in the table


def test_pimc_settings_from_text_are_read_as_their_kind_and_a_bad_one_refused():
    from meldkit.pimc import parse_settings

    got = parse_settings(["race=50", "window=4", "safe_rollouts=0", "time_limit=None"])
    assert got == {"race": 50, "window": 4.0, "safe_rollouts": False, "time_limit": None}
    assert type(got["race"]) is int and PIMCBot(**got).race == 50
    for text, words in [("rase=50", "known setting"), ("race", "key=value"),
                        ("race=2.5", "race must be a whole number >= 1, not '2.5'"),
                        ("eps=2", "eps must be a number >= 0 and <= 1, not 2.0"),
                        ("fast=maybe", "fast must be True or False")]:
        with pytest.raises(meldkit.SetupError, match=words):
            parse_settings([text])


def test_pimc_counts_the_samplers_selection_discards_as_work(monkeypatch):
    # the kept-hand draw's discards from hands of up to 26 cards were once uncounted and
    # made the largest decisions (0.43 s of one): each now counts two units of max_work
    from meldkit.pimc import GinSim

    calls = [0]
    real = GinSim.discard_from

    def counted(self, h, allowed):
        calls[0] += 1
        return real(self, h, allowed)

    monkeypatch.setattr(GinSim, "discard_from", counted)
    g = _gin_discard_position()
    bot = PIMCBot(seed=3)
    me = g.current_player
    sim = bot._gin_sim(g)
    obs, early, known, unseen = bot._gin_info(g, me)
    kmask = sum(1 << k for k in known)
    m = len(g.hands[1 - me]) - len(known)
    worlds = bot._worlds(g, sim, obs, early, kmask, m, unseen)
    bot._work = 0
    for _ in range(20):
        next(worlds)
    assert calls[0] >= 20  # nine turns in: each hand is a selected one
    assert bot._work == 2 * calls[0]


def test_pimc_narrows_the_search_to_the_greedy_choice_and_its_best_rivals():
    # after ``race`` determinizations only the greedy choice and ``keep`` others go on:
    # theirs are the only means over every determinization
    g = _gin_discard_position()
    bot = PIMCBot(seed=2, max_samples=40, race=10, keep=1)
    seen = {}
    real = bot._gin_sampler

    def spy(state, cands, scale):
        one = real(state, cands, scale)

        def counted(active):
            for i in active:
                seen[i] = seen.get(i, 0) + 1
            return one(active)
        return counted
    bot._gin_sampler = spy
    bot.choose(g)
    assert sorted(seen.values(), reverse=True)[:2] == [40, 40]
    assert all(v == 10 for v in sorted(seen.values(), reverse=True)[2:]) and len(seen) > 2


def test_pimc_decides_within_a_second_at_gin_by_default():
    # the budget: at most 1 s of CPU a decision on one core (here a mean over a
    # hand's searched decisions, with room for a loaded machine)
    g = meldkit.new_game("gin_rummy", players=2, seed=8, options={"first_player": 0})
    bot = PIMCBot(seed=1)
    spent = []
    while not g.hand_results and len(spent) < 6:
        legal = g.legal_actions()
        t0 = time.process_time()
        a = bot.choose(g)
        if bot.last_samples:
            spent.append(time.process_time() - t0)
        assert a in legal
        g.apply(a)
    assert spent and sum(spent) / len(spent) < 1.0, spent


def test_pimc_keeps_wild_cards_for_a_wild_book_going_out_requires():
    # Pony Tail requires a wild-only book (2500) to go out: a wild card spent elsewhere
    # costs its share of the book and of the required-book bonus, (2500 + 1000) / 7
    bot = PIMCBot(seed=1)
    base, rollout = bot._policy(meldkit.new_game("pony_tail", players=4, seed=1))
    assert base.wild_cost == rollout.wild_cost == 500
    base, _ = bot._policy(meldkit.new_game("classic_canasta", players=4, seed=1))
    assert base.wild_cost is None  # no wild-only book: the greedy bot's own


def _mask(*cards):
    return sum(1 << (rank * 4 + suit) for rank, suit in cards)


def test_the_safe_rollout_discard_keeps_back_the_card_the_opponent_would_meld():
    # eleven cards: three melds and two loose tens-valued cards (a queen, a king) that
    # leave the same deadwood; the opponent holds two queens, so it would take the queen
    g = meldkit.new_game("gin_rummy", players=2, seed=1)
    sim = GinSim(g)
    h = _mask((1, 0), (2, 0), (3, 0), (6, 0), (6, 1), (6, 2), (8, 1), (9, 1), (10, 1),
              (11, 3), (12, 2))
    queen, king = 11 * 4 + 3, 12 * 4 + 2
    opp = _mask((11, 0), (11, 1), (4, 3), (0, 2))
    assert sim.discard(h) == (queen, 10)  # greedy: the tie goes to the lower kind
    assert sim.takes(opp, queen) and not sim.takes(opp, king)
    sim.safety = 8.0
    assert sim.safe_discard(h, opp) == king
    assert sim.safe_discard(h, _mask((4, 3), (0, 2))) == queen  # no danger: greedy's


def test_pimc_with_discard_safety_plays_legal_reproducible_moves():
    # the safe discard is one of the searched candidates; a seed fixes the moves
    for g in _greedy_positions(6, seed0=2100):
        if g.phase != "discard":
            continue
        picks = set()
        for _ in range(2):
            bot = PIMCBot(seed=5, max_samples=30, safety=8.0, safe_rollouts=True)
            a = bot.choose(g)
            assert a in g.legal_actions()
            assert bot._prior is None or bot._prior in g.legal_actions()
            picks.add(str(a))
        assert len(picks) == 1


def test_the_memoised_gin_discard_and_upcard_test_answer_as_computed_afresh():
    # GinSim keeps each hand's greedy discard and each (hand, upcard) take decision;
    # asked again, in any order, it gives what a fresh computation gives
    g = meldkit.new_game("gin_rummy", players=2, seed=1)
    sim, fresh = GinSim(g), GinSim(g)
    rng = random.Random(8)
    asked = []
    for _ in range(100):
        cards = rng.sample(range(52), 14)
        h = sum(1 << c for c in cards[:10])
        asked += [(h, t) for t in cards[10:]]  # one hand, four upcards
    taken = 0
    for h, t in asked + asked[::-1]:
        assert sim.discard(h | 1 << t) == fresh._discard(h | 1 << t)
        assert sim.takes(h, t) == fresh._takes(h, t)
        taken += sim.takes(h, t)
    assert 0 < taken < len(asked)  # both answers asked for
    assert len(sim._dmemo) == len(sim._tmemo) == len(set(asked))


def test_pimc_caps_a_decisions_work_whatever_the_clock(monkeypatch):
    # max_work stops the search after as much rollout work, counted not timed: the same
    # determinizations and move with the clock racing ahead; 0 lifts the cap
    import meldkit.pimc as pimc

    g = _gin_discard_position()
    free = PIMCBot(seed=9, max_work=0)
    free.choose(g)
    assert free.last_samples == pimc.GIN_SAMPLES and free._work > 3000
    capped = PIMCBot(seed=9, max_work=3000)
    a = capped.choose(g)
    assert 2 <= capped.last_samples < pimc.GIN_SAMPLES and capped._work >= 3000
    ticks = iter(range(0, 10**9, 1000))
    monkeypatch.setattr(pimc.time, "process_time", lambda: float(next(ticks)))
    rushed = PIMCBot(seed=9, max_work=3000)
    assert rushed.choose(g) == a and rushed.last_samples == capped.last_samples


def test_gin_endings_benchmark_names_each_hands_ending_from_the_bots_side(capsys):
    import importlib.util
    from pathlib import Path

    path = Path(__file__).resolve().parents[1] / "benchmarks" / "gin_endings.py"
    spec = importlib.util.spec_from_file_location("gin_endings", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    assert mod.main(["--deals", "3", "--bot", "greedy"]) == 0
    lines = capsys.readouterr().out.splitlines()
    hands, totals = lines[:6], lines[6:]
    assert sum(int(t.rpartition(": ")[2]) for t in totals) == 6
    for line in hands:
        seed, swap, *how, _, _, points, _ = line.split()
        how = " ".join(how)
        assert how.split()[0] in {"bot", "opp", "wall"}
        if how in ("bot knock", "bot gin", "opp undercut"):
            assert int(points) > 0
        if how in ("opp knock", "opp gin", "bot undercut"):
            assert int(points) < 0


def _benchmark(name: str):
    """The script ``benchmarks/<name>.py``, imported as a module."""
    import importlib.util
    from pathlib import Path

    path = Path(__file__).resolve().parents[1] / "benchmarks" / f"{name}.py"
    spec = importlib.util.spec_from_file_location(name, path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _oracle():
    return _benchmark("pimc_oracle")


@pytest.mark.parametrize("know", ["outs", "others"])
def test_the_decision_studys_partial_knowledge_agrees_with_the_true_hand_where_shown(know):
    """pimc_oracle --partial: every sampled hand holds exactly the true hand's cards among
    the cards shown (the bot's outs, or as many others), keeps the opponent's hand size,
    and leaves the rest to the sampler (other cards differ from the truth)."""
    from meldkit.bots import GreedyBot

    po = _oracle()
    game = meldkit.new_game("gin_rummy", players=2, seed=5)
    bot = GreedyBot(seed=1)
    for _ in range(12):
        game.apply(bot.choose(game))
    me, ko = game.current_player, game.kind_of
    true = sum(1 << ko[c] for c in game.hands[1 - me])
    mine = sum(1 << ko[c] for c in game.hands[me])
    probe = po.PartialPIMC(seed=1)
    probe.know = know
    sim = probe._gin_sim(game)
    obs, early, known, unseen = probe._gin_info(game, me)
    kmask = sum(1 << k for k in known)
    m = len(game.hands[1 - me]) - len(known)
    free = [c for c in unseen if not kmask >> c & 1]
    outs = po.outs_of(mine, free)
    assert outs, "the position should give the bot some outs"
    shown = outs
    if know == "others":  # as many other unseen cards, the same for the position
        import random

        rest = [c for c in free if c not in outs]
        shown = random.Random(mine).sample(rest, min(len(outs), len(rest)))
    worlds = probe._worlds(game, sim, obs, early, kmask, m, unseen)
    differs = 0
    for _ in range(30):
        hm, stock = next(worlds)
        assert bin(hm).count("1") == len(game.hands[1 - me])
        assert sorted(stock) == sorted(c for c in unseen if not hm >> c & 1)
        assert all((hm >> c & 1) == (true >> c & 1) for c in shown)
        differs += hm != true
    assert differs > 0


def test_the_decision_studys_outs_brier_scores_a_sampler_against_the_prior(capsys):
    from meldkit.pimc import PIMCBot

    po = _oracle()
    data = po.positions(3, 2)
    ours, prior = po.outs_brier("t", lambda: PIMCBot(seed=1), data, samples=20,
                                mix=lambda: PIMCBot(seed=1, particles=200))
    assert 0 <= ours <= 1 and 0 < prior < 1
    out = capsys.readouterr().out
    assert out.startswith("t: ") and "reliability: " in out
    mixed = dict(x.split(": ") for x in out.split("its share: ")[1].strip().split(", "))
    assert len(mixed) == 11 and float(mixed["0.0"]) == pytest.approx(ours, abs=1e-4)


def _midhand(seed: int, moves: int):
    from meldkit.bots import GreedyBot

    game = meldkit.new_game("gin_rummy", players=2, seed=seed)
    bot = GreedyBot(seed=1)
    for _ in range(moves):
        game.apply(bot.choose(game))
    return game


@pytest.mark.parametrize("seed,moves", [(5, 12), (6, 9), (7, 15), (8, 21)])
def test_the_decision_studys_recorded_search_replays_the_bots_rule(seed, moves):
    """pimc_oracle --rules: one search's record gives the move the bot makes under its own
    rule and under another confidence or margin (the search itself does not depend on
    them, so the record of one run scores every rule)."""
    po = _oracle()
    game = _midhand(seed, moves)
    greedy = str(meldkit.bots.GreedyBot().choose(game))
    for confidence, margin in [(1.0, 0.0), (0.0, 0.0), (0.5, 0.05), (2.0, 0.0)]:
        recorder = po.RecordingPIMC(seed=3, max_samples=40, confidence=1.0)
        recorder.choose(game)
        assert recorder.record, "a decision with rivals searched"
        plain = PIMCBot(seed=3, max_samples=40, confidence=confidence, margin=margin)
        move = str(plain.choose(game))
        if plain._plan is not None:  # a take for its planned discard (follow)
            move += ";" + plain._plan[1]
        assert move == po.rule_choice(recorder.record, greedy, confidence, margin)


def test_the_learned_hand_models_features_see_what_the_bot_sees():
    """benchmarks/hand_model.py: the unseen cards it describes are the bot's own
    (``_gin_info``), one row of the same length each, and the model's probabilities over
    them sum to the opponent's unknown cards."""
    pytest.importorskip("numpy")
    hm = _benchmark("hand_model")
    X, y = hm.training_rows(20, 900_000)
    w = hm.fit(X, y)
    for seed, moves in [(5, 12), (6, 9), (8, 21)]:
        game = _midhand(seed, moves)
        me = game.current_player
        unseen, rows, m, hand = hm.features(game, me)
        _obs, _early, known, bot_unseen = PIMCBot(seed=1)._gin_info(game, me)
        assert unseen == bot_unseen
        assert m == len(game.hands[1 - me]) - len(known)
        assert {len(r) for r in rows} == {len(X[0])}
        assert abs(sum(hm.probabilities(w, rows, m)) - m) < 1e-6


def test_the_strength_benchmark_pools_deal_sets_and_pairs_two_runs(tmp_path, capsys):
    """strength.py --pool and --paired read --hands files back: pooled tallies with their
    Wilson interval, and the hand-by-hand difference of two runs on the same deals."""
    import doctest

    st = _benchmark("strength")
    assert doctest.testmod(st).failed == 0
    a, b = tmp_path / "a.txt", tmp_path / "b.txt"
    a.write_text("gin-greedy 7 0 12.0\ngin-greedy 7 1 -3.0\ngin-greedy 8 0 0.0\n"
                 "gin-greedy 8 1 5.0\n")
    b.write_text("gin-greedy 7 0 12.0\ngin-greedy 7 1 4.0\ngin-greedy 8 0 -2.0\n"
                 "gin-greedy 8 1 -5.0\ngin-greedy 9 0 1.0\n")
    r = st.paired(a, b)
    # differences in hand score: 0, -1, +0.5, +1 over the four hands both hold
    assert (r["hands"], r["better"], r["worse"], r["differ"]) == (4, 2, 1, 3)
    assert r["mean"] == pytest.approx(0.125)
    assert r["se"] == pytest.approx((sum((x - 0.125) ** 2 for x in (0, -1, 0.5, 1)) / 3 / 4) ** 0.5)
    assert st.main(["--paired", str(a), str(b)]) == 0
    assert capsys.readouterr().out.startswith("4 hands on the same deals: +0.125 a hand")
    c = tmp_path / "c.txt"
    c.write_text("gin-greedy 9 0 1.0\ngin-greedy 9 1 -1.0\ngin-simple 9 0 0.0\n")
    assert st.main(["--pool", str(a), str(c)]) == 0
    out = capsys.readouterr().out
    assert "| vs meldkit greedy, gin_rummy | 6 | 3-1-2 | 0.583" in out
    assert "| vs OpenSpiel's simple gin bot, gin_rummy | 1 | 0-1-0 | 0.500" in out
    with pytest.raises(SystemExit, match="b.txt: gin-greedy deal 7 seat swap 0 is also in "
                                         ".*a.txt: pool disjoint deal sets only"):
        st.main(["--pool", str(a), str(b)])
    bad = tmp_path / "bad.txt"
    for text in ("gin-greedy 7 0\n", "gin-greedy 7 0 many\n", "gin-greedy 7 0 nan\n"):
        bad.write_text(text)
        with pytest.raises(SystemExit, match="bad.txt:1: expected 'match seed swap points'"):
            st.read_hands(bad)
    bad.write_text("gin-greedy 7 0 1.0\ngin-greedy 7 0 -2.0\n")
    with pytest.raises(SystemExit, match="bad.txt:2: gin-greedy deal 7 seat swap 0 is already"):
        st.read_hands(bad)
    with pytest.raises(SystemExit, match="missing.txt: cannot read it"):
        st.main(["--pool", str(tmp_path / "missing.txt")])
    other = tmp_path / "other.txt"
    other.write_text("gin-greedy 99 0 1.0\n")
    with pytest.raises(SystemExit, match="share 0 hands: compare two runs on the same deals"):
        st.main(["--paired", str(a), str(other)])
