"""Where the graph lives: the embedded Oxigraph store and remote SPARQL 1.1 servers."""
