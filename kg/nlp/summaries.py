"""Artifacts a Chinese summary says the paper introduces ("提出MLUBench基准" -> MLUBench, benchmark)."""

from __future__ import annotations

import re

from .artifact_names import ArtifactNames, Found, name_like
from .words import ZH_TYPES

ZH_INTRODUCING = re.compile(r"提出|构建|引入|设计了|发布|开发|推出")
LATIN_NAME = re.compile(r"[A-Za-z][A-Za-z0-9]*(?:[-.][A-Za-z0-9]+)*(?: [A-Za-z][A-Za-z0-9]*(?:[-.][A-Za-z0-9]+)*)*")
ZH_CLAUSE_END = re.compile(r"[，,。；;：:]")


def _zh_type(rest: str) -> str | None:
    """The first type word of the clause after a name (or of the next, when it is "一种…" apposition)."""
    clause, _, following = rest.partition("，") if "，" in rest else (rest, "", "")
    clause = ZH_CLAUSE_END.split(clause)[0]
    if not clause.strip() and following.startswith(("一种", "一个")):
        clause = ZH_CLAUSE_END.split(following)[0]
    hits = [(clause.find(word), kind) for word, kind in ZH_TYPES if word in clause]
    return min(hits)[1] if hits else None


def summary_artifacts(summary: str, names: ArtifactNames) -> list[Found]:
    """Artifacts a Chinese summary says the paper introduces ("提出MLUBench基准" -> MLUBench, benchmark)."""
    found: list[Found] = []
    for sentence in re.split(r"[。；;]", summary):
        cues = list(ZH_INTRODUCING.finditer(sentence))
        if not cues:
            continue
        spots = []
        for cue in cues:
            tail = sentence[cue.end() :].lstrip()
            if match := LATIN_NAME.match(tail):
                spots.append((match.group(), tail[match.end() :]))
        tail = sentence[cues[0].end() :]
        for inner in re.finditer(r"[（(]\s*(" + LATIN_NAME.pattern + r")\s*[）)]", tail):
            spots.append((inner.group(1), tail[inner.end() :]))
        for name, rest in spots:
            parts = re.split(r"[\s\-]+", name)
            if name_like(parts) and names.allowed(name):
                found.append(Found(name, _zh_type(rest)))
    return found
