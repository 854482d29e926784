// The command line and the protocol: sizes read as the C++ side reads them, every bad
// argument exiting 2 with "weft-peer-go: <argument>: <what is wrong>", --list, and the
// JSON lines of a run, through run() as main calls it.
package main

import (
	"bytes"
	"strings"
	"testing"
)

func TestCountsParseLikeTheCppSide(t *testing.T) {
	good := map[string]int64{"30": 30, "2^4": 16, "1e1": 10, "0": 0, "50": 50, "5E1": 50}
	for text, want := range good {
		if got, what := parseCount(text, 0, 50); what != "" || got != want {
			t.Errorf("%q: %d %q, want %d", text, got, what, want)
		}
	}
	bad := map[string]string{
		"51":                   "'51' is out of range [0, 50]",
		"-1":                   "'-1' is out of range [0, 50]",
		"x":                    "'x' is not a count (write e.g. 4096, 2^22 or 1e7)",
		"":                     "'' is not a count (write e.g. 4096, 2^22 or 1e7)",
		"+5":                   "'+5' is not a count (write e.g. 4096, 2^22 or 1e7)",
		" 5":                   "' 5' is not a count (write e.g. 4096, 2^22 or 1e7)",
		"0^2":                  "'0^2' is not a count (write e.g. 4096, 2^22 or 1e7)",
		"2^-1":                 "'2^-1' is not a count (write e.g. 4096, 2^22 or 1e7)",
		"2^63":                 "'2^63' is not a count (write e.g. 4096, 2^22 or 1e7)",
		"2^6":                  "'2^6' is too large",
		"1e2":                  "'1e2' is too large",
		"99999999999999999999": "'99999999999999999999' is not a count (write e.g. 4096, 2^22 or 1e7)",
	}
	for text, want := range bad {
		if _, what := parseCount(text, 0, 50); what != want {
			t.Errorf("%q: %q, want %q", text, what, want)
		}
	}
}

// runArgs runs the program in-process: its exit status, stdout and stderr.
func runArgs(args ...string) (int, string, string) {
	var out, errOut bytes.Buffer
	status := run(args, &out, &errOut)
	return status, out.String(), errOut.String()
}

func TestBadArgumentsExit2(t *testing.T) {
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"--workload", "nqueens:99", "--workers", "2"}, "nqueens:99: '99' is out of range [1, 20]"},
		{[]string{"--workload", "fib:51", "--workers", "2"}, "fib:51: '51' is out of range [0, 50]"},
		{[]string{"--workload", "sort:0", "--workers", "2"}, "sort:0: '0' is out of range [1, 2000000000]"},
		{[]string{"--workload", "sort:2^40", "--workers", "2"}, "sort:2^40: '2^40' is too large"},
		{[]string{"--workload", "uts:T9", "--workers", "2"},
			"uts:T9: 'T9' is not a UTS preset (expected one of T1, T2, T3, T4, T5, T1L, T2L, T3L, A, B)"},
		{[]string{"--workload", "strassen", "--workers", "2"},
			"strassen: unknown workload (known: fib, uts, nqueens, sort)"},
		{[]string{"--workload", "fib:", "--workers", "2"}, "fib:: empty size (omit ':' for the default)"},
		{[]string{"--workload", "fib"}, "--workers: required"},
		{[]string{"--workers", "2"}, "--workload: required"},
		{[]string{"--workload", "fib", "--workers", "0"}, "--workers: '0' is out of range [1, 4096]"},
		{[]string{"--workload", "fib", "--workers", "4097"}, "--workers: '4097' is out of range [1, 4096]"},
		{[]string{"--workload", "fib", "--workers", "2^2"}, "--workers: '2^2' is not an integer"},
		{[]string{"--workload", "fib", "--workers", "2", "--repeat", "0"},
			"--repeat: '0' is out of range [1, 1000000]"},
		{[]string{"--workload", "fib", "--workers"}, "--workers: missing value"},
		{[]string{"--workload", "--workers", "2"}, "--workload: missing value"},
		{[]string{"--workload", "fib", "--workload", "fib", "--workers", "2"}, "--workload: given twice"},
		{[]string{"--workload", "fib", "--workers", "1", "--workers", "2"}, "--workers: given twice"},
		{[]string{"--list", "--list"}, "--list: given twice"},
		{[]string{"--list", "--workers", "2"}, "--list: takes no other option"},
		{[]string{"--workload", "fib", "--workers", "2", "--loops", "pcb"}, "--loops: unknown option"},
		{[]string{"--workload", "fib", "--workers", "2", "--schedule", "static"}, "--schedule: unknown option"},
		{[]string{"--list-loops"}, "--list-loops: unknown option"},
		{[]string{"-h"}, "-h: unknown option"},
		{[]string{"fib"}, "fib: unexpected argument"},
	}
	for _, c := range cases {
		status, out, errOut := runArgs(c.args...)
		if status != 2 || out != "" || errOut != "weft-peer-go: "+c.want+"\n" {
			t.Errorf("%q: status %d, stdout %q, stderr %q; want 2 and %q", c.args, status, out, errOut, c.want)
		}
	}
}

func TestList(t *testing.T) {
	status, out, errOut := runArgs("--list")
	if want := "fib 35\nuts T3\nnqueens 13\nsort 1e7\n"; status != 0 || out != want || errOut != "" {
		t.Errorf("--list: status %d, stdout %q, stderr %q", status, out, errOut)
	}
	// Every default size parses.
	for _, w := range workloads {
		if _, err := parseWorkload(w.name); err != nil {
			t.Errorf("%s's default: %s", w.name, err.what)
		}
	}
}

func TestRunPrintsOneVerifiedLinePerRepetition(t *testing.T) {
	status, out, errOut := runArgs("--workload", "fib:2^4", "--workers", "2", "--repeat", "3")
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if status != 0 || errOut != "" || len(lines) != 3 {
		t.Fatalf("status %d, stderr %q, stdout %q", status, errOut, out)
	}
	for _, line := range lines {
		prefix := `{"peer":"go","workload":"fib:16","workers":2,"seconds":`
		suffix := `,"result":"fib(16) = 987","verified":true}`
		if !strings.HasPrefix(line, prefix) || !strings.HasSuffix(line, suffix) {
			t.Errorf("line %s", line)
		}
		seconds := strings.TrimSuffix(strings.TrimPrefix(line, prefix), suffix)
		if dot := strings.IndexByte(seconds, '.'); dot < 1 || len(seconds)-dot-1 != 9 {
			t.Errorf("seconds %q: not %%.9f", seconds)
		}
	}
}

func TestCanonicalNames(t *testing.T) {
	for spec, want := range map[string]string{
		"fib": "fib:35", "fib:3e1": "fib:30", "uts": "uts:T3", "uts:t1l": "uts:T1L",
		"nqueens:2^3": "nqueens:8", "sort": "sort:10000000", "sort:12345": "sort:12345",
	} {
		j, err := parseWorkload(spec)
		if err != nil || j.canonical != want {
			t.Errorf("%s: %q %v, want %q", spec, j.canonical, err, want)
		}
	}
}

func TestJSONEscapes(t *testing.T) {
	if got, want := jsonString("a\"b\\c\nd\x01\x7fé"), `"a\"b\\c\nd\u0001\u007fé"`; got != want {
		t.Errorf("%s, want %s", got, want)
	}
}
