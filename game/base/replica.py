"""
Read-only pages read a replica, when settings name one (DATABASE_REPLICA_URL).

The pages about other people — the daily, weekly, monthly and all-time boards, the
rating board, a profile, the public API's reads — are most of the site's reads at a
rush and need no row written a moment ago. A view wrapped in `on_replica` runs inside
a scope in which `Router` sends the ORM's reads to the "replica" alias; everything
else reads and writes the primary. Read-your-writes stays on the primary: the viewer
(their session and account) is read before the scope opens, sessions are never read
from the replica, a page that writes in the scope reads the primary from then on, a
transaction reads the primary, and `unless(request, **kwargs)` keeps a request on it
(one's own profile). Without a replica `on_replica` changes nothing. Raw SQL reads
through `reader(model)`, the connection the router picks. docs/scaling.md.
"""

import contextvars
import functools

from django.conf import settings
from django.db import DEFAULT_DB_ALIAS, connections, router

REPLICA = "replica"
PRIMARY_ONLY = frozenset({"sessions"})
"""App labels whose reads never leave the primary: a session just saved (a log-in) must
be found by the next request."""


class _Scope:
    """One request's replica reads: `wrote` once it wrote (then it reads the primary)."""

    wrote = False


_scope = contextvars.ContextVar("replica_reads", default=None)


def configured():
    return REPLICA in settings.DATABASES


def on_replica(view, unless=None):
    """`view` with its reads on the replica (when one is configured), except requests
    for which `unless(request, *args, **kwargs)` is true."""

    @functools.wraps(view)
    def replica_reads(request, *args, **kwargs):
        if not configured() or (unless and unless(request, *args, **kwargs)):
            return view(request, *args, **kwargs)
        request.user.is_authenticated  # noqa: B018 - the viewer read on the primary
        token = _scope.set(_Scope())
        try:
            return view(request, *args, **kwargs)
        finally:
            _scope.reset(token)

    return replica_reads


class Router:
    """Django's database router (DATABASE_ROUTERS): the replica for reads in an
    `on_replica` scope, the primary for everything else, migrations the primary's."""

    def db_for_read(self, model, **hints):
        scope = _scope.get()
        if scope is None or scope.wrote or model._meta.app_label in PRIMARY_ONLY:
            return DEFAULT_DB_ALIAS
        if connections[DEFAULT_DB_ALIAS].in_atomic_block:
            return DEFAULT_DB_ALIAS
        return REPLICA

    def db_for_write(self, model, **hints):
        scope = _scope.get()
        if scope is not None:
            scope.wrote = True
        return DEFAULT_DB_ALIAS

    def allow_relation(self, obj1, obj2, **hints):
        return True  # one database, two copies of it

    def allow_migrate(self, db, app_label, **hints):
        return db == DEFAULT_DB_ALIAS


def reader(model):
    """The connection the ORM would read `model` from here (for raw SQL)."""
    return connections[router.db_for_read(model)]
