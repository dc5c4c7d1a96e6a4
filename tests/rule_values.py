"""For every declared rule option, a preset and another value it may take there.

Derived from the declarations alone, so that a test of a door (the command line, the
API, the web forms) covers every option, the ones added later included: another
preset's value where one suits, else the next choice, the other flag, one more.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from triominos.rules import OPTIONS, PRESETS, RuleOption, RuleOptionError, Rules


def _candidates(option: RuleOption, value: Any) -> Iterator[Any]:
    """Other values of the option, in the record's form (``Rules.to_dict``)."""
    for preset in PRESETS.values():
        yield preset.rules.to_dict()[option.name]
    if option.kind == "choice":
        yield from option.choices
    elif option.kind == "flag":
        yield not value
    elif option.kind == "whole":
        yield option.minimum if value is None else value + 1
        if option.optional:
            yield None


def changed_value(name: str) -> tuple[str, dict[str, Any]]:
    """A preset and changes to it that give option ``name`` another valid value.

    The changes are that option's alone, but for the player counts: their rack sizes
    follow them.
    """
    option = OPTIONS[name]
    for preset in PRESETS.values():
        values = preset.rules.to_dict()
        for other in _candidates(option, values[name]):
            if other == values[name]:
                continue
            changes = {name: other}
            if name in ("min_players", "max_players"):
                low, high = (
                    {**values, **changes}["min_players"],
                    {**values, **changes}["max_players"],
                )
                sizes = dict(preset.rules.rack_sizes)
                changes["rack_sizes"] = {
                    str(players): sizes.get(players, min(sizes.values()))
                    for players in range(low, high + 1)
                }
            try:
                changed = preset.rules.replace(**changes)
            except RuleOptionError:
                continue
            if changed.to_dict()[name] == other:
                return preset.name, changes
    raise AssertionError(f"no other value of {name} is valid on any preset")


def changed_rules(name: str) -> Rules:
    preset, changes = changed_value(name)
    return PRESETS[preset].rules.replace(**changes)
