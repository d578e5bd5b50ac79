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
import operator
from typing import Any, ClassVar

from . import saves as _saves
from ._actions import Action
from ._errors import IllegalActionError, MeldkitError, PluginError, SaveError, SetupError
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

    __slots__ = ("pack", "n_players", "seed", "options", "deck_order", "team_of", "n_teams",
                 "scores", "hand_number", "current", "phase", "history", "hand_results",
                 "_legal_cache")

    OVER: ClassVar[str] = "over"

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

        >>> import meldkit
        >>> game = meldkit.new_game("pony_tail", players=4, seed=7)
        >>> view = game.view(0)
        >>> view["you"], view["phase"], view["current_player"], len(view["hand"])
        (0, 'draw', 3, 15)
        >>> [p["hand_size"] for p in view["players"]]
        [15, 15, 15, 15]
        >>> "hand" in view["players"][1]   # another seat's cards are not in the view
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
    GAME_OPTIONS: ClassVar[frozenset[str]] = frozenset({"partners", "first_player"})
    """The game options ``new_game(options=...)`` accepts."""

    def _setup(self, pack, players: int, seed: int, options: dict | None,
               deck_order: list[str] | None) -> dict:
        """Check and store what every new game has (seats, teams, seed, options); returns
        the options.  Raises :class:`~meldkit.SetupError` naming the bad value."""
        options = dict(options or {})
        unknown = set(options) - self.GAME_OPTIONS
        if unknown:
            raise SetupError(
                f"unknown game option(s) {', '.join(sorted(map(str, unknown)))} "
                f"(expected: {', '.join(sorted(self.GAME_OPTIONS))})"
            )
        self.pack = pack
        self.team_of, self.n_teams = seating(pack.spec.players, pack.name, players,
                                             options.get("partners"))
        if not isinstance(seed, int) or isinstance(seed, bool):
            raise SetupError(f"seed must be an int, not {seed!r}")
        first = options.get("first_player")
        if first is not None and (not isinstance(first, int) or isinstance(first, bool)
                                  or not 0 <= first < players):
            raise SetupError(f"option first_player must be a seat 0..{players - 1}, not {first!r}")
        self.n_players, self.seed, self.options = players, seed, options
        self.deck_order = list(deck_order) if deck_order else None
        self.scores = [0] * self.n_teams
        self.history = []
        self.hand_results = []
        self._legal_cache = None
        return options

    # ------------------------------------------------------------------ shared behaviour
    @property
    def current_player(self) -> int | None:
        """The seat to act, or None when the game is over."""
        return None if self.phase == self.OVER else self.current

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
        caller may change it).

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
        if not isinstance(action, Action):
            if not isinstance(action, str) and hasattr(type(action), "__index__"):
                from .ai.action_space import apply_id

                # an integer action id (state.action_space); refused with action/bad-id
                return apply_id(self, _action_id(action))
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
            raise IllegalActionError("action/malformed", "a hand-built action without notation text")
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
        from .ai.action_space import action_space_for

        return action_space_for(self).mask(self._cached_legal())

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
        from .ai.action_space import action_space_for

        return action_space_for(self).ids(self._cached_legal())

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
        """Take back the last action (clone-and-replay from the seed: costs about the
        time the game took so far).

        >>> import meldkit
        >>> game = meldkit.new_game("pony_tail", players=4, seed=7)
        >>> start = game.clone()
        >>> game.apply("draw")
        >>> game.undo()
        >>> game.history, game == start
        ([], True)
        """
        from .ai.chance import undo

        undo(self)

    def __deepcopy__(self, memo) -> GameState:
        return self.clone()  # shares the compiled rules, as clone() does

    def _interned(self, action: Action) -> Action | None:
        """The engine's interned action equal to ``action``, or None (engines with an
        intern table override this for a fast path)."""
        return None

    def _hooks_may_fail(self) -> bool:
        """True when :meth:`_do` runs code from outside meldkit (a plugin's hooks or
        engine), so :meth:`apply` snapshots the state to stay atomic if it raises: by
        default, for engines defined outside meldkit."""
        return not type(self).__module__.startswith("meldkit.")

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
        a = self._canonical(action)
        if self.phase == self.OVER:
            raise IllegalActionError("game/over", "the game is over", a)
        cache = self._legal_cache
        if cache is None or a not in cache:  # a listed legal action needs no second check
            why = self._check(a)
            if why is not None:
                raise IllegalActionError(why.code, why.sentence, a)
        snapshot = self.clone() if self._hooks_may_fail() else None
        self._legal_cache = None
        self.history.append(str(a))
        if snapshot is None:
            self._do(a)
            return
        try:
            self._do(a)
        except BaseException as e:
            self._restore(snapshot)
            if (isinstance(e, MeldkitError) or not isinstance(e, Exception)
                    or type(self).__module__.startswith("meldkit.")):
                raise  # meldkit's own engines name plugin hook failures where they call them
            raise PluginError(
                f"plugin {self.pack.spec.plugin!r}: its engine {type(self).__name__} raised "
                f"{type(e).__name__} while applying {a}: {e} (the state is unchanged)") from e

    def _restore(self, snapshot: GameState) -> None:
        """Make this state what ``snapshot`` (an independent clone) holds."""
        for klass in type(self).__mro__:
            for name in getattr(klass, "__slots__", ()):
                if hasattr(snapshot, name):
                    object.__setattr__(self, name, getattr(snapshot, name))

    # ------------------------------------------------------------------ saves
    SAVE_ENVELOPE: ClassVar[frozenset[str]] = frozenset(
        {"format", "pack", "pack_source", "pack_digest", "players", "seed", "options",
         "deck_order", "action_space_digest"})
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
        name = _saves.string(_saves.get(d, "pack"), "pack", 200)
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
            raise SaveError(
                f"this save was made with another version of pack {name!r} "
                f"(saved digest {digest[:12]}, this pack's {pack.digest[:12]}); "
                "load it with the pack it was made with"
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
        seed = _saves.integer(_saves.get(d, "seed"), "seed", -(2**256), 2**256)
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

    def __eq__(self, other) -> bool:
        if not isinstance(other, GameState):
            return NotImplemented
        return self._to_dict() == other._to_dict()

    __hash__ = None  # type: ignore[assignment]  # mutable

    def __repr__(self) -> str:
        return (f"<{type(self).__name__} {self.pack.name} hand {self.hand_number} {self.phase} "
                f"player {self.current} scores {self.scores}>")


def bundled_pack_resolver(name: str, digest: str):
    """The default pack resolver of :meth:`GameState.from_json`: the bundled pack called
    ``name``, or None.  Only a bundled name is looked up — never a path."""
    from ._registry import resolve_bundled

    return resolve_bundled(name, digest)


def _action_id(value) -> int:
    """``value`` as an action id (an int, or an object with ``__index__``, such as a numpy
    integer); a bool, or an ``__index__`` that raises or gives no int, is an
    :class:`~meldkit.IllegalActionError` (``action/bad-id``) naming the input's type."""
    kind = type(value).__name__
    if type(value) is int:
        return value
    if isinstance(value, bool):
        raise IllegalActionError("action/bad-id", "an action id is an int, not bool")
    try:
        index = operator.index(value)
    except Exception as e:  # a foreign __index__ may raise anything
        raise IllegalActionError(
            "action/bad-id",
            f"an action id is an int, not {kind} (its __index__ raised "
            f"{type(e).__name__}: {str(e)[:60]})") from None
    if type(index) is not int:  # operator.index guarantees an int subclass: refuse bool
        raise IllegalActionError("action/bad-id",
                                 f"an action id is an int, not {kind} (its __index__ gave "
                                 f"{type(index).__name__})")
    return index


def call_hook(plugin: str, hook: str, fn, *args):
    """Call a plugin's hook; anything it raises becomes a :class:`~meldkit.PluginError`
    naming the plugin and the hook (a :class:`~meldkit.MeldkitError` passes unchanged)."""
    try:
        return fn(*args)
    except MeldkitError:
        raise
    except Exception as e:
        raise PluginError(f"plugin {plugin!r}: hook {hook} raised {type(e).__name__}: {e}") from e
