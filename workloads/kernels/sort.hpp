// Sort, the memory-bound divide-and-conquer workload: a parallel merge sort of n int32 with a
// parallel merge (Cilk's cilksort, the Barcelona OpenMP Tasks Suite's sort), verified
// against std::sort of the same input.
//
// The algorithm, which the Rayon peer follows step for step:
//   sort_in_place(a, tmp): sorts a, using tmp (as long as a) as scratch.
//   sort_into(a, tmp):     sorts a's elements into tmp, using a as scratch.
//   At or below the sort cutoff (n <= sort_cutoff) both are std::sort (sort_into copies a
//   to tmp first). Above it, each sorts the two halves (the first n/2 and the other n - n/2) in
//   parallel with the other function -- so the sorted halves land in the buffer that is
//   not the destination -- and then merges them in parallel into the destination. Two
//   buffers of n elements in all, as in cilksort; the two functions alternate the roles.
//   merge(run1, run2, out): make run1 the longer (swap if run1 is shorter); if the two hold
//   <= merge_cutoff elements in all, std::merge. Otherwise split run1 at its middle m1, find
//   m2 = lower_bound(run2, run1[m1]), put run1[m1] at out[m1 + m2], and merge the pairs
//   (run1[0, m1), run2[0, m2)) and (run1(m1, end), run2[m2, end)) in parallel, recursively.
// Each par.invoke runs the first half (the lower pair) at once and offers the second to
// thieves. The cutoffs are the only tuning; see kSortCutoff and kMergeCutoff for why these.
//
// The input is deterministic, so the Rayon peer can build the very same array: element i
// is the top 32 bits of output i (from 0) of splitmix64 whose state starts at kSeed (Vigna's
// next(): add the gamma, then mix), as an int32. The scratch buffer and the copy of the
// input that verify() sorts are made in the constructor, so the timed part touches no fresh
// pages and allocates nothing of its own (a backend may allocate its tasks).
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "workloads/kernels/workload.hpp"

namespace kernels {

class Sort {
 public:
  static constexpr std::string_view kName = "sort";
  static constexpr std::string_view kDefault = "1e7";
  static constexpr std::int64_t kMaxElements = 2'000'000'000;
  static constexpr std::uint64_t kSeed = 0x5eed;

  // The cutoffs are Cilk's cilksort values (QUICKSIZE and MERGESIZE, 2 * 1024), kept
  // because measurement found nothing better. Sorting 1e7 on one weft worker (CPU time,
  // median of 5, each cutoff swept with the other at 2048): the sort cutoff costs ~5% at 64
  // and nothing measurable from 1024 up; the merge cutoff costs ~15% at 64, ~7% at 256 and
  // is flat from 1024 up. Larger cutoffs buy nothing more and leave fewer tasks to balance:
  // at 2048, 1e7 elements make 8,192 leaf sorts (of ~1,220), and 1e4 still makes 8.
  // Up to this many elements a sort is serial std::sort.
  static constexpr std::size_t kSortCutoff = 2048;
  // Up to this many elements (both runs together) a merge is serial std::merge.
  static constexpr std::size_t kMergeCutoff = 2048;

  struct Params {
    std::int64_t n = 10'000'000;
    // Not set by parse: tests lower them to make many tasks of a small input.
    std::size_t sort_cutoff = kSortCutoff;
    std::size_t merge_cutoff = kMergeCutoff;
  };
  static Params parse(std::string_view size);

  // Builds the input, the scratch buffer and the copy kept for verify(). Throws SizeError
  // unless 1 <= params.n <= kMaxElements, std::invalid_argument if a cutoff is 0.
  explicit Sort(const Params& params);

  template <class Par>
  void compute(Par& par) {
    sort_in_place(par, std::span<std::int32_t>(data_), std::span<std::int32_t>(scratch_));
  }
  std::string verify() const;
  std::string result() const;

  std::span<const std::int32_t> output() const { return data_; }
  // Test-only: write access to the output, so that a test can spoil it and show that
  // verify() notices.
  std::span<std::int32_t> output_for_testing() { return data_; }

 private:
  using Run = std::span<const std::int32_t>;
  using Out = std::span<std::int32_t>;

  template <class Par>
  void sort_in_place(Par& par, Out a, Out tmp) const {
    if (a.size() <= sort_cutoff_) {
      std::sort(a.begin(), a.end());
      return;
    }
    const std::size_t half = a.size() / 2;
    par.invoke([&] { sort_into(par, a.first(half), tmp.first(half)); },
               [&] { sort_into(par, a.subspan(half), tmp.subspan(half)); });
    merge(par, tmp.first(half), tmp.subspan(half), a);
  }

  template <class Par>
  void sort_into(Par& par, Out a, Out tmp) const {
    if (a.size() <= sort_cutoff_) {
      std::copy(a.begin(), a.end(), tmp.begin());
      std::sort(tmp.begin(), tmp.end());
      return;
    }
    const std::size_t half = a.size() / 2;
    par.invoke([&] { sort_in_place(par, a.first(half), tmp.first(half)); },
               [&] { sort_in_place(par, a.subspan(half), tmp.subspan(half)); });
    merge(par, a.first(half), a.subspan(half), tmp);
  }

  // Merges two sorted runs into out (out.size() == run1.size() + run2.size()).
  template <class Par>
  void merge(Par& par, Run run1, Run run2, Out out) const {
    if (run1.size() < run2.size()) std::swap(run1, run2);
    if (out.size() <= merge_cutoff_) {
      std::merge(run1.begin(), run1.end(), run2.begin(), run2.end(), out.begin());
      return;
    }
    // run1 is the longer and out holds more than merge_cutoff_ >= 1 elements, so run1 is
    // not empty and its middle exists.
    const std::size_t m1 = run1.size() / 2;
    const std::int32_t pivot = run1[m1];
    const std::size_t m2 =
        static_cast<std::size_t>(std::lower_bound(run2.begin(), run2.end(), pivot) - run2.begin());
    out[m1 + m2] = pivot;
    par.invoke(
        [&] { merge(par, run1.first(m1), run2.first(m2), out.first(m1 + m2)); },
        [&] { merge(par, run1.subspan(m1 + 1), run2.subspan(m2), out.subspan(m1 + m2 + 1)); });
  }

  std::size_t sort_cutoff_;
  std::size_t merge_cutoff_;
  std::vector<std::int32_t> input_;    // kept for verify(); never touched by compute
  std::vector<std::int32_t> data_;     // the input, sorted in place by compute
  std::vector<std::int32_t> scratch_;  // compute's second buffer
};

}  // namespace kernels
