"""A bot with settings, as the measuring commands spell it: ``sim(fishing=4,candidates=10)``.

Every setting of a bot that can be tuned is a keyword of its class, and that signature is
the one declaration: the names a spec may set, their types and their defaults are read
from it, so a new setting of ``sim`` can be measured in ``triominos arena``,
``triominos ladder`` and ``benchmarks/duel.py`` the moment it exists. Only the bots of
those commands take settings; a table in the web app seats a level by its name
(:func:`~triominos.bots.base.make_bot`), so no client can ask for a bot that thinks ten
times longer.

An agent from outside the project is seated as ``module:factory`` (``mylab.agents:make``):
the measuring commands import ``module`` in each process, call ``factory(seed=SEED)``
(an int, so that a run can be repeated) and ask the object it returns for
``act(observation)``, an :class:`~triominos.game.Observation` in and one of
``observation.legal_actions()``'s actions out, exactly as a project bot is asked. A
researcher's agent so meets ``sim`` on duplicate deals, with intervals, in ``triominos
arena``, ``--sprt`` and ``triominos ladder``.
"""

from __future__ import annotations

import importlib
import inspect
import re
import types
import typing
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from triominos.bots.base import BOT_NAMES, Bot, Budget, make_bot
from triominos.bots.sim import SimBot
from triominos.game import Action, Observation


class BotSpecError(ValueError):
    """A bot spec that names no bot, no setting of it, or a value the setting refuses."""


class AgentError(ValueError):
    """An outside agent (``module:factory``) that answered with something not legal."""


Setting = tuple[str, object]

_FIXED = ("seed", "budget", "name")
"""Keywords of a bot's class that a spec does not set: the arena gives the seed and the
budget, and the name is the spec itself."""

SETTINGS_EXAMPLE = "sim(fishing=4,candidates=10)"
"""A spec with settings, as help texts show one."""

_SPEC = re.compile(r"(?P<name>[\w-]+)\s*(?:\((?P<settings>[^()]*)\))?")
_OUTSIDE = re.compile(r"[A-Za-z_]\w*(\.[A-Za-z_]\w*)*:[A-Za-z_]\w*")


def outside_factory(spec: str) -> Callable[..., object]:
    """The factory an outside spec ``module:factory`` names, imported; BotSpecError if
    the module cannot be imported or has no such callable."""
    module_name, _, factory_name = spec.partition(":")
    try:
        module = importlib.import_module(module_name)
    except Exception as error:  # whatever importing someone's module raises
        raise BotSpecError(f"{spec}: cannot import {module_name}: {error}") from None
    factory = getattr(module, factory_name, None)
    if not callable(factory):
        raise BotSpecError(f"{spec}: {module_name} has no callable {factory_name}")
    return factory  # type: ignore[no-any-return]  # any callable; its agent is checked


class OutsideAgent:
    """An outside agent seated as a bot: what it answers is checked against the legal
    actions, so a mistaken agent stops the run with its name and the action it gave
    instead of an error deep in the engine."""

    def __init__(self, name: str, agent: object) -> None:
        if not callable(getattr(agent, "act", None)):
            raise BotSpecError(f"{name}: the factory's agent has no act(observation) method")
        self.name = name
        self._agent = agent

    def act(self, observation: Observation) -> Action:
        action = self._agent.act(observation)  # type: ignore[attr-defined]  # checked
        legal = [choice.action for choice in observation.legal_actions()]
        if action not in legal:
            raise AgentError(
                f"{self.name} answered {action!r}, which is not one of the "
                f"{len(legal)} legal actions of seat {observation.seat}"
            )
        return action  # type: ignore[no-any-return]  # one of the legal actions


TUNABLE: dict[str, Callable[..., Bot]] = {"sim": SimBot}
"""The bots whose settings a spec may change, by name."""


def settings_of(name: str) -> dict[str, tuple[Callable[[str], object], object]]:
    """Each setting of the bot ``name``: how its text is read, and its default.

    A keyword whose type has no text form (``weights``) is left out.
    """
    kind = TUNABLE.get(name)
    if kind is None:
        return {}
    found = {}
    for parameter in inspect.signature(kind, eval_str=True).parameters.values():
        if parameter.name in _FIXED or parameter.kind is not parameter.KEYWORD_ONLY:
            continue
        reader = _reader(parameter.annotation)
        if reader is not None:
            found[parameter.name] = (reader, parameter.default)
    return found


def _reader(hint: object) -> Callable[[str], object] | None:
    """How a value of type ``hint`` is read from its text, or None if it has no text form."""
    if hint is bool:
        return _boolean
    if hint is int:
        return _integer
    if typing.get_origin(hint) is typing.Literal:
        return _choice(typing.get_args(hint))
    arguments = typing.get_args(hint)
    if isinstance(hint, types.UnionType) and len(arguments) == 2 and type(None) in arguments:
        inner = _reader(next(argument for argument in arguments if argument is not type(None)))
        return None if inner is None else _optional(inner)
    return None


def _boolean(text: str) -> bool:
    if text not in ("true", "false"):
        raise ValueError(f"true or false, not {text!r}")
    return text == "true"


def _integer(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise ValueError(f"a whole number, not {text!r}") from None


def _choice(allowed: tuple[object, ...]) -> Callable[[str], object]:
    def read(text: str) -> object:
        if text not in allowed:
            raise ValueError(f"one of {', '.join(map(str, allowed))}, not {text!r}")
        return text

    return read


def _optional(inner: Callable[[str], object]) -> Callable[[str], object]:
    def read(text: str) -> object:
        if text == "none":
            return None
        try:
            return inner(text)
        except ValueError as error:
            raise ValueError(f"none or {error}") from None

    return read


def setting_text(value: object) -> str:
    """A setting's value as a spec writes it (the inverse of its reader)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return "none" if value is None else str(value)


@dataclass(frozen=True, slots=True)
class BotSpec:
    """A bot's name and the settings it changes, in the order given.

    ``BotSpec.from_text("sim(fishing=4)").to_text() == "sim(fishing=4)"``; a spec with no
    settings is the plain name.
    """

    name: str
    settings: tuple[Setting, ...] = ()

    @classmethod
    def from_text(cls, text: str, known: tuple[str, ...] = BOT_NAMES) -> BotSpec:
        """Reads ``name``, ``name(setting=value,...)`` or an outside agent's
        ``module:factory``; ``known``: the project's names allowed."""
        if _OUTSIDE.fullmatch(text.strip()):
            outside_factory(text.strip())  # a module that does not import fails here
            return cls(text.strip())
        match = _SPEC.fullmatch(text.strip())
        if match is None:
            raise BotSpecError(f"a bot is written like sim or sim(fishing=4), not {text!r}")
        name = match["name"]
        if name not in known:
            raise BotSpecError(f"unknown bot {name!r}; bots are {', '.join(known)}")
        if match["settings"] is None:
            return cls(name)
        declared = settings_of(name)
        if not declared:
            raise BotSpecError(f"{name} has no settings; only {', '.join(TUNABLE)} has")
        settings: dict[str, object] = {}
        for item in filter(None, (part.strip() for part in match["settings"].split(","))):
            key, equals, value = (part.strip() for part in item.partition("="))
            if key not in declared:
                listed = ", ".join(
                    f"{known_key} ({setting_text(default)})"
                    for known_key, (_, default) in declared.items()
                )
                raise BotSpecError(
                    f"{name} has no setting {key!r}; its settings (and defaults) are {listed}"
                )
            if not equals:
                raise BotSpecError(f"{name}({key}=...): give the setting a value")
            if key in settings:
                raise BotSpecError(f"{name}({key}=...): the setting is given twice")
            try:
                settings[key] = declared[key][0](value.lower())
            except ValueError as error:
                raise BotSpecError(f"{name}({key}=...): must be {error}") from None
        spec = cls(name, tuple(settings.items()))
        spec.make(0, Budget(simulations=1))  # a value out of range fails here, not later
        return spec

    @property
    def outside(self) -> bool:
        """Whether this is an outside agent (``module:factory``)."""
        return ":" in self.name

    def to_text(self) -> str:
        if not self.settings:
            return self.name
        written = ",".join(f"{key}={setting_text(value)}" for key, value in self.settings)
        return f"{self.name}({written})"

    def __str__(self) -> str:
        return self.to_text()

    def make(self, seed: int | None, budget: Budget) -> Bot:
        """The bot, seeded and with the budget; named by its spec when it has settings.
        An outside agent gets the seed alone: its budget is its own affair."""
        if self.outside:
            return OutsideAgent(self.name, outside_factory(self.name)(seed=seed))
        if not self.settings:
            return make_bot(self.name, seed, budget)
        kind = TUNABLE[self.name]
        try:
            return kind(seed, budget, name=self.to_text(), **dict(self.settings))
        except ValueError as error:
            raise BotSpecError(f"{self.to_text()}: {error}") from None


def split_bots(text: str) -> Iterator[str]:
    """The bots of a comma-separated list, where a bot's own settings hold commas too:
    ``"sim(fishing=4,candidates=10),expert"`` is two bots."""
    depth, start = 0, 0
    for index, character in enumerate(text):
        depth += {"(": 1, ")": -1}.get(character, 0)
        if character == "," and depth == 0:
            yield text[start:index].strip()
            start = index + 1
    yield text[start:].strip()
