package trace

// This file is a stand-in: a minimal reader of the JSON execution log
// Bazel 4.2.3 writes with --execution_log_json_file, reading only the
// fields the trace needs. internal/execlog replaces it once it lands.

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
)

// jsonSpawn is the part of a SpawnExec message the trace reads.
type jsonSpawn struct {
	CommandArgs []string `json:"commandArgs"`
	Inputs      []struct {
		Path string `json:"path"`
	} `json:"inputs"`
	ListedOutputs []string `json:"listedOutputs"`
	ActualOutputs []struct {
		Path string `json:"path"`
	} `json:"actualOutputs"`
	Mnemonic    string `json:"mnemonic"`
	TargetLabel string `json:"targetLabel"` // Bazel 5 and later
}

// readJSONExecLog reads the concatenated SpawnExec objects of a JSON
// execution log; name is the file name used in errors.
func readJSONExecLog(r io.Reader, name string) ([]Action, error) {
	dec := json.NewDecoder(r)
	var actions []Action
	for i := 1; ; i++ {
		var s jsonSpawn
		err := dec.Decode(&s)
		if errors.Is(err, io.EOF) {
			return actions, nil
		}
		if err != nil {
			return nil, fmt.Errorf("%s: spawn %d (byte %d): %v, expected a SpawnExec object", name, i, dec.InputOffset(), err)
		}
		if len(s.CommandArgs) == 0 {
			return nil, fmt.Errorf("%s: spawn %d (byte %d): no commandArgs, expected the spawn's command line", name, i, dec.InputOffset())
		}
		a := Action{Mnemonic: s.Mnemonic, Target: s.TargetLabel, Argv: s.CommandArgs}
		for _, in := range s.Inputs {
			a.Inputs = append(a.Inputs, in.Path)
		}
		seen := map[string]bool{}
		for _, out := range s.ListedOutputs {
			if !seen[out] {
				seen[out] = true
				a.Outputs = append(a.Outputs, out)
			}
		}
		for _, out := range s.ActualOutputs {
			if !seen[out.Path] {
				seen[out.Path] = true
				a.Outputs = append(a.Outputs, out.Path)
			}
		}
		actions = append(actions, a)
	}
}
