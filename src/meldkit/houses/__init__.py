"""Houses — Sid Sackson's group game of 31 December 1965, built as a meldkit plugin.

The plugin brings its own deck (cards with a house, a role and a rank class), its own
group types, actions (pass to partner, steal, move, remove, propose to end and the
partner's out-of-turn answer), end conditions and scoring.  Everything a variant might
change — houses, roles, correspondences, group sizes, group spaces, the scoring table —
is read from the pack's ``options:`` (see ``rulepacks/houses.yaml``).

>>> import meldkit
>>> g = meldkit.new_game("houses", players=4, seed=1)
>>> g.phase, [str(a) for a in g.legal_actions()]
('take', ['draw'])
"""

from __future__ import annotations

from typing import Literal

import attrs

from ..plugins import Plugin


@attrs.frozen(kw_only=True)
class HouseSpec:
    """One house (suit) of the deck."""

    name: str = attrs.field(metadata={"doc": "The house's name (Sun)."})
    code: str = attrs.field(metadata={"doc": "Its one-letter code in card codes (S)."})
    colour: str = attrs.field(default="", metadata={"doc": "Red or black (informative)."})


@attrs.frozen(kw_only=True)
class RoleSpec:
    """One role (rank) of the deck."""

    name: str = attrs.field(metadata={"doc": "The role's name (Knight)."})
    code: str = attrs.field(metadata={"doc": "Its one-letter code in card codes (K)."})
    major: bool = attrs.field(metadata={"doc": "A major (true) or a minor (false)."})


@attrs.frozen(kw_only=True)
class GroupScores:
    """Points for a group removed for scoring (SH-11)."""

    majors: dict[int, int] = attrs.field(
        factory=lambda: {3: 30, 4: 60}, metadata={"doc": "By size, a type 1 or 2 group of majors."}
    )
    minors: dict[int, int] = attrs.field(
        factory=lambda: {3: 20, 4: 40}, metadata={"doc": "By size, a type 1 or 2 group of minors."}
    )
    pair: int = attrs.field(default=20, metadata={"doc": "A corresponding pair, major first."})


@attrs.frozen(kw_only=True)
class HousesOptions:
    """The ``options:`` of a Houses pack."""

    houses: list[HouseSpec] = attrs.field(metadata={"doc": "The houses (SH-1)."})
    roles: list[RoleSpec] = attrs.field(metadata={"doc": "The roles (SH-1)."})
    correspondences: dict[str, str] = attrs.field(
        metadata={"doc": "Major role code → its corresponding minor role code (SH-2)."}
    )
    group_spaces: int = attrs.field(default=4, metadata={
        "doc": "Group spaces per player (SH-4); at most the deck's cards."})
    group_min: int = attrs.field(
        default=3, metadata={"doc": "Fewest cards in a type 1 or 2 group."}
    )
    group_max: int = attrs.field(default=4, metadata={
        "doc": "Most cards in a type 1 or 2 group; at most the deck's cards."})
    scores: GroupScores = attrs.field(factory=GroupScores, metadata={"doc": "SH-11."})
    pass_after_deck: Literal["empty_hand_or_stuck", "always"] = attrs.field(
        default="empty_hand_or_stuck",
        metadata={"doc": "When a turn may be passed once the deck is exhausted (SH-9): with an "
                         "empty hand (or no other play), or always."},
    )
    table_groups_score: bool = attrs.field(
        default=False,
        metadata={"doc": "Complete scoring groups still on the table when the game ends score "
                         "for their team too (SH-12 resolves: they score nothing)."})
    repetitions: int = attrs.field(
        default=3,
        metadata={"doc": "The game ends, as if all four had passed, when the same position "
                         "(the cards in every group space, hand and partner pass; the player "
                         "to move) occurs this many times after the deck is exhausted (SH-10, "
                         "resolved: steals and moves could otherwise undo each other for "
                         "ever); 2 to 100."})
    turn_limit_after_deck: int | None = attrs.field(
        default=None,
        metadata={"doc": "Removed: the game no longer ends after a number of turns; it ends on "
                         "a repeated position (``repetitions``). A pack that sets it is refused."})
    end_proposal_max_cards: int = attrs.field(
        default=8, metadata={"doc": "Most cards on the table and in hands for a proposal to end "
                                    "(SH-10)."})


class HousesPlugin(Plugin):
    """The Houses plugin: options, deck size and the game engine."""

    name = "houses"
    options_class = HousesOptions

    @property
    def engine(self):  # type: ignore[override]
        from ._engine import HousesState

        return HousesState

    def deck_size(self, spec, options, players):
        """One card per house and role.  When ``options:`` did not structure (a problem
        already reported), the houses and roles are counted as written, so that the pack is
        not also told to set the standard deck's ``decks``."""
        if options is not None:
            return len(options.houses) * len(options.roles)
        raw = spec.options if isinstance(spec.options, dict) else {}
        houses, roles = raw.get("houses"), raw.get("roles")
        if isinstance(houses, list) and isinstance(roles, list):
            return len(houses) * len(roles)
        return None

    def validate(self, spec, options):
        """Codes are unique single letters; correspondences pair a major with a minor."""
        problems = []
        for field, items in (("houses", options.houses), ("roles", options.roles)):
            seen: dict[str, int] = {}
            for i, item in enumerate(items):
                if len(item.code) != 1 or not item.code.isalpha():
                    problems.append(((field, i, "code"), f"expected one letter, got {item.code!r}"))
                elif item.code.upper() in seen:
                    problems.append(((field, i, "code"),
                                     f"{item.code!r} is already the code of "
                                     f"{field}[{seen[item.code.upper()]}]"))
                seen.setdefault(item.code.upper(), i)
        majors = {r.code.upper() for r in options.roles if r.major}
        minors = {r.code.upper() for r in options.roles if not r.major}
        majors_of: dict[str, list[str]] = {}
        for major, minor in options.correspondences.items():
            majors_of.setdefault(minor.upper(), []).append(major)
        for major, minor in options.correspondences.items():
            sharing = majors_of[minor.upper()]
            others = [m for m in sharing if m != major]
            if others and major == sharing[0]:  # one to one (SH-2); said once per minor
                problems.append((("correspondences", major),
                                 (f"{minor!r} is also the corresponding minor of "
                                  f"{', '.join(others)}: each minor corresponds to one major")))
            if major.upper() not in majors:
                problems.append((("correspondences", major),
                                 f"{major!r} is not a major role ({', '.join(sorted(majors))})"))
            if minor.upper() not in minors:
                problems.append((("correspondences", major),
                                 f"{minor!r} is not a minor role ({', '.join(sorted(minors))})"))
        if not 1 <= options.group_min <= options.group_max:
            problems.append((("group_min",),
                             f"expected 1 <= group_min <= group_max, got {options.group_min} and "
                             f"{options.group_max}"))
        cards = len(options.houses) * len(options.roles)
        if options.group_max > cards:  # the position keys hold a word per card per depth
            problems.append((("group_max",), f"expected at most {cards} (the deck's cards: "
                             f"{len(options.houses)} houses × {len(options.roles)} roles), got "
                             f"{options.group_max}"))
        if options.group_spaces < 1:
            problems.append((("group_spaces",), f"expected at least 1, got {options.group_spaces}"))
        elif options.group_spaces > cards:
            problems.append((("group_spaces",), f"expected at most {cards} (the deck's cards), "
                             f"got {options.group_spaces}"))
        if options.repetitions < 2:
            problems.append((("repetitions",),
                             f"expected at least 2 (a position occurs once by itself), got "
                             f"{options.repetitions}"))
        elif options.repetitions > MAX_REPETITIONS:
            problems.append((("repetitions",), f"expected at most {MAX_REPETITIONS}, got "
                             f"{options.repetitions}"))
        if options.turn_limit_after_deck is not None:
            problems.append((("turn_limit_after_deck",),
                             "this option was removed: the game ends when a position repeats "
                             "(SH-10) — delete it, or set 'repetitions' (default 3)"))
        return problems


    def rules(self, spec, options):
        """The game in words, clause by clause (SH-1 to SH-12), from the pack's options:
        what ``meldkit rules`` prints for a Houses pack."""
        o = options
        if o is None:
            return []

        def listed(items: list[str]) -> str:  # (the rules sheet's _list sits a layer up)
            return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]

        def roles(major: bool) -> str:
            return listed([f"{r.name} ({r.code})" for r in o.roles if r.major == major])

        by_colour: dict[str, list[str]] = {}
        for h in o.houses:
            by_colour.setdefault(h.colour, []).append(f"{h.name} ({h.code})")
        houses = "; ".join(listed(names) + (f" ({colour})" if colour else "")
                           for colour, names in by_colour.items())
        name = {r.code: r.name for r in o.roles}
        pairs = listed([f"{name.get(a, a)}–{name.get(b, b)}"
                        for a, b in o.correspondences.items()])
        sizes = " or ".join(str(n) for n in range(o.group_min, o.group_max + 1))
        cards = len(o.houses) * len(o.roles)
        deck = cards - spec.players.max * spec.deal.hand
        scores = [f"{n} majors {v}" for n, v in sorted(o.scores.majors.items())] + [
            f"{n} minors {v}" for n, v in sorted(o.scores.minors.items())]
        passing = ("a player may always pass the turn" if o.pass_after_deck == "always" else
                   "pass the turn — allowed to a player with no card in hand, and to one "
                   "holding cards who has no other play")
        left = ("score for their team too" if o.table_groups_score else "score nothing")
        return [
            "## Cards", "",
            f"- **The deck** (SH-1): {cards} cards, a card of each role in each house. "
            f"Houses: {houses}. Majors: {roles(True)}; minors: {roles(False)}. A card's "
            "rank is its role.",
            f"- **Corresponding cards** (SH-2): {pairs}.", "",
            "## Table", "",
            f"- (SH-3) {spec.players.max} players in two partnerships, partners opposite; "
            f"{spec.deal.hand} cards dealt to each, the other {deck} are the deck, face "
            "down. Play goes clockwise from the dealer's left, so a player's right-hand "
            "opponent is the player who moved just before them.",
            f"- (SH-4) Each player has {o.group_spaces} group spaces on the table.", "",
            "## Groups", "",
            f"- (SH-5) A group is {sizes} majors, or {sizes} minors, of one house; or {sizes} "
            "cards of one rank; or a pair: a major and its corresponding minor of one house, "
            "the major placed first and the minor on top (placed the other way it is allowed "
            "and scores nothing).",
            "- (SH-6) A card fits a group when the group with that card on top could still "
            "be, or become, a group; any card may go to an empty space.", "",
            "## A turn while the deck lasts", "",
            "- (SH-7) Take a card: draw from the deck, or pick up the card the partner passed "
            "face down (it must be picked up, in place of the draw). Then do one of: place a "
            "card from the hand on one of one's own groups where it fits, or in an empty "
            "space; pass a card face down to the partner; steal the top card of one of the "
            "right-hand opponent's groups and place it at once where it fits among one's own; "
            "move the top card of one of one's own groups to another group where it fits, or "
            "to an empty space (a lone card moved to an empty space is no move).",
            "- (SH-8) A player who cannot place a card passes one to the partner, or steals "
            "or moves instead.", "",
            "## After the deck is exhausted", "",
            "- (SH-9) A turn is one of: place a card from the hand; steal; move; remove one of "
            f"one's own complete scoring groups and set it aside for scoring; or {passing}.",
            "",
            "## The end", "",
            "- (SH-10) The game ends when one team has no cards left on the table, after "
            "having removed groups for scoring; or when, with "
            f"{o.end_proposal_max_cards} or fewer cards in all on the table and in hands, a "
            "player in their turn proposes to end and the partner agrees (answering at once, "
            "out of turn); or when all four players pass in succession; or when the same "
            f"position (every group space, hand and passed card, and the player to move) "
            f"occurs for the {_nth(o.repetitions)} time after the deck is exhausted, which "
            "ends the game as if all four had passed.", "",
            "## Scoring", "",
            f"- (SH-11) Each removed group scores for its team: {listed(scores)} (a group of "
            f"one house or of one rank alike); a corresponding pair placed major first "
            f"{o.scores.pair}.",
            f"- (SH-12) Groups still on the table and cards in hand at the end {left}. The "
            "higher team total wins.",
        ]


def _nth(n: int) -> str:
    """``3`` → ``third``, ``21`` → ``21st``."""
    words = {2: "second", 3: "third", 4: "fourth", 5: "fifth"}
    if n in words:
        return words[n]
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


MAX_REPETITIONS = 100
"""Most repetitions of a position before the game ends (SH-10; the pack plays 3): far
above any real game, so that a validated pack's game ends."""

plugin = HousesPlugin()
"""The plugin object registered under the ``meldkit.plugins`` entry point ``houses``."""
