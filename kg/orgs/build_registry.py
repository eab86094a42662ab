"""Build the organisation registry table shipped in ``kg/orgs/data/`` from the public registries.

    python -m kg.orgs.build_registry ROR [UNIVERSITIES] [--out kg/orgs/data]

ROR is either the records as one JSON object a line (``ror-v2.jsonl.gz``, the partial registry
beside the project) or ROR's official full dump (the zip ROR publishes on Zenodo, or the v2 JSON
file inside it), so a maintainer with internet access rebuilds the table from the complete
registry. UNIVERSITIES is Hipo's ``world_universities_and_domains.json`` (plain or gzip): its
e-mail domains are added to the ROR record of the same name and country, and a university ROR
lacks becomes a row of its own with no ROR id.

The table (``registry.tsv.gz``) has one organisation a line; its name keys are made by
:func:`kg.orgs.name_keys.name_key`, so a change of that function needs a rebuild (a test checks
the shipped keys). ``NOTICE`` gets the licences and the versions of the sources.
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import io
import json
import re
import zipfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable, Iterator

from ..text.domains import host, registrable_domain
from .name_keys import DATA_DIR, name_key
from .registry_table import NOTICE_NAME, TABLE_COLUMNS, TABLE_NAME

_NAME_TYPES = frozenset({"ror_display", "label", "alias"})
# ROR names a company's national branches "Google (United States)", "Samsung (South Korea)": the
# name without the bracket is the company's too, a branch key (matched with support, or as the
# parent of the other branches).
_COUNTRY_SUFFIX = re.compile(r"\s*\((?P<country>[^()]*)\)$")
# A web domain on more records than this is a hosting service's (google.com, jimdo.com), kept only
# for records whose names have its first label.
_SHARED_DOMAIN = 8


@dataclass
class Row:
    """One organisation of the table, before it is written (:meth:`line`)."""

    id: str
    name: str
    country: str
    city: str
    types: list[str]
    parents: list[str]
    domains: list[str]
    status: str
    keys: list[str] = field(default_factory=list)
    branch_keys: list[str] = field(default_factory=list)
    acronyms: list[str] = field(default_factory=list)

    def line(self) -> str:
        """The row as the table's line: :data:`TABLE_COLUMNS` joined by tabs, lists by "," (names by "|").

        >>> Row("03cve4549", "Tsinghua University", "CN", "Beijing", ["education"], [], ["tsinghua.edu.cn"],
        ...     "active", ["tsinghua university"], [], ["thu"]).line().split("\\t")  # doctest: +NORMALIZE_WHITESPACE
        ['03cve4549', 'Tsinghua University', 'CN', 'Beijing', 'education', '', 'tsinghua.edu.cn', 'active',
         'tsinghua university', '', 'thu']

        """
        values = {
            "id": self.id,
            "name": self.name,
            "country": self.country,
            "city": self.city,
            "types": ",".join(self.types),
            "parents": ",".join(self.parents),
            "domains": ",".join(sorted(set(self.domains))),
            "status": self.status,
            "keys": "|".join(dict.fromkeys(self.keys)),
            "branch_keys": "|".join(key for key in dict.fromkeys(self.branch_keys) if key not in self.keys),
            "acronyms": "|".join(dict.fromkeys(self.acronyms)),
        }
        return "\t".join(values[column].replace("\t", " ").replace("\n", " ") for column in TABLE_COLUMNS)


def _short_id(ror_id: str) -> str:
    return ror_id.rsplit("/", 1)[-1]


def _web_domain(url: str) -> str | None:
    name = host(url)
    return registrable_domain(name) if name and "." in name else None


def ror_row(record: dict) -> Row | None:
    """A ROR v2 record -> its row; a withdrawn record is none (ROR says it should not be used). A name
    with its country in brackets ("Google (United States)") gives the bare name as a branch key.

    >>> row = ror_row({
    ...     "id": "https://ror.org/00njsd438", "status": "active", "types": ["company"],
    ...     "names": [{"value": "Google (United States)", "types": ["ror_display", "label"]}],
    ...     "locations": [{"geonames_details": {"country_code": "us", "name": "Mountain View",
    ...                                         "country_name": "United States"}}],
    ...     "links": [{"type": "website", "value": "https://www.google.com/"}],
    ...     "relationships": [{"type": "parent", "id": "https://ror.org/02e9yx751"}],
    ... })
    >>> row.id, row.country, row.parents, row.domains, row.keys, row.branch_keys
    ('00njsd438', 'US', ['02e9yx751'], ['google.com'], ['google united states'], ['google'])
    >>> ror_row({"id": "https://ror.org/0abc12345", "status": "withdrawn"}) is None
    True
    """
    if record.get("status") == "withdrawn":
        return None
    names = record.get("names", [])
    display = next(
        (name["value"] for name in names if "ror_display" in name["types"]), names[0]["value"] if names else ""
    )
    location = (record.get("locations") or [{}])[0].get("geonames_details", {})
    websites = [link["value"] for link in record.get("links", []) if link.get("type") == "website"]
    row = Row(
        id=_short_id(record["id"]),
        name=display,
        country=(location.get("country_code") or "").upper(),
        city=location.get("name") or "",
        types=sorted(record.get("types", [])),
        parents=sorted(_short_id(rel["id"]) for rel in record.get("relationships", []) if rel["type"] == "parent"),
        domains=[*record.get("domains", []), *filter(None, map(_web_domain, websites))],
        status=record.get("status", "active"),
    )
    for name in names:
        _add_name(row, name, location.get("country_name"))
    return row if row.keys else None


def _add_name(row: Row, name: dict, country_name: str | None) -> None:
    key = name_key(name["value"])
    if key and _NAME_TYPES & set(name["types"]):
        row.keys.append(key)
        if (suffix := _COUNTRY_SUFFIX.search(name["value"])) and suffix["country"] == country_name:
            row.branch_keys.append(name_key(name["value"][: suffix.start()]))
    elif key and "acronym" in name["types"]:
        row.acronyms.append(key)


def read_ror(path: Path) -> Iterator[dict]:
    """ROR records from a JSON-lines file (gzip or not), a JSON array, or ROR's zip dump; a line that is
    no JSON stops the build with its file and line.

    >>> path = getfixture("tmp_path") / "ror.jsonl"  # pytest's doctest namespace
    >>> _ = path.write_text('{"id": "https://ror.org/03cve4549"}\\n\\n{"id": \\n')
    >>> list(read_ror(path))
    Traceback (most recent call last):
    ...
    SystemExit: ...ror.jsonl:3: not a JSON record (Expecting value)
    >>> _ = path.write_text('[{"id": "https://ror.org/03cve4549"}]')
    >>> list(read_ror(path))
    [{'id': 'https://ror.org/03cve4549'}]
    """
    if path.suffix == ".zip":
        with zipfile.ZipFile(path) as archive:
            members = [name for name in archive.namelist() if name.endswith(".json")]
            v2 = [name for name in members if "schema_v2" in name] or members
            if len(v2) != 1:
                raise SystemExit(f"{path}: expected one v2 JSON file in the zip, found {v2}")
            with archive.open(v2[0]) as stream:
                yield from json.load(io.TextIOWrapper(stream, encoding="utf-8"))
        return
    opener = gzip.open if path.suffix == ".gz" else open
    with opener(path, "rt", encoding="utf-8") as stream:
        first = stream.read(1)
        stream.seek(0)
        if first == "[":
            yield from json.load(stream)
            return
        for number, line in enumerate(stream, start=1):
            if line.strip():
                try:
                    yield json.loads(line)
                except json.JSONDecodeError as exc:
                    raise SystemExit(f"{path}:{number}: not a JSON record ({exc.msg})") from None


def read_universities(path: Path) -> list[dict]:
    opener = gzip.open if path.suffix == ".gz" else open
    with opener(path, "rt", encoding="utf-8") as stream:
        return json.load(stream)


def without_hosting_domains(rows: list[Row]) -> None:
    """Drop, in place, a web domain that more than :data:`_SHARED_DOMAIN` rows have (a hosting service's,
    google.com for a site on Google Sites), but from the rows whose names have its first label.

    >>> rows = [Row(str(n), f"Lab {n}", "US", "", [], [], ["google.com", f"lab{n}.org"], "active", [f"lab {n}"])
    ...         for n in range(9)]
    >>> rows.append(Row("00njsd438", "Google", "US", "", [], [], ["google.com"], "active", ["google"]))
    >>> without_hosting_domains(rows)
    >>> rows[0].domains, rows[-1].domains
    (['lab0.org'], ['google.com'])
    """
    counts: dict[str, int] = {}
    for row in rows:
        for domain in set(row.domains):
            counts[domain] = counts.get(domain, 0) + 1
    for row in rows:
        words = {word for key in row.keys for word in key.split()}
        row.domains = [
            domain for domain in row.domains if counts[domain] <= _SHARED_DOMAIN or domain.split(".")[0] in words
        ]


def merge_universities(rows: list[Row], universities: Iterable[dict]) -> int:
    """Add each university's name and domains to the ROR row of its name and country, else to the
    one university of its country with its domain; a university no row names becomes a row of
    its own (id ``""``). Returns how many rows were added.

    >>> rows = [Row("03cve4549", "Tsinghua University", "CN", "Beijing", ["education"], [], [], "active",
    ...             ["tsinghua university"])]
    >>> merge_universities(rows, [{"name": "Tsinghua University", "alpha_two_code": "CN",
    ...                            "domains": ["tsinghua.edu.cn"]},
    ...                           {"name": "Zorblax College", "alpha_two_code": "cn", "domains": ["zorblax.edu.cn"]}])
    1
    >>> [(row.id, row.name, row.domains) for row in rows]
    [('03cve4549', 'Tsinghua University', ['tsinghua.edu.cn']), ('', 'Zorblax College', ['zorblax.edu.cn'])]
    """
    by_key: dict[tuple[str, str], list[Row]] = {}
    by_domain: dict[tuple[str, str], list[Row]] = {}
    for row in rows:
        for key in row.keys:
            by_key.setdefault((key, row.country), []).append(row)
        for domain in set(row.domains) if "education" in row.types else ():
            by_domain.setdefault((domain, row.country), []).append(row)
    added = 0
    for university in universities:
        key, country = name_key(university["name"]), (university.get("alpha_two_code") or "").upper()
        domains = [domain.casefold() for domain in university.get("domains", [])]
        known = by_key.get((key, country)) or _one_of_domains(by_domain, domains, country)
        if len(known) == 1:
            known[0].keys.append(key)
            known[0].domains.extend(domains)
        elif not known and key:
            rows.append(
                Row(
                    id="",
                    name=university["name"],
                    country=country,
                    city="",
                    types=["education"],
                    parents=[],
                    domains=domains,
                    status="active",
                    keys=[key],
                )
            )
            added += 1
    return added


def _one_of_domains(by_domain: dict[tuple[str, str], list[Row]], domains: list[str], country: str) -> list[Row]:
    return list({id(row): row for domain in domains for row in by_domain.get((domain, country), [])}.values())


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _newest(records: list[dict]) -> str:
    return max((record.get("admin", {}).get("last_modified", {}).get("date") or "" for record in records), default="")


def notice(ror: Path, records: list[dict], universities: Path | None, added: int) -> str:
    lines = [
        "Organisation registry table (registry.tsv.gz): derived data, built by",
        "`python -m kg.orgs.build_registry` from the sources below.",
        "",
        "Contains ROR data (CC0); locations from GeoNames (CC BY).",
        "  Research Organization Registry (https://ror.org), CC0 1.0 public domain dedication.",
        "  Locations: GeoNames (https://www.geonames.org), CC BY 4.0.",
        f"  source: {ror.name} (sha256 {_digest(ror)}), {len(records)} records,",
        f"  newest record modified {_newest(records) or 'unknown'}.",
    ]
    if universities:
        lines += [
            "",
            "Universities and their e-mail domains from Hipo's university-domains-list",
            "(https://github.com/Hipo/university-domains-list),",
            f"  source: {universities.name} (sha256 {_digest(universities)}); {added} universities ROR lacks",
            "  are rows without a ROR id.",
            "",
            "MIT License",
            "",
            "Copyright (c) 2014-2025 Hipo",
            "",
            "Permission is hereby granted, free of charge, to any person obtaining a copy of this software and",
            'associated documentation files (the "Software"), to deal in the Software without restriction,',
            "including without limitation the rights to use, copy, modify, merge, publish, distribute, sublicense,",
            "and/or sell copies of the Software, and to permit persons to whom the Software is furnished to do",
            "so, subject to the following conditions:",
            "",
            "The above copyright notice and this permission notice shall be included in all copies or substantial",
            "portions of the Software.",
            "",
            'THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND, EXPRESS OR IMPLIED, INCLUDING BUT',
            "NOT LIMITED TO THE WARRANTIES OF MERCHANTABILITY, FITNESS FOR A PARTICULAR PURPOSE AND",
            "NONINFRINGEMENT. IN NO EVENT SHALL THE AUTHORS OR COPYRIGHT HOLDERS BE LIABLE FOR ANY CLAIM, DAMAGES",
            "OR OTHER LIABILITY, WHETHER IN AN ACTION OF CONTRACT, TORT OR OTHERWISE, ARISING FROM, OUT OF OR IN",
            "CONNECTION WITH THE SOFTWARE OR THE USE OR OTHER DEALINGS IN THE SOFTWARE.",
        ]
    return "\n".join(lines) + "\n"


def version_line(ror: Path, records: list[dict], universities: Path | None) -> str:
    """The registry version the dataset description states (and the table's first line).

    >>> records = [{"admin": {"last_modified": {"date": "2026-06-23"}}}, {}]
    >>> version_line(Path("ror-v2.jsonl.gz"), records, Path("world-universities-and-domains.json.gz"))
    'ROR ror-v2.jsonl.gz, 2 records, newest 2026-06-23; universities list world-universities-and-domains.json.gz'
    """
    line = f"ROR {ror.name}, {len(records)} records, newest {_newest(records) or 'unknown'}"
    return f"{line}; universities list {universities.name}" if universities else line


def build(ror: Path, universities: Path | None, out: Path) -> tuple[int, int]:
    records = list(read_ror(ror))
    rows = [row for row in map(ror_row, records) if row is not None]
    without_hosting_domains(rows)
    added = merge_universities(rows, read_universities(universities)) if universities else 0
    rows.sort(key=lambda row: (row.id == "", row.id, row.country, row.name))
    out.mkdir(parents=True, exist_ok=True)
    header = f"# {version_line(ror, records, universities)}\n" + "\t".join(TABLE_COLUMNS) + "\n"
    body = header + "".join(row.line() + "\n" for row in rows)
    # mtime 0: the same sources give the same bytes
    with open(out / TABLE_NAME, "wb") as raw, gzip.GzipFile(fileobj=raw, mode="wb", mtime=0, compresslevel=9) as table:
        table.write(body.encode("utf-8"))
    (out / NOTICE_NAME).write_text(notice(ror, records, universities, added), encoding="utf-8")
    return len(rows), added


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m kg.orgs.build_registry", description=__doc__.split("\n\n")[0])
    parser.add_argument("ror", type=Path, help="ROR records: JSON lines (.jsonl[.gz]), JSON array, or ROR's zip dump")
    parser.add_argument("universities", type=Path, nargs="?", help="world_universities_and_domains.json[.gz]")
    parser.add_argument("--out", type=Path, default=DATA_DIR, help="folder of the table and NOTICE")
    args = parser.parse_args(argv)
    rows, added = build(args.ror, args.universities, args.out)
    print(f"{rows} organisations ({added} from the universities list) -> {args.out / TABLE_NAME}")


if __name__ == "__main__":
    main()
