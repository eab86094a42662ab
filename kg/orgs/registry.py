"""The organisation registry: ROR records (and universities ROR lacks) matched by name.

Pure: :func:`.registry_table.load_registry` reads the shipped table (``data/registry.tsv.gz``, built
by :mod:`kg.orgs.build_registry`) once, on first use; :meth:`Registry.match` takes one organisation's
name and what surrounds it (the rest of the affiliation string, the author's e-mail domain when
the source gives one) and returns the one record it names, or None: exact (also with the parts
after it in the string, and its variants), branch, acronym, fuzzy, domain, in that order; the first
step whose records decide on one answers (docs/organisations.md, "Matching", gives each step).
Several records that fit are decided among by :func:`.evidence.choose`.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from functools import cached_property
from typing import Iterable

from rapidfuzz.distance import OSA

from ..text.domains import institutional_domain
from .countries import countries_in, country_of_domain, country_of_name
from .evidence import choose, key_variants, parent_of_all, runs, supports
from .lexicon import word_list
from .name_keys import name_key
from .records import Match, Record

# A word in more records' names than this is generic: alone it names no organisation, and a fuzzy
# match needs a rarer word to agree.
GENERIC_FREQUENCY = 150
# A name organisations share with a place after it ("Ecole Normale Superieure" beside "… de Lyon",
# "… de Fes", …) names one of several sites, so it names one only with support, as an acronym does:
# a record's own name when many share it (ENS: nine), a shorter form of its name when any other does
# ("University of Newcastle", short for "… Australia", beside "… upon Tyne"). A record's own name
# that a few campuses extend names the record ("University of Michigan", beside "… Dearborn"); names
# that go on with other words ("Nanjing University of Science and Technology", "Peking University
# First Hospital") or name the record's units ("University of Washington Tacoma") share nothing.
SITES_SHARING_OWN_NAME = 4
SITES_SHARING_SHORT_NAME = 1
_PLACE_LINKS = word_list("place_link")
_FILLER = word_list("registry_filler")
_BRACKET = re.compile(r"\s*\([^()]*\)\s*$")


def _context_key(context: str) -> str:
    return f" {name_key(context)} " if context else " "


class Registry:
    """Records indexed by name key, acronym and domain."""

    def __init__(self, records: Iterable[Record], version: str = ""):
        self.records = tuple(records)
        self.version = version
        self.by_id = {record.id: record for record in self.records if record.id}
        self._names = _index(self.records, "keys")
        self._acronyms = _index(self.records, "acronyms")
        self._branches = _index(self.records, "branch_keys")
        self._domains = _index(self.records, "domains")

    def complete(self) -> Registry:
        """The registry with the indexes its first questions would make made now (to keep it on disk).

        >>> from kg.orgs.registry_table import load_registry
        >>> sorted(name for name in vars(load_registry()) if name.startswith("_"))
        ['_acronyms', '_branches', '_cities', '_domains', '_names', '_sorted_keys', '_words']
        """
        for made_on_first_use in ("_words", "_sorted_keys", "_cities"):
            getattr(self, made_on_first_use)  # a cached property: kept in the instance once made
        return self

    @cached_property
    def _words(self) -> tuple[dict[str, int], dict[str, tuple[Record, ...]]]:
        """(word -> how many records have it in a name, rare word -> those records), made on the
        first fuzzy or generic question; only rare words keep their records (memory)."""
        counts: dict[str, int] = {}
        for record in self.records:
            for word in {word for key in record.keys for word in key.split()}:
                counts[word] = counts.get(word, 0) + 1
        rare: dict[str, list[Record]] = {}
        for record in self.records:
            for word in {word for key in record.keys for word in key.split()}:
                if counts[word] <= GENERIC_FREQUENCY:
                    rare.setdefault(word, []).append(record)
        return counts, {word: tuple(records) for word, records in rare.items()}

    @cached_property
    def _sorted_keys(self) -> list[str]:
        return sorted(self._names)

    def longer_names(self, key: str) -> int:
        """How many names begin with this one and go on ("ecole normale superieure de lyon", … for
        "ecole normale superieure"): such a name is no variant of another ("washington university").

        >>> from kg.orgs.registry_table import load_registry
        >>> registry = load_registry()
        >>> registry.longer_names("ecole normale superieure") > 10, registry.longer_names("tsinghua university")
        (True, 0)
        """
        keys = self._sorted_keys
        return bisect_left(keys, f"{key} \uffff") - bisect_left(keys, f"{key} ")

    @cached_property
    def _cities(self) -> frozenset[str]:
        return frozenset(key for record in self.records if (key := name_key(record.city)))

    def sites_sharing(self, key: str, found: Iterable[Record]) -> int:
        """How many other organisations are this name followed by a place, not counting units of the
        ``found`` records: a name several sites share does not say which one is meant.

        >>> from kg.orgs.registry_table import load_registry
        >>> registry = load_registry()
        >>> registry.sites_sharing("ecole normale superieure", registry.exact("ecole normale superieure")) > 3
        True
        >>> registry.sites_sharing("peking university", registry.exact("peking university"))  # hospitals, a school
        0
        >>> registry.sites_sharing("university of washington", registry.exact("university of washington"))
        0
        """
        keys, own = self._sorted_keys, {record.id for record in found if record.id}
        sites = set()
        for longer in keys[bisect_left(keys, f"{key} ") : bisect_left(keys, f"{key} \uffff")]:
            words = longer[len(key) + 1 :].split()
            place = " ".join(words[1:] if words[0] in _PLACE_LINKS and len(words) > 1 else words)
            whole_place = f"{key.rsplit(' ', 1)[-1]} {' '.join(words)}"  # "newcastle" + "upon tyne"
            if place in self._cities or whole_place in self._cities or country_of_name(place):
                sites.update(
                    record.id or record.name for record in self._names[longer] if not own & set(record.parents)
                )
        return len(sites - own)

    def frequency(self, word: str) -> int:
        """How many records have the word (a key's word) in one of their names.

        >>> from kg.orgs.registry_table import load_registry
        >>> load_registry().frequency("tsinghua") < 10 < load_registry().frequency("university")
        True
        """
        return self._words[0].get(word, 0)

    def is_generic(self, word: str) -> bool:
        """A filler word or one in more than :data:`GENERIC_FREQUENCY` records' names: alone it names none.

        >>> from kg.orgs.registry_table import load_registry
        >>> load_registry().is_generic("research"), load_registry().is_generic("tsinghua")
        (True, False)
        """
        return word in _FILLER or self.frequency(word) > GENERIC_FREQUENCY

    def parent(self, record: Record) -> Record | None:
        """The record's one parent in the registry (none when it has several or none).

        >>> from kg.orgs.registry_table import load_registry
        >>> registry = load_registry()
        >>> registry.parent(registry.match("Google DeepMind").record).name
        'Alphabet (United States)'
        """
        parents = [self.by_id[parent] for parent in record.parents if parent in self.by_id]
        return parents[0] if len(parents) == 1 else None

    def match(self, name: str, context: str = "", domain: str | None = None, extend: bool = True) -> Match | None:
        """The one record ``name`` names, as written in ``context`` with the author's e-mail ``domain``;
        ``extend=False``: the name alone, not also with the parts after it in ``context``. The
        :class:`Match` says how it was found (exact, branch, acronym, fuzzy, domain).

        >>> from kg.orgs.registry_table import load_registry
        >>> registry = load_registry()
        >>> found = registry.match("MIT", "CSAIL, MIT, Cambridge, MA, USA")
        >>> found.record.name, found.record.iri, found.how
        ('Massachusetts Institute of Technology', 'https://ror.org/042nb2s44', 'acronym')
        >>> registry.match("Beihang Uinveristy").how, registry.match("Universität Freiburg").record.name
        ('fuzzy', 'University of Freiburg')

        A name several records have, with nothing beside it to decide, names none; the address decides:

        >>> registry.match("University of Newcastle") is None
        True
        >>> registry.match("University of Newcastle", "University of Newcastle, Callaghan, NSW, Australia").record.name
        'University of Newcastle Australia'

        >>> [registry.match("Indiana University", "Indiana University, Bloomington", extend=flag).record.name
        ...  for flag in (True, False)]
        ['Indiana University Bloomington', 'Indiana University']
        """
        return _match(self, name, context, institutional_domain(domain), extend)  # gmail.com names no one

    # -- the steps, each returning the records that fit (:func:`.evidence.choose` decides among them)

    def exact(self, key: str) -> list[Record]:
        """The records one of whose names is the key (several share one); a single generic word names none.

        >>> from kg.orgs.registry_table import load_registry
        >>> sorted((record.country, record.name) for record in load_registry().exact("university of freiburg"))
        [('CH', 'University of Fribourg'), ('DE', 'University of Freiburg')]
        >>> load_registry().exact("research")
        []
        """
        return self.exact_in(self._names, key)

    def branches(self, key: str, context_key: str, domain: str | None, countries: list[str]) -> list[Record]:
        """ "Google": the company's branches named "Google (Country)", where the e-mail domain, the
        city or the country supports one, or where there are several (the parent of the others decides).

        >>> from kg.orgs.registry_table import load_registry
        >>> [record.name for record in load_registry().branches("google", " ", None, [])]
        ['Google (United States)']
        """
        found = self.exact_in(self._branches, key)
        if len(found) > 1:  # the company is the parent of its branches, wherever its author writes from
            return parent_of_all(found) or found
        return [record for record in found if supports(record, context_key, domain, countries)]

    def exact_in(self, index: dict[str, tuple[Record, ...]], key: str) -> list[Record]:
        """The records an index (of names, branch names or acronyms) has under the key; a single
        generic word has none.

        >>> from kg.orgs.registry_table import load_registry
        >>> registry = load_registry()
        >>> [record.name for record in registry.exact_in(registry._acronyms, "kaist")]
        ['Korea Advanced Institute of Science and Technology']
        """
        words = key.split()
        if not words or (len(words) == 1 and self.is_generic(words[0])):
            return []
        return list(index.get(key, ()))

    def variants(self, key: str) -> list[Record]:
        """The records of the key's variants (:func:`.evidence.key_variants`), else of the key without a
        trailing city or country that is the record's own.

        >>> from kg.orgs.registry_table import load_registry
        >>> [record.name for record in load_registry().variants("university of michigan ann arbor")]
        ['University of Michigan']
        """
        if self.longer_names(key):  # "Washington University" begins "Washington University in St. Louis"
            return self._without_place(key)
        for variant in key_variants(key):
            if found := self.exact(variant):
                return found
        return self._without_place(key)

    def _without_place(self, key: str) -> list[Record]:
        """ "University of Michigan Ann Arbor": the record of the name before, in that city or country."""
        words = key.split()
        for cut in range(len(words) - 1, 1, -1):
            place = " ".join(words[cut:])
            code = country_of_name(place)
            found = [
                record
                for record in self.exact(" ".join(words[:cut]))
                if name_key(record.city) == place or record.country == code
            ]
            if found:
                return found
        return []

    def acronym(self, key: str, context_key: str, domain: str | None, countries: list[str]) -> list[Record]:
        """The records with the acronym that the e-mail domain, the string or the country supports.

        >>> from kg.orgs.registry_table import load_registry
        >>> [record.name for record in load_registry().acronym("kaist", " daejeon korea ", None, ["KR"])]
        ['Korea Advanced Institute of Science and Technology']
        >>> load_registry().acronym("kaist", " ", None, [])
        []
        """
        if " " in key or not key:
            return []
        return [
            record
            for record in self._acronyms.get(key, ())
            if supports(record, context_key.replace(f" {key} ", " "), domain, countries)
        ]

    def fuzzy(self, key: str) -> list[Record]:
        """The records with a name of the key's words in order, words the registry does not know
        (misspellings) within an edit or two of its words, known words only as plural or singular.

        >>> from kg.orgs.registry_table import load_registry
        >>> [record.name for record in load_registry().fuzzy("beihang uinveristy")]
        ['Beihang University']
        """
        words = [word for word in key.split() if word not in _FILLER]
        anchors = [word for word in words if self.frequency(word) and not self.is_generic(word)]
        if not anchors or len(words) < 2:
            return []
        anchor = min(anchors, key=self.frequency)
        return [
            record for record in self._words[1][anchor] if any(self._same_words(words, other) for other in record.keys)
        ]

    def _same_words(self, words: list[str], other_key: str) -> bool:
        others = [word for word in other_key.split() if word not in _FILLER]
        if len(others) != len(words):
            return False
        # in order: "Washington University" is not "University of Washington"
        return all(self._near(word, other) for word, other in zip(words, others))

    def _near(self, word: str, other: str) -> bool:
        if word == other or word.rstrip("s") == other.rstrip("s"):
            return True
        unknown = not self.frequency(word) or not self.frequency(other)
        return unknown and len(word) >= 5 and OSA.distance(word, other) <= (2 if len(word) >= 8 else 1)

    def with_domains_own(self, found: list[Record], key: str, domain: str | None) -> list[Record]:
        """An exact match and, competing with it, the e-mail domain's own organisation whose name
        contains the name written ("Artificial Intelligence Research Institute" from airi.net is
        "AIRI - Artificial Intelligence Research Institute", not the Spanish institute of that name).

        >>> from kg.orgs.registry_table import load_registry
        >>> registry = load_registry()
        >>> registry.match("Artificial Intelligence Research Institute", "", "airi.net").record.name
        'AIRI - Artificial Intelligence Research Institute'
        """
        if not domain or not any(record.id for record in found) or any(domain in record.domains for record in found):
            return found
        ids = {record.id for record in found}
        own = [
            record
            for record in self._domains.get(domain, ())
            if record not in found
            and not ids & set(record.parents)
            and any(f" {key} " in f" {other} " and not other.startswith(f"{key} ") for other in record.keys)
        ]
        return found + own  # (a name that goes on after the one written is a part of it: its cancer centre)

    def of_domain(self, key: str, domain: str | None) -> list[Record]:
        """The e-mail domain's records that share a rare word of the key, none whose name begins with the key
        and goes on (a part of the organisation named).

        >>> from kg.orgs.registry_table import load_registry
        >>> registry = load_registry()
        >>> sorted(record.name for record in registry.of_domain("tsinghua uni", "tsinghua.edu.cn"))
        ['Tsinghua Shenzhen International Graduate School', 'Tsinghua University']
        >>> registry.match("Tsinghua Uni", "", "mails.tsinghua.edu.cn").how
        'domain'
        """
        if not domain:
            return []
        rare = {word for word in key.split() if not self.is_generic(word)}
        # never a part of the organisation named ("Hokkaido University Hospital" for "Hokkaido University")
        return [
            record
            for record in self._domains.get(domain, ())
            if any(rare & set(other.split()) for other in record.keys)
            and not any(other.startswith(f"{key} ") for other in record.keys)
        ]


def _index(records: tuple[Record, ...], field: str) -> dict[str, tuple[Record, ...]]:
    """value -> the records with it in ``field`` (tuples: most values have one record)."""
    index: dict[str, list[Record]] = {}
    for record in records:
        for value in getattr(record, field):
            index.setdefault(value, []).append(record)
    return {value: tuple(found) for value, found in index.items()}


def _match(registry: Registry, name: str, context: str, domain: str | None, extend: bool) -> Match | None:
    """The first step whose records decide on one; a university only the universities list has is
    the answer only where no step finds a ROR record."""
    countries = countries_in(context)
    domain_country = country_of_domain(domain)
    fallback = None
    evidence = [*countries, *filter(None, [domain_country])]
    for how, key, found in _steps(registry, name, context, domain, evidence, extend):
        if not found:
            continue
        record = choose(found, key, countries, domain, domain_country)
        if record is None:
            return fallback  # a tie: no answer, and no weaker step
        if record.id:
            return Match(record, how)
        fallback = fallback or Match(record, how)
    return fallback


def _steps(registry: Registry, name: str, context: str, domain: str | None, countries: list[str], extend: bool):
    """(how, the key asked, records) of each step in turn, made only when asked for."""
    bare = _BRACKET.sub("", name)  # "ETH Zurich (ETHZ)": the bracket is an acronym or a place
    context_key = _context_key(context)

    def supported(found: list[Record], key: str) -> list[Record]:
        own = any(name_key(record.name) == key for record in found)
        if registry.sites_sharing(key, found) < (SITES_SHARING_OWN_NAME if own else SITES_SHARING_SHORT_NAME):
            return found
        # "Ecole Normale Superieure": a name several sites share needs support, as an acronym does
        return [record for record in found if supports(record, context_key.replace(f" {key} ", " "), domain, countries)]

    for run in [*(runs(name, context) if extend else ()), name, *([bare] if bare != name else [])]:
        run_key = name_key(run)
        yield "exact", run_key, supported(registry.with_domains_own(registry.exact(run_key), run_key, domain), run_key)
    key = name_key(name)
    yield "exact", key, supported(registry.variants(key), key)
    yield "branch", key, registry.branches(key, context_key, domain, countries)
    yield "acronym", key, registry.acronym(key, context_key, domain, countries)
    yield "fuzzy", key, supported(registry.fuzzy(key), key)
    yield "domain", key, registry.of_domain(key, domain)
