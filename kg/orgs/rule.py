"""What a rule of the organisation parser is (kg.orgs.rules lists them)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Rule:
    """An id, the step it belongs to, what it does, why it exists, an entry it reads and a near-miss.

    >>> from kg.orgs.rules import BY_ID
    >>> rule = BY_ID["cut-at-semicolon"]
    >>> rule.step, rule.example, rule.near_miss
    ('entry', 'Loom University; Zorblax Institute of Technology', 'Loom University;')
    """

    id: str
    step: str
    action: str
    reason: str
    example: str
    near_miss: str
