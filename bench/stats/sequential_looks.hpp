// --until-decided: repetitions are added until every pair is decided, looking at the data
// only at a few planned points. Each look is a test; looking after every repetition and
// stopping at the first interval that clears 1 would decide far more often than 5 % at true
// parity. So the looks are spaced geometrically (first, then x1.5 each time, rounded up), and
// look k spends alpha_k = alpha / (k (k + 1)) of the error, whose sum over every look there
// could ever be is alpha: the chance that a pair at parity is ever called ahead or behind
// stays below alpha, however long the budget. A pair keeps the summary of the look that
// first decided it (its interval at that look's confidence); an undecided one, the last.
#pragma once

namespace weft_stats {

struct LookPlan {
  int first = 10;       // repetitions at the first look (at least 5)
  double growth = 1.5;  // each look's repetitions over the previous one's
  double alpha = 0.05;  // the error spent over all looks
};

// Repetitions at look k (1-based): first, then ceil(previous * growth), at least one more.
int look_repetitions(const LookPlan& plan, int k);

// The two-sided confidence of look k's intervals: 1 - alpha / (k (k + 1)).
double look_confidence(const LookPlan& plan, int k);

}  // namespace weft_stats
