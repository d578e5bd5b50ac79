"""The engines' rooms, each importing only downward.

* The table-melds kernel, for packs that declare meld kinds (rummy, gin): pure meld
  predicates (:mod:`~meldkit.kernel.melds`), pure scoring (:mod:`~meldkit.kernel.scoring`),
  the loader's checks (:mod:`~meldkit.kernel.checks`), the engine with one pair of methods per
  phase (:mod:`~meldkit.kernel.table`), its rules sheet and a greedy policy.
* The canasta kernel's phases (``_canasta_deal``, ``_canasta_draw``, ``_canasta_play``,
  ``_canasta_out``, ``_canasta_end``), mixins that :class:`meldkit.RummyState` ties together.
"""
