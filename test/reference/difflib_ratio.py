"""Python's real difflib, for the parity tests of src/metrics/difflib.ts.

Reads a JSON list of [a, b] sequence pairs on stdin; prints a JSON list with, for each pair,
{"ratio": SequenceMatcher(None, a, b).ratio(), "blocks": get_matching_blocks() as [a, b, size] lists}.
"""
import json
import sys
from difflib import SequenceMatcher


def main():
    pairs = json.load(sys.stdin)
    out = []
    for a, b in pairs:
        m = SequenceMatcher(None, a, b)
        out.append({"ratio": m.ratio(), "blocks": [list(x) for x in m.get_matching_blocks()]})
    json.dump(out, sys.stdout)


if __name__ == "__main__":
    main()
