// The protocol's one line per repetition (peer_cli.cpp's outcome_line), written by hand
// rather than with encoding/json so that the keys keep the protocol's order and the
// seconds print as "%.9f", as every other peer writes them.
package main

import (
	"fmt"
	"strconv"
	"strings"
)

// jsonString quotes s as a JSON string: quotes, backslashes and control characters escaped,
// everything else as is (the Rayon peer's json_string).
func jsonString(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"':
			b.WriteString(`\"`)
		case r == '\\':
			b.WriteString(`\\`)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r == '\t':
			b.WriteString(`\t`)
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// outcomeLine is one repetition's line; failure is "" for a verified run.
func outcomeLine(peer, workload string, workers int, seconds float64, result, failure string) string {
	line := `{"peer":` + jsonString(peer) +
		`,"workload":` + jsonString(workload) +
		`,"workers":` + strconv.Itoa(workers) +
		`,"seconds":` + strconv.FormatFloat(seconds, 'f', 9, 64) +
		`,"result":` + jsonString(result) +
		`,"verified":` + strconv.FormatBool(failure == "")
	if failure != "" {
		line += `,"error":` + jsonString(failure)
	}
	return line + "}"
}
