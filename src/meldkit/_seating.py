"""Seats and teams for a table, from a pack's ``players:`` section — a leaf.

:meth:`meldkit.GameState._setup` seats every engine's players with :func:`seating`;
:meth:`meldkit.Rules.seating` is the same function for a compiled pack.
"""

from __future__ import annotations

from ._errors import SetupError, quoted

__all__ = ["seating"]


def seating(players_spec, pack_name: str, n_players: int,
            partners: bool | None) -> tuple[list[int], int]:
    """``(team_of_seat, n_teams)`` for a table of ``n_players`` under ``players_spec`` (a
    pack's ``spec.players``); raises :class:`~meldkit.SetupError` naming ``pack_name`` when
    the pack does not allow that table."""
    pl = players_spec
    if not isinstance(n_players, int) or not pl.min <= n_players <= pl.max:
        counts = f"{pl.min}" if pl.min == pl.max else f"{pl.min} to {pl.max}"
        raise SetupError(f"{pack_name} is played by {counts} players, not {quoted(n_players)}")
    if pl.counts and n_players not in pl.counts:
        counts = ", ".join(map(str, pl.counts))
        raise SetupError(f"{pack_name} is played by {counts} players, not {n_players}")
    mode = pl.partners
    if partners is None:
        partners = pl.partners_by_players.get(n_players, mode == "always")
    if partners and mode == "never":
        raise SetupError(f"{pack_name} has no partnerships (players.partners: never)")
    if not partners and mode == "always":
        raise SetupError(f"{pack_name} is always played in partnerships")
    if not partners:
        return list(range(n_players)), n_players
    if n_players < pl.min_for_partners:
        raise SetupError(
            f"partnerships need at least {pl.min_for_partners} players, not {n_players}"
        )
    if pl.teams is not None:
        n_teams = pl.teams
    elif pl.team_size is None:
        raise SetupError(f"{pack_name} plays in partnerships but sets neither players.teams "
                         f"nor players.team_size")
    else:
        if n_players % pl.team_size:
            raise SetupError(
                f"{n_players} players cannot form teams of {pl.team_size} "
                f"({n_players} is not a multiple of {pl.team_size})"
            )
        n_teams = n_players // pl.team_size
    if n_teams < 2 or n_players < n_teams:
        raise SetupError(f"{n_players} players cannot form {n_teams} teams")
    return [s % n_teams for s in range(n_players)], n_teams
