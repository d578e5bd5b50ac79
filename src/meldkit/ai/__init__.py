"""Game-AI interface: integer action ids, observation vectors, information states,
determinization (resampling hidden cards), chance nodes, returns and game-length bounds.

The methods live on every :class:`meldkit.GameState` (``state.action_space``,
``state.legal_mask()``, ``state.apply(id)``, ``state.observation(p)``,
``state.information_state(p)``, ``state.resample(p, rng)`` …); this package holds their
machinery.  See the Game AI page of the documentation.
"""

from __future__ import annotations

from .action_space import ActionIds, ActionSpaceError, action_space_for
from .infostate import Event, information_state, public_history, public_text
from .observation import ObservationSpec, observation, observation_spec
from .resample import Determinizer, resample

__all__ = [
           "ActionIds",
           "ActionSpaceError",
           "Determinizer",
           "Event",
           "ObservationSpec",
           "action_space_for",
           "information_state",
           "observation",
           "observation_spec",
           "public_history",
           "public_text",
           "resample",
]
