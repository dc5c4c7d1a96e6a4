"""Alembic's environment: migrations run on the connection that Store.upgrade hands in.

There is no alembic.ini: :meth:`triominos.server.store.Store.upgrade` builds the
configuration in code and passes its open connection as ``attributes["connection"]``.
"""

from alembic import context

from triominos.server.store import Base

connection = context.config.attributes["connection"]
context.configure(connection=connection, target_metadata=Base.metadata, render_as_batch=True)
with context.begin_transaction():
    context.run_migrations()
