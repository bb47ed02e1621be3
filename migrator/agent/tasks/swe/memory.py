"""Episodic memory (PMCoder §III-C): nodes for what the agent observed, a code graph built from the
trajectory, and a budgeted working set chosen by beam search over MMR gains.

    g(v) = λ · rel(v) − (1 − λ) · max_{u ∈ S} sim(v, u),    rel(v) = w_c · lex(v) + w_g · graph(v)

`lex` is IDF-weighted overlap with the anchor words (the active sub-task, the phase, the issue's
rarest words and the files in focus); `graph` is proximity in a file graph built from the
trajectory (files touched in one step, Python imports read from files the agent opened, files of
consecutive steps); `sim` is IDF-weighted Jaccard. The phase picks the budget and weights
(Table II: 20k/16k/12k/16k/20k tokens for reproduce(explore)/localize/edit/verify/backtrack;
implementation is graph-weighted); λ = 0.7; nodes are capped at 4,000 characters.

Nodes come from this episode's observations that the prompt's recent window no longer shows, and
from earlier episodes: experiences the knowledge base returned (causal, leakage-guarded), whose
touched files put them on the same graph. Memory is grounded in what ran: a node's files are
those of the executed action, never what the model said it did.
"""

from __future__ import annotations

import ast
import math
import re
from collections import Counter, defaultdict, deque
from dataclasses import dataclass, field

LAMBDA = 0.7
NODE_CAP = 4000
BEAM_WIDTH = 3
MAX_ITEMS = 12
MIN_RELEVANCE = 0.05
DEFAULT_POLICY = (16000, 0.5, 0.5)  # memory without the planner: the 16k default
PHASE_POLICY = {  # phase -> (budget in tokens, lexical weight, graph weight)
    "reproduce": (20000, 0.5, 0.5),
    "localize": (16000, 0.5, 0.5),
    "edit": (12000, 0.3, 0.7),
    "verify": (16000, 0.5, 0.5),
    "backtrack": (20000, 0.5, 0.5),
}
_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]{2,}")
_FILE = re.compile(r"\bfile:(\S+)")
_IMPORT = re.compile(r"^\s*(?:from\s+([\w.]+)\s+import|import\s+([\w.]+))", re.MULTILINE)
STOP = frozenset(
    "the and for with that this from not are was were but have has had into when then than def self".split()
)


def words(text: str) -> frozenset[str]:
    """Identifiers and words, lower-cased, with snake_case parts added."""
    out = set()
    for token in _WORD.findall(text):
        low = token.lower()
        out.add(low)
        out.update(p for p in low.split("_") if len(p) > 2)
    return frozenset(out - STOP)


@dataclass
class MemoryNode:
    key: str  # "step:7" or "kb:12"
    kind: str  # "observation" | "past"
    text: str
    files: tuple[str, ...] = ()
    step: int | None = None
    edited: bool = False
    label: str = ""
    _words: frozenset[str] | None = field(default=None, repr=False)

    def __post_init__(self) -> None:
        self.text = self.text[:NODE_CAP]

    @property
    def tokens(self) -> int:
        return len(self.text) // 4 + 1

    @property
    def words(self) -> frozenset[str]:
        if self._words is None:
            self._words = words(self.label + " " + self.text + " " + " ".join(self.files))
        return self._words


def past_files(text: str) -> tuple[str, ...]:
    """The files an earlier episode touched, as its experience records them (`file:<path>`)."""
    return tuple(dict.fromkeys(_FILE.findall(text)))


class CodeGraph:
    def __init__(self) -> None:
        self.edges: dict[str, set[str]] = defaultdict(set)

    def link(self, a: str, b: str) -> None:
        if a != b:
            self.edges[a].add(b)
            self.edges[b].add(a)

    def observe(self, files: tuple[str, ...], previous: tuple[str, ...]) -> None:
        """Same-step co-occurrence and trajectory adjacency."""
        for i, a in enumerate(files):
            for b in files[i + 1 :] + previous:
                self.link(a, b)

    def add_imports(self, path: str, source: str, exists) -> None:
        """Import edges of a Python file the agent read (AST; a regex when it does not parse)."""
        for module in imported_modules(source):
            parts = module.split(".")
            for candidate in ("/".join(parts) + ".py", "/".join(parts) + "/__init__.py"):
                if exists(candidate):
                    self.link(path, candidate)
                    break

    def proximity(self, files: tuple[str, ...], anchors: tuple[str, ...], limit: int = 3) -> float:
        best = 0.0
        for a in anchors:
            dist = self._distances(a, limit)
            for f in files:
                if f in dist:
                    best = max(best, 1.0 / (1 + dist[f]))
        return best

    def _distances(self, start: str, limit: int) -> dict[str, int]:
        dist, queue = {start: 0}, deque([start])
        while queue:
            node = queue.popleft()
            if dist[node] >= limit:
                continue
            for nxt in self.edges.get(node, ()):
                if nxt not in dist:
                    dist[nxt] = dist[node] + 1
                    queue.append(nxt)
        return dist


def imported_modules(source: str) -> list[str]:
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError):
        return [a or b for a, b in _IMPORT.findall(source)]
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            found.append(node.module)
    return found


@dataclass(frozen=True)
class Policy:
    budget: int
    lexical: float
    graph: float
    lam: float = LAMBDA


def policy_for(phase: str | None) -> Policy:
    budget, lex, graph = PHASE_POLICY.get(phase, DEFAULT_POLICY) if phase else DEFAULT_POLICY
    return Policy(budget, lex, graph)


def idf_table(nodes: list[MemoryNode]) -> dict[str, float]:
    df = Counter(w for n in nodes for w in n.words)
    n = len(nodes)
    return {w: math.log(1 + n / (1 + c)) + 0.1 for w, c in df.items()}


def _weighted(ws, idf) -> float:
    # fsum is exactly rounded whatever the order: a frozenset's order changes with the hash seed,
    # and equal gains must stay equal for the tie-break in `select` to be deterministic
    return math.fsum(idf.get(w, 1.0) for w in ws)


def jaccard(a: frozenset[str], b: frozenset[str], idf: dict[str, float]) -> float:
    union = _weighted(a | b, idf)
    return _weighted(a & b, idf) / union if union else 0.0


def select(
    candidates: list[MemoryNode],
    anchor: frozenset[str],
    anchor_files: tuple[str, ...],
    graph: CodeGraph,
    policy: Policy,
) -> list[tuple[MemoryNode, float]]:
    """The working set: a beam search over MMR gains within the token budget. Returns (node, rel)
    in selection order."""
    idf = idf_table(candidates)
    total = _weighted(anchor, idf) or 1.0
    rel = {}
    for node in candidates:
        lex = _weighted(anchor & node.words, idf) / total
        rel[node.key] = policy.lexical * lex + policy.graph * graph.proximity(node.files, anchor_files)
    pool = [n for n in candidates if rel[n.key] >= MIN_RELEVANCE and n.tokens <= policy.budget]
    beams: list[tuple[tuple[MemoryNode, ...], float, int]] = [((), 0.0, 0)]
    best = beams[0]
    for _ in range(MAX_ITEMS):
        grown: dict[frozenset[str], tuple[tuple[MemoryNode, ...], float, int]] = {}
        prefix: dict[frozenset[str], float] = {}
        for chosen, gain, cost in beams:
            keys = {c.key for c in chosen}
            for node in pool:
                if node.key in keys or cost + node.tokens > policy.budget:
                    continue
                redundancy = max((jaccard(node.words, c.words, idf) for c in chosen), default=0.0)
                g = policy.lam * rel[node.key] - (1 - policy.lam) * redundancy
                if g <= 0:
                    continue
                sig = frozenset(keys | {node.key})
                # the same set reached in another order: keep the larger total, and on a tie the
                # path whose prefix gained more (the order a greedy MMR would have picked)
                if sig not in grown or (grown[sig][1], prefix[sig]) < (gain + g, gain):
                    grown[sig] = (chosen + (node,), gain + g, cost + node.tokens)
                    prefix[sig] = gain
        if not grown:
            break
        beams = sorted(grown.values(), key=lambda b: (-b[1], [c.key for c in b[0]]))[:BEAM_WIDTH]
        if beams[0][1] > best[1]:
            best = beams[0]
    return [(n, rel[n.key]) for n in best[0]]
