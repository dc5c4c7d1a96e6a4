"""SIGTERM drains: uvicorn's server, with the service handed over before it stops.

uvicorn on SIGTERM stops listening, closes the open connections and waits for the
requests in flight. This server, before that, drains the service
(:meth:`~triominos.server.service.Service.drain`): every table's write in progress
finishes, every lease is given up so that the other nodes claim the tables at once,
and every viewer is closed with 1012 and reconnects, through the load balancer, to the
node that holds its table now. Nobody sees an error, and the process exits 0.
"""

from __future__ import annotations

import socket

import uvicorn
from starlette.applications import Starlette


class DrainingServer(uvicorn.Server):
    def __init__(self, config: uvicorn.Config, app: Starlette) -> None:
        super().__init__(config)
        self.app = app

    async def shutdown(self, sockets: list[socket.socket] | None = None) -> None:
        for listening in self.servers:  # new clients go to the other nodes from now
            listening.close()
        service = getattr(self.app.state, "service", None)
        if service is not None:
            await service.drain()
        await super().shutdown(sockets)
