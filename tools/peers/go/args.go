// The command line, with the Rayon peer's rules and messages (tools/peers/rayon/src/main.rs),
// which in turn read sizes as the C++ side's parse_count (workloads/kernels/workload.cpp):
// weft-bench compare drives every peer alike, and a person comparing peers gets the same
// answer to the same mistake. --loops, --schedule and --list-loops are unknown options here,
// as in the Rayon peer: this peer has no loop workloads, and compare treats the failing
// --list-loops as "no loop variants".
package main

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

const (
	maxWorkers = 4096
	maxRepeat  = 1000000
)

// A bad argument: the argument and what is wrong with it.
type argError struct {
	arg, what string
}

type command struct {
	list    bool
	job     job
	workers int
	repeat  int
}

// parseInt reads an optionally negative decimal integer, digits only (no '+', no spaces),
// as the C++ side's std::from_chars and the Rayon peer's parse_int.
func parseInt(text string) (int64, bool) {
	digits := strings.TrimPrefix(text, "-")
	if digits == "" {
		return 0, false
	}
	for i := 0; i < len(digits); i++ {
		if digits[i] < '0' || digits[i] > '9' {
			return 0, false
		}
	}
	v, err := strconv.ParseInt(text, 10, 64)
	return v, err == nil
}

// parseCount reads a count as "30", "2^4" or "1e1", an integer in [lo, hi]; else what is
// wrong, naming the value.
func parseCount(text string, lo, hi int64) (int64, string) {
	notCount := fmt.Sprintf("'%s' is not a count (write e.g. 4096, 2^22 or 1e7)", text)
	var value int64
	if at := strings.IndexAny(text, "^eE"); at >= 0 {
		base, okBase := parseInt(text[:at])
		exp, okExp := parseInt(text[at+1:])
		if !okBase || !okExp || base < 1 || exp < 0 || exp > 62 {
			return 0, notCount
		}
		var v float64
		if text[at] == '^' {
			v = math.Pow(float64(base), float64(exp))
		} else {
			v = float64(base) * math.Pow(10, float64(exp))
		}
		if v > float64(hi) {
			return 0, fmt.Sprintf("'%s' is too large", text)
		}
		value = int64(v)
	} else {
		v, ok := parseInt(text)
		if !ok {
			return 0, notCount
		}
		value = v
	}
	if value < lo || value > hi {
		return 0, fmt.Sprintf("'%s' is out of range [%d, %d]", text, lo, hi)
	}
	return value, ""
}

// parseWorkload reads "name[:size]"; a bad one is reported against the whole spec.
func parseWorkload(spec string) (job, *argError) {
	name, size, hasColon := strings.Cut(spec, ":")
	var info *workloadInfo
	names := make([]string, 0, len(workloads))
	for i := range workloads {
		names = append(names, workloads[i].name)
		if workloads[i].name == name {
			info = &workloads[i]
		}
	}
	if info == nil {
		return job{}, &argError{spec, "unknown workload (known: " + strings.Join(names, ", ") + ")"}
	}
	if hasColon && size == "" {
		return job{}, &argError{spec, "empty size (omit ':' for the default)"}
	}
	if size == "" {
		size = info.defaultSize
	}
	j, what := info.parse(size)
	if what != "" {
		return job{}, &argError{spec, what}
	}
	return j, nil
}

func parseArgs(args []string) (command, *argError) {
	cmd := command{}
	var haveJob, haveWorkers, haveRepeat bool
	for i := 0; i < len(args); {
		opt := args[i]
		i++
		switch {
		case opt == "--list":
			if cmd.list {
				return command{}, &argError{opt, "given twice"}
			}
			cmd.list = true
			continue
		case opt == "--workload" || opt == "--workers" || opt == "--repeat":
		case strings.HasPrefix(opt, "-"):
			return command{}, &argError{opt, "unknown option"}
		default:
			return command{}, &argError{opt, "unexpected argument"}
		}
		if i == len(args) || strings.HasPrefix(args[i], "--") {
			return command{}, &argError{opt, "missing value"}
		}
		value := args[i]
		i++
		positive := func(max int64) (int, *argError) {
			v, ok := parseInt(value)
			if !ok {
				return 0, &argError{opt, fmt.Sprintf("'%s' is not an integer", value)}
			}
			if v < 1 || v > max {
				return 0, &argError{opt, fmt.Sprintf("'%s' is out of range [1, %d]", value, max)}
			}
			return int(v), nil
		}
		var err *argError
		switch opt {
		case "--workload":
			if haveJob {
				return command{}, &argError{opt, "given twice"}
			}
			cmd.job, err = parseWorkload(value)
			haveJob = true
		case "--workers":
			if haveWorkers {
				return command{}, &argError{opt, "given twice"}
			}
			cmd.workers, err = positive(maxWorkers)
			haveWorkers = true
		default:
			if haveRepeat {
				return command{}, &argError{opt, "given twice"}
			}
			cmd.repeat, err = positive(maxRepeat)
			haveRepeat = true
		}
		if err != nil {
			return command{}, err
		}
	}
	if cmd.list {
		if haveJob || haveWorkers || haveRepeat {
			return command{}, &argError{"--list", "takes no other option"}
		}
		return cmd, nil
	}
	if !haveJob {
		return command{}, &argError{"--workload", "required"}
	}
	if !haveWorkers {
		return command{}, &argError{"--workers", "required"}
	}
	if !haveRepeat {
		cmd.repeat = 1
	}
	return cmd, nil
}
