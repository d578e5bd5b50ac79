"""The table-melds kernel: pure meld predicates and the engine for packs that declare meld kinds."""
