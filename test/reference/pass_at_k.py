"""pass@k references for the parity tests of src/metrics/stats/pass-at-k.ts. Reads a JSON list of [n, c, k] on
stdin and prints {"humaneval": [...], "exact": [...]}:

- humaneval: `estimate_pass_at_k`'s inner `estimator` from the HumanEval repository (github.com/openai/human-eval,
  human_eval/evaluation.py), re-typed; numpy as there when it is installed, else the same product in plain floats.
- exact: 1 - C(n - c, k) / C(n, k) with Python's exact integers and fractions, rounded once to a float.
"""
import json
import sys
from fractions import Fraction
from math import comb

try:
    import numpy as np
except ImportError:  # the same product, term by term, without numpy
    np = None


def estimator(n: int, c: int, k: int) -> float:
    """Calculates 1 - comb(n - c, k) / comb(n, k)."""
    if n - c < k:
        return 1.0
    if np is not None:
        return float(1.0 - np.prod(1.0 - k / np.arange(n - c + 1, n + 1)))
    product = 1.0
    for i in range(n - c + 1, n + 1):
        product *= 1.0 - k / i
    return 1.0 - product


def exact(n: int, c: int, k: int) -> float:
    return float(1 - Fraction(comb(n - c, k), comb(n, k)))


triples = json.load(sys.stdin)
json.dump({
    "humaneval": [estimator(n, c, k) for n, c, k in triples],
    "exact": [exact(n, c, k) for n, c, k in triples],
}, sys.stdout)
