// run's failure path: a repetition whose verification fails prints its line with
// "verified":false and the error, and the program exits 1 without running the others.
package main

import (
	"strings"
	"testing"
)

// spoiled is a workload whose output is always wrong.
type spoiled struct{ runs *int }

func (s spoiled) compute()       { *s.runs++ }
func (s spoiled) verify() string { return "spoiled on purpose" }
func (s spoiled) result() string { return "nothing" }

func TestAWrongResultExits1AfterItsLine(t *testing.T) {
	runs := 0
	saved := workloads
	defer func() { workloads = saved }()
	workloads = append(append([]workloadInfo(nil), saved...), workloadInfo{"spoiled", "1",
		func(size string) (job, string) {
			return job{"spoiled:" + size, func() work { return spoiled{&runs} }}, ""
		}})
	status, out, errOut := runArgs("--workload", "spoiled", "--workers", "1", "--repeat", "3")
	want := `,"result":"nothing","verified":false,"error":"spoiled on purpose"}` + "\n"
	if status != 1 || errOut != "" || strings.Count(out, "\n") != 1 ||
		!strings.HasPrefix(out, `{"peer":"go","workload":"spoiled:1","workers":1,"seconds":`) ||
		!strings.HasSuffix(out, want) || runs != 1 {
		t.Errorf("status %d, runs %d, stderr %q, stdout %q", status, runs, errOut, out)
	}
}
