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
// Every run is verified: measure() returns the verdict beside the time, and every caller
// treats a non-empty error as a failed run.
#pragma once

#include <chrono>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>

namespace workloads {

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
  return outcome;
}

// Parses a decimal count with an optional power form: "4096", "2^22", "1e7". Throws SizeError
// ("<what>: ...") unless the value is an integer in [lo, hi].
std::int64_t parse_count(std::string_view text, std::string_view what, std::int64_t lo,
                         std::int64_t hi);

}  // namespace workloads
