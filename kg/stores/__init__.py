"""Stores: the embedded Oxigraph store and a remote SPARQL 1.1 server, registered by name."""

from ..registry import Registry

STORES = Registry("store", {
    "embedded": "kg.stores.embedded:EmbeddedStore",
    "remote": "kg.stores.remote:RemoteStore",
})
