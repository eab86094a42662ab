"""What the benchmarks that build a synthetic conference share: the kg beside this Python, the
``--papers`` and ``--seed`` arguments, and the corpus ``kg synth`` writes."""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

KG = Path(sys.executable).with_name("kg")


def corpus_arguments(description: str, papers: int, seed: int) -> argparse.ArgumentParser:
    """An argument parser with ``--papers`` and ``--seed`` of the synthetic corpus, and these defaults."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--papers", type=int, default=papers)
    parser.add_argument("--seed", type=int, default=seed)
    return parser


def write_corpus(papers: int, seed: int, path: Path, env: dict[str, str] | None = None) -> Path:
    """``kg synth``'s corpus of ``papers`` papers at ``path`` (quiet when given an environment)."""
    subprocess.run(
        [KG, "synth", "--papers", str(papers), "--seed", str(seed), "--out", path],
        check=True,
        env=env,
        capture_output=env is not None,
    )
    return path
