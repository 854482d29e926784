// What a compare workload is, and the one function that times it on a backend.
//
// A workload is a class W with:
//   static constexpr std::string_view kName;      "strassen", ... (the CLI's name)
//   static constexpr std::string_view kDefault;   its default size, as parse accepts it
//   struct Params; static Params parse(std::string_view size);
//                                                 the size ("1024", "50x100", "2^22", a
//                                                 preset name); throws SizeError naming
//                                                 what is wrong
//   explicit W(const Params&);                    builds the input (not timed)
//   template <class Par> void compute(Par& par);  the timed work, inside par.run; called
//                                                 once per object
//   std::string verify() const;                   "" if compute's output is right, else
//                                                 a one-line reason (not timed)
//   std::string result() const;                   a short account of the output ("nodes
//                                                 4112897", "solutions 73712") for reports
// and optionally
//   std::uint64_t iterations() const;             the loop workloads: how many innermost
//                                                 iterations compute ran, for time per
//                                                 iteration (per chunk, under dynamic:1)
// Every run is verified: measure() returns the verdict beside the time, and every caller
// treats a non-empty error as a failed run.
#pragma once

#include <chrono>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace kernels {

// A bad size or workload name. The message is "<spec>: <what is wrong>".
class SizeError : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

// One run's time, the output's account, and "" or why the output is wrong.
struct Outcome {
  double seconds = 0;
  std::string result;
  std::string error;
  std::uint64_t iterations = 0;  // W::iterations(), where W counts them; else 0
  // Threads the backend ran the work on, where that can differ from its worker count (an
  // OpenMP nested parallel region makes a team per enclosing thread); else 0.
  unsigned threads = 0;
};

// Builds W's input, runs compute inside par.run (the only timed part), then verifies.
template <class W, class Par>
Outcome measure(const typename W::Params& params, Par& par) {
  W work(params);
  const auto start = std::chrono::steady_clock::now();
  par.run([&] { work.compute(par); });
  const auto stop = std::chrono::steady_clock::now();
  Outcome outcome;
  outcome.seconds = std::chrono::duration<double>(stop - start).count();
  outcome.error = work.verify();
  outcome.result = work.result();
  if constexpr (requires { work.iterations(); }) outcome.iterations = work.iterations();
  if constexpr (requires { par.threads_used(); }) outcome.threads = par.threads_used();
  return outcome;
}

// Parses a decimal count with an optional power form: "4096", "2^22", "1e7". Throws SizeError
// ("<what>: ...") unless the value is an integer in [lo, hi].
std::int64_t parse_count(std::string_view text, std::string_view what, std::int64_t lo,
                         std::int64_t hi);

// A seed field of a size: any integer in [0, 2^63). Throws SizeError ("SEED: ...").
std::uint64_t parse_seed(std::string_view text);

// Splits a size of colon-separated fields ("300:ijk:7") into between `min` and `max` fields;
// throws SizeError "expected <form>" otherwise, or when a field is empty.
std::vector<std::string_view> split_size(std::string_view size, std::size_t min, std::size_t max,
                                         std::string_view form);

}  // namespace kernels
