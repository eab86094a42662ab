"""Stores: the embedded Oxigraph store and a remote SPARQL 1.1 server, registered by name."""

import os

from ..registry import Registry

STORES = Registry(
    "store",
    {
        "embedded": "kg.stores.embedded:EmbeddedStore",
        "remote": "kg.stores.remote:RemoteStore",
    },
)

# The environment variables and defaults that choose a store, here (no engine imported) so the
# command line's options can name them without loading pyoxigraph: `kg … --help` stays fast.
DEFAULT_STORE = ".kg-store"
STORE_ENV = "KG_STORE"
WAIT_ENV = "KG_WAIT"
DEFAULT_WAIT = 300.0  # seconds a writer waits for another writer before giving up
UPDATE_ENV = "KG_UPDATE_ENDPOINT"
GRAPH_STORE_ENV = "KG_GRAPH_STORE"
USER_ENV = "KG_STORE_USER"
PASSWORD_ENV = "KG_STORE_PASSWORD"


def default_store_spec() -> str:
    return os.environ.get(STORE_ENV) or DEFAULT_STORE
