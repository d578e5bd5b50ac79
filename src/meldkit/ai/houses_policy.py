"""A Houses policy that plays for points: one-ply lookahead with a table evaluation.

Every legal action is tried on a copy of the state and the position scored for the
mover's team: removed groups at full value, scoring groups on the table at
``table_weight`` of their points, and partial groups by their size, less a cost for each
card still in hand after the deck is exhausted; minus the same for the other team.  Ending
the game (agreeing to a proposal, the last removal) is judged by the final scores.
:class:`meldkit.bots.GreedyBot` plays Houses with it.

>>> import meldkit
>>> from meldkit.ai.houses_policy import houses_choice
>>> g = meldkit.new_game("houses", players=4, seed=3)
>>> houses_choice(g) in g.legal_actions()
True
"""

from __future__ import annotations

TABLE_WEIGHT = 0.6
SIZE_WEIGHT = 0.5
HAND_WEIGHT = 0.6
"""What a card still in hand costs once the deck is exhausted: it can only score by going
to the table (SH-12), and without the cost greedy players steal the same top cards round
the table instead of placing theirs, and most games end 0-0."""
REPEAT_PENALTY = 2.0
"""What ending the game by repetition (SH-10: the third occurrence of a position) costs a
side without a lead: without it, greedy players steal in a circle until the game ends 0-0."""
_PREFER = {"remove": 0.2, "steal": 0.1, "place": 0.05, "move": 0.0, "pass": -0.05,
           "propose": -0.1}


def team_value(state, team: int) -> float:
    """The position's worth to ``team`` (see the module)."""
    r = state.rules
    v = float(state.scores[team]) if state.is_over else 0.0
    if state.is_over:
        return v * 100.0
    for q in state.team_players(team):
        if state.post_deck:
            v -= HAND_WEIGHT * len(state.hands[q])
        for g in state.removed[q]:
            v += r.group_points(list(g)) or 0
        for g in state.groups[q]:
            if not g:
                continue
            points = r.points(g)
            v += TABLE_WEIGHT * points if points is not None else 0.0
            v += SIZE_WEIGHT * len(g)
    return v


def evaluate(state, player: int) -> float:
    """``player``'s team value minus the best other team's."""
    me = state.team_of[player]
    others = [team_value(state, t) for t in range(state.n_teams) if t != me]
    return team_value(state, me) - (max(others) if others else 0.0)


def houses_choice(state):
    """The best legal action by one-ply lookahead (ties: the first in legal order)."""
    actions = state.legal_actions()
    if len(actions) == 1:
        return actions[0]
    p = state.current_player
    best, best_v = actions[0], float("-inf")
    for a in actions:
        s = state.clone()
        s.apply(a)
        worth = evaluate(s, p)
        v = worth + _PREFER.get(a.type, 0.0)
        if (s.is_over and s.hand_results and s.hand_results[-1].ended_by == "repetition"
                and worth <= 0):
            v -= REPEAT_PENALTY  # a steal circle would end the game without a lead
        if v > best_v:
            best, best_v = a, v
    return best
