"""The one engine class of every pack that is not a whole-engine plugin.

:class:`KernelState` is a single state machine: a game's ``phase`` names a room of the
pack's **phase table** (``state.phases``: phase → ``(legal, check, do)``), compiled with
the pack, and :meth:`~KernelState._legal`, :meth:`~KernelState._check` and
:meth:`~KernelState._do` reach the room through that one table.  What a phase does with
melds comes from the pack's **meld model**, chosen once when the game is made:

* :class:`~meldkit._state.RankSlotModel` — canasta's one growing meld per rank per side,
  Samba's sequences, books, reserves, bonus cards, pile freezing, initial minimums (every
  pack without ``melds.kinds``);
* :class:`~meldkit.kernel.table.TableModel` — sets and runs with ids and owners, lay-offs,
  knocking and deadwood (packs with ``melds.kinds``).

A model is a set of methods over the state's fields (its ``SLOTS``); the few that both
models (or a model and :class:`~meldkit.GameState`) define their own way are looked up
through ``state.model`` (:class:`PerModel`), the hot ones by hand.  Saves, notation and
views keep each model's shapes.

>>> import meldkit
>>> gin, canasta = meldkit.new_game("gin_rummy", players=2), meldkit.new_game("samba", players=4)
>>> type(gin) is type(canasta) is KernelState
True
>>> gin.meld_model, canasta.meld_model
('table', 'rank_slot')
>>> sorted(gin.phases)
['discard', 'draw', 'first_upcard', 'knock', 'layoff', 'over', 'play', 'wall']
>>> sorted(canasta.phases)
['draw', 'over', 'play']
"""

from __future__ import annotations

from typing import Any

from .._actions import Action
from .._game import GameState
from .._state import RankSlotModel
from .table import TableModel

MODELS: tuple[type, ...] = (RankSlotModel, TableModel)
"""The meld models, in the order their methods are found on :class:`KernelState`."""


def model_for(pack) -> type:
    """The meld model that plays ``pack``: the table model when it declares ``melds.kinds``."""
    return TableModel if pack.spec.melds.kinds else RankSlotModel


def _raw(model: type, name: str) -> Any:
    """``name`` as ``model`` (or, failing it, :class:`GameState`) defines it, undecorated."""
    for klass in (*model.__mro__, *GameState.__mro__):
        if name in vars(klass):
            return vars(klass)[name]
    return None


class PerModel:
    """An attribute of :class:`KernelState` that each meld model defines its own way:
    read on a game, it is the game's model's (a method bound to the game, a property's
    value, a class attribute); read on the class, it is a function of a game as first
    argument (``KernelState.greedy_policy(state)``).  A model without it raises
    AttributeError, as if the attribute did not exist."""

    def __init__(self, name: str):
        self.name = name
        self.impl = {m: _raw(m, name) for m in MODELS}
        self.__doc__ = next((getattr(v, "__doc__", None) for v in self.impl.values()
                             if getattr(v, "__doc__", None)), None)

    def _of(self, state) -> Any:
        found = self.impl.get(state.model)
        if found is None:
            raise AttributeError(f"a game of the {state.model.NAME} meld model has no "
                                 f"{self.name!r}")
        return found

    def __get__(self, state, owner=None) -> Any:
        if state is None:
            return self
        found = self._of(state)
        get = getattr(found, "__get__", None)
        return found if get is None else get(state, type(state))

    def __call__(self, state, *args, **kwargs) -> Any:
        found = self._of(state)
        function = getattr(found, "__func__", found)  # a staticmethod's function
        return function(state, *args, **kwargs)

    def __repr__(self) -> str:
        return f"<per-model attribute {self.name!r} of KernelState>"


class KernelState(RankSlotModel, TableModel, GameState):
    """A game of a rule pack that is not a whole-engine plugin; create one with
    :func:`meldkit.new_game`.  ``model`` is its meld model, ``phases`` its phase table."""

    __slots__ = tuple(dict.fromkeys(("model", "phases", *RankSlotModel.SLOTS,
                                     *TableModel.SLOTS)))

    @property
    def meld_model(self) -> str:
        """The name of this game's meld model: ``rank_slot`` or ``table``."""
        return self.model.NAME

    # ------------------------------------------------------------------ creation
    @classmethod
    def _new(cls, pack, players: int, seed: int, options: dict | None,
             deck_order: list[str] | None) -> KernelState:
        return vars(model_for(pack))["_new"].__func__(cls, pack, players, seed, options,
                                                      deck_order)

    @classmethod
    def _from_state_dict(cls, pack, d: dict) -> KernelState:
        return vars(model_for(pack))["_from_state_dict"].__func__(cls, pack, d)

    @classmethod
    def stack_deck(cls, pack, players: int, hands: dict[int, list[str]], stock: list[str],
                   first_player: int = 0, upcard: str | None = None,
                   reserves: dict[int, list[str]] | None = None, deal: int = 1) -> list[str]:
        """A ``deck_order`` dealing ``hands``, then ``reserves``, then ``upcard``, then
        ``stock`` (what :func:`meldkit.testing.stack_deck` calls for a table-meld pack)."""
        return vars(TableModel)["stack_deck"].__func__(cls, pack, players, hands, stock,
                                                       first_player, upcard, reserves, deal)

    # ------------------------------------------------------------------ the state machine
    def _legal(self) -> list[Action]:
        return self.phases[self.phase][0](self)

    def _check(self, a: Action):
        return self.phases[self.phase][1](self, a)

    def _do(self, a: Action) -> None:
        self.phases[self.phase][2](self, a)
        if self.plugin is None and self.phase != "over":  # _keep_live's usual case, inlined:
            legal = self.phases[self.phase][0](self)  # the next player has a move (kept)
            if legal:
                self._legal_cache = legal
                return
        self._keep_live()

    # the hot per-model calls, by hand (PerModel costs a Python-level lookup)
    def view(self, player: int) -> dict[str, Any]:
        """What ``player`` may see (:meth:`GameState.view`, one schema for every model)."""
        return self.model.view(self, player)

    def clone(self) -> KernelState:
        """An independent copy (:meth:`GameState.clone`)."""
        return self.model.clone(self)

    def card_code(self, card: int) -> str:
        """The text code of a card id (``QH``, or the rank alone where suits never matter)."""
        return self.model.card_code(self, card)

    def hand_cards(self, player: int) -> list[int]:
        """The card ids in a player's hand (a copy)."""
        return self.model.hand_cards(self, player)

    def _interned(self, action: Action) -> Action | None:
        return self.actions.interned(action)

    def _hooks_may_fail(self) -> bool:
        return self.plugin is not None


def _per_model_names() -> list[str]:
    """The names looked up through the game's model: those both models define, or one
    defines over :class:`GameState`'s, and the public ones only one model has (so that a
    game of the other does not seem to have them)."""
    def names(model: type) -> set[str]:
        return {n for k in model.__mro__ if k is not object for n in vars(k)
                if not (n.startswith("__") and n.endswith("__")) and n != "SLOTS"}

    rank, table = names(RankSlotModel), names(TableModel)
    base = {n for k in GameState.__mro__ if k is not object for n in vars(k)}
    public_of_one = {n for n in rank ^ table if not n.startswith("_")}
    shared = (rank & table) | (rank & base) | (table & base) | public_of_one
    return sorted(shared - set(vars(KernelState)))


for _name in _per_model_names():
    setattr(KernelState, _name, PerModel(_name))
del _name

RummyState = TableState = KernelState
"""The names of the two engines this class replaced (kept for code that imports them)."""
