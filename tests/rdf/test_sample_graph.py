"""What the sample graph says, asked in SPARQL of the store the pipeline filled."""

from __future__ import annotations

from kg.vocab import sparql_prologue


def rows(store, query: str) -> list[tuple]:
    return [tuple(None if v is None else v.toPython() for v in row) for row in store.query(sparql_prologue() + query)]


def one(store, query: str):
    return rows(store, query)[0][0]


def test_counts(sample_store):
    assert one(sample_store, "SELECT (COUNT(DISTINCT ?p) AS ?n) { ?p a schema:ScholarlyArticle }") == 43
    assert one(sample_store, "SELECT (COUNT(DISTINCT ?a) AS ?n) { ?a a foaf:Person }") == 135
    assert one(sample_store, "SELECT (COUNT(*) AS ?n) { ?p dcterms:title ?t FILTER(lang(?t) = 'zh') }") == 30
    assert one(sample_store, "SELECT (COUNT(*) AS ?n) { ?p dcterms:abstract ?t FILTER(lang(?t) = 'en') }") == 14
    assert one(sample_store, "SELECT (COUNT(*) AS ?n) { ?p kg:summary ?t FILTER(lang(?t) = 'zh') }") == 30


def test_byline_order_and_names_as_written(sample_store):
    byline = rows(
        sample_store,
        """
        SELECT ?pos ?written ?name {
          ?paper dcterms:title "Fourier Features Let Agents Learn High Precision Policies with Imitation Learning"@en ;
                 kg:authorship ?a .
          ?a kg:position ?pos ; kg:nameAsWritten ?written ; kg:author ?person .
          ?person skos:prefLabel ?name .
        } ORDER BY ?pos""",
    )
    assert [r[0] for r in byline] == list(range(1, 9))
    assert byline[0][1:] == ("Balázs Gyenes", "Balázs Gyenes")
    assert byline[-1][1] == "Gerhard Neumann"


def test_direct_creator_link_matches_authorships(sample_store):
    assert (
        rows(
            sample_store,
            """
        SELECT ?paper ?person { ?paper a schema:ScholarlyArticle ; dcterms:creator ?person
          FILTER NOT EXISTS { ?paper kg:authorship/kg:author ?person } }""",
        )
        == []
    )
    assert one(sample_store, "SELECT (COUNT(DISTINCT ?a) AS ?n) { ?paper kg:authorship ?a }") == 144


def test_institutions_with_english_and_chinese_labels(sample_store):
    labels = rows(
        sample_store,
        """
        SELECT ?label { ?paper schema:sourceOrganization ?org . ?org skos:prefLabel ?label
          FILTER(STRSTARTS(STR(?org),
                           "https://kg.example.org/id/institution/university-of-science-and-technology-of-china")) }""",
    )
    assert {r[0] for r in labels} == {"University of Science and Technology of China", "中国科学技术大学"}
    papers = one(
        sample_store,
        """SELECT (COUNT(DISTINCT ?p) AS ?n) {
        ?p schema:sourceOrganization
          <https://kg.example.org/id/institution/university-of-science-and-technology-of-china> }""",
    )
    assert papers == 6


def test_venue_track_workshop_and_presentation_are_resources(sample_store):
    tracks = dict(
        rows(
            sample_store,
            """
        SELECT ?label (COUNT(?p) AS ?n) { ?p kg:track ?t . ?t skos:prefLabel ?label } GROUP BY ?label""",
        )
    )
    assert tracks == {"main conference": 15, "workshop": 11, "position paper track": 4}
    assert (
        one(
            sample_store,
            """SELECT (COUNT(DISTINCT ?p) AS ?n) { ?p bibo:presentedAt ?e . ?e skos:prefLabel "ICML 2026" }""",
        )
        == 43
    )
    workshops = {r[0] for r in rows(sample_store, "SELECT ?l { ?w a kg:Workshop ; skos:prefLabel ?l }")}
    assert workshops >= {"CTB", "EIML", "AI4GOOD", "AIWILD", "GenBio", "FM4LS", "CoLoRAI", "Machine Learning for Audio"}
    orals = {
        r[0]
        for r in rows(
            sample_store, "SELECT ?t { ?p kg:presentationType kg:Oral ; dcterms:title ?t FILTER(lang(?t)='en') }"
        )
    }
    assert orals == {
        "Rethinking Psychometric Evaluation of LLMs: When and Why Self-Reports Predict Behavior",
        "PianoKontext: Expressive Performance Rendering from Deadpan Context",
    }


def test_links_from_comments_and_abstracts(sample_store):
    code = {
        r[0]
        for r in rows(
            sample_store,
            "SELECT ?u { ?c a schema:SoftwareSourceCode ; schema:isBasedOn ?p ; schema:codeRepository ?u }",
        )
    }
    assert code == {
        "https://github.com/MisteFr/viral-proteins-plms",
        "https://github.com/lihe-maxsize/Lifelong_Unlearning_main",
        "https://github.com/BriSky-2021/InfraRL",
    }
    assert rows(sample_store, "SELECT ?u { ?p kg:posterPage ?u }") == [("https://icml.cc/virtual/2026/poster/67185",)]
    assert rows(sample_store, "SELECT ?v { ?p dcterms:isPartOf ?x . ?x bibo:volume ?v }") == [("306",)]


def test_every_paper_has_provenance_to_file_and_line(sample_store):
    assert (
        rows(
            sample_store,
            "SELECT ?p { ?p a schema:ScholarlyArticle FILTER NOT EXISTS { ?p prov:wasDerivedFrom/kg:line ?l } }",
        )
        == []
    )
    record = rows(
        sample_store,
        """
        SELECT ?file ?line { ?p dcterms:title "PAWS: Preference Learning with Advantage-Weighted Segments"@en ;
            prov:wasDerivedFrom ?r . ?r kg:line ?line ; prov:wasDerivedFrom/dcterms:title ?file }""",
    )
    assert record == [("001_0af6457a65591eab.txt", 207)]


def test_every_name_is_stated_once(sample_store):
    """One label property per kind (docs/graph-model.md): no node states one literal under two naming
    properties, and nothing named by skos:prefLabel has an rdfs:label, foaf:name or schema:name too."""
    naming = "rdfs:label skos:prefLabel skos:altLabel foaf:name schema:name dcterms:title"
    repeated = rows(
        sample_store,
        f"""SELECT DISTINCT ?node ?first ?second {{
          VALUES ?first {{ {naming} }} VALUES ?second {{ {naming} }}
          ?node ?first ?name ; ?second ?name FILTER(STR(?first) < STR(?second)) }} LIMIT 5""",
    )
    assert repeated == []
    named_twice = "SELECT (COUNT(*) AS ?n) { ?node skos:prefLabel ?any ; rdfs:label|foaf:name|schema:name ?other }"
    assert one(sample_store, named_twice) == 0
    assert one(sample_store, "SELECT (COUNT(*) AS ?n) { ?node skos:prefLabel ?any }") > 0
