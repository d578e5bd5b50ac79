"""Game-AI interface: integer action ids, observation vectors, information states,
determinization (resampling hidden cards), chance nodes, returns and game-length bounds.

The methods live on every :class:`meldkit.GameState` (``state.action_space``,
``state.legal_mask()``, ``state.apply(id)`` …); this package holds their machinery.
"""

from __future__ import annotations

from .action_space import ActionIds, ActionSpaceError, action_space_for

__all__ = ["ActionIds", "ActionSpaceError", "action_space_for"]
