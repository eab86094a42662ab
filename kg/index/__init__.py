"""The name look-up: every entity's match keys (:mod:`.match_keys`) and the stored index of them
(:mod:`.name_index`) that the query library searches."""
