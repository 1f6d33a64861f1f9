package spawndiff

import (
	"bufio"
	"encoding/json"
	"io"

	"github.com/ahab-go/ahab/internal/outdiff"
	"github.com/ahab-go/ahab/internal/report"
)

// WriteJSON writes the JSON report of r to w (docs/diff.md describes it):
//
//	{
//	  "old": "a.log",
//	  "new": "b.log",
//	  "counts": {"nondeterministic": 1, ..., "identical": 5},
//	  "static": {"source": "aquery.pb", "root_causes": 2, "explained": 1},
//	  "actions": [
//	    {"outputs": [...], "mnemonic": "Genrule", "target": "//:clock", "verdict": "nondeterministic", "differs": ["outputs"], "causes": [], "root_causes": []},
//	    ...
//	  ]
//	}
//
// Every verdict is counted, zeros included, in report order; actions are in
// Result order, one per line. "target" is left out when the logs do not
// name targets. "root_causes" lists, for downstream and absorbed actions,
// the outputs of each root cause they descend from (empty for root causes
// themselves). "causes" holds Action.Causes, each as the findings report
// writes it. "static" and each action's "explained" are there only when
// causes were attached (AttachCauses), and with them, "unknown_programs"
// (the programs of the action's unknown_program causes) and the static
// "unknown_program" (the unexplained root causes that run one) when there
// are any.
func WriteJSON(w io.Writer, r *Result) error {
	bw := bufio.NewWriter(w)
	var b []byte
	b = append(b, "{\n  \"old\": "...)
	b = appendJSON(b, r.Old)
	b = append(b, ",\n  \"new\": "...)
	b = appendJSON(b, r.New)
	b = append(b, ",\n  \"counts\": {"...)
	for i, v := range Verdicts() {
		if i > 0 {
			b = append(b, ", "...)
		}
		b = appendJSON(b, v.String())
		b = append(b, ": "...)
		b = appendJSON(b, r.Count(v))
	}
	b = append(b, "},\n"...)
	if r.Static != "" {
		roots, explained := r.Roots()
		b = append(b, "  \"static\": "...)
		b = appendJSON(b, jsonStatic{Source: r.Static, RootCauses: roots, Explained: explained, UnknownProgram: r.UnknownRoots()})
		b = append(b, ",\n"...)
	}
	b = append(b, "  \"actions\": ["...)
	for i := range r.Actions {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, "\n    "...)
		b = appendAction(b, r, &r.Actions[i])
		if len(b) > 64<<10 {
			bw.Write(b)
			b = b[:0]
		}
	}
	if len(r.Actions) > 0 {
		b = append(b, "\n  "...)
	}
	b = append(b, "]\n}\n"...)
	bw.Write(b)
	return bw.Flush()
}

// jsonAction is one action of the JSON report, its fields in report order.
type jsonAction struct {
	Outputs   []string          `json:"outputs"`
	Mnemonic  string            `json:"mnemonic"`
	Target    string            `json:"target,omitempty"`
	Verdict   string            `json:"verdict"`
	Differs   []string          `json:"differs"`
	Causes    []json.RawMessage `json:"causes"`
	Explained *bool             `json:"explained,omitempty"`
	// UnknownPrograms are the programs of the action's unknown_program
	// causes, there only when it has some.
	UnknownPrograms []string     `json:"unknown_programs,omitempty"`
	RootCauses      [][]string   `json:"root_causes"`
	Inside          []jsonInside `json:"inside,omitempty"`
}

// jsonStatic says where the causes came from and how many root causes
// they explain.
type jsonStatic struct {
	Source     string `json:"source"`
	RootCauses int    `json:"root_causes"`
	Explained  int    `json:"explained"`
	// UnknownProgram counts the unexplained root causes that run a
	// program no spec describes; there only when some do.
	UnknownProgram int `json:"unknown_program,omitempty"`
}

func appendAction(b []byte, r *Result, a *Action) []byte {
	ja := jsonAction{
		Outputs:    append([]string{}, a.Outputs...), // [] rather than null
		Mnemonic:   a.Mnemonic,
		Target:     a.Target,
		Verdict:    a.Verdict.String(),
		Differs:    a.Differs.Names(),
		Causes:     report.CausesJSON(a.Causes),
		RootCauses: [][]string{},
	}
	if r.Static != "" {
		explained := a.Explained()
		ja.Explained = &explained
		ja.UnknownPrograms = a.UnknownPrograms()
	}
	for _, i := range a.RootCauses {
		ja.RootCauses = append(ja.RootCauses, append([]string{}, r.Actions[i].Outputs...))
	}
	ja.Inside = insideJSON(a)
	return appendJSON(b, ja)
}

// jsonInside is what differs inside one output (Result.Diagnose): the
// diagnosis's fields after the output's path, or why there is none, and
// diffoscope's report.
type jsonInside struct {
	Path string `json:"path"`
	*outdiff.Diagnosis
	NotDiagnosed string `json:"not_diagnosed,omitempty"`
	Diffoscope   string `json:"diffoscope,omitempty"`
}

// insideJSON lists the diagnosed outputs of a root cause; nil when none
// was diagnosed, so that reports made without the builds' outputs stay as
// they were.
func insideJSON(a *Action) []jsonInside {
	var in []jsonInside
	for i := range a.OutputChanges {
		c := &a.OutputChanges[i]
		if c.Inside != nil || c.NotDiagnosed != "" || c.Diffoscope != "" {
			in = append(in, jsonInside{Path: c.Path, Diagnosis: c.Inside, NotDiagnosed: c.NotDiagnosed, Diffoscope: c.Diffoscope})
		}
	}
	return in
}

// appendJSON appends v encoded; everything here encodes (causes were
// checked first).
func appendJSON(b []byte, v any) []byte {
	j, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return append(b, j...)
}
