package trace

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
)

// Bazel 4.2.3's execution log does not name targets. The build also writes
// its Build Event Protocol stream (--build_event_json_file) with an event for
// every action (--build_event_publish_all_actions), whose id names the
// action's primary output and its target: a spawn's target is the one of
// the action whose primary output the spawn writes. (Command lines cannot
// be matched: the event prints a link's in full where the spawn passes a
// param file.)

// bepEvent is the part of a build event the trace reads.
type bepEvent struct {
	ID struct {
		ActionCompleted *struct {
			PrimaryOutput string `json:"primaryOutput"`
			Label         string `json:"label"`
		} `json:"actionCompleted"`
	} `json:"id"`
}

// labelActions reads a build event stream (JSON, one event a line) and
// gives each action without a target the target of the action event
// naming one of its outputs as primary output.
func labelActions(r io.Reader, name string, actions []Action) error {
	byOutput := map[string]string{}
	sc := bufio.NewScanner(r)
	sc.Buffer(nil, 64<<20) // an event holds a line of Bazel's stderr, or a command line
	for n := 1; sc.Scan(); n++ {
		var e bepEvent
		if err := json.Unmarshal(sc.Bytes(), &e); err != nil {
			return fmt.Errorf("%s: line %d: %v, expected a build event in JSON", name, n, err)
		}
		if a := e.ID.ActionCompleted; a != nil && a.Label != "" {
			byOutput[a.PrimaryOutput] = a.Label
		}
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("%s: %w", name, err)
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

// targets fills in the target label of every action that has none, from
// the build's event stream.
func (s *session) targets(actions []Action) error {
	f, err := os.Open(s.buildEvents)
	if err != nil {
		return fmt.Errorf("the build's events: %w", err)
	}
	defer f.Close()
	return labelActions(f, filepath.Base(s.buildEvents), actions)
}
