#!/usr/bin/env python3
"""The reference values of tests/tools/bench/bench_stats_test.cpp, computed with SciPy, independently of
tools/bench/stats: the exact bootstrap distribution of the median of an odd-sized sample (no
resampling at all), its percentile interval, and numpy's inverted-CDF quantiles.

For distinct values x(1) < ... < x(n), n odd, a resample's median is at most x(k) exactly when
at least (n + 1) / 2 of its n draws are at most x(k), each draw being so with probability k/n:
    P(median* <= x(k)) = P(Binomial(n, k/n) >= (n + 1) / 2).
The percentile interval at confidence c is [x(lo), x(hi)], lo the smallest k whose probability
reaches (1 - c) / 2, hi the smallest reaching (1 + c) / 2. A Monte Carlo bootstrap of B
resamples estimates each probability to within about sqrt(p (1 - p) / B); this script prints
the margin by which each endpoint's neighbours clear the threshold, in those standard errors,
so that the test only pins samples whose Monte Carlo endpoints cannot land elsewhere.

Usage: python3 tests/tools/bench/exact_bootstrap.py   (prints C++ initialisers)
"""
import numpy as np
from scipy.stats import binom

RESAMPLES = 10000

SAMPLES = {
    # ratios as a 2-worker comparison gives them: spread 15 %, one outlier
    "eleven": [0.93, 1.02, 0.88, 0.97, 1.11, 0.95, 0.91, 1.04, 0.99, 0.86, 1.31],
    # all below 1 but one, at n = 7
    "seven": [0.82, 0.91, 0.87, 0.95, 1.01, 0.89, 0.84],
    # 25 ratios near parity, spread 4 %
    "twentyfive": [round(1.0 + 0.04 * np.sin(1.7 * i + 0.3) + 0.006 * (i % 3 - 1), 4)
                   for i in range(25)],
}


def exact_interval(sample, confidence):
    x = np.sort(np.asarray(sample, dtype=float))
    n = len(x)
    assert n % 2 == 1 and len(set(x)) == n, "odd n, distinct values"
    need = (n + 1) // 2
    cdf = np.array([binom.sf(need - 1, n, k / n) for k in range(1, n + 1)])
    ends = []
    for q in ((1 - confidence) / 2, (1 + confidence) / 2):
        k = int(np.argmax(cdf >= q))  # smallest index reaching q
        se = np.sqrt(q * (1 - q) / RESAMPLES)
        below = (q - cdf[k - 1]) / se if k > 0 else float("inf")
        above = (cdf[k] - q) / se
        ends.append((x[k], min(below, above)))
    return ends


def main():
    for name, sample in SAMPLES.items():
        for confidence in (0.95, 0.99):
            (lo, m_lo), (hi, m_hi) = exact_interval(sample, confidence)
            print(f"// {name} at {confidence}: margins {m_lo:.1f} and {m_hi:.1f} standard errors")
            print(f"{{{name}, {confidence}, {float(lo)!r}, {float(hi)!r}}},")
        print(f"// {name}: median {float(np.median(sample))!r} of {[float(v) for v in sample]}")
    v = [3.0, 1.0, 4.0, 1.5, 5.0, 9.0, 2.0, 6.0]
    s = np.sort(v)
    for q in (0.025, 0.1, 0.125, 0.5, 0.875, 0.9, 0.975, 1.0):
        print(f"// inverted_cdf q={q}: {float(np.quantile(s, q, method='inverted_cdf'))!r}")
    print(f"// median of {v}: {float(np.median(v))!r}")


if __name__ == "__main__":
    main()
