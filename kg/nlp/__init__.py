"""Topics and research artifacts of a paper, found with small rule components on spacy.blank("en").

``analyse(title, abstract, summary, keywords)`` returns the topics of the scheme in
ontology/topics.ttl the paper is about (with the words matched and where; broader topics are left to
the scheme's skos:broader) and the named artifacts it introduces. The spaCy pipeline is built once per process. No
trained pipeline is used, even if one is installed, so the graph is the same on every machine.
"""

from __future__ import annotations

from .analysis import Analysis, Artifact, TopicAssignment, analyse, pipeline

__all__ = ["Analysis", "Artifact", "TopicAssignment", "analyse", "pipeline"]
