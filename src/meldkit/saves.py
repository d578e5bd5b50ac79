"""Reading a save as untrusted input: every field checked, every error a located
:class:`~meldkit.SaveError`; and signed saves (:func:`sign`, :func:`verify`) for a server
that hands saves to clients.

A save may come back from a client, so :meth:`meldkit.GameState.from_json` treats it as an
attacker's text: JSON only (no ``NaN``, bounded size and nesting), every field of the
expected type and in range, every card of the deck in exactly one zone, and the whole
state consistent with the pack.  An engine's ``_from_state_dict`` reads its fields with
these helpers, which name the field that is wrong (``hands[2][5]``), so the loader reads
like a schema:

>>> from meldkit import saves
>>> saves.integer(99, "current", 0, 3)
Traceback (most recent call last):
...
meldkit._errors.SaveError: damaged meldkit save: current: expected 0 to 3, got 99
>>> ledger = saves.CardLedger(5)
>>> ledger.cards([0, 1], "stock"), ledger.cards([2, 3, 4], "hands[0]")
([0, 1], [2, 3, 4])
>>> ledger.complete()
>>> saves.CardLedger(3).cards([0, 0], "pile")
Traceback (most recent call last):
...
meldkit._errors.SaveError: damaged meldkit save: pile[1]: card 0 is also in pile[0]: a card is in one place only
"""

from __future__ import annotations

import hashlib
import hmac
import json
import math
import sys
from collections.abc import Callable, Iterable
from typing import Any

from ._errors import SaveError, quoted

MAX_SAVE_CHARS = 64_000_000
"""The longest save text accepted (a long Pony Tail game saves in well under 1 MB)."""
MAX_DEPTH = 32
"""The deepest nesting of lists and objects accepted in free-form data of a save (plugin
data, options); every other field has a fixed shape, and JSON nested deeper than the
parser's limit is refused while parsing."""
MAX_SCORE = 10**15
"""The largest score magnitude accepted."""
MAX_HISTORY_ITEM = 200
"""The longest action text accepted in a save's history."""
MAX_SEED = 2**256
"""The largest seed magnitude a save records (``new_game`` refuses a larger one)."""
MAX_LATER_DEAL = 10**6
"""The latest deal a game may stack the deck of (:meth:`meldkit.GameState.stack_deal`)."""
MAX_DROP_PENALTY = 10**6
"""The largest drop penalty (``turn.drop``) a save records; the loader refuses a larger one."""
MAX_PACK_NAME = 200
"""The longest pack name a save records (the loader refuses a pack with a longer one)."""


def bad(path: str, message: str) -> SaveError:
    """The error for a bad field: ``damaged meldkit save: <path>: <message>``."""
    return SaveError(f"damaged meldkit save: {path}: {message}")


def _refuse_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a number a save may hold")


def _save_text(text: Any, expected: str, slack: int = 0) -> str:
    """``text`` as a str (UTF-8 bytes decoded) of at most :data:`MAX_SAVE_CHARS` (plus
    ``slack``) characters, else a :class:`SaveError` that says it is not a save."""
    if isinstance(text, (bytes, bytearray)):
        try:
            text = bytes(text).decode("utf-8")
        except UnicodeDecodeError as e:
            raise SaveError(f"not a meldkit save: not UTF-8 text ({e.reason})") from None
    if not isinstance(text, str):
        raise SaveError(f"not a meldkit save: expected {expected}, got {type(text).__name__}")
    if len(text) > MAX_SAVE_CHARS + slack:
        raise SaveError(f"not a meldkit save: {len(text):,} characters "
                        f"(at most {MAX_SAVE_CHARS:,})")
    return text


def loads(text: Any) -> Any:
    """Parse save text as strict JSON: no ``NaN``/``Infinity``, no nesting beyond the
    parser's limit, at most :data:`MAX_SAVE_CHARS` characters."""
    text = _save_text(text, "JSON text")
    try:
        return json.loads(text, parse_constant=_refuse_constant)
    except RecursionError:  # the C parser counts its nesting against the recursion limit
        raise SaveError("not a meldkit save: JSON nested too deeply") from None
    except ValueError as e:
        why = str(e)
        if "integer string conversion" in why:  # Python's own limit, not advice for a reader
            why = f"a number of more than {sys.get_int_max_str_digits():,} digits"
        raise SaveError(f"not a meldkit save: {why}") from None


_MOST_INT = 10**4000
"""Whole numbers in plugin data have at most 4,000 digits: JSON text of one much longer is
refused by Python itself (its 4,300-digit limit on reading and writing a number)."""


def json_data(value: Any, path: str, max_depth: int = MAX_DEPTH) -> Any:
    """``value`` if it is plain JSON data (dicts with str keys, lists, str, int, float,
    bool, None) nested at most ``max_depth`` deep; checked without recursion."""
    stack = [(value, path, 0)]
    while stack:
        v, where, depth = stack.pop()
        if depth > max_depth:
            raise bad(where, f"nested more than {max_depth} deep")
        if isinstance(v, dict):
            for k, item in v.items():
                if not isinstance(k, str):
                    raise bad(where, f"key {k!r} is not a string")
                stack.append((item, f"{where}.{k}", depth + 1))
        elif isinstance(v, list):
            stack.extend((item, f"{where}[{i}]", depth + 1) for i, item in enumerate(v))
        elif isinstance(v, float):
            if not math.isfinite(v):
                raise bad(where, f"{v!r} is not a number a save may hold")
        elif type(v) is int and abs(v) >= _MOST_INT:
            raise bad(where, f"{quoted(v)}: a save holds whole numbers of at most 4,000 "
                             "digits")
        elif v is not None and not isinstance(v, (str, int, bool)):
            raise bad(where, f"{type(v).__name__} is not JSON data")
    return value


def get(d: dict, key: str, path: str = "") -> Any:
    """``d[key]``, or a :class:`SaveError` naming the missing field."""
    try:
        return d[key]
    except KeyError:
        raise bad(f"{path}{key}", "missing") from None


def what(v: Any) -> str:
    """A short description of a bad value for a message (at most 60 characters of it).

    >>> what("x" * 100)[-10:], what(10**4000)
    ('xxx… (str)', 'a number of about 4,000 digits (int)')
    """
    return f"{quoted(v)} ({type(v).__name__})"


def _bound(n: int) -> str:
    """A range's end as a message shows it: ``-2**256`` rather than its 78 digits."""
    m = abs(n)
    if m > 2**64 and m & (m - 1) == 0:
        return f"{'-' if n < 0 else ''}2**{m.bit_length() - 1}"
    return str(n)


def integer(v: Any, path: str, lo: int | None = None, hi: int | None = None) -> int:
    """An int (not a bool) with ``lo <= v <= hi``; a refusal repeats at most 60 characters
    of ``v``.

    >>> integer(10**80, "seed", -2**256, 2**256)
    Traceback (most recent call last):
    meldkit._errors.SaveError: damaged meldkit save: seed: expected -2**256 to 2**256, got 100000000000000000...0000000000000000000
    """
    if not isinstance(v, int) or isinstance(v, bool):
        raise bad(path, f"expected a whole number, got {what(v)}")
    if (lo is not None and v < lo) or (hi is not None and v > hi):
        if lo is not None and hi is not None:
            raise bad(path, f"expected {_bound(lo)} to {_bound(hi)}, got {quoted(v)}")
        raise bad(path, "expected "
                        f"{'at least ' + _bound(lo) if lo is not None else 'at most ' + _bound(hi)}"
                        f", got {quoted(v)}")
    return v


def boolean(v: Any, path: str) -> bool:
    """A JSON ``true``/``false``."""
    if not isinstance(v, bool):
        raise bad(path, f"expected true or false, got {what(v)}")
    return v


def string(v: Any, path: str, max_len: int = 1000) -> str:
    """A str of at most ``max_len`` characters."""
    if not isinstance(v, str):
        raise bad(path, f"expected a string, got {what(v)}")
    if len(v) > max_len:
        raise bad(path, f"a string of {len(v)} characters (at most {max_len})")
    return v


def choice(v: Any, path: str, allowed: Iterable[str]) -> str:
    """One of the ``allowed`` strings."""
    allowed = tuple(allowed)
    if not isinstance(v, str) or v not in allowed:
        raise bad(path, f"expected one of {', '.join(allowed)}, got {what(v)}")
    return v


def array(v: Any, path: str, length: int | None = None, max_len: int | None = None) -> list:
    """A list, of exactly ``length`` items or at most ``max_len``."""
    if not isinstance(v, list):
        raise bad(path, f"expected a list, got {what(v)}")
    if length is not None and len(v) != length:
        raise bad(path, f"expected {length} items, got {len(v)}")
    if max_len is not None and len(v) > max_len:
        raise bad(path, f"expected at most {max_len} items, got {len(v)}")
    return v


def obj(v: Any, path: str) -> dict:
    """A JSON object."""
    if not isinstance(v, dict):
        raise bad(path, f"expected an object, got {what(v)}")
    return v


def array_of(v: Any, path: str, item: Callable[[Any, str], Any], length: int | None = None,
             max_len: int | None = None) -> list:
    """A list whose items each pass ``item(value, path)``."""
    return [item(x, f"{path}[{i}]") for i, x in enumerate(array(v, path, length, max_len))]


def strings(v: Any, path: str, max_len: int, max_items: int) -> list[str]:
    """A list of strings of at most ``max_len`` characters each."""
    items = array(v, path, max_len=max_items)
    if all(type(x) is str and len(x) <= max_len for x in items):
        return list(items)
    return [string(x, f"{path}[{i}]", max_len) for i, x in enumerate(items)]


_INT = {int}


class CardLedger:
    """Checks card conservation while a save is read: every card id of the deck in
    exactly one zone (``exactly=True``) or at most one (a hand record, which leaves out the
    stock and the pile)."""

    def __init__(self, n_cards: int):
        self.n_cards = n_cards
        self.where: dict[int, str] = {}

    def card(self, v: Any, path: str) -> int:
        """Record one card id at ``path``; refuses an id out of range or seen before."""
        if not isinstance(v, int) or isinstance(v, bool):
            raise bad(path, f"expected a card id (a whole number), got {what(v)}")
        if not 0 <= v < self.n_cards:
            raise bad(path, f"card id {v} is not in this deck (ids 0 to {self.n_cards - 1})")
        seen = self.where.get(v)
        if seen is not None:
            raise bad(path, f"card {v} is also in {seen}: a card is in one place only")
        self.where[v] = path
        return v

    def cards(self, v: Any, path: str, max_len: int | None = None) -> list[int]:
        """A list of card ids, each recorded (a zone's cards are checked at C speed; a bad
        one is then found card by card, for its message)."""
        ids = array(v, path, max_len=max_len or self.n_cards)
        if not ids:
            return []
        where = self.where
        unique = set(ids) if set(map(type, ids)) == _INT else None
        if (unique is not None and len(unique) == len(ids) and min(ids) >= 0
                and max(ids) < self.n_cards and where.keys().isdisjoint(unique)):
            where.update(dict.fromkeys(ids, path))
            return list(ids)
        return [self.card(c, f"{path}[{i}]") for i, c in enumerate(ids)]

    def complete(self, path: str = "zones") -> None:
        """Refuse unless every card of the deck was recorded."""
        if len(self.where) != self.n_cards:
            missing = [c for c in range(self.n_cards) if c not in self.where]
            shown = ", ".join(map(str, missing[:5])) + (" …" if len(missing) > 5 else "")
            raise bad(path, f"{len(missing)} card(s) of the deck are in no zone (ids {shown})")


# --------------------------------------------------------------------------- signed saves
SIGNED_HEADER = "meldkit-signed-save/1 hmac-sha256 "
"""The first line of a signed save begins with this, followed by the MAC in hex."""
MIN_KEY_BYTES = 16
"""The shortest signing key accepted (use 32 random bytes: ``secrets.token_bytes(32)``)."""


def _key_bytes(key: bytes | str) -> bytes:
    """The bytes of a signing key, by the rules of :func:`sign` and :func:`verify`: a key
    that is neither bytes-like nor text is a ``TypeError`` (a bug in the caller); an
    empty or short key, or text that is not UTF-8, is a :class:`~meldkit.SaveError` — so
    a server that catches ``SaveError`` around ``verify`` never sees a raw ``ValueError``."""
    if isinstance(key, str):
        try:
            k = key.encode("utf-8")
        except UnicodeEncodeError:
            raise SaveError("a signing key given as text must be UTF-8 (it holds a lone "
                            "surrogate); use bytes: secrets.token_bytes(32)") from None
    elif isinstance(key, (bytes, bytearray, memoryview)):
        k = bytes(key)
    else:
        raise TypeError(f"a signing key is bytes (or str), not {type(key).__name__}")
    if len(k) < MIN_KEY_BYTES:
        raise SaveError(f"a signing key is at least {MIN_KEY_BYTES} bytes, this one has "
                        f"{len(k)}; use secrets.token_bytes(32)")
    return k


def _mac(key: bytes, text: str) -> str:
    return hmac.new(key, text.encode("utf-8"), hashlib.sha256).hexdigest()


def sign(save_text: str, key: bytes | str) -> str:
    """A save a server may hand to a client: ``save_text`` (from
    :meth:`~meldkit.GameState.to_json`) under a first line carrying an HMAC-SHA256 of it
    with the server's ``key``.  :func:`verify` gives the save back only if not one
    character changed.  Signing proves where a save came from, not what it hides: a save
    holds every hidden card, so never hand one to a player in a game still being played.

    ``key`` is bytes (``secrets.token_bytes(32)``) or text (UTF-8 encoded), at least
    :data:`MIN_KEY_BYTES` bytes long; an empty or shorter key, or text that is not UTF-8,
    is a :class:`~meldkit.SaveError`, and a key of any other type a ``TypeError``.

    >>> import meldkit
    >>> from meldkit import saves
    >>> key = b"a server key of at least 16 bytes"
    >>> signed = saves.sign(meldkit.new_game("pony_tail", players=4, seed=1).to_json(), key)
    >>> signed.startswith("meldkit-signed-save/1 hmac-sha256 ")
    True
    >>> meldkit.GameState.from_json(saves.verify(signed, key)).hand_number
    1
    """
    if not isinstance(save_text, str):
        raise TypeError(f"sign a save's text (str), not {type(save_text).__name__}")
    return f"{SIGNED_HEADER}{_mac(_key_bytes(key), save_text)}\n{save_text}"


def verify(signed_text: str | bytes, key: bytes | str) -> str:
    """The save text inside ``signed_text`` if its signature is the one ``key`` makes,
    else :class:`~meldkit.SaveError` (``signature`` in the message).  Pass the result to
    :meth:`~meldkit.GameState.from_json`, which still checks every field.  ``key``
    follows the rules of :func:`sign` (a bad key is a ``SaveError``, a key that is not
    bytes or text a ``TypeError``), so a server catching ``SaveError`` sees every bad key
    or text as a refusal, never a raw ``ValueError``.

    >>> from meldkit import saves
    >>> key = b"a server key of at least 16 bytes"
    >>> signed = saves.sign('{"format": 1}', key)
    >>> saves.verify(signed, key)
    '{"format": 1}'
    >>> saves.verify(signed.replace("1}", "2}"), key)
    Traceback (most recent call last):
    ...
    meldkit._errors.SaveError: not a meldkit save: its signature does not match (changed, or signed with another key)
    """
    k = _key_bytes(key)
    signed_text = _save_text(signed_text, "signed text", slack=len(SIGNED_HEADER) + 65)
    head, newline, body = signed_text.partition("\n")
    if not newline or not head.startswith(SIGNED_HEADER):
        raise SaveError("not a meldkit save: no signature line (expected a save from "
                        "meldkit.saves.sign)")
    given = head[len(SIGNED_HEADER):]
    if not hmac.compare_digest(given.encode("ascii", "replace"), _mac(k, body).encode()):
        raise SaveError("not a meldkit save: its signature does not match (changed, or "
                        "signed with another key)")
    return body
