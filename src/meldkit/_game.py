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
from typing import Any, ClassVar

from ._actions import Action
from ._errors import IllegalActionError, SaveError, SetupError

SAVE_FORMAT = "meldkit-save/1"


class GameState:
    """A game in progress; create one with :func:`meldkit.new_game`.

    Every engine (the rummy kernel, a plugin's engine) is a subclass, so code written
    against this class works with every pack.
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
        """Parse notation text into an action; raises :class:`~meldkit.NotationError`."""
        raise NotImplementedError

    def zone_cards(self) -> dict[str, list[int]]:
        """Every zone with the card ids in it; each card of the deck is in exactly one."""
        raise NotImplementedError

    def view(self, player: int) -> dict[str, Any]:
        """What ``player`` may see, as JSON-able data."""
        raise NotImplementedError

    def clone(self) -> GameState:
        """An independent copy."""
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
        from ._rules import Rules

        options = dict(options or {})
        unknown = set(options) - self.GAME_OPTIONS
        if unknown:
            raise SetupError(
                f"unknown game option(s) {', '.join(sorted(map(str, unknown)))} "
                f"(expected: {', '.join(sorted(self.GAME_OPTIONS))})"
            )
        self.pack = pack
        self.team_of, self.n_teams = Rules.of(pack).seating(players, options.get("partners"))
        if not isinstance(seed, int) or isinstance(seed, bool):
            raise SetupError(f"seed must be an int, not {seed!r}")
        first = options.get("first_player")
        if first is not None and (not isinstance(first, int) or not 0 <= first < players):
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
        caller may change it)."""
        return self._cached_legal()[:]

    def _cached_legal(self) -> list[Action]:
        """The legal actions, computed once per position (never hand this list out)."""
        cache = self._legal_cache
        if cache is None:
            cache = self._legal_cache = [] if self.phase == self.OVER else self._legal()
        return cache

    def check(self, action: Action | str):
        """None if ``action`` is legal now, else the :class:`~meldkit.Reason` it is refused."""
        from ._state import Reason

        try:
            a = self.parse_action(action)
        except IllegalActionError as e:
            return Reason(e.code, e.reason)
        if self.phase == self.OVER:
            return Reason("game/over", "the game is over")
        return self._check(a)

    def is_legal(self, action: Action | str) -> bool:
        """True if ``action`` may be applied now."""
        return self.check(action) is None

    def apply(self, action: Action | str) -> None:
        """Apply a legal action (or its notation).  An illegal one raises
        :class:`~meldkit.IllegalActionError` and leaves the state exactly as it was."""
        a = self.parse_action(action)
        if self.phase == self.OVER:
            raise IllegalActionError("game/over", "the game is over", a)
        cache = self._legal_cache
        if cache is None or a not in cache:  # a listed legal action needs no second check
            why = self._check(a)
            if why is not None:
                raise IllegalActionError(why.code, why.sentence, a)
        self._legal_cache = None
        self.history.append(str(a))
        self._do(a)

    # ------------------------------------------------------------------ saves
    def to_json(self) -> str:
        """The whole state as JSON; the save names the pack and its digest, and
        :meth:`from_json` refuses it against another version of the pack."""
        return json.dumps(self._to_dict(), separators=(",", ":"))

    def _to_dict(self) -> dict[str, Any]:
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
        d.update(self._state_dict())
        return d

    @classmethod
    def from_json(cls, text: str, pack=None) -> GameState:
        """Load a state saved by :meth:`to_json` (of any engine); raises
        :class:`~meldkit.SaveError` if the text is not a save or the pack has changed.

        The pack is found by the name (a bundled pack) or the file the save names; pass
        ``pack`` (a :class:`~meldkit.RulePack`) for a pack built in memory, e.g. with
        ``load_pack_text``.  Its digest must match the save's either way.
        """
        from ._loader import load_pack
        from .plugins import engine_for

        try:
            d = json.loads(text)
        except (TypeError, ValueError) as e:
            raise SaveError(f"not a meldkit save: {e}") from None
        if not isinstance(d, dict) or d.get("format") != SAVE_FORMAT:
            raise SaveError(f"not a meldkit save (expected format {SAVE_FORMAT!r})")
        try:
            name, source, digest = d["pack"], d.get("pack_source"), d["pack_digest"]
            if pack is None:
                try:
                    pack = load_pack(name)
                except Exception:  # not bundled (or broken): try the file the save names
                    pack = None
            if (pack is None or pack.digest != digest) and source and source != "<string>":
                pack = load_pack(source)
            if pack is None:
                raise SaveError(
                    f"cannot find pack {name!r} of this save (not bundled, and its source "
                    f"{source!r} is not a file): pass the pack, from_json(text, pack=...)"
                )
            if pack.digest != digest:
                have = pack.digest[:12]
                raise SaveError(
                    f"this save was made with another version of pack {name!r} "
                    f"(saved digest {digest[:12]}, installed {have}); "
                    "load it with the pack it was made with"
                )
            return engine_for(pack)._from_state_dict(pack, d)
        except SaveError:
            raise
        except (KeyError, TypeError, ValueError, IndexError, AttributeError) as e:
            raise SaveError(f"damaged meldkit save: {type(e).__name__}: {e}") from None

    def __eq__(self, other) -> bool:
        if not isinstance(other, GameState):
            return NotImplemented
        return self._to_dict() == other._to_dict()

    __hash__ = None  # type: ignore[assignment]  # mutable

    def __repr__(self) -> str:
        return (f"<{type(self).__name__} {self.pack.name} hand {self.hand_number} {self.phase} "
                f"player {self.current} scores {self.scores}>")
