"""Writes two glint --bench-json documents (schema 2) of ROWS rows for bench/compare_scale.sh.

Each row keeps SAMPLES per-sample timings (as a thinned document keeps 256) and one repetition
median, so glint-compare judges it by its samples: the costliest path. Rows cycle through shapes
that matter to the statistics: a shift, no change, ties, every sample equal, tiny sets.

    python3 compare_scale_documents.py ROWS SAMPLES BASE.json NEW.json
"""
import json
import random
import sys


def samples(rng, shape, centre, count, shift):
    if shape == "equal":
        return [centre * shift] * count
    if shape == "ties":
        return [round(centre * shift * rng.choice((0.98, 1.0, 1.02, 1.05)), 1) for _ in range(count)]
    if shape == "tiny":
        return [round(rng.gauss(centre, centre * 0.05) * shift, 4) for _ in range(3)]
    return [round(rng.lognormvariate(0, 0.08) * centre * shift, 6) for _ in range(count)]


def document(rng, rows, count, later):
    out = []
    shapes = ("plain", "plain", "ties", "equal", "tiny", "plain")
    shifts = (1.0, 1.0, 1.03, 0.2, 5.0, 1.0)
    for i in range(rows):
        shape = shapes[i % len(shapes)]
        shift = shifts[(i // len(shapes)) % len(shifts)] if later else 1.0
        centre = 10 + (i % 997) * 3.7
        s = samples(rng, shape, centre, count, shift)
        median = sorted(s)[len(s) // 2]
        labels = {"n": str(i % 64)} if i % 2 else {}
        # The fields glint's --bench-json writes beside the samples (engine/report/json_report.cpp).
        out.append({"name": "case%d" % i, "registration": "scale", "labels": labels,
                    "displayName": "scale/case%d" % i + (" [n=%d]" % (i % 64) if i % 2 else ""),
                    "samples": len(s), "iterationsPerSample": 1000, "perCall": False,
                    "medianNs": median, "madNs": round(median * 0.02, 6), "estimator": "median",
                    "spreadNs": round(median * 0.03, 6), "cleanSamples": len(s),
                    "disturbedSamples": 0, "slowCoreSamples": None, "split": False,
                    "retaken": 0, "minNs": min(s), "maxNs": max(s), "samplesNs": s,
                    "samplesNsThinned": True, "repetitionMediansNs": [median],
                    "cpuWallRatio": 0.99, "unstable": [], "metrics": {}})
    return {"schema": 2, "meta": {"host": "scale", "glint": "bench"}, "columns": [], "rows": out}


def main():
    rows, count = int(sys.argv[1]), int(sys.argv[2])
    for seed, path in ((1, sys.argv[3]), (2, sys.argv[4])):
        with open(path, "w") as f:
            json.dump(document(random.Random(seed), rows, count, seed == 2), f,
                      separators=(",", ":"))


if __name__ == "__main__":
    main()
