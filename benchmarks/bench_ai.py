"""Per-decision cost of the game-AI interface (issue 13): legal_mask(), legal_ids(),
observation(p), beside legal_actions(); clone() and copy.deepcopy(); a Determinizer (one
replay) and one sample from it; undo().  Positions come from random play of every bundled
pack; times are medians in microseconds.

The fast-path section (issue 22, item 5; ``--only fast``) times, per pack:

* **object vs id path**: one decision of random self-play through ``legal_actions()`` +
  ``apply(action)`` and through ``legal_ids()`` + ``apply(int)``, the same games (the same
  choices) both ways, whole random games (each played once untimed first: both ways then
  find the kernel's memos equally warm); the id/object column is the median over every
  game of that game's ratio, the two plays back to back (a burst of load on the shared
  machine spoils one game's ratio, where it could tip a whole run's);
* **information_state vs observation**: ``information_state(p)`` and ``observation(p)`` for
  the player to move at every decision of random games (as an RL loop calls them), per call;
* **undo mid-hand**: at a position 40 decisions in, ``apply(a); undo()`` repeated: the
  first undo of the state (cold) and the median of the rest (warm), per call;
* **PettingZoo vs OpenSpiel**: player decisions per second of meldkit's PettingZoo env
  (``env("gin_rummy")``, ``last()`` + a random legal id from the mask + ``step``) and of
  OpenSpiel's native C++ ``gin_rummy`` (``legal_actions()`` + ``apply_action``, its chance
  nodes sampled on the clock), same run.  The driver reads the legal ids off the mask with
  the array's own ``mask.nonzero()[0]`` (the idiomatic call; ``np.flatnonzero(mask)``
  gives the same ids through two more numpy calls, some 9k more instructions a decision):
  the env, not the driver, is what is measured.

Times are CPU time of the thread (``time.thread_time``: a busy machine's waits are not
counted), medians over ``--runs`` runs that alternate the paths compared.  To compare two
checkouts, run each with its ``src`` on ``PYTHONPATH``, alternating, on one core.

Usage: python benchmarks/bench_ai.py [--positions 300] [--only table,fast] [--runs 5]
       python benchmarks/bench_ai.py --only ids,pz [--packs gin_rummy,samba]
"""

from __future__ import annotations

import argparse
import copy
import random
import statistics
import time

import meldkit
from meldkit.ai import Determinizer

TABLES = [("gin_rummy", 2), ("oklahoma_gin", 2), ("rummy", 4), ("houses", 4),
          ("pony_tail", 4), ("pony_canasta", 2)]


def timed(fn, repeat: int = 5) -> float:
    best = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        best.append(time.perf_counter() - t)
    return min(best) * 1e6


def table(args) -> None:
    print(f"{'pack':<14}{'legal_actions':>14}{'legal_mask':>12}{'legal_ids':>11}"
          f"{'observation':>13}{'clone':>9}{'deepcopy':>10}{'determinizer':>14}"
          f"{'sample':>9}{'undo':>9}   (median us; determinizer and undo at move 100)")
    for pack, n in TABLES:
        rng = random.Random(1)
        g = meldkit.new_game(pack, players=n, seed=1)
        rows: dict[str, list[float]] = {k: [] for k in (
            "legal", "mask", "ids", "obs", "clone", "deep")}
        det_cost = sample_cost = undo_cost = float("nan")
        for i in range(args.positions):
            if g.is_over:
                g = meldkit.new_game(pack, players=n, seed=i)
            p = g.current_player

            def fresh_legal():
                g._legal_cache = None
                g.legal_actions()

            rows["legal"].append(timed(fresh_legal))
            rows["mask"].append(timed(g.legal_mask))
            rows["ids"].append(timed(g.legal_ids))
            rows["obs"].append(timed(lambda: g.observation(p)))
            rows["clone"].append(timed(g.clone))
            rows["deep"].append(timed(lambda: copy.deepcopy(g)))
            if i == 100:
                det_cost = timed(lambda: Determinizer(g, p), repeat=2)
                det = Determinizer(g, p)
                sample_cost = timed(lambda: det.sample(rng))
                c = g.clone()
                undo_cost = timed(c.undo, repeat=1)
            g.apply(rng.choice(g.legal_actions()))
        med = {k: statistics.median(v) for k, v in rows.items()}
        print(f"{pack:<14}{med['legal']:>14.1f}{med['mask']:>12.1f}{med['ids']:>11.1f}"
              f"{med['obs']:>13.1f}{med['clone']:>9.1f}{med['deep']:>10.1f}{det_cost:>14.0f}"
              f"{sample_cost:>9.1f}{undo_cost:>9.0f}")


# --------------------------------------------------------------------------- fast paths
FAST_TABLES = [("gin_rummy", 2), ("oklahoma_gin", 2), ("rummy", 4), ("houses", 4),
               ("pony_tail", 4), ("pony_canasta", 2), ("classic_canasta", 4), ("samba", 4),
               ("hand_and_foot", 4), ("contract_rummy", 4)]
"""Every bundled pack (the id path's bar is on each)."""
clock = time.thread_time


def play_decisions(pack: str, players: int, seed: int, by_id: bool, limit: int) -> tuple[float, int]:
    """CPU seconds and decisions of one random game (at most ``limit`` decisions), through
    the object path or the id path; the same seed makes the same choices either way."""
    rng = random.Random(seed)
    g = meldkit.new_game(pack, players=players, seed=seed)
    n = 0
    t = clock()
    if by_id:
        while not g.is_over and n < limit:
            ids = g.legal_ids()
            g.apply(ids[rng.randrange(len(ids))])
            n += 1
    else:
        while not g.is_over and n < limit:
            acts = g.legal_actions()
            g.apply(acts[rng.randrange(len(acts))])
            n += 1
    return clock() - t, n


def decision_paths(pack: str, players: int, runs: int, games: int
                   ) -> tuple[float, float, float]:
    """Median µs per decision of the object path and of the id path, and the median over
    every game of its id/object ratio (the same game played both ways, back to back: a
    burst of load on a shared machine spoils one game's ratio, not a run's).  Each game is
    played once untimed first, so both timed plays find the kernel's memos (meld lists,
    deadwood) as warm: whichever came first would otherwise pay their misses (up to half
    the work of a contract rummy game)."""
    obj: list[float] = []
    ids: list[float] = []
    ratios: list[float] = []
    play_decisions(pack, players, 0, True, 1)  # the action space, built once
    for r in range(runs):
        spent = {False: 0.0, True: 0.0}
        count = {False: 0, True: 0}
        for k in range(games):
            play_decisions(pack, players, 1000 * r + k, False, 400)  # warms the memos
            order = (False, True) if (r + k) % 2 == 0 else (True, False)
            one = {}
            for by_id in order:
                t, n = play_decisions(pack, players, 1000 * r + k, by_id, 400)
                spent[by_id] += t
                count[by_id] += n
                one[by_id] = t
            if one[False] > 0:
                ratios.append(one[True] / one[False])
        obj.append(spent[False] / count[False] * 1e6)
        ids.append(spent[True] / count[True] * 1e6)
    ratio = statistics.median(ratios) if ratios else float("nan")
    return statistics.median(obj), statistics.median(ids), ratio


def infostate_vs_observation(pack: str, players: int, runs: int, decisions: int
                             ) -> tuple[float, float]:
    """Median µs per call of information_state(p) and observation(p) for the player to move,
    called at each decision of random games (``decisions`` per run)."""
    info: list[float] = []
    obs: list[float] = []
    for r in range(runs):
        rng = random.Random(r)
        g = meldkit.new_game(pack, players=players, seed=r)
        game = 0
        for i in range(decisions):
            if g.is_over:
                game += 1
                g = meldkit.new_game(pack, players=players, seed=r * 7919 + game)
            p = g.current_player
            first = (lambda: g.information_state(p), lambda: g.observation(p))
            for j in ((0, 1) if i % 2 == 0 else (1, 0)):
                t = clock()
                first[j]()
                (info if j == 0 else obs).append(clock() - t)
            acts = g.legal_actions()
            g.apply(acts[rng.randrange(len(acts))])
    return statistics.median(info) * 1e6, statistics.median(obs) * 1e6


def undo_mid_hand(pack: str, players: int, runs: int, reps: int = 40) -> tuple[float, float]:
    """Median µs of the first undo() of a state 40 decisions into a hand, and of the next
    ``reps`` undos there (``apply(a); undo()`` repeated, as a search does)."""
    cold: list[float] = []
    warm: list[float] = []
    for r in range(runs):
        rng = random.Random(r)
        g = meldkit.new_game(pack, players=players, seed=r)
        tries = 0
        while True:
            for _ in range(40):
                acts = g.legal_actions()
                g.apply(acts[rng.randrange(len(acts))])
                if g.is_over or g.hand_results:
                    break
            if not g.is_over and not g.hand_results:
                break
            tries += 1
            g = meldkit.new_game(pack, players=players, seed=r + 100 * tries)
        for k in range(reps + 1):
            acts = g.legal_actions()
            g.apply(acts[rng.randrange(len(acts))])
            t = clock()
            g.undo()
            (cold if k == 0 else warm).append(clock() - t)
    return statistics.median(cold) * 1e6, statistics.median(warm) * 1e6


def pettingzoo_steps(seconds: float, seed: int) -> float | None:
    """Player decisions per CPU second of meldkit's PettingZoo env (gin_rummy, the wrapped
    ``env()``), random legal ids from the action mask; None without the extra."""
    try:
        from meldkit.adapters.pettingzoo import env
    except ImportError:
        return None
    rng = random.Random(seed)
    e = env("gin_rummy")
    e.reset(seed=seed)
    steps = 0
    spent = 0.0
    episode = 0
    while spent < seconds:
        t = clock()
        for _ in range(200):
            obs, _, term, trunc, _ = e.last()
            if term or trunc:
                e.step(None)
                if not e.agents:
                    episode += 1
                    e.reset(seed=seed + episode)
                continue
            legal = obs["action_mask"].nonzero()[0]
            e.step(int(legal[rng.randrange(len(legal))]))
            steps += 1
        spent += clock() - t
    return steps / spent


def open_spiel_steps(seconds: float, seed: int) -> float | None:
    """Player decisions per CPU second of OpenSpiel's C++ gin_rummy, random play (its deal
    and stock-draw chance nodes sampled, on the clock); None without OpenSpiel."""
    try:
        import pyspiel
    except ImportError:
        return None
    pristine = pyspiel.load_game("gin_rummy").new_initial_state()
    rng = random.Random(seed)
    steps = 0
    spent = 0.0
    while spent < seconds:
        t = clock()
        state = pristine.clone()
        while not state.is_terminal():
            legal = state.legal_actions()
            chance = state.is_chance_node()
            state.apply_action(legal[rng.randrange(len(legal))])
            steps += not chance
        spent += clock() - t
    return steps / spent


def fast_paths(args, parts: set[str]) -> None:
    """The fast-path rows: ``parts`` names which (``ids``: object vs id path; ``obs``:
    information_state vs observation, undo; ``pz``: PettingZoo vs OpenSpiel)."""
    runs = args.runs
    packs = FAST_TABLES if args.packs is None else [
        (p, n) for p, n in FAST_TABLES if p in args.packs.split(",")]
    print(f"Fast AI paths (issue 22 item 5): medians of {runs} runs, CPU us per call")
    if parts & {"ids", "obs"}:
        print(f"{'pack':<16}{'object':>9}{'id':>9}{'id/obj':>8}{'infostate':>11}{'observ.':>9}"
              f"{'info/obs':>10}{'undo cold':>11}{'undo warm':>11}")
    nan = float("nan")
    for pack, n in packs if parts & {"ids", "obs"} else ():
        o, i, ratio = decision_paths(pack, n, runs, args.games) if "ids" in parts \
            else (nan, nan, nan)
        info, obs = infostate_vs_observation(pack, n, runs, args.decisions) \
            if "obs" in parts else (nan, nan)
        cold, warm = undo_mid_hand(pack, n, runs) if "obs" in parts else (nan, nan)
        print(f"{pack:<16}{o:>9.1f}{i:>9.1f}{ratio:>7.2f}x{info:>11.1f}{obs:>9.1f}"
              f"{info / obs:>9.1f}x{cold:>11.1f}{warm:>11.1f}", flush=True)
    if "pz" not in parts:
        return
    pz: list[float] = []
    os_: list[float] = []
    for r in range(runs):
        for name in (("pz", "os") if r % 2 == 0 else ("os", "pz")):
            v = (pettingzoo_steps if name == "pz" else open_spiel_steps)(args.seconds, r)
            if v is not None:
                (pz if name == "pz" else os_).append(v)
    if pz and os_:
        a, b = statistics.median(pz), statistics.median(os_)
        print(f"gin_rummy decisions/s: PettingZoo env {a:,.0f}, OpenSpiel native {b:,.0f}: "
              f"{a / b:.2f}x")
    else:
        print("PettingZoo or OpenSpiel not installed: no steps/s row")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--positions", type=int, default=300)
    ap.add_argument("--only", default="table,fast",
                    help="sections: table, fast (= ids,obs,pz: the fast paths' parts)")
    ap.add_argument("--packs", default=None, help="fast paths: these packs only (comma list)")
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--games", type=int, default=6, help="games per run (object vs id)")
    ap.add_argument("--decisions", type=int, default=120,
                    help="decisions per run (information_state vs observation)")
    ap.add_argument("--seconds", type=float, default=1.0, help="per run (steps/s)")
    args = ap.parse_args(argv)
    only = set(args.only.split(","))
    if "table" in only:
        table(args)
    parts = {"ids", "obs", "pz"} if "fast" in only else only & {"ids", "obs", "pz"}
    if parts:
        fast_paths(args, parts)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
