"""The ``triominos`` command: one sub-command a module, all registered here."""

from triominos.cli.main import main

__all__ = ["main"]
