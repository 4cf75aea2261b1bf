"""Python's json.dumps(value, sort_keys=True), for the parity tests of src/metrics/trajectory/python-json.ts.
Reads a JSON list of values on stdin; prints a JSON list of their json.dumps(v, sort_keys=True) texts."""
import json
import sys

json.dump([json.dumps(v, sort_keys=True) for v in json.load(sys.stdin)], sys.stdout)
