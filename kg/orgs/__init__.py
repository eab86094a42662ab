"""Organisation parsing at record level, pure (no store, no RDF): an institution entry → a chain of
organisations and units (:mod:`.institutions`), one name → identity key and canonical name
(:mod:`.canonical_names`, :mod:`.keys`), what a name's words are (:mod:`.org_names`), the alias table
(:mod:`.aliases`), the organisation registry (:mod:`.registry`, :mod:`.registry_table`), person names kept out
(:mod:`.people`)."""
