"""The game service: ``triominos serve``.

The server owns the true state of every table and sends each viewer only what its seat
may see. One module a concern:

- :mod:`~triominos.server.store`: the database (SQLAlchemy 2, Alembic migrations);
- :mod:`~triominos.server.tablestate`: a table's pure state, rebuilt from the stored
  actions, and the one method that decides every change to it;
- :mod:`~triominos.server.room`: a table's viewers and their outboxes;
- :mod:`~triominos.server.table`: a live table: its state, its room, its lock and tasks;
- :mod:`~triominos.server.service`: every change made one way (lock, fenced write, tell);
- :mod:`~triominos.server.views`: the JSON a viewer gets, built from its observation;
- :mod:`~triominos.server.protocol`: the messages clients send, validated;
- :mod:`~triominos.server.bots`: bot moves and hints, computed off the event loop;
- :mod:`~triominos.server.timers`: the turn timer and its default action;
- :mod:`~triominos.server.app`: the Starlette application (HTTP and WebSocket).

PROTOCOL.md in the project is the contract between this package and its clients.
"""
