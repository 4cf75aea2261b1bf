"""LangChain agentevals' trajectory match verdicts, for the parity tests of src/metrics/trajectory/match.ts.

The functions below are re-typed from langchain-ai/agentevals, python/agentevals/trajectory/utils.py
(_normalize_tool_call, _extract_tool_calls, _is_trajectory_superset, _exact_match, _subset_match, _superset_match,
_ignore_match, _get_matcher_for_comparison_mode, _get_partial_matcher_on_keys, _get_matcher_for_tool_name) and the
_scorer of strict.py, unordered.py, subset.py and superset.py (as dispatched by match.py's
create_trajectory_match_evaluator), with the message normalization through langchain_core left out: the harness
builds OpenAI-format messages itself, one assistant message per tool call, as needlework's adaptation does for
trajectories without a message outline (seed 002 steps, which is what the parity test gives). Trajectories read from
chat logs keep their messages' outline, and their strict match is checked against the agentevals JS package itself
(test/metrics/trajectory-agentevals.test.ts); strict_scorer below already compares whole message lists the same way.

Input (stdin): {"cases": [{"actual": [{"name", "args"}], "reference": [...], "mode", "tool_args",
"overrides": {tool: mode | [keys]} | null}]}. Output: a JSON list of verdicts (true/false).
"""
import json
import sys


def _normalize_tool_call(tool_call: dict) -> dict:
    if "function" in tool_call:
        return {
            "name": tool_call["function"]["name"],
            "args": json.loads(tool_call["function"]["arguments"]),
        }
    else:
        return tool_call


def _extract_tool_calls(messages):
    tool_calls = []
    for message in messages:
        if "tool_calls" in message:
            normalized_tool_calls = [
                _normalize_tool_call(tool_call)
                for tool_call in message["tool_calls"] or []
            ]
            tool_calls.extend(normalized_tool_calls)
    return tool_calls


def _is_trajectory_superset(outputs, reference_outputs, tool_args_match_mode, tool_args_match_overrides=None):
    output_tool_calls = _extract_tool_calls(outputs)
    reference_tool_calls = _extract_tool_calls(reference_outputs)
    matched_reference_calls = set()
    for ref_idx, ref_call in enumerate(reference_tool_calls):
        ref_name = ref_call["name"]
        ref_args = ref_call["args"]
        found_match = False
        for out_idx, out_call in enumerate(output_tool_calls):
            out_name = out_call["name"]
            if ref_name != out_name:
                continue
            if out_idx in matched_reference_calls:
                continue
            matcher = _get_matcher_for_tool_name(ref_name, tool_args_match_mode, tool_args_match_overrides)
            out_args = out_call["args"]
            if matcher(out_args, ref_args):
                matched_reference_calls.add(out_idx)
                found_match = True
                break
        if not found_match:
            return False, "missing"
    return True, None


def _exact_match(tool_call, reference_tool_call):
    return tool_call == reference_tool_call


def _subset_match(tool_call, reference_tool_call):
    return all(
        key in reference_tool_call and reference_tool_call[key] == value
        for key, value in tool_call.items()
    )


def _superset_match(tool_call, reference_tool_call):
    return all(
        key in tool_call and tool_call[key] == value
        for key, value in reference_tool_call.items()
    )


def _ignore_match(tool_call, reference_tool_call):
    return True


def _get_matcher_for_comparison_mode(mode):
    if mode == "exact":
        return _exact_match
    elif mode == "subset":
        return _subset_match
    elif mode == "superset":
        return _superset_match
    else:
        return _ignore_match


def _get_partial_matcher_on_keys(keys):
    def get_nested_value(d, key_path):
        current = d
        for part in key_path.split("."):
            if not isinstance(current, dict):
                return None
            current = current.get(part)
            if current is None:
                return None
        return current

    def matcher(output_call, reference_call):
        return all(
            get_nested_value(output_call, key) == get_nested_value(reference_call, key)
            for key in keys
        )

    return matcher


def _get_matcher_for_tool_name(tool_call_name, tool_args_match_mode, tool_args_match_overrides):
    matcher = _get_matcher_for_comparison_mode(tool_args_match_mode)
    if tool_args_match_overrides is not None and tool_args_match_overrides.get(tool_call_name, False):
        override = tool_args_match_overrides.get(tool_call_name)
        if isinstance(override, str):
            matcher = _get_matcher_for_comparison_mode(override)
        elif callable(override):
            matcher = override
        elif isinstance(override, list):
            matcher = _get_partial_matcher_on_keys(override)
        else:
            raise ValueError(f"Invalid tool args match override: {override}")
    return matcher


def strict_scorer(*, outputs, reference_outputs, tool_args_match_mode, tool_args_match_overrides=None):
    if len(outputs) != len(reference_outputs):
        return False
    for output, reference_output in zip(outputs, reference_outputs):
        if output["role"] != reference_output["role"]:
            return False
        elif ("tool_calls" in output and output["tool_calls"] is not None) != (
            "tool_calls" in reference_output and reference_output["tool_calls"] is not None
        ):
            return False
        elif "tool_calls" in output and output["tool_calls"] is not None:
            if len(output["tool_calls"]) != len(reference_output["tool_calls"]):
                return False
            remaining_reference_calls = reference_output["tool_calls"].copy()
            for output_call in output["tool_calls"]:
                found_match = False
                for reference_call in remaining_reference_calls:
                    if output_call["function"]["name"] == reference_call["function"]["name"]:
                        matcher = _get_matcher_for_tool_name(
                            output_call["function"]["name"], tool_args_match_mode, tool_args_match_overrides
                        )
                        if matcher(
                            json.loads(output_call["function"]["arguments"]),
                            json.loads(reference_call["function"]["arguments"]),
                        ):
                            found_match = True
                            remaining_reference_calls.remove(reference_call)
                            break
                if not found_match:
                    return False
    return True


def unordered_scorer(*, outputs, reference_outputs, tool_args_match_mode, tool_args_match_overrides=None):
    return _is_trajectory_superset(outputs, reference_outputs, tool_args_match_mode, tool_args_match_overrides)[0] and \
        _is_trajectory_superset(reference_outputs, outputs, tool_args_match_mode, tool_args_match_overrides)[0]


def subset_scorer(*, outputs, reference_outputs, tool_args_match_mode, tool_args_match_overrides=None):
    return _is_trajectory_superset(reference_outputs, outputs, tool_args_match_mode, tool_args_match_overrides)[0]


def superset_scorer(*, outputs, reference_outputs, tool_args_match_mode, tool_args_match_overrides=None):
    return _is_trajectory_superset(outputs, reference_outputs, tool_args_match_mode, tool_args_match_overrides)[0]


SCORERS = {"strict": strict_scorer, "unordered": unordered_scorer, "subset": subset_scorer, "superset": superset_scorer}


def messages(calls):
    # One assistant message per tool call, arguments as the JSON string OpenAI messages carry.
    return [
        {"role": "assistant", "content": "", "tool_calls": [
            {"id": "", "type": "function", "function": {"name": c["name"], "arguments": json.dumps(c["args"])}}
        ]}
        for c in calls
    ]


def main():
    data = json.load(sys.stdin)
    out = []
    for case in data["cases"]:
        scorer = SCORERS[case["mode"]]
        out.append(bool(scorer(
            outputs=messages(case["actual"]),
            reference_outputs=messages(case["reference"]),
            tool_args_match_mode=case["tool_args"],
            tool_args_match_overrides=case.get("overrides"),
        )))
    json.dump(out, sys.stdout)


if __name__ == "__main__":
    main()
