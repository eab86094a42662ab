"""Entity resolution: one node per real person, institution and paper.

Two stages, on purpose:

- **record level** (:mod:`kg.orgs.institutions`, :mod:`kg.orgs.people`, called through
  :mod:`kg.rdf.record_triples`): pure functions the mapping calls for every record. They decide what an institution
  entry is (an organisation, a unit of one, or a person's name) and which IRI it gets, from the record alone and the
  alias table.
- **store level** (:mod:`.store_step`): after every ingest or removal, decisions that need
  every source at once (the display name of a person written several ways, a paper that
  arrived from two sources) are made over the whole store and kept in one derived named
  graph that is rebuilt each time, so no answer depends on the order sources were ingested.
"""
