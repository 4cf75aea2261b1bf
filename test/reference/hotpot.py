"""The HotpotQA answer and supporting-fact metrics, re-typed from the official evaluation script
(github.com/hotpotqa/hotpot, hotpot_evaluate_v1.py: normalize_answer, f1_score, exact_match_score, update_sp),
for the parity tests of src/metrics/hotpot.ts. Only the I/O differs: it reads a JSON object on stdin,
{"answers": [[prediction, gold], ...], "sp": [[predicted_items, gold_items], ...]}, and prints
{"answers": [{"normalized": [np, ng], "em", "f1", "prec", "recall"}], "sp": [{"em", "f1", "prec", "recall"}]}.
"""
import json
import re
import string
import sys
from collections import Counter


def normalize_answer(s):

    def remove_articles(text):
        return re.sub(r'\b(a|an|the)\b', ' ', text)

    def white_space_fix(text):
        return ' '.join(text.split())

    def remove_punc(text):
        exclude = set(string.punctuation)
        return ''.join(ch for ch in text if ch not in exclude)

    def lower(text):
        return text.lower()

    return white_space_fix(remove_articles(remove_punc(lower(s))))


def f1_score(prediction, ground_truth):
    normalized_prediction = normalize_answer(prediction)
    normalized_ground_truth = normalize_answer(ground_truth)

    ZERO_METRIC = (0, 0, 0)

    if normalized_prediction in ['yes', 'no', 'noanswer'] and normalized_prediction != normalized_ground_truth:
        return ZERO_METRIC
    if normalized_ground_truth in ['yes', 'no', 'noanswer'] and normalized_prediction != normalized_ground_truth:
        return ZERO_METRIC

    prediction_tokens = normalized_prediction.split()
    ground_truth_tokens = normalized_ground_truth.split()
    common = Counter(prediction_tokens) & Counter(ground_truth_tokens)
    num_same = sum(common.values())
    if num_same == 0:
        return ZERO_METRIC
    precision = 1.0 * num_same / len(prediction_tokens)
    recall = 1.0 * num_same / len(ground_truth_tokens)
    f1 = (2 * precision * recall) / (precision + recall)
    return f1, precision, recall


def exact_match_score(prediction, ground_truth):
    return (normalize_answer(prediction) == normalize_answer(ground_truth))


def update_sp(metrics, prediction, gold):
    cur_sp_pred = set(map(tuple, prediction))
    gold_sp_pred = set(map(tuple, gold))
    tp, fp, fn = 0, 0, 0
    for e in cur_sp_pred:
        if e in gold_sp_pred:
            tp += 1
        else:
            fp += 1
    for e in gold_sp_pred:
        if e not in cur_sp_pred:
            fn += 1
    prec = 1.0 * tp / (tp + fp) if tp + fp > 0 else 0.0
    recall = 1.0 * tp / (tp + fn) if tp + fn > 0 else 0.0
    f1 = 2 * prec * recall / (prec + recall) if prec + recall > 0 else 0.0
    em = 1.0 if fp + fn == 0 else 0.0
    metrics['sp_em'] += em
    metrics['sp_f1'] += f1
    metrics['sp_prec'] += prec
    metrics['sp_recall'] += recall
    return em, prec, recall


def main():
    data = json.load(sys.stdin)
    answers = []
    for prediction, gold in data.get("answers", []):
        f1, prec, recall = f1_score(prediction, gold)
        answers.append({
            "normalized": [normalize_answer(prediction), normalize_answer(gold)],
            "em": int(exact_match_score(prediction, gold)),
            "f1": f1, "prec": prec, "recall": recall,
        })
    sp = []
    for prediction, gold in data.get("sp", []):
        metrics = {'sp_em': 0, 'sp_f1': 0, 'sp_prec': 0, 'sp_recall': 0}
        em, prec, recall = update_sp(metrics, prediction, gold)
        sp.append({"em": em, "f1": metrics['sp_f1'], "prec": prec, "recall": recall})
    json.dump({"answers": answers, "sp": sp}, sys.stdout)


if __name__ == '__main__':
    main()
