"""Which country an affiliation names: a part that is a country ("…, Germany"), a state or province
of a country whose affiliations name it so ("…, California"), or the e-mail domain's country code.

Countries and subdivisions come from ``pycountry``; the other names affiliations use are rows of
``data/country-names.tsv``.
"""

from __future__ import annotations

import re
from functools import lru_cache

import pycountry

from .lexicon import word_list, word_mapping
from .name_keys import DATA_DIR, name_key

COUNTRY_NAMES = DATA_DIR / "country-names.tsv"
GENERIC_TLDS = DATA_DIR / "generic-tlds.tsv"
_SUBDIVISION_COUNTRIES = word_list("subdivision_country")
_DOMAIN_COUNTRIES = word_mapping("domain_country")
_PARTS = re.compile(r"\s*[,;()]\s*|\s+-\s+")


@lru_cache(maxsize=1)
def _names() -> dict[str, str]:
    names: dict[str, str] = {}
    for subdivision in pycountry.subdivisions:
        if subdivision.country_code in _SUBDIVISION_COUNTRIES:
            names.setdefault(name_key(subdivision.name), subdivision.country_code)
    for country in pycountry.countries:  # a country's name wins over a state's ("Georgia")
        for form in ("name", "official_name", "common_name"):
            if hasattr(country, form):
                names[name_key(getattr(country, form))] = country.alpha_2
    for name, code, _why in _rows(COUNTRY_NAMES):
        names[name_key(name)] = code
    return names


def _rows(path) -> list[list[str]]:
    return [
        line.split("\t")
        for line in path.read_text(encoding="utf-8").splitlines()
        if line.strip() and not line.startswith("#")
    ]


@lru_cache(maxsize=1)
def _generic_tlds() -> frozenset[str]:
    return frozenset(row[0] for row in _rows(GENERIC_TLDS))


def country_of_name(text: str) -> str | None:
    """The ISO 3166-1 alpha-2 code of a country (or state) name, else None. A country's name wins
    over a state's.

    >>> country_of_name("P.R. China"), country_of_name("California"), country_of_name("Georgia")
    ('CN', 'US', 'GE')
    >>> country_of_name("UK"), country_of_name("Berlin")
    ('GB', None)
    """
    return _names().get(name_key(text)) if text.strip() else None


def countries_in(text: str) -> list[str]:
    """The countries the parts of an affiliation string name, last first (an address ends with its
    country).

    >>> countries_in("Department of Computer Science, Stanford University, Stanford, CA, USA")
    ['US']
    >>> countries_in("Max Planck Institute for Intelligent Systems, Tübingen, Germany")
    ['DE']
    """
    codes = [country_of_name(part) for part in reversed(_PARTS.split(text)) if part]
    return list(dict.fromkeys(code for code in codes if code))


def country_of_domain(domain: str | None) -> str | None:
    """The country an e-mail domain's top-level label names (tsinghua.edu.cn -> CN, cam.ac.uk -> GB,
    cmu.edu -> US); none for .com, .org and the country codes sold to anyone (.ai, .io: data/generic-tlds.tsv).

    >>> country_of_domain("cam.ac.uk"), country_of_domain("cmu.edu"), country_of_domain("mila.ai")
    ('GB', 'US', None)
    """
    if not domain or "." not in domain:
        return None
    label = domain.casefold().rstrip(".").rsplit(".", 1)[-1]
    if label in _generic_tlds():
        return None
    if label in _DOMAIN_COUNTRIES:
        return _DOMAIN_COUNTRIES[label]
    return label.upper() if len(label) == 2 and pycountry.countries.get(alpha_2=label.upper()) else None
