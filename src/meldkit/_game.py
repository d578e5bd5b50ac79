"""The game-state contract shared by every engine: the rummy kernel and plugin engines.

:class:`GameState` holds what every game has (players, teams, seed, scores, history) and
implements what must behave the same everywhere: atomic :meth:`~GameState.apply` through
:meth:`~GameState.check`, legal-action caching, and saves that name their pack and its
digest.  An engine subclass supplies the rules: ``_new``, ``_legal``, ``_check``, ``_do``,
``parse_action``, ``zone_cards``, ``view``, ``clone``, ``rescore``, ``_state_dict`` and
``_from_state_dict``; its hand records have ``hand_number``, ``ended_by``, ``went_out``,
``scores`` (each with ``team`` and ``total``) and ``totals``.
"""

from __future__ import annotations

import json
from collections import Counter
from typing import Any, ClassVar

from . import saves as _saves
from ._actions import Action
from ._checks import action_id, is_bool
from ._errors import (
    IllegalActionError,
    MeldkitError,
    PluginError,
    SaveError,
    SetupError,
    cut,
    quoted,
)
from ._seating import seating

SAVE_FORMAT = "meldkit-save/1"


class GameState:
    """A game in progress; create one with :func:`meldkit.new_game`.

    Every engine (the rummy kernel, a plugin's engine) is a subclass, so code written
    against this class works with every pack.

    >>> import meldkit
    >>> game = meldkit.new_game("pony_tail", players=4, seed=7)
    >>> isinstance(game, meldkit.GameState), game.n_players, game.n_teams, game.phase
    (True, 4, 2, 'draw')
    >>> game.apply("draw")
    >>> game.history, game.scores
    (['draw'], [0, 0])

    Attributes:
        pack (RulePack): The :class:`~meldkit.RulePack` being played.
        n_players (int): The number of seats.
        seed (int): The seed that fixes every shuffle (a secret: it reveals every deal).
        options (dict[str, Any]): The game options (``partners``, ``first_player``).
        deck_order (list[str] | None): The stacked top of the first hand's deck (card
            codes), or None.
        team_of (list[int]): The team of each seat.
        n_teams (int): The number of teams (sides).
        scores (list[int]): Each team's running score.
        hand_number (int): The hand being played (1, 2 …).
        current (int): The seat to act (see :attr:`current_player`, None once over).
        phase (str): The phase (``draw``, ``play`` … as the engine names them; ``over`` at
            the end).
        history (list[str]): The host's record: the notation of every action applied, in
            order — enough to replay the game from its seed.  It may name face-down cards;
            share :meth:`public_history` instead.
        hand_results (list[HandResult]): The record of each finished hand (``hand_number``,
            ``ended_by``, ``went_out``, ``scores``, ``totals``).
    """

    __slots__ = ("pack", "n_players", "seed", "options", "deck_order", "later_orders",
                 "team_of", "n_teams", "scores", "hand_number", "current", "phase", "history",
                 "hand_results", "_legal_cache", "_info", "_undo")

    OVER: ClassVar[str] = "over"

    PLUGIN_HOOKS: ClassVar[frozenset[str]] = frozenset()
    """For an engine plugin's engine: the rule hooks (``actions``, ``adjust_scores``,
    ``view``) it calls itself, through :func:`call_hook`; a plugin offering any other is
    refused when it loads (the kernel, which runs them for rule-hook plugins, plays no
    part in an engine's game)."""

    # ------------------------------------------------------------------ the contract
    @classmethod
    def _new(cls, pack, players: int, seed: int, options: dict | None,
             deck_order: list[str] | None) -> GameState:
        """Deal a new game (what :func:`meldkit.new_game` calls); start with
        :meth:`_setup`."""
        raise NotImplementedError

    def rescore(self, result) -> tuple[int, ...]:
        """A finished hand's team totals recomputed from its record (``result.final``)."""
        raise NotImplementedError

    def _legal(self) -> list[Action]:
        raise NotImplementedError

    def _check(self, action: Action):
        raise NotImplementedError

    def _do(self, action: Action) -> None:
        raise NotImplementedError

    def parse_action(self, text: str | Action) -> Action:
        """Parse notation text into an action; raises :class:`~meldkit.NotationError`.

        Parsing says what the text means, not whether it is legal now (see :meth:`check`).

        >>> import meldkit
        >>> game = meldkit.new_game("pony_tail", players=4, seed=7)
        >>> action = game.parse_action("discard 9")
        >>> action, action.type
        (Action('discard 9'), 'discard')
        >>> game.parse_action("fly away")
        Traceback (most recent call last):
        ...
        meldkit._errors.NotationError: unknown action 'fly' (expected one of draw, take, pickup, meld, add, discard, withdraw, end) [notation/unknown-verb]
        """
        raise NotImplementedError

    def zone_cards(self) -> dict[str, list[int]]:
        """Every zone with the card ids in it; each card of the deck is in exactly one."""
        raise NotImplementedError

    def view(self, player: int) -> dict[str, Any]:
        """What ``player`` may see, as JSON-able data.

        Their own hand in full, the other hands only by size: what a server sends a player.
        The keys every pack's view has are ``player``, ``phase``, ``current_player``,
        ``hand``, ``seats`` (each seat's ``seat``, ``side`` and ``hand_size``), ``melds``,
        ``pile`` and ``legal_actions``; a model adds its own (the cookbook lists them).

        >>> import meldkit
        >>> game = meldkit.new_game("gin_rummy", players=2, seed=7)
        >>> view = game.view(0)
        >>> view["player"], view["phase"], view["current_player"], len(view["hand"])
        (0, 'first_upcard', 1, 10)
        >>> [s["hand_size"] for s in view["seats"]]
        [10, 10]
        >>> "hand" in view["seats"][1]   # another seat's cards are not in the view
        False
        """
        raise NotImplementedError

    def clone(self) -> GameState:
        """An independent copy: what is applied to one does not change the other.

        >>> import meldkit
        >>> game = meldkit.new_game("pony_tail", players=4, seed=7)
        >>> copy = game.clone()
        >>> copy.apply("draw")
        >>> game.phase, copy.phase
        ('draw', 'play')
        """
        raise NotImplementedError

    def _state_dict(self) -> dict[str, Any]:
        raise NotImplementedError

    @classmethod
    def _from_state_dict(cls, pack, envelope: dict[str, Any]) -> GameState:
        raise NotImplementedError

    # ------------------------------------------------------------------ creation
    GAME_OPTIONS: ClassVar[frozenset[str]] = frozenset({"partners", "first_player",
                                                       "contracts_met"})
    """The game options ``new_game(options=...)`` accepts."""

    def _setup(self, pack, players: int, seed: int, options: dict | None,
               deck_order: list[str] | None) -> dict:
        """Check and store what every new game has (seats, teams, seed, options); returns
        the options.  Raises :class:`~meldkit.SetupError` naming the bad value."""
        if options is not None and not isinstance(options, dict):
            raise SetupError.of_option("options", f"options must be a dict of game options "
                                       f"({', '.join(sorted(self.GAME_OPTIONS))}) or None, "
                                       f"not {quoted(options)}")
        if deck_order is not None and not (isinstance(deck_order, (list, tuple)) and all(
                isinstance(c, str) for c in deck_order)):
            raise SetupError(f"deck_order must be a list of card codes (top first) or None, "
                             f"not {quoted(deck_order)}")
        options = dict(options or {})
        unknown = set(options) - self.GAME_OPTIONS
        if unknown:
            raise SetupError.of_option(
                "options", f"unknown game option(s) {cut(', '.join(sorted(map(str, unknown))))} "
                f"(expected: {', '.join(sorted(self.GAME_OPTIONS))})"
            )
        partners = options.get("partners")
        if partners is not None and type(partners) is not bool:  # (a save holds a bool)
            raise SetupError.of_option("partners", f"option partners must be True, False or "
                                       f"None, not {quoted(partners)}")
        self.pack = pack
        self.team_of, self.n_teams = seating(pack.spec.players, pack.name, players, partners)
        if not isinstance(seed, int) or isinstance(seed, bool):
            raise SetupError(f"seed must be an int, not {quoted(seed)}")
        if not -_saves.MAX_SEED <= seed <= _saves.MAX_SEED:  # a save could not hold it
            raise SetupError(f"seed must be an int from -2**256 to 2**256, not {quoted(seed)}")
        first = options.get("first_player")
        if first is not None and (not isinstance(first, int) or isinstance(first, bool)
                                  or not 0 <= first < players):
            raise SetupError.of_option("first_player", f"option first_player must be a seat "
                                       f"0..{players - 1}, not {quoted(first)}")
        if options.get("contracts_met") is not None:
            options["contracts_met"] = _contracts_met_option(pack, players,
                                                             options["contracts_met"])
        self.n_players, self.seed, self.options = players, seed, options
        self.deck_order = list(deck_order) if deck_order else None
        self.later_orders = {}  # hand number -> the stacked top of its deck (stack_deal)
        self.scores = [0] * self.n_teams
        self.history = []
        self.hand_results = []
        self._legal_cache = None
        self._info = None  # the incremental information-state record (ai.infostate)
        self._undo = None  # the states before the last actions, once undo is used
        return options

    # ------------------------------------------------------------------ shared behaviour
    @property
    def current_player(self) -> int | None:
        """The seat to act, or None when the game is over."""
        return None if self.phase == self.OVER else self.current

    def _keep_live(self) -> None:
        """Liveness after every action: the game is over or the player to move has a legal
        action.  A position the rules leave without one (which the loader cannot always
        foresee) ends the hand, ``ended_by: no_legal_move``; the legal actions found are
        kept for the next call (unless plugin code made them), so the check costs nothing
        when a player asks for them.  An engine calls it after each action; its
        ``_end_hand`` ends the game after ``NO_PROGRESS_HANDS`` idle hands."""
        ended = 0
        while not self.is_over:
            legal = self._legal()
            if legal:
                if not self._hooks_may_fail():  # plugin code is asked again, when wanted
                    self._legal_cache = legal
                return
            from ._liveness import NO_PROGRESS_HANDS  # only on a dead end: off the hot path

            if ended > NO_PROGRESS_HANDS:  # idle hands have ended the game within this
                return
            ended += 1
            self._end_hand("no_legal_move", None)

    @property
    def is_over(self) -> bool:
        """True once the game has ended."""
        return self.phase == self.OVER

    @property
    def winner(self) -> int | None:
        """The winning team once the game is over (None before, or on a tie)."""
        if self.phase != self.OVER:
            return None
        best = max(self.scores)
        if self.scores.count(best) > 1:
            return None
        return self.scores.index(best)

    @property
    def pack_name(self) -> str:
        """The name of the rule pack."""
        return self.pack.name

    @property
    def last_hand(self):
        """The record of the most recently finished hand, or None."""
        return self.hand_results[-1] if self.hand_results else None

    def team_players(self, team: int) -> list[int]:
        """The seats of a team."""
        return [p for p in range(self.n_players) if self.team_of[p] == team]

    def legal_actions(self) -> list[Action]:
        """Every action the player to move may take, in a stable order (a new list: the
        caller may change it).  A hand holding more melds than
        :data:`~meldkit.kernel.melds.MOST_LISTED_MELDS` offers the first that many (a bound
        only packs written to be slow reach).

        >>> import meldkit
        >>> game = meldkit.new_game("pony_tail", players=4, seed=7)
        >>> game.current_player, game.legal_actions()
        (3, [Action('draw'), Action('take A JK')])
        >>> game.apply("draw")
        >>> len(game.legal_actions()), game.legal_actions()[0]
        (30, Action('meld 6 6 2'))
        """
        return self._cached_legal()[:]

    def _cached_legal(self) -> list[Action]:
        """The legal actions, computed once per position (never hand this list out)."""
        cache = self._legal_cache
        if cache is None:
            cache = self._legal_cache = [] if self.phase == self.OVER else self._legal()
        return cache

    def check(self, action: Action | str):
        """None if ``action`` is legal now, else the :class:`~meldkit.Reason` it is refused.

        :meth:`apply` accepts exactly the actions this accepts.  A reason has a stable
        ``code`` and a ``sentence`` a player understands.

        >>> import meldkit
        >>> game = meldkit.new_game("pony_tail", players=4, seed=7)
        >>> game.check("draw") is None
        True
        >>> why = game.check("discard 9")
        >>> why.code, why.sentence
        ('turn/draw-first', 'draw first: from the stock or the discard pile')
        """
        from ._actions import Reason

        try:
            a = self._canonical(action)
        except IllegalActionError as e:
            return Reason(e.code, e.reason)
        if self.phase == self.OVER:
            return Reason("game/over", "the game is over")
        return self._check(a)

    def is_legal(self, action: Action | str) -> bool:
        """True if ``action`` may be applied now."""
        return self.check(action) is None

    def _canonical(self, action: Action | str) -> Action:
        """The canonical action for notation text or an :class:`Action`: a hand-built
        action must be well formed — its parts of the right types and in range, its text
        the notation of those parts (up to spacing and case) — and the result carries the
        canonical text.  Raises :class:`~meldkit.IllegalActionError` (``action/malformed``)
        or :class:`~meldkit.NotationError`."""
        if type(action) is int:  # the id path: the action space's own action of the id
            last = _last_space  # (inlined: this path costs what the object path costs)
            if last[1] is self.pack and last[0] is type(self) and last[2] == self.n_players:
                actions = last[5]
            else:
                try:
                    actions = _action_space_of(self)._live
                except MeldkitError:  # no action space: refused below (action/bad-id)
                    actions = ()
            if 0 <= action < len(actions):  # the engine's own object (found by identity)
                return actions[action]
        if not isinstance(action, Action):
            if not isinstance(action, str) and (hasattr(type(action), "__index__")
                                                or is_bool(action)):
                from .ai.action_space import apply_id

                # an integer action id (state.action_space); refused with action/bad-id
                return apply_id(self, action_id(action))
            if not isinstance(action, str):
                raise IllegalActionError(
                    "action/malformed",
                    f"an action is notation text or an Action, not {type(action).__name__}")
            return self.parse_action(action)
        try:
            interned = self._interned(action)
        except Exception:  # unhashable or odd parts
            interned = None
        if interned is action:
            return action
        text = action.__dict__.get("_text")
        if not isinstance(text, str):
            raise IllegalActionError("action/malformed",
                                     "a hand-built action without notation text")
        try:
            a = self.parse_action(text)
        except IllegalActionError as e:
            raise IllegalActionError(
                "action/malformed", f"its text does not parse: {e.reason}") from None
        try:
            same = tuple.__eq__(a, action) is True
        except Exception:
            same = False
        if not same:
            raise IllegalActionError(
                "action/malformed",
                f"its parts {tuple.__repr__(action)[:80]} are not those of its text {text[:40]!r} "
                f"({a.type} {a.cards} {a.target})")
        return a

    # ------------------------------------------------------------------ game-AI interface
    @property
    def action_space(self):
        """The pack's fixed integer action space for this table size (an
        :class:`~meldkit.ai.ActionIds`: ``id_of``, ``action_of``, ``size``); ``apply``
        also takes an id.  See the Game AI page."""
        from .ai.action_space import action_space_for

        return action_space_for(self)

    def legal_mask(self) -> bytearray:
        """A byte per action id of :attr:`action_space`: 1 where that action is legal now.

        >>> import meldkit
        >>> game = meldkit.new_game("pony_tail", players=4, seed=7)
        >>> mask = game.legal_mask()
        >>> len(mask) == game.action_space.size, sum(mask)
        (True, 2)
        >>> [i for i, legal in enumerate(mask) if legal] == game.legal_ids()
        True
        """
        global _last_mask
        cache = self._legal_cache
        if cache is None:
            cache = self._cached_legal()
        last = _last_mask
        if last[0] is cache:  # asked again at this position (an env's observe, then step)
            return bytearray(last[1])
        mask = _action_space_of(self).mask(cache)
        _last_mask = (cache, bytes(mask))
        return mask

    def legal_ids(self) -> list[int]:
        """The ids of the legal actions, in the order of :meth:`legal_actions`.

        >>> import meldkit
        >>> game = meldkit.new_game("pony_tail", players=4, seed=7)
        >>> ids = game.legal_ids()
        >>> [game.action_space.action_of(i) for i in ids] == game.legal_actions()
        True
        >>> game.apply(ids[0])   # apply takes an id too
        >>> game.history
        ['draw']
        """
        cache = self._legal_cache
        if cache is None:
            cache = self._cached_legal()
        last = _last_space  # (inlined: this path costs what the object path costs)
        if not (last[1] is self.pack and last[0] is type(self) and last[2] == self.n_players):
            _action_space_of(self)
            last = _last_space
        try:  # the engine's interned actions carry their ids
            return list(map(last[4], cache))
        except AttributeError:
            return last[3].ids(cache)

    def observation(self, player: int):
        """What ``player`` may see as a flat ``array('f')``, laid out by
        :meth:`observation_spec` (seats relative to ``player``).

        >>> import meldkit
        >>> game = meldkit.new_game("pony_tail", players=4, seed=7)
        >>> obs = game.observation(0)
        >>> obs.typecode, len(obs) == game.observation_spec().size
        ('f', True)
        >>> game.observation(0) == game.observation(0)   # a pure function of the position
        True
        """
        from .ai.observation import observation

        return observation(self, player)

    def observation_spec(self):
        """The layout of :meth:`observation`: an :class:`~meldkit.ai.ObservationSpec`
        naming every slice."""
        from .ai.observation import observation_spec

        return observation_spec(self)

    def public_history(self):
        """Every event so far — deals, actions (who acted, what everyone saw, what the
        actor saw), hand ends — as :class:`~meldkit.ai.Event` values, replayed from the
        seed.  Unlike :attr:`history` (the host's record, which names face-down cards),
        its ``public`` texts may be shown to every player.

        >>> import meldkit
        >>> game = meldkit.new_game("pony_tail", players=4, seed=7)
        >>> game.apply("draw")
        >>> [(event.kind, event.player, event.public) for event in game.public_history()]
        [('deal', None, 'hand 1 dealt, seat 3 to act, upcard AD'), ('action', 3, 'draw')]
        """
        from .ai.infostate import public_history

        return public_history(self)

    def information_state(self, player: int) -> dict[str, Any]:
        """``player``'s perfect-recall view: every event as they saw it and their
        current :meth:`view`.

        >>> import meldkit
        >>> game = meldkit.new_game("pony_tail", players=4, seed=7)
        >>> game.apply("draw")
        >>> info = game.information_state(1)
        >>> sorted(info)
        ['events', 'pack', 'player', 'view']
        >>> info["events"][1], info["view"] == game.view(1)
        ('seat 3: draw', True)
        """
        from .ai.infostate import information_state

        return information_state(self, player)

    def resample(self, player: int, rng=None) -> GameState:
        """A full state consistent with everything ``player`` has seen (their information
        state): every card hidden from them dealt anew, uniformly, under the rules'
        constraints, with a fresh seed (later deals unknown).  For many samples of one
        position use :class:`meldkit.ai.Determinizer`.

        >>> import random, meldkit
        >>> game = meldkit.new_game("pony_tail", players=4, seed=7)
        >>> sample = game.resample(1, rng=random.Random(0))
        >>> sample.view(1) == game.view(1)   # the same to seat 1 ...
        True
        >>> sample.view(0) == game.view(0)   # ... but seat 0's hidden hand is dealt anew
        False
        """
        from .ai.resample import resample

        return resample(self, player, rng)

    def returns(self) -> list[float]:
        """Each seat's return, as OpenSpiel names it: zeros until the game is over, then +1
        for the winning team's seats and -1/(teams - 1) for the others (zeros on a tie).

        >>> import meldkit
        >>> game = meldkit.new_game("pony_tail", players=4, seed=7)
        >>> game.returns()
        [0.0, 0.0, 0.0, 0.0]
        """
        from .ai.chance import returns

        return returns(self)

    def player_returns(self) -> list[float]:
        """The same as :meth:`returns` (its first name)."""
        return self.returns()

    def max_game_length(self) -> int:
        """The action cap adapters enforce (``meldkit.ai.chance.MAX_GAME_LENGTH``):
        no bundled pack has a finite proven bound, since void hands may repeat."""
        from .ai.chance import max_game_length

        return max_game_length(self)

    def undo(self) -> None:
        """Take back the last action: the state becomes what replaying its history but
        the last action from the seed gives.

        A state that keeps undo (:meth:`keep_undo`; the first ``undo()`` turns it on) holds
        the state before each action, so undoing one of those costs microseconds; otherwise
        (a new, cloned or loaded state's first undo, or deeper than the states kept) it is
        a replay from the seed, about the time the game took so far.

        >>> import meldkit
        >>> game = meldkit.new_game("pony_tail", players=4, seed=7)
        >>> start = game.clone()
        >>> game.apply("draw")
        >>> game.undo()
        >>> game.history, game == start
        ([], True)
        """
        history = self.history
        stack = getattr(self, "_undo", None)
        if stack is None or stack.state != id(self):
            stack = _UndoStack(self)  # kept from now on
        self._undo = stack
        states = stack.states
        while states and history:
            before = states.pop()
            kept = before.history
            if len(kept) >= len(history):
                continue  # kept for a move that raised, or undone since
            if len(kept) == len(history) - 1 and kept == history[:-1]:
                self._restore(before)
                self._undo = stack
                return
            break
        states.clear()
        from .ai.chance import undo

        undo(self)
        self._undo = stack

    def keep_undo(self, depth: int = 256) -> None:
        """From now on, keep the state before each action (the last ``depth`` of them), so
        that :meth:`undo` takes an action back in microseconds instead of replaying the game
        from the seed; ``depth=0`` stops.  Each action then costs a :meth:`clone` more.
        Per state: a clone or a loaded save starts without it.

        >>> import meldkit
        >>> game = meldkit.new_game("gin_rummy", players=2, seed=7)
        >>> game.keep_undo()
        >>> before = game.clone()
        >>> game.apply(game.legal_actions()[0])
        >>> game.undo()
        >>> game == before
        True
        """
        if type(depth) is not int or depth < 0:
            raise ValueError(f"depth must be an int >= 0, not {depth!r}")
        if depth == 0:
            self._undo = None
            return
        stack = getattr(self, "_undo", None)
        if stack is None or stack.state != id(self):
            stack = _UndoStack(self)
        stack.depth = depth
        del stack.states[:-depth]
        self._undo = stack

    def __deepcopy__(self, memo) -> GameState:
        return self.clone()  # shares the compiled rules, as clone() does

    def __reduce__(self):
        """Pickle a game as its save and its pack (compiled rules hold functions pickle
        cannot write; the save is the state's one portable form), so games cross
        processes (multiprocessing, Ray) whatever their engine.

        >>> import pickle, meldkit
        >>> g = meldkit.new_game("gin_rummy", players=2, seed=3)
        >>> pickle.loads(pickle.dumps(g)) == g
        True
        """
        return (_from_pickle, (self.to_json(), self.pack))

    def _interned(self, action: Action) -> Action | None:
        """The engine's interned action equal to ``action``, or None (engines with an
        intern table override this for a fast path)."""
        return None

    def _hooks_may_fail(self) -> bool:
        """True when :meth:`_do` runs code from outside meldkit (a plugin's hooks or
        engine), so :meth:`apply` snapshots the state to stay atomic if it raises and
        :func:`call_hook` checks what each hook leaves: by default, for engines defined
        outside meldkit and for a state whose ``plugin`` attribute names a plugin (an
        engine that calls plugin hooks through :func:`call_hook` keeps the plugin there,
        or overrides this to say so)."""
        kind = _ENGINE_KIND.get(type(self))
        if kind is None:  # (defined outside meldkit, has a plugin attribute), once per class
            kind = _ENGINE_KIND[type(self)] = (not type(self).__module__.startswith("meldkit."),
                                               hasattr(type(self), "plugin"))
        return kind[0] or (kind[1] and getattr(self, "plugin", None) is not None)

    def _snapshot(self) -> _Snapshot:
        """What :meth:`apply` keeps to undo a move plugin code takes part in; a state
        that cannot be copied (plugin data that is not JSON) is a
        :class:`~meldkit.PluginError`, raised before anything changed."""
        try:
            return _Snapshot(self)
        except MeldkitError:
            raise
        except Exception as e:  # an engine's clone() failing on what plugin code left
            raise PluginError(
                f"plugin {self.pack.spec.plugin!r}: the state cannot be copied before a move "
                f"({type(e).__name__}: {e}); nothing was applied") from e

    def apply(self, action: Action | str) -> None:
        """Apply a legal action (or its notation).  An illegal one raises
        :class:`~meldkit.IllegalActionError` and leaves the state exactly as it was; so
        does a plugin hook that raises (as a :class:`~meldkit.PluginError` naming the
        plugin and the hook).  The history records the action's canonical notation.

        >>> import meldkit
        >>> game = meldkit.new_game("pony_tail", players=4, seed=7)
        >>> game.apply("discard 9")
        Traceback (most recent call last):
        ...
        meldkit._errors.IllegalActionError: discard 9: draw first: from the stock or the discard pile [turn/draw-first]
        >>> game.history   # the refused action changed nothing
        []
        >>> game.apply("DRAW")
        >>> game.apply(game.legal_actions()[0])
        >>> game.history
        ['draw', 'meld 6 6 2']
        """
        text = None
        if type(action) is int:  # an action id of this table's space: its engine object
            last = _last_space  # (what _canonical does, inlined: the id path's hot call)
            if (last[1] is self.pack and last[0] is type(self) and last[2] == self.n_players
                    and 0 <= action < len(last[5])):
                a, text = last[5][action], last[6][action]
            else:
                a = self._canonical(action)
        else:
            a = self._canonical(action)
        if self.phase == self.OVER:
            raise IllegalActionError("game/over", "the game is over", a)
        cache = self._legal_cache
        if cache is None or a not in cache:  # a listed legal action needs no second check
            why = self._check(a)
            if why is not None:
                raise IllegalActionError(why.code, why.sentence, a)
        if _undo_in_use:  # some state keeps undo: this one too?
            _keep_for_undo(self)
        snapshot = self._snapshot() if self._hooks_may_fail() else None
        self._legal_cache = None
        self.history.append(str(a) if text is None else text)
        if snapshot is None:
            self._do(a)
            return
        key = id(self)
        outer = _GUARDS.get(key)
        _GUARDS[key] = snapshot  # call_hook checks each hook against it
        try:
            self._do(a)
            if not type(self).__module__.startswith("meldkit."):  # a plugin's whole engine
                problem = _conservation_problem(self, snapshot)
                if problem is not None:
                    raise PluginError(
                        f"plugin {self.pack.spec.plugin!r}: its engine {type(self).__name__} "
                        f"broke card conservation applying {a}: {problem} (the state is "
                        "unchanged)")
        except BaseException as e:
            self._restore(snapshot)
            if (isinstance(e, MeldkitError) or not isinstance(e, Exception)
                    or type(self).__module__.startswith("meldkit.")):
                raise  # meldkit's own engines name plugin hook failures where they call them
            raise PluginError(
                f"plugin {self.pack.spec.plugin!r}: its engine {type(self).__name__} raised "
                f"{type(e).__name__} while applying {a}: {e} (the state is unchanged)") from e
        finally:
            if outer is None:
                del _GUARDS[key]
            else:  # apply called again from inside a move (a hook's own apply)
                _GUARDS[key] = outer

    def _restore(self, snapshot: GameState | _Snapshot) -> None:
        """Make this state what ``snapshot`` (an independent clone, or what
        :meth:`_snapshot` kept) holds.  The containers a clone shares with this state
        (options, deck tables) and the plugin data of finished hands' records are put
        back in place, so every object that shares them sees them as they were."""
        kept = snapshot if isinstance(snapshot, _Snapshot) else None
        if kept is not None:
            snapshot = kept.state
        for klass in type(self).__mro__:
            for name in getattr(klass, "__slots__", ()):
                if hasattr(snapshot, name):
                    object.__setattr__(self, name, getattr(snapshot, name))
        if kept is None:
            return
        for name, shared, saved in kept.shared:
            _refill(shared, saved)
            object.__setattr__(self, name, shared)
        del self.history[kept.lengths[0]:]
        del self.hand_results[kept.lengths[1]:]
        for ext, text in kept.records:
            try:
                same = json.dumps(ext) == text
            except Exception:  # a hook left something JSON cannot write
                same = False
            if not same:
                ext.clear()
                ext.update(json.loads(text))
        if kept.ext is not _NO_EXT:
            object.__setattr__(self, "ext", json.loads(kept.ext))
        if hasattr(self, "_legal_cache"):
            self._legal_cache = None

    # ------------------------------------------------------------------ saves
    SAVE_ENVELOPE: ClassVar[frozenset[str]] = frozenset(
        {"format", "pack", "pack_source", "pack_digest", "players", "seed", "options",
         "deck_order", "later_deck_orders", "action_space_digest"})
    """The keys every save has; an engine's ``_state_dict`` may not use them."""

    def to_json(self) -> str:
        """The whole state as JSON; the save names the pack and its digest, and
        :meth:`from_json` refuses it against another version of the pack.

        A save holds every hidden card and the seed (which fixes every future deal): it is
        for the host, not for a player — send players :meth:`view` instead.

        >>> import json, meldkit
        >>> game = meldkit.new_game("pony_tail", players=4, seed=7)
        >>> game.apply("draw")
        >>> save = json.loads(game.to_json())
        >>> save["format"], save["pack"], save["players"], save["seed"]
        ('meldkit-save/1', 'pony_tail', 4, 7)
        >>> meldkit.GameState.from_json(game.to_json()) == game
        True
        """
        d = self._to_dict()
        digest = self._action_space_digest()
        if digest is not None:
            d["action_space_digest"] = digest
        return json.dumps(d, separators=(",", ":"))

    def _action_space_digest(self) -> str | None:
        """The digest of :attr:`action_space`, or None for a pack without one."""
        from .ai.action_space import ActionSpaceError, action_space_for

        try:
            return action_space_for(self).digest
        except ActionSpaceError:
            return None

    def _to_dict(self) -> dict[str, Any]:
        from ._errors import PluginError

        pack = self.pack
        d = {
            "format": SAVE_FORMAT,
            "pack": pack.name,
            "pack_source": pack.source,
            "pack_digest": pack.digest,
            "players": self.n_players,
            "seed": self.seed,
            "options": self.options,
            "deck_order": self.deck_order,
        }
        later = getattr(self, "later_orders", None)
        if later:  # (saved only when a later deal is stacked: other saves are as before)
            d["later_deck_orders"] = {str(n): order for n, order in sorted(later.items())}
        state = self._state_dict()
        clash = sorted(set(state) & self.SAVE_ENVELOPE)
        if clash:
            raise PluginError(
                f"engine {type(self).__name__} of plugin {pack.spec.plugin!r}: its save data "
                f"uses the key(s) {', '.join(map(repr, clash))} of the save envelope "
                f"({', '.join(sorted(self.SAVE_ENVELOPE))}); rename them")
        d.update(state)
        return d

    @classmethod
    def from_json(cls, text: str | bytes, pack=None, *, resolver=None) -> GameState:
        """Load a state saved by :meth:`to_json` (of any engine).

        A save is untrusted input: it never makes meldkit open a file.  The pack comes
        from the caller — ``pack`` (a :class:`~meldkit.RulePack`), or ``resolver``, a
        function ``resolver(name, digest)`` returning the pack or None; by default a save
        of a bundled pack finds it by name.  The pack's digest must equal the save's.
        Every field is checked (every card in exactly one zone, every value in range and
        consistent with the pack); anything else raises :class:`~meldkit.SaveError`
        naming the field.

        >>> import meldkit
        >>> g = meldkit.new_game("pony_tail", players=4, seed=5)
        >>> GameState.from_json(g.to_json()) == g
        True
        >>> GameState.from_json('{"format": "meldkit-save/1", "pack": "/etc/passwd", '
        ...                     '"pack_digest": "0"}')  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        meldkit._errors.SaveError: cannot find pack '/etc/passwd' of this save: it is not a bundled pack; ...
        """
        from ._pack import RulePack
        from ._registry import engine_for

        d = _saves.loads(text)
        if not isinstance(d, dict) or d.get("format") != SAVE_FORMAT:
            raise SaveError(f"not a meldkit save (expected format {SAVE_FORMAT!r})")
        name = _saves.string(_saves.get(d, "pack"), "pack", _saves.MAX_PACK_NAME)
        digest = _saves.string(_saves.get(d, "pack_digest"), "pack_digest", 200)
        if pack is None:
            pack = (resolver or bundled_pack_resolver)(name, digest)
            if pack is None:
                raise SaveError(
                    f"cannot find pack {name!r} of this save: it is not a bundled pack; pass "
                    "the pack it was made with, from_json(text, pack=...) or resolver=... "
                    "(a save never names a file to open)")
        if not isinstance(pack, RulePack):
            raise SaveError(f"the pack to load this save with must be a RulePack (e.g. "
                            f"meldkit.load_pack(...)), not {pack!r:.60}")
        if pack.digest != digest:
            same = next((i for i, (a, b) in enumerate(zip(digest, pack.digest)) if a != b),
                        min(len(digest), len(pack.digest)))
            shown = max(12, same + 6)  # enough to tell them apart (a deal's pack: ":deal7")
            given = pack.name  # (a pack's ``name:``, else its file's stem, as saved)
            which = (f"another version of pack {name!r}" if given == name else
                     f"pack {name!r}, not with the pack given ({given!r})")
            raise SaveError(
                f"this save was made with {which} (saved digest {digest[:shown]}, this "
                f"pack's {pack.digest[:shown]}); load it with the pack it was made with"
            )
        engine = engine_for(pack)
        try:
            state = engine._from_state_dict(pack, d)
            stuck = not state.is_over and not state._cached_legal()
        except (SaveError, PluginError):
            raise
        except RecursionError:
            raise SaveError("damaged meldkit save: nested too deeply") from None
        except (KeyError, TypeError, ValueError, IndexError, AttributeError) as e:
            # an engine that does not check its fields yet (the kernel and Houses do)
            raise SaveError(f"damaged meldkit save: {type(e).__name__}: {e}") from None
        if stuck:
            raise SaveError(f"damaged meldkit save: current: seat {state.current} is to move "
                            "but has no legal action (no game reaches such a position)")
        later = d.get("later_deck_orders")
        if later is not None:
            state._load_later_orders(later)
        saved_ids = d.get("action_space_digest")
        if saved_ids is not None and saved_ids != state._action_space_digest():
            raise SaveError(
                "action_space_digest: this save's integer action ids were numbered by another "
                "version of meldkit's action space for this pack; load the save without the "
                "key to use it by notation")
        return state

    def _load_envelope(self, pack, d: dict[str, Any]) -> None:
        """Check and set what every save has (players, seed, options, deck_order, history)
        the way :meth:`_setup` checks a new game; raises :class:`~meldkit.SaveError`."""
        players = _saves.integer(_saves.get(d, "players"), "players", 1, 1000)
        seed = _saves.integer(_saves.get(d, "seed"), "seed", -_saves.MAX_SEED, _saves.MAX_SEED)
        options = _saves.json_data(_saves.obj(_saves.get(d, "options"), "options"), "options")
        if options.get("partners") is not None:
            _saves.boolean(options["partners"], "options.partners")
        if options.get("first_player") is not None:
            _saves.integer(options["first_player"], "options.first_player", 0, players - 1)
        deck_order = _saves.get(d, "deck_order")
        if deck_order is not None:
            deck_order = _saves.array_of(deck_order, "deck_order",
                                         lambda v, p: _saves.string(v, p, 8), max_len=100_000)
        try:
            self._setup(pack, players, seed, options, deck_order)
        except SetupError as e:
            raise _saves.bad("players/options", str(e)) from None
        self.deck_order = deck_order  # as saved ([] stays [])
        self.history = _saves.strings(_saves.get(d, "history"), "history",
                                      _saves.MAX_HISTORY_ITEM, 10_000_000)

    # ------------------------------------------------------------------ later deals
    def stack_deal(self, hand_number: int, deck_order: list[str]) -> None:
        """Stack the top of the deck of a later deal, as ``new_game(deck_order=...)`` stacks
        the first: ``deck_order`` (card codes, top first) is dealt from the top at deal
        ``hand_number``, seat by seat from the seat dealt first then, the rest of the deck
        shuffled by the seed.  For tests of a later deal's rules (scenarios' ``deals:``,
        :func:`meldkit.testing.stack_deck` with ``deal=``); saves keep it.  Refused
        (:class:`~meldkit.SetupError`) for a deal already dealt, a card the deck has not
        got, or an engine that cannot stack a later deal.

        >>> import meldkit
        >>> from meldkit.testing import stack_deck
        >>> g = meldkit.new_game("contract_rummy", players=3, seed=1)
        >>> g.stack_deal(2, stack_deck("contract_rummy", 3, {0: ["JK", "5S", "5S"]}, deal=2))
        >>> g.later_orders[2][:3]
        ['JK', '5S', '5S']
        """
        self._stack_later(hand_number, deck_order, self.hand_number + 1)

    def _stack_later(self, hand_number: int, deck_order: list[str], least: int) -> None:
        """:meth:`stack_deal` of a deal from ``least`` on (a save keeps the deals already
        dealt too, for replays from the seed)."""
        if isinstance(hand_number, bool) or not isinstance(hand_number, int) or not (
                max(least, 2) <= hand_number <= _saves.MAX_LATER_DEAL):
            raise SetupError(f"stack_deal: hand_number must be a deal after this one "
                             f"({max(least, 2)} to {_saves.MAX_LATER_DEAL}), not "
                             f"{quoted(hand_number)}")
        if not (isinstance(deck_order, (list, tuple))
                and all(isinstance(c, str) for c in deck_order)):
            raise SetupError(f"stack_deal: deck_order must be a list of card codes (top "
                             f"first), not {quoted(deck_order)}")
        check = getattr(self, "_check_stack", None)
        if check is None or not self._deals_again():
            raise SetupError(f"stack_deal: the {type(self).__name__} engine of pack "
                             f"{self.pack.name!r} deals one hand: only its first deal is "
                             "stacked (new_game's deck_order)")
        check(list(deck_order))
        self.later_orders = {**self.later_orders, hand_number: list(deck_order)}

    def _deals_again(self) -> bool:
        """Whether the engine deals more than one hand (and reads :attr:`later_orders`)."""
        return False

    def _first_dealt(self) -> int:
        """The seat dealt first in the deal being played (where a stacked deck's first hand
        goes): an engine that deals again says; by default the seat to play."""
        return self.current

    def _stacked_for(self, hand_number: int) -> list[str] | None:
        """The stacked top of the deck of deal ``hand_number``, or None."""
        if hand_number == 1:
            return self.deck_order
        return getattr(self, "later_orders", {}).get(hand_number)

    def _load_later_orders(self, data: Any) -> None:
        """A save's ``later_deck_orders``, checked as :meth:`stack_deal` checks them."""
        orders = _saves.obj(data, "later_deck_orders")
        if len(orders) > 1000:
            raise _saves.bad("later_deck_orders", "more than 1000 deals stacked")
        self.later_orders = {}
        for key, value in orders.items():
            where = f"later_deck_orders.{cut(str(key))}"
            if not (isinstance(key, str) and key.isdigit() and len(key) <= 7):
                raise _saves.bad(where, "expected a deal number")
            order = _saves.array_of(value, where, lambda v, p: _saves.string(v, p, 8),
                                    max_len=100_000)
            try:
                self._stack_later(int(key), order, 2)
            except SetupError as e:
                raise _saves.bad(where, str(e)) from None

    def __eq__(self, other) -> bool:
        if not isinstance(other, GameState):
            return NotImplemented
        return self._to_dict() == other._to_dict()

    __hash__ = None  # type: ignore[assignment]  # mutable

    def __repr__(self) -> str:
        return (f"<{type(self).__name__} {self.pack.name} hand {self.hand_number} {self.phase} "
                f"player {self.current} scores {self.scores}>")


def _contracts_met_option(pack, players: int, met: Any) -> list[int]:
    """The game option ``contracts_met``, checked: how many of the pack's contracts
    (``initial_meld.contracts``) each seat has met when the game starts, so that a game (a
    scenario, a shortened game) can begin further up the ladder.  Raises
    :class:`~meldkit.SetupError` for a pack without contracts or a bad list."""
    ladder = pack.spec.initial_meld.contracts
    if not ladder:
        raise SetupError.of_option("contracts_met", f"option contracts_met needs a pack whose "
                                   f"players work through contracts of their own "
                                   f"(initial_meld.contracts); {pack.name} has none")
    if not (isinstance(met, (list, tuple)) and len(met) == players and all(
            isinstance(x, int) and not isinstance(x, bool) and 0 <= x < len(ladder)
            for x in met)):
        raise SetupError.of_option(
            "contracts_met", f"option contracts_met must list, for each of the {players} "
            f"seats, how many of the {len(ladder)} contracts it has met at the start (a whole "
            f"number from 0 to {len(ladder) - 1}), not {quoted(met)}")
    return list(met)


def bundled_pack_resolver(name: str, digest: str):
    """The default pack resolver of :meth:`GameState.from_json`: the bundled pack called
    ``name``, or None.  Only a bundled name is looked up — never a path."""
    from ._registry import resolve_bundled

    return resolve_bundled(name, digest)


_last_space: tuple = (None, None, None, None, None, None, None)
"""The engine, pack, table size and action space of the last :func:`_action_space_of`, the
space's id of an action object (``_id_of_object``: AttributeError for one it has not seen),
its action of each id as the engine hands it out (``_live``) and the notation of each id
(``texts``); one tuple, replaced whole, so a thread reads a consistent one."""


def _action_space_of(state: GameState):
    """``meldkit.ai.action_space.action_space_for(state)``, imported on first use (the AI
    layer is not loaded by ``import meldkit``); the last one is kept at hand."""
    global _last_space
    last = _last_space
    if last[1] is state.pack and last[2] == state.n_players and last[0] is type(state):
        return last[3]
    from .ai.action_space import action_space_for

    space = action_space_for(state)
    _last_space = (type(state), state.pack, state.n_players, space,
                   space._id_of_object, space._live, space.texts)
    return space


_last_mask: tuple = (None, b"")
"""The legal-action list of the last :meth:`GameState.legal_mask` (held here, so no other
list has its identity) and its mask."""

_undo_in_use = False
"""True once any state keeps undo (:meth:`GameState.keep_undo`): until then
:meth:`GameState.apply` pays one test for it."""


class _UndoStack:
    """The states before the last actions of one state (``state``: its ``id()``; a clone
    that copies the slot is another state, and keeps nothing), at most ``depth``."""

    __slots__ = ("depth", "state", "states")

    def __init__(self, state: GameState, depth: int = 256):
        global _undo_in_use
        _undo_in_use = True
        self.state = id(state)
        self.depth = depth
        self.states: list[GameState] = []


def _keep_for_undo(state: GameState) -> None:
    """Before an action: keep a clone of ``state`` if it keeps undo."""
    stack = getattr(state, "_undo", None)
    if stack is None or stack.state != id(state):
        return
    states = stack.states
    if len(states) >= stack.depth:
        del states[:len(states) - stack.depth + 1]
    states.append(state.clone())


# --------------------------------------------------------------------------- plugin hooks
_GUARDS: dict[int, _Snapshot] = {}
_ENGINE_KIND: dict[type, tuple[bool, bool]] = {}
"""The snapshot of each state (by id) while :meth:`GameState.apply` runs plugin code."""

_NO_EXT = object()
_ATOMS = frozenset({int, str, float, bool, type(None), bytes})
_CONTAINERS = frozenset({list, dict, set, bytearray})
_NOT_SNAPSHOTTED = frozenset({"_legal_cache", "ext"})  # cleared by apply / kept as JSON
_SLOT_NAMES: dict[type, tuple[str, ...]] = {}
_SHARED_SLOTS: dict[tuple, tuple[str, ...]] = {}
"""Per engine (and meld model), the slots its ``clone()`` shares with the original (found
once)."""
_FLAT: dict[int, Any] = {}
"""Large lists of plain values seen before (deck tables), by id: copied without a look."""


def _slot_names(klass: type) -> tuple[str, ...]:
    names = _SLOT_NAMES.get(klass)
    if names is None:
        names = _SLOT_NAMES[klass] = tuple(dict.fromkeys(
            n for k in klass.__mro__ for n in getattr(k, "__slots__", ())
            if n not in _NOT_SNAPSHOTTED))
    return names


def _plain_copy(value: Any) -> Any:
    """An independent copy of a list, dict or set of plain data (numbers, text, and
    lists, tuples, dicts and sets of them), or None for anything else (an engine's own
    objects, which its ``clone()`` copies)."""
    t = type(value)
    if t is bytearray:
        return bytearray(value)
    if _FLAT.get(id(value)) is value:  # a deck table shared by every game of a pack
        return t(value)
    if t is dict:
        if _ATOMS.issuperset(map(type, value)) and _ATOMS.issuperset(map(type, value.values())):
            return dict(value)
    elif t is list or t is set:
        if _ATOMS.issuperset(map(type, value)):
            if len(value) >= 32:
                if len(_FLAT) >= 256:
                    _FLAT.clear()
                _FLAT[id(value)] = value  # kept alive here, so its id stays its own
            return t(value)
    else:
        return None
    stack, seen = [value], 0
    while stack:  # nested: copy deeply only if it is plain data all the way down
        v = stack.pop()
        seen += 1
        if seen > 100_000:
            return None
        if type(v) in (list, tuple, set, frozenset):
            stack.extend(v)
        elif type(v) is dict:
            stack.extend(v)
            stack.extend(v.values())
        elif type(v) not in _ATOMS:
            return None
    import copy

    return copy.deepcopy(value)


def _refill(shared: Any, saved: Any) -> None:
    """Put ``saved``'s contents back into the container ``shared``."""
    if isinstance(shared, (list, bytearray)):
        shared[:] = saved
    else:
        shared.clear()
        shared.update(saved)


def _json_text(value: Any, path: str) -> tuple[str | None, str | None]:
    """``(its JSON text, None)`` if ``value`` is JSON data (it comes back equal from JSON:
    no tuple, set, non-text key or NaN), else ``(None, what is wrong)`` (``ext.bury: set
    is not JSON data``)."""
    try:
        text = json.dumps(value, allow_nan=False)  # (NaN and infinities: told below)
        if json.loads(text) == value:
            return text, None
    except (TypeError, ValueError, RecursionError):
        pass
    try:
        _saves.json_data(value, path)
    except SaveError as e:
        return None, str(e).removeprefix("damaged meldkit save: ")
    return None, f"{path} does not come back equal from JSON"


def _json_problem(value: Any, path: str) -> str | None:
    """None if ``value`` is JSON data, else what is wrong."""
    return _json_text(value, path)[1]


_RECORDS_KEPT: dict[int, tuple[list, int, list]] = {}
"""By ``hand_results`` list (its identity): the list, how many of its records were read,
and each one's plugin data with its JSON text, written once.  A snapshot before every
move of a plugin's game keeps them; writing them afresh each move made a long game's
moves ever slower (quadratic: 3.4 s for 3,000 moves at hand 274, where it took 0.8)."""
_RECORDS_KEPT_MAX = 1_024


def _finished_records(results: list | None) -> list[tuple[dict, str]]:
    """The plugin data of each finished hand's record (``HandFinal.ext``) and its JSON
    text, as :meth:`GameState._restore` puts them back: read once a record."""
    if not results:
        return []
    entry = _RECORDS_KEPT.get(id(results))
    if entry is None or entry[0] is not results or entry[1] > len(results):
        entry = (results, 0, [])
    kept = entry[2]
    for record in results[entry[1]:]:
        data = getattr(getattr(record, "final", None), "ext", None)
        if type(data) is dict and data:
            try:
                kept.append((data, json.dumps(data)))
            except (TypeError, ValueError):
                pass  # not JSON: no save holds it either
    if len(_RECORDS_KEPT) >= _RECORDS_KEPT_MAX and id(results) not in _RECORDS_KEPT:
        _RECORDS_KEPT.clear()
    _RECORDS_KEPT[id(results)] = (results, len(results), kept)
    return kept


class _Snapshot:
    """What :meth:`GameState.apply` keeps to undo a move that plugin code takes part in:
    a clone (the engine's own zones and objects), ``ext`` as JSON text (every level of the
    plugin data), a copy of each container the clone shares with the state (options, the
    deck's tables: a hook can reach them through ``state``), and the plugin data of the
    finished hands' records (``HandFinal.ext``), whose other fields are frozen."""

    __slots__ = ("state", "ext", "shared", "records", "_cards", "lengths")

    def __init__(self, live: GameState):
        ext = getattr(live, "ext", _NO_EXT)
        if ext is not _NO_EXT:
            ext, problem = _json_text(ext, "ext")
            if problem is not None:
                raise PluginError(
                    f"plugin {live.pack.spec.plugin!r}: state.ext holds data a save cannot "
                    f"hold ({problem}; plugin data is JSON: dicts with str keys, lists, str, "
                    "int, float, bool, None); nothing was applied")
        self.ext = ext
        # The game's history and finished hands only grow: not copied (a long game's moves
        # grew ever slower), but shared, and cut back to these lengths by _restore.
        history, results = live.history, live.hand_results
        live.history, live.hand_results = [], []
        try:
            self.state = state = live.clone()
        finally:
            live.history, live.hand_results = history, results
        self.lengths = (len(history), len(results))
        self.shared = []
        kind = (type(live), getattr(live, "model", None))
        names = _SHARED_SLOTS.get(kind)
        if names is None:
            names = _SHARED_SLOTS[kind] = tuple(
                n for n in _slot_names(type(live))
                if getattr(state, n, _NO_EXT) is getattr(live, n, None)
                and type(getattr(live, n)) not in _ATOMS - {type(None)})
        for name in names:
            value = getattr(live, name, None)
            if type(value) in _CONTAINERS and getattr(state, name, None) is value:
                saved = _plain_copy(value)
                if saved is not None:
                    self.shared.append((name, value, saved))
        self.records = _finished_records(results)
        state.history, state.hand_results = history, results
        self._cards: list | None = None

    def cards(self) -> list:
        """The card ids of every zone before the move, sorted (computed once, when a hook
        that may move cards has run)."""
        if self._cards is None:
            self._cards = sorted(c for ids in self.state.zone_cards().values() for c in ids)
        return self._cards


def _card_name(state: GameState, card: Any) -> str:
    try:
        return f"{state.card_code(card)} (id {card})"  # type: ignore[attr-defined]
    except Exception:
        return repr(card)[:20]


def _conservation_problem(state: GameState, snapshot: _Snapshot) -> str | None:
    """None if the zones of ``state`` hold exactly the cards they held in ``snapshot``
    (every card in exactly one zone), else which cards are missing or doubled."""
    try:
        zones = state.zone_cards()
        after = [c for ids in zones.values() for c in ids]
        odd = next((c for c in after if type(c) is not int), None)
        if odd is not None:
            return f"a zone holds {odd!r:.40}, which is not a card id"
        if sorted(after) == snapshot.cards():
            return None
    except Exception as e:  # the hook left the zones unreadable
        return f"the zones cannot be read ({type(e).__name__}: {str(e)[:80]})"
    before, now = Counter(snapshot.cards()), Counter(after)
    parts = []
    missing = sorted((before - now).elements())
    if missing:
        parts.append(f"{len(missing)} card(s) in no zone: "
                     + ", ".join(_card_name(state, c) for c in missing[:5]))
    for c in sorted(set((now - before).elements()))[:5]:
        where = [name for name, ids in zones.items() if c in ids]
        if c in before:
            parts.append(f"{_card_name(state, c)} in {now[c]} places ({', '.join(where)})")
        else:
            parts.append(f"card id {c} is not in this deck (in {', '.join(where)})")
    return "; ".join(parts) or "the cards in play changed"


_WRITING_HOOKS = frozenset({"apply", "adjust_scores"})
"""The hooks that may change the state; the others (legal, check, view) only read it."""


_POINTS_A_HAND = 10_000_000
"""The most points, either way, of one adjustment a plugin's ``adjust_scores`` adds (the
loader's bound on a pack's own amounts, :data:`meldkit._pack_limits.MAX_POINTS`): a total
past a save's bound made the game's own save refused at load, naming no plugin."""


def _hook_result(plugin: str, hook: str, kind: str, result: Any, args: tuple) -> Any:
    """``result`` if it is what hook ``hook`` must return, else a PluginError saying
    what was expected (the caller would otherwise fail on it with a bare TypeError)."""
    def refuse(expected: str, got: str | None = None) -> PluginError:
        if got is None:
            got = f"{quoted(result)} ({type(result).__name__})"
        return PluginError(f"plugin {plugin!r}: hook {hook} must return {expected}, got {got}")

    if kind == "legal":
        verb = hook.rpartition(".")[0]
        what = f"a list of {verb!r} actions (state.actions.get({verb!r}, ...))"
        if isinstance(result, (str, bytes, dict)) or not hasattr(result, "__iter__"):
            raise refuse(what)
        try:
            actions = list(result)
        except Exception as e:  # a generator running plugin code
            raise PluginError(f"plugin {plugin!r}: hook {hook} raised {type(e).__name__}: "
                              f"{e}") from e
        for a in actions:
            if not isinstance(a, Action):
                raise refuse(what, f"{a!r:.40} ({type(a).__name__}) in the list")
            if verb and a.type != verb:
                raise refuse(what, f"a {a.type!r} action in the list")
        if len(set(actions)) != len(actions):  # (each move once: a bot picks among them)
            twice = next(a for a in actions if actions.count(a) > 1)
            raise refuse(what + ", each once", f"{quoted(str(twice))} "
                                               f"{actions.count(twice)} times")
        return actions
    if kind == "check":
        from ._actions import Reason

        if result is not None and not isinstance(result, Reason):
            raise refuse("None (legal) or a meldkit.Reason (refused)")
        return result
    if kind == "view":
        if result is not None:
            if not isinstance(result, dict):
                raise refuse("None or a dict of JSON data")
            problem = _json_problem(result, "view")
            if problem is not None:
                raise refuse("None or a dict of JSON data", problem)
        return result
    if kind == "adjust_scores" and args:
        given = args[-1]
        n = len(given)
        name = type(given[0]).__name__ if n else "score"
        what = f"a list of {n} {name} (one per team, as given)"
        if not isinstance(result, (list, tuple)):
            raise refuse(what)
        if len(result) != n:
            raise refuse(what, f"a list of {len(result)}")
        for s, g in zip(result, given):  # (in the order given: a line is its team's)
            if type(s) is not type(g):
                raise refuse(what, f"{s!r:.40} ({type(s).__name__}) in the list")
            if getattr(s, "team", None) != getattr(g, "team", None):
                teams = ", ".join(str(getattr(x, "team", None)) for x in result)
                raise refuse(what, f"scores for teams {teams}, in that order")
            try:
                total = s.total
            except Exception as e:
                total = e
            if type(total) is not int:
                raise refuse(what, f"a score of team {g.team} whose total is "
                                   f"{total!r:.40} ({type(total).__name__}), not an int")
            try:
                added = Counter(getattr(s, "items", ())) - Counter(getattr(g, "items", ()))
            except TypeError:  # (an item that is no (label, points) pair of plain values)
                raise refuse(what, f"a score of team {g.team} with items "
                                   f"{getattr(s, 'items', None)!r:.60}") from None
            for label, points in added:  # (the lines the hook wrote)
                if type(points) is not int or abs(points) > _POINTS_A_HAND:
                    raise refuse(what, f"an adjustment {quoted(label)} of {quoted(points)} "
                                       f"({type(points).__name__}) for team {g.team}: "
                                       f"points are an int within ±{_POINTS_A_HAND:,}")
        return result
    return result


_KERNEL_FIELDS = ("phase", "current", "hand_number", "scores", "history", "hand_results")
"""What a rule-hook plugin's hooks leave as they found it in a kernel game (an engine
plugin's own game is its own): a hook that set an unknown phase raised a bare KeyError on
the next move, one that ended the game by its phase or wrote the scores made saves that
do not load."""


def _kernel_fields(state: GameState | None) -> tuple | None:
    """What :data:`_KERNEL_FIELDS` hold before a hook runs in a kernel game, else None."""
    if state is None or not type(state).__module__.startswith("meldkit.kernel"):
        return None
    history, results = state.history, state.hand_results  # (they only grow: an end each)
    return (state.phase, state.current, state.hand_number, list(state.scores),
            (len(history), history[-1:]), (len(results), results[-1:]))


def _kernel_changes(state: GameState, kept: tuple | None) -> str:
    """The kernel fields a hook changed (``state.phase`` …), or ''."""
    if kept is None:
        return ""
    now = _kernel_fields(state)
    return ", ".join(f"state.{n}" for n, a, b in zip(_KERNEL_FIELDS, kept, now) if a != b)


def call_hook(plugin: str, hook: str, fn, *args):
    """Call a plugin's hook and check what it did.  Anything it raises becomes a
    :class:`~meldkit.PluginError` naming the plugin and the hook (a
    :class:`~meldkit.MeldkitError` passes unchanged); so does a result of the wrong shape.

    Engines call every hook through here, named ``<verb>.legal``, ``<verb>.check``,
    ``<verb>.apply`` (an :class:`~meldkit.ActionHook`), ``adjust_scores`` or ``view``,
    with the state as the first argument, and get the same guarantees:

    * ``legal`` gives a list of actions of its verb; ``check`` None or a
      :class:`~meldkit.Reason`; ``view`` None or a dict of JSON data; ``adjust_scores``
      one score per team given, of the type given, each with an int total;
    * after ``apply`` and ``adjust_scores`` (the hooks that may change the state), every
      card is where a card may be — the zones hold exactly the cards they held before the
      move — and ``state.ext`` holds JSON data only;
    * a failure raises a PluginError and leaves the state as it was before the move:
      inside :meth:`GameState.apply` (whose snapshot covers the whole move: an engine
      that calls hooks makes :meth:`GameState._hooks_may_fail` true), or, for a changing
      hook called outside ``apply`` (``rescore``), by a snapshot of this call alone."""
    state = args[0] if args and isinstance(args[0], GameState) else None
    kind = hook.rpartition(".")[2]
    writes = state is not None and kind in _WRITING_HOOKS
    guard = _GUARDS.get(id(state)) if state is not None else None
    local = None
    if writes and guard is None:
        local = guard = state._snapshot()  # type: ignore[union-attr]
        _GUARDS[id(state)] = local
    kept = _kernel_fields(state) if writes else None
    try:
        tail = " (the state is unchanged)" if guard is not None else ""
        try:
            result = fn(*args)
        except MeldkitError:
            raise
        except Exception as e:
            raise PluginError(f"plugin {plugin!r}: hook {hook} raised {type(e).__name__}: "
                              f"{e}{tail}") from e
        result = _hook_result(plugin, hook, kind, result, args)
        if writes:
            ext = getattr(state, "ext", _NO_EXT)
            problem = None if ext is _NO_EXT else _json_problem(ext, "ext")
            if problem is not None:
                raise PluginError(
                    f"plugin {plugin!r}: hook {hook} left data a save cannot hold in "
                    f"state.ext ({problem}; plugin data is JSON: dicts with str keys, lists, "
                    f"str, int, float, bool, None){tail}")
            problem = _conservation_problem(state, guard)  # type: ignore[arg-type]
            if problem is not None:
                raise PluginError(f"plugin {plugin!r}: hook {hook} broke card conservation: "
                                  f"{problem}{tail}")
            changed = _kernel_changes(state, kept)
            if changed:
                raise PluginError(
                    f"plugin {plugin!r}: hook {hook} changed {changed}, which the kernel "
                    "keeps (the phase, the player to move, the scores, the hand number, the "
                    f"history and the hands' records; a hook's points are adjust_scores' "
                    f"score lines){tail}")
        return result
    except BaseException:
        if local is not None:
            state._restore(local)  # type: ignore[union-attr]
        raise
    finally:
        if local is not None:
            del _GUARDS[id(state)]


def _from_pickle(text: str, pack) -> GameState:
    """A game from what :meth:`GameState.__reduce__` kept."""
    return GameState.from_json(text, pack=pack)


def plugin_rescored(state) -> str:
    """What a save's refused scores may owe to the pack's plugin: its ``adjust_scores``
    rescores every hand from its record when the save loads, so one that reads the live
    state or counts its calls gives other lines then (a plugin audit's finding)."""
    plugin = getattr(state, "plugin", None)
    if plugin is None:
        return ""
    return (f" — or the pack's plugin {plugin.name!r} scored it otherwise then: its "
            "adjust_scores rescores each hand from its record alone when a save loads, so "
            "it must not read the live state or count its calls")
