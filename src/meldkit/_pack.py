"""A loaded rule pack, :class:`RulePack` — a leaf: it imports nothing of meldkit's.

Every layer reads packs (the game-state contract, the engines, the loader, the tools), so
the record lives below all of them; :mod:`meldkit._loader` builds it and re-exports it
(``from meldkit._loader import RulePack`` keeps working).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import attrs

if TYPE_CHECKING:
    from ._schema import RulePackSpec

__all__ = ["RulePack"]


@attrs.frozen
class RulePack:
    """A loaded rule pack: the validated spec plus where it came from and what it was.

    Load one with :func:`meldkit.load_pack` (a bundled name or a path) or
    :func:`meldkit.load_pack_text`; it is frozen, and the same file loads to the same pack.

    >>> import meldkit
    >>> pack = meldkit.load_pack("pony_tail")
    >>> pack.name, pack.spec.title, pack.spec.players.min, pack.spec.players.max
    ('pony_tail', 'Pony Tail', 4, 6)
    >>> len(pack.digest), meldkit.load_pack("pony_tail").digest == pack.digest
    (64, True)
    >>> meldkit.new_game(pack, players=4, seed=1).pack is pack
    True
    """

    spec: RulePackSpec = attrs.field(repr=False, hash=False)
    """The structured, validated, merged pack."""
    name: str
    """``spec.name``, or the file stem when the pack does not set one."""
    source: str
    """The file path as given, or ``"<string>"``."""
    digest: str
    """SHA-256 of the canonical JSON of :attr:`raw`: identifies the pack version in saves."""
    raw: dict[str, Any] = attrs.field(repr=False, hash=False)
    """The merged plain data (after ``extends``), as written; shared by cached loads, so
    treat it as read-only."""
    options: Any = attrs.field(default=None, repr=False, hash=False)
    """The pack's ``options:`` structured by its plugin's ``options_class`` (else None)."""
    deals: tuple[RulePack, ...] = attrs.field(default=(), repr=False, hash=False, eq=False)
    """The pack each deal of its ``schedule`` plays with (deal n: ``deals[n - 1]``), each
    checked like a pack; empty without a schedule."""

    def for_deal(self, n: int) -> RulePack:
        """The pack deal ``n`` (from 1) plays with: its ``schedule`` item merged over this
        pack, or this pack past the schedule's end.

        >>> import meldkit
        >>> pack = meldkit.load_pack("contract_rummy")
        >>> [pack.for_deal(n).spec.deal.hand for n in (4, 5, 8)]
        [10, 12, 10]
        >>> pack.for_deal(2).spec.initial_meld.melds
        ['set', 'run']
        """
        deals = self.deals
        return deals[n - 1] if 0 < n <= len(deals) else self
