"""The one action notation: one tokenizer and one grammar, spoken in a dialect per pack.

Every action of every kernel pack is written the same way::

    action  = verb { card } [ "to" target ]
    card    = rank | rank suit | "JK"
    target  = rank | "wild" | span | meld-id
    span    = card "-" card          (a run named by its ends: 4H-6H)
    meld-id = "m" digit { digit }    (a meld on the table: m3)

A :class:`Dialect` says, verb by verb (a :class:`Verb`), which card form the verb writes
— ranks only where the pack's rules never look at suits, card codes with suits where they
do —, which targets it takes and in which canonical order its cards are kept; it also
carries the aliases that let each kernel read the other's spelling of a run
(:class:`Alias`).  Parsing gives a :class:`Parsed` — the canonical verb, the cards as
written, the target — and the kernel puts the cards in canonical order before it looks
the action up, so **card order never matters**, and the canonical text (``str(action)``)
stays the kernel's own.

This module is a leaf: it knows card codes and errors, nothing of a game.

>>> d = table_dialect()
>>> d.parse("RUN 6h 4h 5h")                   # the canasta spelling of a run: an alias
Parsed(verb='meld', cards=(22, 14, 18), target=-1, order='meld')
>>> d.parse("extend 7H to 4H-6H").target      # the game tells which meld that is
Span(low=14, high=22, word='4H-6H')
>>> rank_dialect(["draw", "meld"]).parse("meld jk 9 2 9")
Parsed(verb='meld', cards=(13, 8, 1, 8), target=-1, order='rank')
>>> rank_dialect(["draw", "meld"], sequences=True).parse("meld 6H 4H 5H").verb
'run'
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

import attrs

from ._cards import JOKER_KIND, RANKS, kind_of_code, rank_index
from ._errors import NotationError

__all__ = ["MAX_CHARS", "MAX_WORDS", "WILD_TARGET", "Alias", "Dialect", "Parsed", "Span",
           "Verb", "rank_dialect", "split_words", "table_dialect"]

MAX_WORDS = 64
"""The most words an action's notation may have (a meld of 60 cards is not a move)."""
MAX_CHARS = 400
"""The longest notation text a rank dialect accepts (a table dialect: 200 characters)."""
WILD_TARGET = 14
"""The target ``wild`` (the side's meld of wild cards) in a rank dialect."""

# card forms: how a verb writes its cards
RANK = "rank"          # a rank only: 9, 10, Q, JK
CARD = "card"          # a card code with its suit, or JK: 9H, 10D, JK
SEQUENCE = "sequence"  # a card code of a suited sequence (no joker)
SUITED = "suited"      # a card code: a discard in a rank dialect where suits matter

# target forms
RANK_OR_WILD = "rank"  # a rank, or wild
SPAN = "span"          # a run by its ends: 4H-6H
MELD_ID = "meld"       # a meld on the table by its id: m3

# canonical orders (the kernel owns them: they depend on the compiled pack)
NO_ORDER = "none"      # at most one card
RANK_ORDER = "rank"    # naturals by rank, then wild cards
SEQUENCE_ORDER = "sequence"  # lowest first, along melds.sequences.ranks
MELD_ORDER = "meld"    # as the meld lies (a set by suit, a run low to high)
KIND_ORDER = "kind"    # by card kind

Error = tuple[str, str]
"""A refusal: ``(code, sentence)``."""


@attrs.frozen
class Span:
    """A run named by its ends (``4H-6H``): the card kinds written at each end."""

    low: int
    high: int
    word: str


@attrs.frozen
class Parsed:
    """What a text says: the canonical ``verb``; the ``cards`` in the order written (ranks
    or card kinds, by the verb's card form); the ``target`` (a rank, :data:`WILD_TARGET`, a
    meld id, the dialect's reading of a span or else a :class:`Span`; -1 for none); and
    the canonical ``order`` the kernel keeps the cards in."""

    verb: str
    cards: tuple[int, ...]
    target: int | Span
    order: str


@attrs.frozen
class Verb:
    """How one verb is written in a dialect.

    ``name`` is the verb of the action (what ``str(action)`` writes); ``cards`` the card
    form; ``at_least``/``at_most`` bound the number of cards, ``few``/``many`` the
    refusals (``count_first``: counted before the cards are read); ``target`` is
    ``never``, ``optional``, ``bare`` (the one word after the verb: ``break m3``) or
    ``required`` — then the words after the verb must end in
    ``to <target>`` and be at least ``target_after`` (3: a card comes first), else
    ``missing`` —, ``targets`` its forms; ``no_to`` refuses a ``to`` anywhere; ``shape``
    is a plugin verb's refusal when it does not have ``exactly`` cards (None: any number)
    or has a target iff ``shape_target`` is false.
    """

    name: str
    cards: str = RANK
    at_least: int = 0
    at_most: int | None = None
    few: Error | None = None
    many: Error | None = None
    count_first: bool = False
    target: str = "never"
    targets: tuple[str, ...] = ()
    target_after: int = 2
    missing: Error | None = None
    no_to: Error | None = None
    shape: Error | None = None
    exactly: int | None = None
    shape_target: bool = False
    order: str = NO_ORDER


@attrs.frozen
class Alias:
    """The verb ``written`` is read in the dialect's form ``form`` when the words after
    it say so: ``when`` is ``always``, ``span`` (the last word names a run by its ends,
    ``4H-6H``) or ``run`` (every word is a card code, and at least two are natural cards,
    of one suit and of distinct ranks)."""

    written: str
    when: str
    form: str


def split_words(text: str, max_chars: int = MAX_CHARS, max_words: int | None = MAX_WORDS,
                too_long: str | None = None, quote: bool = False) -> list[str]:
    """The words of an action's text (the one tokenizer): at most ``max_chars`` characters,
    checked before any work on the text, and ``max_words`` words; at least one.

    >>> split_words("  meld  9 9\\t2 ")
    ['meld', '9', '9', '2']
    """
    sentence = too_long or f"an action has at most {MAX_WORDS} words ({MAX_CHARS} characters)"
    at = text if quote else None
    if len(text) > max_chars:
        raise NotationError("notation/too-long", sentence, at)
    words = text.split()
    if not words:
        raise NotationError("notation/empty", "no action given", at)
    if max_words is not None and len(words) > max_words:
        raise NotationError("notation/too-long", sentence, at)
    return words


def _kind(word: str) -> int | None:
    try:
        return kind_of_code(word)
    except ValueError:
        return None


def _is_meld_id(word: str) -> bool:
    t = word.lower()
    return t.startswith("m") and t[1:].isascii() and t[1:].isdigit() and len(t) < 8


def looks_like_run(words: Iterable[str]) -> bool:
    """True when every word is a card code (or JK) and at least two are natural cards, of
    one suit and distinct ranks: the cards of a run, whichever verb wrote them.

    >>> looks_like_run("4H 6H 5H".split()), looks_like_run("9H 9S 2C".split())
    (True, False)
    """
    naturals = []
    for w in words:
        k = _kind(w)
        if k is None:
            return False
        if k != JOKER_KIND:
            naturals.append(k)
    return (len(naturals) >= 2 and len({k & 3 for k in naturals}) == 1
            and len({k >> 2 for k in naturals}) == len(naturals))


class Dialect:
    """One pack's way of writing actions: its :class:`Verb` forms by key (a verb, or
    ``verb:variant`` for a second form of one), its :class:`Alias` list, the plugin
    verbs (never read as an alias), how an unknown verb and a bad card are refused, and
    its limits.

    ``span`` reads a span for the pack (``(low kind, high kind, word) -> target``, raising
    :class:`NotationError`); without one a span stays a :class:`Span` for the kernel to
    resolve (on a table a span names a meld there: only the game knows which).
    """

    def __init__(self, name: str, forms: dict[str, Verb], aliases: Iterable[Alias] = (), *,
                 hooks: Iterable[str] = (), unknown: Callable[[str], Error],
                 card_error: Callable[[str, str], Error], max_chars: int = MAX_CHARS,
                 max_words: int | None = MAX_WORDS, too_long: str | None = None,
                 quote: bool = False,
                 span: Callable[[int, int, str], int] | None = None,
                 roles: bool = False) -> None:
        self.name = name
        self.roles = roles
        """Whether a card may be named by its role: ``*C`` … the wild card of a suit of a
        rank turned wild at the deal (``cards.turned_wild``: kinds 53 … 56)."""
        self.forms = dict(forms)
        self.hooks = frozenset(hooks)
        self.aliases: dict[str, tuple[Alias, ...]] = {}
        for a in aliases:
            self.aliases[a.written] = (*self.aliases.get(a.written, ()), a)
        self.verbs = tuple(v for v in self.forms if ":" not in v)
        """The verbs written as themselves (an alias's verb may be one)."""
        self._unknown = unknown
        self._card_error = card_error
        self.max_chars, self.max_words, self.too_long = max_chars, max_words, too_long
        self.quote = quote
        """Whether a refusal quotes the text (``NotationError.action``)."""
        self._span = span

    def __repr__(self) -> str:
        return f"Dialect({self.name!r}, verbs={self.verbs!r})"

    def _fail(self, error: Error, text: str) -> NotationError:
        return NotationError(error[0], error[1], text if self.quote else None)

    def form_of(self, verb: str, rest: list[str]) -> Verb | None:
        """The form ``verb`` is read in, given the words after it (aliases applied)."""
        if verb not in self.hooks:
            for a in self.aliases.get(verb, ()):
                if (a.when == "always"
                        or (a.when == "span" and rest and "-" in rest[-1])
                        or (a.when == "run" and looks_like_run(rest))):
                    return self.forms[a.form]
        return self.forms.get(verb)

    def parse(self, text: str) -> Parsed:
        """Read ``text``; raises :class:`NotationError` with a stable code."""
        words = split_words(text, self.max_chars, self.max_words, self.too_long, self.quote)
        verb = words[0].lower()
        rest = words[1:]
        form = self.form_of(verb, rest)
        if form is None:
            raise self._fail(self._unknown(words[0]), text)
        target: int | Span = -1
        has_to = len(rest) >= 2 and rest[-2].lower() == "to"
        if form.target == "bare":  # the target right after the verb: 'break m3'
            if len(rest) != 1:
                raise self._fail(form.missing or ("notation/shape", "name the target"), text)
            return Parsed(form.name, (), self._target(form, rest[0], text), form.order)
        if form.target == "required":
            if not has_to or len(rest) < form.target_after:
                raise self._fail(form.missing or ("notation/shape", "name the target"), text)
            target = self._target(form, rest[-1], text)
            rest = rest[:-2]
        elif form.target == "optional" and has_to:
            target = self._target(form, rest[-1], text)
            rest = rest[:-2]
        elif form.no_to is not None and any(w.lower() == "to" for w in rest):
            raise self._fail(form.no_to, text)
        if form.count_first:
            self._count(form, len(rest), text)
        cards = tuple(self._card(form.cards, w, text) for w in rest)
        if form.shape is not None and (
                (form.exactly is not None and len(cards) != form.exactly)
                or (target != -1) != form.shape_target):
            raise self._fail(form.shape, text)
        if not form.count_first:
            self._count(form, len(cards), text)
        return Parsed(form.name, cards, target, form.order)

    def _count(self, form: Verb, n: int, text: str) -> None:
        if n < form.at_least:
            raise self._fail(form.few or ("notation/needs-cards", "name the cards"), text)
        if form.at_most is not None and n > form.at_most:
            raise self._fail(form.many or ("notation/shape", "too many cards"), text)

    def _card(self, card_form: str, word: str, text: str) -> int:
        if card_form == RANK:
            try:
                return rank_index(word)
            except ValueError as e:
                hint = ""
                if (len(word) >= 2 and word[-1].upper() in "CDHS"
                        and word[:-1].upper() in RANKS):
                    hint = f"; actions name ranks, not suits: write {word[:-1].upper()!r}"
                raise self._fail(("notation/bad-card", f"{e}{hint}"), text) from None
        k = _kind(word)
        if k is None and self.roles and len(word) == 2 and word[0] == "*" and \
                word[1].upper() in "CDHS":
            return JOKER_KIND + 1 + "CDHS".index(word[1].upper())
        if k is None or (card_form == SEQUENCE and k == JOKER_KIND):
            raise self._fail(self._card_error(card_form, word), text)
        return k

    def _target(self, form: Verb, word: str, text: str) -> int | Span:
        forms = form.targets
        if SPAN in forms and (len(forms) == 1 or "-" in word):
            ends = word.split("-")
            if len(ends) != 2:
                raise self._fail(("notation/bad-sequence", f"{word!r} is not a sequence: "
                                  "write its ends, e.g. 4H-6H"), text)
            end_form = CARD if form.cards == RANK else form.cards
            low, high = (self._card(end_form, e, text) for e in ends)
            if JOKER_KIND in (low, high) or low & 3 != high & 3:
                raise self._fail(("notation/bad-sequence",
                                  f"{word!r} is not a sequence of one suit in this game"), text)
            return Span(low, high, word) if self._span is None else self._span(low, high, word)
        if MELD_ID in forms:
            if not _is_meld_id(word):
                raise self._fail(("notation/meld-id",
                                  f"{word!r} is not a meld id (m1, m2 …)"), text)
            return int(word[1:])
        if word.lower() == "wild":
            return WILD_TARGET
        return self._card(RANK, word, text)


# --------------------------------------------------------------------------- rank dialects

def _rank_card_error(card_form: str, word: str) -> Error:
    try:
        kind_of_code(word)
    except ValueError as e:
        what = "a discard" if card_form == SUITED else "a sequence"
        return "notation/bad-card", f"{e}; {what} names cards with suits"
    return "run/wild", "a sequence takes no wild card (jokers are wild)"


def rank_dialect(verbs: Iterable[str], hooks: dict[str, tuple[int | None, bool]] | None = None,
                 *, sequences: bool = False,
                 span: Callable[[int, int, str], int] | None = None) -> Dialect:
    """The dialect of a canasta-kernel pack: ranks only (``meld 9 9 2``, ``add 9 to 9``,
    ``take 9 9``, ``discard 9``).  With ``sequences`` (Samba) its sequences and discards
    name suits (``run 4H 5H 6H``, ``extend 7H to 4H-6H``, ``take to 4H-6H``, ``discard
    9H``), and the table spelling of a run is read as an alias: ``meld 4H 5H 6H`` is
    ``run``, ``add 7H to 4H-6H`` is ``extend``.

    ``verbs`` are the verbs an unknown-verb refusal lists; ``hooks`` the plugin verbs,
    ``verb -> (number of cards or None, takes a target)``, written with ranks and a rank
    (or ``wild``) target; ``span`` reads a sequence's ends into its target.
    """
    hooks = dict(hooks or {})
    known = ", ".join(verbs)
    needs = {v: ("notation/needs-cards", f"'{v}' needs the cards it uses")
             for v in ("meld", "add", "discard")}
    forms: dict[str, Verb] = {
        v: Verb(v, at_most=0, many=("notation/no-cards", f"'{v}' takes no cards"))
        for v in ("draw", "pickup", "withdraw", "end")}
    forms["take"] = Verb("take", order=RANK_ORDER)
    forms["meld"] = Verb("meld", at_least=1, few=needs["meld"], order=RANK_ORDER)
    forms["add"] = Verb(
        "add", at_least=1, few=needs["add"], target="required", targets=(RANK_OR_WILD,),
        target_after=3, order=RANK_ORDER,
        missing=("notation/add-needs-target",
                 "write 'add <cards> to <rank>', e.g. 'add 9 2 to 9' or 'add 2 to wild'"))
    forms["discard"] = Verb(
        "discard", at_least=1, at_most=1, few=needs["discard"],
        many=("notation/one-discard", "discard exactly one card, e.g. 'discard 9'"))
    aliases: list[Alias] = []
    if sequences:
        one = ("notation/one-discard",
               "discard exactly one card, with its suit, e.g. 'discard 9H'")
        forms["discard"] = Verb("discard", SUITED, 1, 1, one, one, count_first=True)
        for v, example in (("run", None), ("extend", "'extend 7H to 4H-6H'")):
            forms[v] = Verb(
                v, SEQUENCE, at_least=1, order=SEQUENCE_ORDER,
                few=("notation/needs-cards",
                     f"'{v}' needs the cards it uses, with suits (e.g. 7H)"),
                target="required" if example else "never", targets=(SPAN,),
                missing=("notation/sequence-needs-target", f"name the sequence, e.g. {example}"),
                no_to=None if example else (
                    "notation/shape",
                    "write 'run <cards>', e.g. 'run 4H 5H 6H': a new sequence goes onto nothing"))
        forms["take:sequence"] = Verb(
            "take", SEQUENCE, at_most=0, count_first=True, target="required", targets=(SPAN,),
            many=("notation/shape", "write 'take to <sequence>', e.g. 'take to 4H-6H': the "
                  "top card goes alone onto it"),
            missing=("notation/sequence-needs-target", "name the sequence, e.g. 'take to 4H-6H'"))
        aliases = [Alias("take", "span", "take:sequence"), Alias("add", "span", "extend"),
                   Alias("meld", "run", "run")]
    for verb, (n, takes_target) in hooks.items():
        shape = " ".join([verb] + ["<rank>"] * (n if n is not None else 1)
                         + (["to", "<rank>"] if takes_target else []))
        forms[verb] = Verb(verb, target="optional", targets=(RANK_OR_WILD,), order=RANK_ORDER,
                           shape=("notation/shape", f"write '{shape}'"), exactly=n,
                           shape_target=takes_target)
    return Dialect(
        "rank, suited sequences" if sequences else "rank", forms, aliases, hooks=hooks,
        unknown=lambda w: ("notation/unknown-verb",
                           f"unknown action {w!r} (expected one of {known})"),
        card_error=_rank_card_error, span=span)


# --------------------------------------------------------------------------- table dialects

TABLE_MAX_CHARS = 200
"""The longest notation text a table dialect accepts."""


def _table_card_error(card_form: str, word: str) -> Error:
    return ("notation/bad-card", f"{word!r} is not a card code "
            "(a rank and a suit, such as 7H, 10D, QS, or JK)")


def table_dialect(hooks: dict[str, tuple[int | None, bool]] | None = None) -> Dialect:
    """The dialect of a table-meld pack: cards with suits (``meld 4H 5H 6H``, ``discard
    10C``, ``take 5H``), melds by id (``add 7H to m3``, and ``trade 6H to m3``: the 6H wins
    back the wild card standing for it in m3, where the pack allows); the canasta spelling
    of a run is read as an alias: ``run 4H 5H 6H`` is ``meld``, and ``extend 7H to 4H-6H``
    (or ``add 7H to 4H-6H``) is ``add 7H to m<id>`` of the one run on the table with those
    ends.

    ``hooks``: the plugin verbs, ``verb -> (number of cards or None, takes a meld)``,
    written with card codes and ``to m<id>``.
    """
    hooks = dict(hooks or {})
    one = {v: ("notation/one-card", f"{v} names exactly one card")
           for v in ("discard", "take", "add")}
    one["extend"] = ("notation/one-card", "extend names exactly one card on a table: "
                     "lay off one card at a time")
    forms: dict[str, Verb] = {
        v: Verb(v, CARD, at_most=0, count_first=True,
                many=("notation/no-cards", f"'{v}' takes no cards"))
        for v in ("draw", "pass", "done", "knock", "buy", "withdraw", "drop", "restore")}
    forms["break"] = Verb("break", CARD, target="bare", targets=(MELD_ID, SPAN),
                          missing=("notation/break", "write a meld broken up as 'break m3'"))
    forms["take"] = Verb("take", CARD, at_most=1, many=one["take"])
    forms["discard"] = Verb("discard", CARD, 1, 1, one["discard"], one["discard"])
    forms["meld"] = Verb("meld", CARD, at_least=1, order=MELD_ORDER,
                         few=("notation/meld", "name the cards of the meld"))
    for v in ("add", "extend"):
        forms["add" if v == "add" else "add:extend"] = Verb(
            "add", CARD, 1, 1, one[v], one[v], target="required", targets=(MELD_ID, SPAN),
            target_after=3,
            missing=("notation/add", "write a lay-off as 'add 7H to m3'"
                     + (" or 'extend 7H to 4H-6H'" if v != "add" else "")))
    forms["trade"] = Verb(
        "trade", CARD, 1, 1, ("notation/one-card", "trade names exactly one card: the "
                              "natural card that wins back a wild card"),
        ("notation/one-card", "trade names exactly one card: the natural card that wins "
         "back a wild card"), target="required", targets=(MELD_ID,), target_after=3,
        missing=("notation/trade", "write a wild card won back as 'trade 6H to m3' (the "
                 "natural card, the meld holding the wild card)"))
    aliases = [Alias("run", "always", "meld"), Alias("extend", "always", "add:extend")]
    for verb, (n, takes_target) in hooks.items():
        shape = " ".join([verb] + ["<card>"] * (n if n is not None else 1)
                         + (["to", "<meld>"] if takes_target else []))
        forms[verb] = Verb(verb, CARD, target="optional", targets=(MELD_ID,),
                           order=KIND_ORDER, shape=("notation/shape", f"write '{shape}'"),
                           exactly=n, shape_target=takes_target)
    added = f"; this game adds {', '.join(hooks)}" if hooks else ""
    return Dialect(
        "table", forms, aliases, hooks=hooks,
        unknown=lambda w: ("notation/unknown", f"unknown action {w!r} (expected draw, take, "
                           f"pass, discard, meld, add, trade, knock, done, buy, withdraw, "
                           f"drop, break or restore{added})"),
        card_error=_table_card_error, max_chars=TABLE_MAX_CHARS, max_words=None,
        too_long="action text is too long (over 200 characters)", quote=True, roles=True)
