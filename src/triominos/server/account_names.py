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


def clean_name(name: str) -> str:
    """The display name as kept: NFKC, its spaces trimmed and single. Raises
    :class:`DisplayNameError` for a name too short or long, of characters other than letters,
    digits and ``-_.'`` and spaces, or without a letter."""
    cleaned = " ".join(unicodedata.normalize("NFKC", name).split())
    least, most = NAME_CHARS
    if not least <= len(cleaned) <= most:
        raise DisplayNameError(f"a name has {least} to {most} characters")
    for char in cleaned:
        if char not in _PUNCTUATION and unicodedata.category(char)[0] not in "LMN":
            raise DisplayNameError(f"a name is letters, digits, spaces and -_.' only, not {char!r}")
    if not any(char.isalpha() for char in cleaned):
        raise DisplayNameError("a name has a letter at least")
    return cleaned


def name_key(name: str) -> str:
    """What two names that look alike have in common (the module's steps 1 to 4)."""
    folded = unicodedata.normalize("NFKC", name).translate(_LOOKALIKES).casefold()
    bare = "".join(c for c in unicodedata.normalize("NFD", folded) if not unicodedata.combining(c))
    read = bare.translate(_LOOKALIKES).replace("rn", "m").replace("vv", "w")
    return "".join(char for char in read if char.isalnum())
