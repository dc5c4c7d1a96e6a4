"""``--ray ADDRESS``: the option of every command whose work a Ray cluster can share.

Declared here once; each command passes the address on to
:func:`triominos.cluster.ordered_map` and stops with the message of a
:class:`~triominos.cluster.ClusterError` (a cluster it cannot join): the commands that
already catch their own errors name it among them, the others run in
:func:`cluster_errors`.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import click
from click.decorators import FC

from triominos.cli.main import stop
from triominos.cluster import ClusterError, ray_module


def _ray_present(context: click.Context, _: click.Parameter, address: str | None) -> str | None:
    """The address, once Ray is known to be installed: else one line, and status 2."""
    if address is not None:
        try:
            ray_module()
        except ClusterError as error:
            stop(context, str(error))
    return address


def ray_option(function: FC) -> FC:
    return click.option(
        "--ray",
        default=None,
        metavar="ADDRESS",
        callback=_ray_present,
        help="Spread the work as tasks of the Ray cluster at ADDRESS (HOST:PORT, or auto "
        "for the one started here; the cluster extra, docs/cluster.md). The results "
        "are the local run's, in the same order.",
    )(function)


@contextmanager
def cluster_errors() -> Iterator[None]:
    """Stop the command, status 2, with the message of a cluster it cannot join."""
    try:
        yield
    except ClusterError as error:
        stop(click.get_current_context(), str(error))
