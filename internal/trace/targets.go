package trace

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
)

// targets fills in the target label of every action that has none. Bazel
// 4.2.3's execution log does not name targets, so they come from `bazel
// aquery 'deps(LABEL)'` over the same output base and flags: an action's
// target is that of the aquery action that writes its outputs. (Command
// lines cannot be matched: aquery prints a link's in full where the spawn
// passes a param file.)
func (s *session) targets(ctx context.Context, actions []Action) error {
	missing := false
	for i := range actions {
		missing = missing || actions[i].Target == ""
	}
	if !missing {
		return nil
	}
	dump := filepath.Join(s.scratch, "aquery.json")
	out, err := os.Create(dump)
	if err != nil {
		return err
	}
	argv := append([]string{s.bazel()}, s.startup()...)
	argv = append(argv, "aquery")
	argv = append(argv, s.o.Flags...)
	argv = append(argv, "--output=jsonproto", "--include_commandline=false", "deps("+s.o.Label+")")
	err = s.run(ctx, "bazel aquery", argv, out)
	if cerr := out.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return err
	}
	f, err := os.Open(dump)
	if err != nil {
		return err
	}
	defer f.Close()
	return labelActions(f, filepath.Base(dump), actions)
}

// The part of aquery's jsonproto output (an analysis.ActionGraphContainer)
// that maps outputs to targets. This is a stand-in like execlog_json.go:
// it reads the document whole, which is fine for the builds one traces,
// and internal/aquery can replace it once its actions carry their outputs.
type aqueryJSON struct {
	Artifacts []struct {
		ID             uint32 `json:"id"`
		PathFragmentID uint32 `json:"pathFragmentId"`
	} `json:"artifacts"`
	Actions []struct {
		TargetID  uint32   `json:"targetId"`
		OutputIDs []uint32 `json:"outputIds"`
	} `json:"actions"`
	Targets []struct {
		ID    uint32 `json:"id"`
		Label string `json:"label"`
	} `json:"targets"`
	PathFragments []struct {
		ID       uint32 `json:"id"`
		Label    string `json:"label"`
		ParentID uint32 `json:"parentId"`
	} `json:"pathFragments"`
}

// labelActions reads aquery's jsonproto output and gives each action
// without a target the target of the aquery action writing its outputs.
func labelActions(r io.Reader, name string, actions []Action) error {
	var g aqueryJSON
	if err := json.NewDecoder(r).Decode(&g); err != nil {
		return fmt.Errorf("%s: %v, expected aquery's jsonproto output", name, err)
	}
	type fragment struct {
		label  string
		parent uint32
	}
	fragments := make(map[uint32]fragment, len(g.PathFragments))
	for _, f := range g.PathFragments {
		fragments[f.ID] = fragment{f.Label, f.ParentID}
	}
	artifactPath := func(fragmentID uint32) (string, error) {
		var parts []string
		for id := fragmentID; id != 0; {
			f, ok := fragments[id]
			if !ok || len(parts) > len(fragments) {
				return "", fmt.Errorf("%s: path fragment %d: unknown or cyclic, expected a chain of fragments", name, id)
			}
			parts = append(parts, f.label)
			id = f.parent
		}
		var p string
		for i := len(parts) - 1; i >= 0; i-- {
			p = path.Join(p, parts[i])
		}
		return p, nil
	}
	artifacts := make(map[uint32]uint32, len(g.Artifacts))
	for _, a := range g.Artifacts {
		artifacts[a.ID] = a.PathFragmentID
	}
	labels := make(map[uint32]string, len(g.Targets))
	for _, t := range g.Targets {
		labels[t.ID] = t.Label
	}
	byOutput := map[string]string{}
	for i, a := range g.Actions {
		for _, id := range a.OutputIDs {
			frag, ok := artifacts[id]
			if !ok {
				return fmt.Errorf("%s: action %d: output %d is not an artifact, expected one of the artifacts listed", name, i+1, id)
			}
			p, err := artifactPath(frag)
			if err != nil {
				return err
			}
			byOutput[p] = labels[a.TargetID]
		}
	}
	for i := range actions {
		a := &actions[i]
		for _, out := range a.Outputs {
			if a.Target != "" {
				break
			}
			a.Target = byOutput[out]
		}
	}
	return nil
}
