"""What the topic and artifact evaluations count, shared by the real-paper and the synthetic gold sets.

- topic precision: assigned topics that are a gold topic or broader than one, over all assigned
  (what a paper's ``dcterms:subject`` would hold);
- main topics missing: gold topics neither assigned nor reached from an assigned narrower topic
  by ``skos:broader``, per paper;
- artifacts: (paper, artifact) pairs; a found artifact matches a gold one when any of its names
  (name or long form) has the match key of any of the gold one's names.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from kg.nlp.analysis import Analysis
from kg.nlp.scheme import topic_scheme
from kg.text.names import match_key


@dataclass(frozen=True)
class GoldArtifact:
    names: tuple[str, ...]  # short name first, then the long form if the paper gives one
    kind: str

    def keys(self) -> set[str]:
        return {match_key(name) for name in self.names}


@dataclass
class Tally:
    papers: int = 0
    assigned: int = 0
    correct: int = 0
    missing: int = 0
    artifact_tp: int = 0
    artifact_fp: int = 0
    artifact_fn: int = 0
    typed: int = 0
    errors: list[str] = field(default_factory=list)

    def add(self, key: str, gold_topics: set[str], gold_artifacts: list[GoldArtifact], analysis: Analysis) -> None:
        scheme = topic_scheme()
        assigned = {t.slug for t in analysis.topics}
        allowed = scheme.closure(gold_topics)
        self.papers += 1
        self.assigned += len(assigned)
        self.correct += len(assigned & allowed)
        missing = gold_topics - scheme.closure(assigned)
        self.missing += len(missing)
        self.errors += [f"{key}: wrong topic {slug}" for slug in sorted(assigned - allowed)]
        self.errors += [f"{key}: missing topic {slug}" for slug in sorted(missing)]
        unmatched = list(gold_artifacts)
        for artifact in analysis.artifacts:
            keys = {match_key(artifact.name)} | ({match_key(artifact.long_form)} if artifact.long_form else set())
            gold = next((g for g in unmatched if g.keys() & keys), None)
            if gold is None:
                self.artifact_fp += 1
                self.errors.append(f"{key}: extra artifact {artifact.name} ({artifact.kind})")
                continue
            unmatched.remove(gold)
            self.artifact_tp += 1
            self.typed += artifact.kind == gold.kind
            if artifact.kind != gold.kind:
                self.errors.append(f"{key}: artifact {artifact.name} typed {artifact.kind}, gold {gold.kind}")
        self.artifact_fn += len(unmatched)
        self.errors += [f"{key}: missed artifact {g.names[0]} ({g.kind})" for g in unmatched]

    def figures(self) -> dict[str, float]:
        found = self.artifact_tp + self.artifact_fp
        gold = self.artifact_tp + self.artifact_fn
        return {
            "papers": self.papers,
            "topics_per_paper": self.assigned / self.papers if self.papers else 0.0,
            "topic_precision": self.correct / self.assigned if self.assigned else 1.0,
            "missing_per_paper": self.missing / self.papers if self.papers else 0.0,
            "artifact_precision": self.artifact_tp / found if found else 1.0,
            "artifact_recall": self.artifact_tp / gold if gold else 1.0,
            "type_accuracy": self.typed / self.artifact_tp if self.artifact_tp else 1.0,
        }

    def lines(self) -> list[str]:
        f = self.figures()
        return [
            f"topics per paper        {f['topics_per_paper']:.2f}",
            f"topic precision         {f['topic_precision']:.2f}  (correct / all assigned)",
            f"main topics missing     {f['missing_per_paper']:.2f}  per paper",
            f"introduced artifacts    P {f['artifact_precision']:.2f}  R {f['artifact_recall']:.2f}"
            f"  type accuracy {f['type_accuracy']:.2f}",
        ]
