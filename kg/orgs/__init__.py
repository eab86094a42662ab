"""Organisation parsing at record level, pure (no store, no RDF): an institution entry → a chain of
organisations and units (:mod:`.institutions`), one name → identity key and canonical name
(:mod:`.org_names`, :mod:`.keys`), the alias table (:mod:`.aliases`), person names kept out (:mod:`.people`)."""
