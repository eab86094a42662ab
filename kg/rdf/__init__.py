"""The RDF side of a record: vocabulary, IRIs and the mapping of records to triples."""
