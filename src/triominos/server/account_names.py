# ruff: noqa: RUF001, RUF002  (the lookalike letters are this module's subject)
"""Display names of accounts: what one may be, and when two are the same name.

Two names are the same when their **key** is: a name's key is what is left of it after

1. NFKC (``ﬁ`` is ``fi``, a full-width ``Ａ`` is ``A``, a superscript ``²`` is ``2``);
2. the mapping of letters and digits that look alike in other scripts or in most fonts
   to one of them (:data:`_LOOKALIKES`: Cyrillic ``а`` and Greek ``α`` are ``a``,
   ``0`` is ``o``, ``1``, ``I`` and ``|`` are ``l``), then casefolding;
3. taking off the accents (NFD, then dropping the combining marks), the lookalike
   mapping once more for what casefolding made, and ``rn`` read as ``m``, ``vv`` as ``w``;
4. keeping only the letters and digits (``ann-b``, ``Ann B`` and ``annb`` are one).

This is a small version of the skeleton of Unicode TR39 ("confusable detection"): the
full table has thousands of rows for scripts nobody here writes a name in; these are the
lookalikes among the Latin, Greek and Cyrillic letters the six languages' players use.
It is deliberately strict (``José`` and ``Jose`` are one name): a name that might be
mistaken for another's is refused, and the player picks another.
"""

from __future__ import annotations

import unicodedata

NAME_CHARS = (2, 24)
"""The fewest and most characters of a display name."""
NEUTRAL_NAME = "Player"
"""The name a deleted account's games show instead of its own (:func:`neutral_name`):
no account may take it, alone or with a number, lest its games pass for a deleted one's
(and a deleted one's for its)."""

_PUNCTUATION = frozenset(" -_.'")

_LOOKALIKES = str.maketrans(
    {
        # Cyrillic
        "а": "a", "А": "a", "в": "b", "В": "b", "е": "e", "Е": "e", "ё": "e", "к": "k",
        "К": "k", "м": "m", "М": "m", "н": "h", "Н": "h", "о": "o", "О": "o", "р": "p",
        "Р": "p", "с": "c", "С": "c", "т": "t", "Т": "t", "у": "y", "У": "y", "х": "x",
        "Х": "x", "і": "l", "І": "l", "ј": "j", "Ј": "j", "ѕ": "s", "Ѕ": "s", "ԁ": "d",
        "һ": "h", "ԛ": "q", "ԝ": "w", "ь": "b", "г": "r",
        # Greek
        "α": "a", "Α": "a", "β": "b", "Β": "b", "ε": "e", "Ε": "e", "η": "n", "Η": "h",
        "ι": "l", "Ι": "l", "κ": "k", "Κ": "k", "μ": "u", "Μ": "m", "ν": "v", "Ν": "n",
        "ο": "o", "Ο": "o", "ρ": "p", "Ρ": "p", "τ": "t", "Τ": "t", "υ": "u", "Υ": "y",
        "χ": "x", "Χ": "x", "Ζ": "z", "ς": "c",
        # Latin and digits that look alike in most fonts
        "0": "o", "1": "l", "I": "l", "i": "l", "|": "l", "ı": "l", "5": "s", "ß": "ss",
    }
)  # fmt: skip


class DisplayNameError(ValueError):
    """A display name that may not be used, said in words."""


def neutral_name(seat: int) -> str:
    """The name seat ``seat`` (from 0) shows once its account is deleted: "Player 1"..."""
    return f"{NEUTRAL_NAME} {seat + 1}"


def clean_name(name: str) -> str:
    """The display name as kept: NFKC, its spaces trimmed and single. Raises
    :class:`DisplayNameError` for a name too short or long, of characters other than letters,
    digits and ``-_.'`` and spaces, without a letter, or that is the neutral name."""
    cleaned = " ".join(unicodedata.normalize("NFKC", name).split())
    least, most = NAME_CHARS
    if not least <= len(cleaned) <= most:
        raise DisplayNameError(f"a name has {least} to {most} characters")
    for char in cleaned:
        if char not in _PUNCTUATION and unicodedata.category(char)[0] not in "LMN":
            raise DisplayNameError(f"a name is letters, digits, spaces and -_.' only, not {char!r}")
    if not any(char.isalpha() for char in cleaned):
        raise DisplayNameError("a name has a letter at least")
    if _is_neutral(cleaned):
        raise DisplayNameError(
            f"a name may not be {NEUTRAL_NAME!r} or {NEUTRAL_NAME!r} and a number (nor look like "
            "them): a deleted account's games show those names"
        )
    return cleaned


def _is_neutral(name: str) -> bool:
    """Whether the name is the neutral name, alone or followed by a number, as two names
    are compared (``PLAYER``, ``Plаyer 2`` with a Cyrillic ``а``, ``Player２``, ``Player-10``;
    and ``Players``, which is one name with ``Player5``)."""
    key, neutral = name_key(name), name_key(NEUTRAL_NAME)
    digits = set(name_key("0123456789"))  # 0, 1 and 5 are o, l and s in a key
    return key.startswith(neutral) and set(key.removeprefix(neutral)) <= digits


def name_key(name: str) -> str:
    """What two names that look alike have in common (the module's steps 1 to 4)."""
    folded = unicodedata.normalize("NFKC", name).translate(_LOOKALIKES).casefold()
    bare = "".join(c for c in unicodedata.normalize("NFD", folded) if not unicodedata.combining(c))
    read = bare.translate(_LOOKALIKES).replace("rn", "m").replace("vv", "w")
    return "".join(char for char in read if char.isalnum())
