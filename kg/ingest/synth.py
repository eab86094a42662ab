"""A synthetic corpus in either input format, for benchmarks and scale tests.

The text is written the way the readers in :mod:`kg.ingest.formats` expect real listings, with
distributions shaped like real ones: authors drawn from a Zipf-like law (a few authors on
many papers, half on one), 1-15 authors per paper (mostly 3-6), 1-4 institutions with
Chinese names in full-width brackets, Chinese titles (sometimes missing or repeating the
English one), Chinese summaries (sometimes empty), and Comments / Journal ref of every kind
the samples show: workshops by name and acronym, oral/spotlight/contributed talk, position
papers, page/figure/table counts, PMLR volumes, code and project pages, poster pages,
non-archival. The same seed always gives the same bytes; papers are generated one at a time,
so any size streams in constant memory.
"""

from __future__ import annotations

import bisect
import itertools
import random
from array import array
from dataclasses import dataclass
from typing import Iterator, TextIO

from .synth_structured import STRUCTURED, write_structured

FORMATS = ("listing", "abstracts", *STRUCTURED)
VENUE = "ICML"
YEAR = 2026

_FIRST = (
    "Wei Yang Jing Xin Hao Yu Lei Min Jun Tao Chen Li Ming Hui Yan Rui Jie Kai Bo Lin "
    "Daniel Maria David Anna Michael Sarah Thomas Laura James Elena Robert Julia Lukas Sofia "
    "Hiroshi Yuki Takumi Akira Ji-woon Min-seo Arjun Priya Rahul Ananya Omar Leila Ahmed "
    "Gerhard Niklas Balázs José Zoë Søren Andrés François Ivan Olga Tomasz Ewa Kofi Amara"
).split()
_LAST = (
    "Wang Li Zhang Liu Chen Yang Huang Zhao Wu Zhou Xu Sun Ma Zhu Hu Guo He Lin Luo Gao "
    "Smith Johnson Brown Miller Garcia Martinez Müller Schmidt Schneider Fischer Weber Rossi "
    "Russo Dubois Moreau Novak Kowalski Ivanov Petrov Tanaka Suzuki Sato Kim Park Lee Choi "
    "Singh Patel Sharma Gupta Khan Hossain Okafor Mensah Silva Santos Pereira Costa Nguyen Tran"
).split()
_INSTITUTIONS = (
    ("Tsinghua University", "清华大学"),
    ("Peking University", "北京大学"),
    ("University of Science and Technology of China", "中国科学技术大学"),
    ("Zhejiang University", "浙江大学"),
    ("Shanghai Jiao Tong University", "上海交通大学"),
    ("Fudan University", "复旦大学"),
    ("Nanjing University", "南京大学"),
    ("Sun Yat-sen University", "中山大学"),
    ("Harbin Institute of Technology", "哈尔滨工业大学"),
    ("Wuhan University", "武汉大学"),
    ("Stanford University", "斯坦福大学"),
    ("Massachusetts Institute of Technology", "麻省理工学院"),
    ("Carnegie Mellon University", "卡内基梅隆大学"),
    ("University of California, Berkeley", "加州大学伯克利分校"),
    ("UIUC", "伊利诺伊大学厄巴纳-香槟分校"),
    ("Caltech", "加州理工学院"),
    ("University of Cambridge", "剑桥大学"),
    ("University of Oxford", "牛津大学"),
    ("ETH Zurich", "苏黎世联邦理工学院"),
    ("LMU Munich", "慕尼黑大学"),
    ("University of Toronto", "多伦多大学"),
    ("Mila", "魁北克人工智能研究所"),
    ("Google DeepMind", "谷歌DeepMind"),
    ("Microsoft Research", "微软研究院"),
    ("National University of Singapore", "新加坡国立大学"),
    ("KAIST", "韩国科学技术院"),
    ("The University of Tokyo", "东京大学"),
    ("New Jersey Institute of Technology", "新泽西理工学院"),
    ("Shanghai AI Laboratory", "上海人工智能实验室"),
    ("Alibaba Group", "阿里巴巴集团"),
    ("Department of Computer Science, University of Hong Kong", "香港大学计算机科学系"),
    ("Max Planck Institute for Intelligent Systems", None),
    ("Allen Institute for AI", None),
)
_TOPICS = (
    ("Large Language Models", "大语言模型"),
    ("Reinforcement Learning", "强化学习"),
    ("Diffusion Models", "扩散模型"),
    ("Graph Neural Networks", "图神经网络"),
    ("Continual Learning", "持续学习"),
    ("Machine Unlearning", "机器遗忘"),
    ("Time-Series Forecasting", "时间序列预测"),
    ("Multimodal Alignment", "多模态对齐"),
    ("Federated Learning", "联邦学习"),
    ("Causal Inference", "因果推断"),
    ("Protein Design", "蛋白质设计"),
    ("Robot Manipulation", "机器人操作"),
    ("Offline Optimization", "离线优化"),
    ("Uncertainty Estimation", "不确定性估计"),
    ("Code Generation", "代码生成"),
)
_METHODS = (
    ("Scalable", "可扩展的"),
    ("Efficient", "高效的"),
    ("Robust", "鲁棒的"),
    ("Provable", "可证明的"),
    ("Adaptive", "自适应的"),
    ("Sparse", "稀疏的"),
    ("Contrastive", "对比式的"),
    ("Lifelong", "终身的"),
)
_THINGS = (
    ("Benchmark", "基准"),
    ("Framework", "框架"),
    ("Attention", "注意力机制"),
    ("Alignment", "对齐方法"),
    ("Evaluation", "评估方法"),
    ("Planning", "规划方法"),
    ("Representations", "表示学习"),
)
_SYLLABLES = "Ka Ro Zen Mi Lu Tor Vex Qi Sol Na Dra Fen Ix Pa Gor Ul Be Cy Ho Ta".split()
_SUFFIXES = ("Bench", "Net", "Former", "GPT", "", "", "-X", "Flow")
_WORKSHOPS = (
    ("Combining Theory and Benchmarks", "CTB"),
    ("Machine Learning for Audio", "MLA"),
    ("Epistemic Intelligence in Machine Learning", "EIML"),
    ("AI for Social Good", "AI4GOOD"),
    ("Generative Models for Biology", "GenBio"),
    ("Foundation Models for Life Sciences", "FM4LS"),
    ("Structured Probabilistic Inference & Generative Modeling", "SPIGM"),
    ("Efficient Systems for Foundation Models", "ES-FoMo"),
)
_SUMMARY_PARTS = (
    "提出{name}方法，",
    "针对{topic}中的关键挑战，",
    "在多个基准上取得了最优性能，",
    "揭示了现有方法的局限性，",
    "理论分析表明该方法具有收敛保证，",
    "显著降低了计算开销。",
    "为后续研究提供了新的视角。",
)
_ABSTRACT_SENTENCES = (
    "{topic} has become central to modern machine learning, yet existing approaches scale poorly.",
    "In this work, we introduce {name}, an approach to {topic_lower} that is {method} and avoids costly retraining.",
    (
        "We show that {name} reduces the computational cost by a factor of {factor} while matching the "
        "accuracy of strong baselines."
    ),
    (
        "Our analysis reveals that the gap between training and deployment is driven by distribution "
        "shift rather than model capacity."
    ),
    (
        "Extensive experiments on {datasets} real-world datasets demonstrate consistent improvements "
        "over the state of the art."
    ),
    "We further provide theoretical guarantees on convergence under mild assumptions on the data distribution.",
    "These results suggest that {method} methods are a practical path towards reliable {topic_lower} at scale.",
)


@dataclass(slots=True)
class SynthPaper:
    """One generated paper: what the listing says about it."""

    title: str
    title_zh: str | None
    authors: list[str]
    institutions: list[tuple[str, str | None]]
    summary_zh: str | None
    comments: str | None
    journal_ref: str | None
    abstract: str
    code_url: str | None = None


class _Zipf:
    """Draws indexes 0..n-1 with probability proportional to 1/(i+1)**s (heavy-tailed)."""

    def __init__(self, n: int, s: float):
        self.cumulative = array("d", itertools.accumulate(1 / (i + 1) ** s for i in range(n)))

    def draw(self, rng: random.Random) -> int:
        return bisect.bisect(self.cumulative, rng.random() * self.cumulative[-1])


def _author_name(index: int) -> str:
    """A distinct name per index (middle initials once first x last names run out).

    Indexes are spread over the name grid by a multiplier coprime to its size, so the
    prolific authors (small indexes) do not all share one surname.
    """
    grid = len(_FIRST) * len(_LAST)
    round_, cell = divmod(index, grid)
    cell = (cell * 7919) % grid
    first, last = _FIRST[cell % len(_FIRST)], _LAST[cell // len(_FIRST)]
    if round_ == 0:
        return f"{first} {last}"
    initials = ""
    while round_:
        round_, letter = divmod(round_ - 1, 26)
        initials = chr(65 + letter) + ". " + initials
    return f"{first} {initials}{last}"


def _acronym(index: int, rng: random.Random) -> str:
    """A unique made-up method name per paper index, so titles (and paper IRIs) never collide."""
    parts = []
    number = index
    while True:
        number, digit = divmod(number, len(_SYLLABLES))
        parts.append(_SYLLABLES[digit])
        if number == 0:
            break
        number -= 1
    word = "".join(parts)
    return word[0].upper() + word[1:].lower() + rng.choice(_SUFFIXES)


def _author_count(rng: random.Random) -> int:
    """1-15 authors, most papers 3-6 (a clipped log-normal, like real bylines)."""
    return max(1, min(15, round(rng.lognormvariate(1.45, 0.45))))


def _comments(rng: random.Random, name: str) -> tuple[str | None, str | None]:
    """Comments and Journal ref in one of the shapes real listings use."""
    venue = f"{VENUE} {YEAR}"
    workshop, acronym = rng.choice(_WORKSHOPS)
    pages, figures, tables = rng.randint(6, 40), rng.randint(1, 15), rng.randint(1, 9)
    user, repo = rng.choice(_LAST).lower() + str(rng.randint(1, 99)), name.lower()
    shapes = (
        f"{pages} pages, accepted to the {venue}",
        f"{venue} ({acronym} Workshop)",
        f"Accepted as an Oral (Contributed Talk) at the {venue} Workshop on {workshop} ({acronym})",
        (
            f"{pages} pages ({rng.randint(4, 9)} are main text), {figures} figures, {tables} tables. "
            f"Accepted to the {acronym} Workshop at {venue}"
        ),
        f"Accepted at the 43rd International Conference on Machine Learning ({venue})",
        f"Accepted at {venue} {acronym} Workshop. Code available at https://github.com/{user}/{repo}",
        f"This paper is accepted by the {venue} Position Track",
        f"Accepted at {venue} as a Spotlight (Top 5%) Position Paper",
        f"{venue} Workshop on {workshop} (Oral)",
        f"{venue}. Project page: https://{user}.github.io/{repo}/",
        f"{acronym}@{VENUE}",
        f"Accepted at The 2nd Workshop on {workshop}, {acronym}@{venue}, (non-archival)",
        f"Accepted at {venue}. To appear in PMLR vol. 306",
        f"{pages} pages, 1 figure, {venue} Position Paper",
        f"{pages} pages, {figures} figures, {tables} tables",
        f"Published as a conference paper at {venue}",
        f"Accepted to {venue} (Position Paper Track)",
        f"Accepted at {venue} (Spotlight). Code: https://github.com/{user}/{repo}",
        venue,
    )
    comments = rng.choice(shapes) if rng.random() < 0.9 else None
    journal_ref = None
    roll = rng.random()
    if roll < 0.15:
        journal_ref = f"https://icml.cc/virtual/{YEAR}/poster/{rng.randint(40000, 99999)}"
    elif roll < 0.2:
        journal_ref = f"43rd International Conference on Machine Learning {YEAR}"
    elif roll < 0.22:
        journal_ref = f"Proceedings of the 43rd International Conference on Machine Learning, PMLR 306, {YEAR}"
    return comments, journal_ref


def papers(count: int, seed: int) -> Iterator[SynthPaper]:
    """``count`` papers, the same for the same seed."""
    rng = random.Random(seed)
    # About 2 distinct authors per paper, half of them on one paper only, the most prolific on
    # 1-2% of papers: the shape of a conference's author list.
    authors = _Zipf(max(50, count * 3), 0.5)
    institutions = _Zipf(len(_INSTITUTIONS), 0.9)
    for index in range(count):
        name = _acronym(index, rng)
        topic, topic_zh = rng.choice(_TOPICS)
        method, method_zh = rng.choice(_METHODS)
        thing, thing_zh = rng.choice(_THINGS)
        title = f"{name}: {method} {thing} for {topic}"
        roll = rng.random()
        title_zh = f"{name}：面向{topic_zh}的{method_zh}{thing_zh}" if roll < 0.85 else (title if roll < 0.9 else None)
        byline: list[str] = []
        for _ in range(_author_count(rng)):
            author = _author_name(authors.draw(rng))
            if author not in byline:
                byline.append(author)
        listed = sorted({institutions.draw(rng) for _ in range(rng.choice((1, 1, 1, 2, 2, 3, 4)))})
        summary = None
        if rng.random() < 0.9:
            parts = rng.sample(_SUMMARY_PARTS, rng.randint(0, 4))
            summary = "".join(parts).format(name=name, topic=topic_zh).rstrip("，。") + ("。" if parts else "")
        comments, journal_ref = _comments(rng, name)
        values = dict(
            name=name,
            topic=topic,
            topic_lower=topic.lower(),
            method=method.lower(),
            factor=rng.randint(2, 12),
            datasets=rng.choice(("three", "five", "six", "eight")),
        )
        sentences = [
            s.format(**values) for s in _ABSTRACT_SENTENCES[:2] + tuple(rng.sample(_ABSTRACT_SENTENCES[2:], 3))
        ]
        code_url = f"https://github.com/{byline[0].split()[-1].lower()}/{name.lower()}" if rng.random() < 0.3 else None
        if code_url:
            sentences.append(f"The code is available at [URL]({code_url}).")
        yield SynthPaper(
            title,
            title_zh,
            byline,
            [_INSTITUTIONS[i] for i in listed],
            summary,
            comments,
            journal_ref,
            " ".join(sentences),
            code_url,
        )


def listing_block(paper: SynthPaper) -> str:
    fields = [paper.title]
    if paper.title_zh:
        fields.append(paper.title_zh)
    fields.append(", ".join(paper.authors))
    if paper.institutions:
        entries = [f"{en}（{zh}）" if zh else en for en, zh in paper.institutions]
        fields.append("机构 * " + " ； ".join(entries) + " 纠错")
    if paper.summary_zh is not None:
        fields.append(f"AI总结 {paper.summary_zh}".rstrip())
    if paper.comments:
        fields.append(f"Comments {paper.comments}")
    if paper.journal_ref:
        fields.append(f"Journal ref {paper.journal_ref}")
    return "\n\n".join(fields)


def write_corpus(out: TextIO, count: int, seed: int, format_name: str = "listing") -> int:
    """Write ``count`` papers in ``format_name`` to ``out``; returns the number written."""
    if format_name not in FORMATS:
        raise ValueError(f"unknown synthetic format {format_name!r}")
    if format_name in STRUCTURED:
        return write_structured(out, papers(count, seed), format_name, YEAR)
    out.write(f"{VENUE} {YEAR}" + (" Papers" if format_name == "abstracts" else "") + "\n\n")
    written = 0
    for paper in papers(count, seed):
        out.write((listing_block(paper) if format_name == "listing" else paper.abstract) + "\n\n")
        written += 1
    return written
