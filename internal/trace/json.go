package trace

import (
	"encoding/json"
	"io"

	"github.com/ahab-go/ahab/internal/report"
)

// The JSON report's shape (docs/trace.md). Slices are never null.
type jsonReport struct {
	Actions  []jsonAction   `json:"actions"`
	Baseline []jsonBaseline `json:"baseline"`
	Untraced []jsonRef      `json:"untraced"`
}

type jsonRef struct {
	Target   string   `json:"target"`
	Mnemonic string   `json:"mnemonic"`
	Outputs  []string `json:"outputs"`
}

type jsonAction struct {
	jsonRef
	Undeclared []jsonUndeclared  `json:"undeclared"`
	Causes     []json.RawMessage `json:"causes"`
}

type jsonUndeclared struct {
	Path  string `json:"path"`
	Class string `json:"class"`
}

type jsonBaseline struct {
	Path    string `json:"path"`
	Rule    string `json:"rule"`
	Actions int    `json:"actions"`
}

func refJSON(r ActionRef) jsonRef {
	// Copied, so that an action without outputs writes [] rather than null.
	return jsonRef{Target: r.Target, Mnemonic: r.Mnemonic, Outputs: append([]string{}, r.Outputs...)}
}

// WriteJSON writes the report as JSON (docs/trace.md), each cause as the
// findings report writes a finding. Strings that are not valid UTF-8 have
// each bad byte replaced by U+FFFD.
func WriteJSON(w io.Writer, r *Report) error {
	out := jsonReport{Actions: []jsonAction{}, Baseline: []jsonBaseline{}, Untraced: []jsonRef{}}
	for _, a := range r.Actions {
		ja := jsonAction{jsonRef: refJSON(a.ActionRef), Undeclared: []jsonUndeclared{}, Causes: report.CausesJSON(a.Causes)}
		for _, u := range a.Undeclared {
			ja.Undeclared = append(ja.Undeclared, jsonUndeclared{Path: u.Path, Class: u.Class.String()})
		}
		out.Actions = append(out.Actions, ja)
	}
	for _, b := range r.Baseline {
		out.Baseline = append(out.Baseline, jsonBaseline(b))
	}
	for _, u := range r.Untraced {
		out.Untraced = append(out.Untraced, refJSON(u))
	}
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}
