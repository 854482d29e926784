// --until-decided: repetitions are added until every pair is decided, looking at the data
// only at a few planned points. Each look is a test; looking after every repetition and
// stopping at the first interval that clears 1 would decide far more often than 5 % at true
// parity. So the looks are spaced geometrically (first, then x1.5 each time, rounded up), and
// look k spends alpha_k = alpha / (k (k + 1)) of the error, whose sum over every look there
// could ever be is alpha: the chance that a pair at parity is ever called ahead or behind
// stays below alpha, however long the budget. A pair keeps the summary of the look that
// first decided it (its interval at that look's confidence); an undecided one, the last.
#pragma once

namespace bench_stats {

struct LookPlan {
  int first = 10;       // repetitions at the first look (at least 5)
  double growth = 1.5;  // each look's repetitions over the previous one's
  double alpha = 0.05;  // the error spent over all looks
};

// Repetitions at look k (1-based): first, then ceil(previous * growth), at least one more.
int look_repetitions(const LookPlan& plan, int k);

// The two-sided confidence of look k's intervals: 1 - alpha / (k (k + 1)).
double look_confidence(const LookPlan& plan, int k);

// When a sitting summarises its pairs and when it stops. With a fixed count (--repeat R), one
// summary at 95 % after repetition R, then stop. Until decided (first = R), a look at each of
// the plan's points, and a last look, then stop, when the next repetition (taken to last as
// long as the one before) would end past the budget; the caller also stops once every pair is
// decided.
class RepetitionPlan {
 public:
  RepetitionPlan(bool until_decided, int repeat, double budget_s);

  struct Step {
    bool look = false;   // summarise the pairs now
    int look_index = 0;  // 0 for a fixed count's summary (nothing is kept as decided)
    double confidence = 0.95;
    bool stop = false;  // no repetition after this one
  };
  // After repetition `rep` (1-based), at `elapsed_s` into the sitting, the repetition having
  // taken `round_s`.
  Step after(int rep, double elapsed_s, double round_s);

  int looks() const { return looks_; }
  bool until_decided() const { return until_decided_; }

 private:
  bool until_decided_;
  int repeat_;
  double budget_s_;
  LookPlan plan_;
  int looks_ = 0;
};

}  // namespace bench_stats
