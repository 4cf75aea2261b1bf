"""Seed 002's reference trajectory metrics ("Trajectory-Level Evaluation": TrajectoryStep, AgentTrajectory,
step_precision, step_recall, step_f1, tool_efficiency_score, redundancy_rate, error_recovery_rate,
trajectory_similarity, tool_distribution, evaluate_trajectory_batch), re-typed from the seed with the code unchanged
(the functions' docstrings left out), for the
parity tests of src/metrics/trajectory and for bench/trajectory.bench.mjs.

Input (stdin, or the file named by --file): {"cases": [{"pred": trajectory, "gold": trajectory}, ...]}, each
trajectory in the dataclasses.asdict() layout of trajectory.json.
Output (stdout): {"python": [major, minor], "cases": [per-case metrics], "distribution": [[tool, share], ...]
over all preds and golds, "batch": evaluate_trajectory_batch(preds, golds) or null when there are no cases}.
With --time, prints {"seconds": s, "cases": n}: the time to compute every metric of every case (loading excluded).
"""
import json
import sys
import time
from dataclasses import dataclass, field, fields
from datetime import datetime
from difflib import SequenceMatcher
from typing import Any, Literal


# ---- the seed's model and functions, as written there ----

@dataclass
class TrajectoryStep:
    """A single step in an agent's execution trajectory."""
    step_id: int
    step_type: Literal["thought", "tool_call", "observation", "answer"]
    content: str                        # The thought text, tool input, or observation
    tool_name: str | None = None        # For tool_call steps
    tool_input: dict | None = None      # Parsed tool arguments
    tool_output: Any = None             # For observation steps
    timestamp: str = field(
        default_factory=lambda: datetime.utcnow().isoformat()
    )
    latency_ms: float = 0.0
    tokens_used: int = 0
    error: str | None = None            # If tool call raised an exception


@dataclass
class AgentTrajectory:
    """Complete execution record for one agent task."""
    task_id: str
    task_input: str
    steps: list[TrajectoryStep] = field(default_factory=list)
    final_answer: str | None = None
    succeeded: bool = False
    total_tokens: int = 0
    total_latency_ms: float = 0.0
    metadata: dict = field(default_factory=dict)

    def tool_calls(self) -> list[TrajectoryStep]:
        return [s for s in self.steps if s.step_type == "tool_call"]

    def unique_tools_used(self) -> set[str]:
        return {s.tool_name for s in self.tool_calls() if s.tool_name}

    def error_steps(self) -> list[TrajectoryStep]:
        return [s for s in self.steps if s.error is not None]


def step_precision(
    predicted: AgentTrajectory,
    gold: AgentTrajectory,
) -> float:
    pred_calls = [(s.tool_name, json.dumps(s.tool_input, sort_keys=True))
                  for s in predicted.tool_calls()]
    gold_calls = {(s.tool_name, json.dumps(s.tool_input, sort_keys=True))
                  for s in gold.tool_calls()}

    if not pred_calls:
        return 1.0 if not gold_calls else 0.0

    correct = sum(1 for call in pred_calls if call in gold_calls)
    return correct / len(pred_calls)


def step_recall(
    predicted: AgentTrajectory,
    gold: AgentTrajectory,
) -> float:
    pred_calls = {(s.tool_name, json.dumps(s.tool_input, sort_keys=True))
                  for s in predicted.tool_calls()}
    gold_calls = [(s.tool_name, json.dumps(s.tool_input, sort_keys=True))
                  for s in gold.tool_calls()]

    if not gold_calls:
        return 1.0

    correct = sum(1 for call in gold_calls if call in pred_calls)
    return correct / len(gold_calls)


def step_f1(predicted: AgentTrajectory, gold: AgentTrajectory) -> float:
    p = step_precision(predicted, gold)
    r = step_recall(predicted, gold)
    if p + r == 0:
        return 0.0
    return 2 * p * r / (p + r)


def tool_efficiency_score(trajectory: AgentTrajectory, gold: AgentTrajectory) -> float:
    agent_calls = len(trajectory.tool_calls())
    gold_calls = len(gold.tool_calls())

    if gold_calls == 0:
        return 1.0 if agent_calls == 0 else 0.0

    ratio = gold_calls / max(agent_calls, gold_calls)
    return ratio


def redundancy_rate(trajectory: AgentTrajectory) -> float:
    seen = set()
    duplicates = 0
    for step in trajectory.tool_calls():
        key = (step.tool_name, json.dumps(step.tool_input, sort_keys=True))
        if key in seen:
            duplicates += 1
        seen.add(key)

    total = len(trajectory.tool_calls())
    return duplicates / total if total > 0 else 0.0


def error_recovery_rate(trajectory: AgentTrajectory) -> float:
    error_steps = trajectory.error_steps()
    if not error_steps:
        return 1.0   # No errors to recover from

    recovered = 0
    step_list = trajectory.steps
    for err_step in error_steps:
        after_error = [
            s for s in step_list
            if s.step_id > err_step.step_id
            and s.step_type in ("tool_call", "answer")
            and s.error is None
        ]
        if after_error:
            recovered += 1

    return recovered / len(error_steps)


def trajectory_similarity(t1: AgentTrajectory, t2: AgentTrajectory) -> float:
    seq1 = [s.tool_name for s in t1.tool_calls()]
    seq2 = [s.tool_name for s in t2.tool_calls()]
    return SequenceMatcher(None, seq1, seq2).ratio()


def tool_distribution(trajectories: list[AgentTrajectory]) -> dict[str, float]:
    counts: dict[str, int] = {}
    total = 0
    for traj in trajectories:
        for step in traj.tool_calls():
            counts[step.tool_name] = counts.get(step.tool_name, 0) + 1
            total += 1

    if total == 0:
        return {}
    return {tool: count / total for tool, count in sorted(
        counts.items(), key=lambda x: -x[1]
    )}


def evaluate_trajectory_batch(
    predicted_trajectories: list[AgentTrajectory],
    gold_trajectories: list[AgentTrajectory],
) -> dict:
    assert len(predicted_trajectories) == len(gold_trajectories)

    results = []
    for pred, gold in zip(predicted_trajectories, gold_trajectories):
        results.append({
            "task_id": pred.task_id,
            "succeeded": pred.succeeded,
            "step_precision": step_precision(pred, gold),
            "step_recall": step_recall(pred, gold),
            "step_f1": step_f1(pred, gold),
            "efficiency": tool_efficiency_score(pred, gold),
            "redundancy": redundancy_rate(pred),
            "error_recovery": error_recovery_rate(pred),
            "total_tokens": pred.total_tokens,
            "total_latency_ms": pred.total_latency_ms,
        })

    n = len(results)
    return {
        "n": n,
        "pass_rate": sum(r["succeeded"] for r in results) / n,
        "avg_step_f1": sum(r["step_f1"] for r in results) / n,
        "avg_efficiency": sum(r["efficiency"] for r in results) / n,
        "avg_redundancy": sum(r["redundancy"] for r in results) / n,
        "avg_error_recovery": sum(r["error_recovery"] for r in results) / n,
        "avg_tokens_per_task": sum(r["total_tokens"] for r in results) / n,
        "avg_latency_ms": sum(r["total_latency_ms"] for r in results) / n,
        "per_task": results,
    }


# ---- the harness: JSON in, every metric out ----

STEP_FIELDS = {f.name for f in fields(TrajectoryStep)}
TRAJECTORY_FIELDS = {f.name for f in fields(AgentTrajectory)}


def load_trajectory(d: dict) -> AgentTrajectory:
    # The seed's dataclasses, from the asdict() layout; fields the seed does not know (call_id) are dropped.
    steps = [TrajectoryStep(**{k: v for k, v in s.items() if k in STEP_FIELDS}) for s in d.get("steps", [])]
    rest = {k: v for k, v in d.items() if k in TRAJECTORY_FIELDS and k != "steps"}
    return AgentTrajectory(steps=steps, **rest)


def case_metrics(pred: AgentTrajectory, gold: AgentTrajectory) -> dict:
    return {
        "step_precision": step_precision(pred, gold),
        "step_recall": step_recall(pred, gold),
        "step_f1": step_f1(pred, gold),
        "efficiency": tool_efficiency_score(pred, gold),
        "redundancy": redundancy_rate(pred),
        "error_recovery": error_recovery_rate(pred),
        "similarity": trajectory_similarity(pred, gold),
        "similarity_reversed": trajectory_similarity(gold, pred),
        "distribution": list(tool_distribution([pred, gold]).items()),
    }


def main():
    args = sys.argv[1:]
    path = args[args.index("--file") + 1] if "--file" in args else None
    data = json.load(open(path) if path else sys.stdin)
    preds = [load_trajectory(c["pred"]) for c in data["cases"]]
    golds = [load_trajectory(c["gold"]) for c in data["cases"]]
    if "--time" in args:
        start = time.perf_counter()
        for pred, gold in zip(preds, golds):
            case_metrics(pred, gold)
        evaluate_trajectory_batch(preds, golds)
        tool_distribution(preds)
        seconds = time.perf_counter() - start
        json.dump({"seconds": seconds, "cases": len(preds)}, sys.stdout)
        return
    out = {
        "python": list(sys.version_info[:2]),
        "cases": [case_metrics(p, g) for p, g in zip(preds, golds)],
        "distribution": list(tool_distribution(preds + golds).items()),
        "batch": evaluate_trajectory_batch(preds, golds) if preds else None,
    }
    json.dump(out, sys.stdout)


if __name__ == "__main__":
    main()
