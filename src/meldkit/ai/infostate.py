"""Public history and information states: who did what, where hands begin and end, and
what each player has seen.

``state.history`` is the host's record: the full notation of every action, enough to
replay the game from its seed — it names face-down cards (a Houses ``pass KS``), so it is
not for players.  :func:`public_history` replays that record and returns
:class:`Event` values: the seat that acted, the text everyone saw (``public``), and the
text the actor saw (``private``: the card drawn, the card passed face down).  Deals and
hand ends are events too.  :func:`information_state` is one player's perfect-recall view:
every event as that player saw it (their own private cards at each point, everyone's
public actions) and their current :meth:`~meldkit.GameState.view`.

>>> import meldkit
>>> g = meldkit.new_game("gin_rummy", players=2, seed=1, options={"first_player": 0})
>>> g.apply("pass"); g.apply("pass"); g.apply("draw")
>>> [e.seen_by(1) for e in g.public_history()][1:]
['seat 0: pass', 'seat 1: pass', 'seat 0: draw']
>>> g.public_history()[-1].seen_by(0)
'seat 0: draw (gets JC)'
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING, Any, NamedTuple

from .._checks import check_seat

if TYPE_CHECKING:
    from .._game import GameState

__all__ = ["Event", "card_code_of", "information_state", "information_state_afresh",
           "public_history", "public_history_afresh", "public_text"]


class Event(NamedTuple):
    """One event of a game: a deal, an action or the end of a hand."""

    hand: int
    """The hand it belongs to (1, 2 …)."""
    kind: str
    """``deal``, ``action`` or ``hand_end``."""
    player: int | None
    """The seat that acted (None for a deal or a hand end)."""
    public: str
    """What every player saw."""
    private: dict
    """Seat → the text that seat saw instead (its own cards: a deal, a draw, a pass)."""
    index: int | None = None
    """The action's index in ``state.history`` (None for deals and hand ends)."""

    def seen_by(self, player: int) -> str:
        """The event as ``player`` saw it."""
        text = self.private.get(player, self.public)
        return text if self.player is None else f"seat {self.player}: {text}"


def card_code_of(state: GameState, card: int) -> str:
    """The code of a card id in ``state``'s deck (``7H``, ``KS`` …)."""
    codes = getattr(state, "codes", None)
    if codes is None:
        rules = getattr(state, "rules", None)
        codes = getattr(rules, "codes", None)
    if codes is not None and not callable(codes):
        return codes[card]
    from .._cards import card_code

    return card_code(state.kind_of[card])


def _hand_of(state: GameState, p: int) -> list[int]:
    z = state.zone_cards()
    return z.get(f"hand:{p}", [])


def _pile_top(state: GameState) -> int | None:
    pile = state.zone_cards().get("pile")
    return pile[-1] if pile else None


def public_text(state: GameState, action) -> str:
    """What every player sees of ``action`` about to be applied in ``state``: its notation,
    but a card passed face down is not named, and taking from the pile names the card
    taken (it was face up)."""
    a = state.parse_action(action) if isinstance(action, str) else action
    t = a.type
    if t == "pass" and a.cards:
        return "pass (a card, face down)"
    if t == "take":
        top = _pile_top(state)
        if top is not None:
            return f"{a} (top {card_code_of(state, top)})"
    return str(a)


def _codes(state, cards) -> str:
    return " ".join(sorted(card_code_of(state, c) for c in cards))


def _deal_event(state: GameState) -> Event:
    top = _pile_top(state)
    up = f", upcard {card_code_of(state, top)}" if top is not None else ""
    pub = f"hand {state.hand_number} dealt, seat {state.current} to act{up}"
    private = {p: f"{pub}; your hand: {_codes(state, _hand_of(state, p))}"
               for p in range(state.n_players)}
    return Event(state.hand_number, "deal", None, pub, private)


def _end_event(state: GameState, result) -> Event:
    went = getattr(result, "went_out", None)
    who = f", seat {went} went out" if went is not None else ""
    totals = getattr(result, "totals", ())
    pub = (f"hand {result.hand_number} ended: {result.ended_by}{who}; "
           f"hand scores {list(totals)}")
    return Event(result.hand_number, "hand_end", None, pub, {})


def replay_start(state: GameState) -> GameState:
    """A new game with ``state``'s pack, table, seed, options and stacked decks: the
    position its history starts from (dealt by the state's own engine, as
    :func:`meldkit.new_game` deals it)."""
    start = type(state)._new(state.pack, state.n_players, state.seed, dict(state.options),
                             state.deck_order)
    for n, order in getattr(state, "later_orders", {}).items():  # later deals stacked
        start.stack_deal(n, order)
    return start


def public_history(state: GameState) -> list[Event]:
    """Every event of the game so far (deals, actions, hand ends), as a replay from the
    seed makes them (:func:`public_history_afresh`), kept incrementally: the state keeps
    the replay and its events, and a call steps them over the actions applied since the
    last (a clone, a load or an undo starts a new replay the first time)."""
    rec = _record(state)
    _only_for(rec, None)
    return list(rec.events)


def public_history_afresh(state: GameState) -> list[Event]:
    """:func:`public_history` computed from scratch: one replay from the seed, about the
    time the game took to play (the twin the incremental record is tested against)."""
    from .._errors import IllegalActionError, MeldkitError

    s = replay_start(state)
    events = [_deal_event(s)]
    try:
        for i, text in enumerate(state.history):
            events.extend(step_events(s, text, i))
    except IllegalActionError as e:
        raise MeldkitError(
            f"the history does not replay from this state's seed (history[{i}]: {e}); a "
            "resampled state has a new seed and no replayable history") from None
    _check_replayed(s, state)
    return events


def _check_replayed(s: GameState, state: GameState) -> None:
    from .._errors import MeldkitError

    if s.zone_cards() != state.zone_cards() or (s.phase, s.current) != (state.phase,
                                                                      state.current):
        raise MeldkitError("the history does not replay from this state's seed to this "
                           "position (a resampled state has a new seed)")


class _Record:
    """What a state keeps for :func:`public_history` and :func:`information_state`: the
    replay from its seed (``twin``) at ``texts`` (the history it has replayed), the events
    so far, and each player's view of them (filled when asked for).  ``owner`` is the
    history list of the state it belongs to: a record a clone shares is copied before it
    changes."""

    __slots__ = ("events", "only", "owner", "seen", "texts", "twin")

    def __init__(self, state: GameState):
        self.twin = twin = replay_start(state)
        self.texts: list[str] = []
        self.events = [_deal_event(twin)]
        self.seen: list[list[str]] = [[] for _ in range(state.n_players)]
        self.owner = state.history
        self.only: int | None = None
        """A resampled state's record: the one seat whose information state it holds
        (its events are the original's, which hold the other seats' true cards)."""

    def copy_for(self, state: GameState) -> _Record:
        new = object.__new__(_Record)
        new.twin = self.twin.clone()
        new.texts = self.texts[:]
        new.events = self.events[:]
        new.seen = [seen[:] for seen in self.seen]
        new.owner = state.history
        new.only = self.only
        return new


def carry_over(original: GameState, sample: GameState, player: int) -> None:
    """Give ``sample``, a resample of ``original`` for ``player``, that player's
    information state: the original's events as the player saw them, then the sample's
    own moves, stepped from a copy of the sample as dealt.  The sample cannot be
    replayed from its seed, so without this it has none; it holds the player's alone
    (at the cost of one clone).  An original with no information state of its own (a
    sample itself, a ``ChanceGame``'s state) leaves the sample without one too."""
    from .._errors import MeldkitError

    try:
        rec = _record(original)
        _only_for(rec, player)
    except MeldkitError:
        return
    seen = rec.seen[player]
    if len(seen) < len(rec.events):
        seen.extend(e.seen_by(player) for e in rec.events[len(seen):])
    new = object.__new__(_Record)
    new.twin = sample.clone()
    new.texts = list(sample.history)
    new.events = list(rec.events)  # (read only as the player sees them: see ``only``)
    new.seen = [[] for _ in range(sample.n_players)]
    new.seen[player] = seen[:]
    new.owner = sample.history
    new.only = player
    sample._info = new


def _only_for(rec: _Record, player: int | None) -> None:
    """Refuse what a resampled state's record cannot give: another seat's information
    state, or the events as they were (``player`` None)."""
    from .._errors import MeldkitError

    if rec.only is not None and player != rec.only:
        what = ("the public history" if player is None else
                f"the information state of seat {player}")
        raise MeldkitError(
            f"this state was resampled for seat {rec.only}: it holds that seat's "
            f"information state only, not {what} (its hidden cards were dealt anew)")


def _record(state: GameState) -> _Record:
    """``state``'s record stepped to its history (made afresh when it has none or its
    history is not the one recorded: after an undo, a load, a resample)."""
    from .._errors import IllegalActionError, MeldkitError

    rec = getattr(state, "_info", None)
    history = state.history
    if rec is not None:
        n = len(rec.texts)
        twin = rec.twin
        if (len(history) < n or history[:n] != rec.texts or twin.seed != state.seed
                or twin.n_players != state.n_players or twin.pack is not state.pack):
            rec = None
        elif rec.owner is not history:  # shared with a clone: copy before stepping
            rec = rec.copy_for(state)
    if rec is None:
        rec = _Record(state)
    state._info = None  # a record is kept only once it is known good
    twin, texts, events = rec.twin, rec.texts, rec.events
    i = len(texts)
    try:
        for i in range(len(texts), len(history)):
            text = history[i]
            events.extend(step_events(twin, text, i))
            texts.append(text)
    except IllegalActionError as e:
        raise MeldkitError(
            f"the history does not replay from this state's seed (history[{i}]: {e}); a "
            "resampled state has a new seed and no replayable history") from None
    _check_replayed(twin, state)
    state._info = rec
    return rec


def step_events(s: GameState, text, index: int | None = None) -> list[Event]:
    """Apply one action to ``s`` and return the events it makes (the action, then a hand
    end and the next deal when it ends a hand)."""
    p = s.current
    a = s.parse_action(text) if isinstance(text, str) else text
    pub = public_text(s, a)
    zones = s.zone_cards()
    before = Counter(zones.get(f"hand:{p}", []))
    bonus_before = set(zones.get(f"bonus:{p}", []))
    top = zones.get("pile", [])[-1:]
    hand_before = s.hand_number
    results_before = len(s.hand_results)
    s.apply(a)
    private = {}
    new_hand = s.hand_number != hand_before or len(s.hand_results) > results_before
    if not new_hand:
        zones = s.zone_cards()
        after = Counter(zones.get(f"hand:{p}", []))
        lost = before - after
        if lost and getattr(s, "rank_of", None) is not None and a.type in (
                "discard", "meld", "add", "take"):
            # rank notation: the cards laid face up are named by their codes
            pub = f"{pub} ({_codes(s, list(lost.elements()))})"
        laid_out = [c for c in zones.get(f"bonus:{p}", []) if c not in bonus_before]
        if laid_out:
            pub = f"{pub}; lays out {_codes(s, laid_out)}"
        gained = list((after - before).elements())
        if a.type == "take":
            gained = [c for c in gained if c not in top]
        mine = f"{pub} (gets {_codes(s, gained)})" if gained else pub
        if a.type == "pass" and a.cards:
            mine = f"{a}"
        if mine != pub:
            private[p] = mine
    out = [Event(hand_before, "action", p, pub, private, index)]
    for r in s.hand_results[results_before:]:
        out.append(_end_event(s, r))
    if s.hand_number != hand_before and not s.is_over:
        out.append(_deal_event(s))
    return out


def information_state(state: GameState, player: int) -> dict[str, Any]:
    """``player``'s perfect-recall view: every event as they saw it, and their current
    view.  Equal for two states exactly when ``player`` cannot tell them apart.  Kept
    incrementally (see :func:`public_history`): a call costs the events since the last
    call and the view, not a replay; :func:`information_state_afresh` is its twin."""
    _check_player(state, player)
    rec = _record(state)
    _only_for(rec, player)
    seen = rec.seen[player]
    events = rec.events
    if len(seen) < len(events):
        seen.extend(e.seen_by(player) for e in events[len(seen):])
    return {
        "pack": state.pack.name,
        "player": player,
        "events": seen[:],
        "view": state.view(player),
    }


def information_state_afresh(state: GameState, player: int) -> dict[str, Any]:
    """:func:`information_state` computed from scratch (one replay from the seed)."""
    _check_player(state, player)
    return {
        "pack": state.pack.name,
        "player": player,
        "events": [e.seen_by(player) for e in public_history_afresh(state)],
        "view": state.view(player),
    }


def _check_player(state: GameState, player) -> None:
    check_seat(player, state.n_players)
