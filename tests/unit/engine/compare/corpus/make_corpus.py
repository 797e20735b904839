"""Writes the comparison corpus of verdict_corpus_test.cpp: glint --bench-json documents whose
rows cover what the shift statistics meet (ties, equal samples, zeros, tiny and thinned sample
sets, few and many repetitions, shifts both ways and none). run1..3 are three runs of each side.

    python3 make_corpus.py   (rewrites the documents in this folder; deterministic)

expected.json is what glint-compare printed (--format=json) for each comparison before the
selection changed; the test holds today's verdicts and intervals to it.
"""
import json
import random

SAMPLES = (1, 2, 3, 5, 7, 25, 26, 64, 256, 300)
REPS = (1, 1, 2, 4, 9, 30)
SHAPES = ("plain", "ties", "equal", "zeros", "heavy")
SHIFTS = (1.0, 1.0, 1.03, 0.97, 0.2, 5.0, 1.5)


def value(rng, shape, centre):
    if shape == "equal":
        return centre
    if shape == "ties":
        return centre * rng.choice((0.98, 1.0, 1.0, 1.02))
    if shape == "zeros":
        return rng.choice((0.0, 0.0, centre))
    if shape == "heavy":
        return round(centre * rng.paretovariate(3), 3)
    return round(centre * rng.lognormvariate(0, 0.05), 3)


def row(rng, i, later):
    shape = SHAPES[i % len(SHAPES)]
    count = SAMPLES[(i // len(SHAPES)) % len(SAMPLES)]
    reps = REPS[(i // 3) % len(REPS)]
    shift = SHIFTS[(i // 7) % len(SHIFTS)] if later else 1.0
    centre = (5 + i % 17 * 11.5) * shift
    samples = [value(rng, shape, centre) for _ in range(count)]
    medians = [round(value(rng, shape, centre), 3) for _ in range(reps)]
    out = {"name": "row%d" % i, "registration": "corpus", "labels": {"shape": shape},
           "samples": count, "perCall": False, "medianNs": sorted(medians)[len(medians) // 2],
           "samplesNs": samples, "repetitionMediansNs": medians}
    if i % 11 == 0:
        out["unstable"] = ["cpu-time"]
        out["samplesCpuNs"] = [s * 0.9 for s in samples]
    return out


def main():
    for run in (1, 2, 3):
        for side, later in (("base", False), ("new", True)):
            rng = random.Random(run * 10 + later)
            rows = [row(rng, i, later) for i in range(70)]
            with open("%s%d.json" % (side, run), "w") as f:
                json.dump({"schema": 2, "meta": {"host": "corpus"}, "columns": [], "rows": rows},
                          f, separators=(",", ":"))


if __name__ == "__main__":
    main()
