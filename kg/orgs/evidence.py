"""What speaks for or against a registry record as the one a name in an affiliation string names:
the name's variants, the runs of parts after it, the support an acronym needs, the contradictions
of country and e-mail domain, and the choice among tied records (used by :mod:`.registry`)."""

from __future__ import annotations

from .keys import swapped
from .lexicon import word_list
from .name_keys import name_key
from .records import Record

LONGEST_RUN = 3  # parts of a string joined to one name: "Universidad de Chile, Santiago, Chile"
_OPTIONAL_WORDS = word_list("variant_optional")


def key_variants(key: str) -> list[str]:
    """The other keys a name key may be written as: the other word order (:func:`.keys.swapped`) and
    the key without the words of the ``variant_optional`` list ("in", "the").

    >>> key_variants("tokyo university"), key_variants("university of the witwatersrand")
    (['university of tokyo'], ['the witwatersrand university', 'university of witwatersrand'])
    """
    words = key.split()
    variants = [swapped(key), " ".join(word for word in words if word not in _OPTIONAL_WORDS)]
    return [variant for variant in variants if variant and variant != key]


def supports(record: Record, context_key: str, domain: str | None, countries: list[str]) -> bool:
    """Evidence beside an acronym that it is this record's: the e-mail domain is the record's, or the
    string (``context_key``, a name key with a space at each end) names its city or one of its names,
    or ``countries`` (those the string names) hold its country.

    >>> from kg.orgs.registry_table import load_registry
    >>> mit = load_registry().by_id["042nb2s44"]
    >>> supports(mit, " csail mit cambridge ma usa ", None, []), supports(mit, " ", "mit.edu", [])
    (True, True)
    >>> supports(mit, " mit beijing china ", None, ["CN"])
    False
    """
    return bool(
        domain
        and domain in record.domains
        or record.city
        and f" {name_key(record.city)} " in context_key
        or record.country in countries
        or any(f" {key} " in context_key for key in record.keys)
    )


def runs(name: str, context: str) -> list[str]:
    """The name with the parts that follow it in the string, longest first (at most :data:`LONGEST_RUN`
    parts); none where the name ends inside a part or is not in the string.

    >>> runs("University of Texas", "Department of CS, University of Texas, Austin, TX, USA")
    ['University of Texas, Austin, TX, USA', 'University of Texas, Austin, TX', 'University of Texas, Austin']
    """
    start = context.find(name) if name and context else -1
    if start < 0:
        return []
    parts = [part.strip() for part in context[start + len(name) :].split(",")]
    if parts and parts[0]:  # the name ends mid-part
        return []
    parts = [part for part in parts[1:] if part]
    return [", ".join([name, *parts[:count]]) for count in range(min(len(parts), LONGEST_RUN), 0, -1)]


def parent_of_all(records: list[Record]) -> list[Record]:
    """[the one record that is the parent of all the others], else [].

    >>> from kg.orgs.registry_table import load_registry
    >>> registry = load_registry()
    >>> deepmind = registry.match("Google DeepMind").record
    >>> [record.name for record in parent_of_all([deepmind, registry.parent(deepmind)])]
    ['Alphabet (United States)']
    >>> parent_of_all([deepmind, registry.by_id["042nb2s44"]])
    []
    """
    parents = [
        record for record in records if all(record.id in other.parents for other in records if other is not record)
    ]
    return parents if len(parents) == 1 and parents[0].id else []


def contradicted(record: Record, countries: list[str], domain: str | None, domain_country: str | None) -> bool:
    """The string names another country than the record's, or the e-mail domain is of another
    country and not the record's own ("NTT" with ntt.co.jp is not NTT (Germany)); a company's staff
    may write from any of its national domains.

    >>> from kg.orgs.registry_table import load_registry
    >>> mit = load_registry().by_id["042nb2s44"]
    >>> contradicted(mit, ["US"], None, None), contradicted(mit, ["CN"], None, None)
    (False, True)
    >>> contradicted(mit, [], "sjtu.edu.cn", "CN"), contradicted(mit, [], "mit.edu", "US")
    (True, False)
    """
    if not record.country:
        return False
    if countries and record.country not in countries:
        return True
    # a company's staff write from its offices' national domains (amazon.de): no contradiction
    return bool(
        domain_country
        and domain_country != record.country
        and domain not in record.domains
        and "company" not in record.types
    )


def choose(
    found: list[Record], key: str, countries: list[str], domain: str | None, domain_country: str | None
) -> Record | None:
    """The one record of ``found`` (the records that fit ``key``) that the evidence leaves, else None:
    of the records the string's countries and e-mail domain do not contradict, a ROR record, an active
    one, one of a country named in the string, of the e-mail domain, of the domain's country, the
    record whose own name the key is (not only an alias or a translated label), then the parent of
    all the others.

    >>> from kg.orgs.registry_table import load_registry
    >>> found = load_registry().exact("university of freiburg")
    >>> choose(found, "university of freiburg", ["CH"], None, None).name  # the string names Switzerland
    'University of Fribourg'
    >>> choose(found, "university of freiburg", [], None, None).name  # Fribourg's alias, Freiburg's own name
    'University of Freiburg'
    """
    candidates = [
        record for record in dict.fromkeys(found) if not contradicted(record, countries, domain, domain_country)
    ]
    tests = (
        lambda record: bool(record.id),
        lambda record: record.active,
        lambda record: record.country in countries,
        lambda record: domain in record.domains,
        lambda record: record.country == domain_country,
        # the record whose own name the key is, over those that have it as an alias or a translated label
        # ("University of Minnesota" is the Twin Cities campus's name; its system's Spanish label says so too)
        lambda record: name_key(record.name) == key,
    )
    for test in tests:
        if len(candidates) == 1:
            break
        candidates = [record for record in candidates if test(record)] or candidates
    if len(candidates) > 1:
        candidates = parent_of_all(candidates) or candidates
    return candidates[0] if len(candidates) == 1 else None
