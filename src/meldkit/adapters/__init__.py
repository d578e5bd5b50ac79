"""Adapters to game-AI frameworks, each behind its own extra:

- ``meldkit.adapters.pettingzoo`` — a PettingZoo AEC environment
  (``pip install 'meldkit[pettingzoo]'``);
- ``meldkit.adapters.openspiel`` — a Python game registered with OpenSpiel
  (``pip install 'meldkit[openspiel]'``).
"""
