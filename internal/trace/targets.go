package trace

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/ahab-go/ahab/internal/aquery"
)

// targets fills in the target label of every action that has none. Bazel
// 4.2.3's execution log does not name targets, so they come from `bazel
// aquery 'deps(LABEL)'` over the same output base and flags: an action is
// the aquery action with its mnemonic and command line.
func (s *session) targets(ctx context.Context, actions []Action) error {
	missing := 0
	for i := range actions {
		if actions[i].Target == "" {
			missing++
		}
	}
	if missing == 0 {
		return nil
	}
	dump := filepath.Join(s.scratch, "aquery.pb")
	out, err := os.Create(dump)
	if err != nil {
		return err
	}
	argv := append([]string{s.bazel()}, s.startup()...)
	argv = append(argv, "aquery")
	argv = append(argv, s.o.Flags...)
	argv = append(argv, "--output=proto", "deps("+s.o.Label+")")
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
	return labelActions(f, dump, actions)
}

// labelActions reads an aquery dump and gives each action without a target
// the target of the aquery action with the same mnemonic and argv.
func labelActions(f io.Reader, name string, actions []Action) error {
	byKey := map[string]uint32{}
	g, err := aquery.Decode(f, filepath.Base(name), aquery.Options{Format: aquery.Proto}, func(a *aquery.Action) error {
		k := a.Mnemonic + "\x00" + argvKey(a.Arguments)
		if _, dup := byKey[k]; !dup {
			byKey[k] = a.TargetID
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("finding the targets of the traced actions: %w", err)
	}
	for i := range actions {
		a := &actions[i]
		if a.Target != "" {
			continue
		}
		if id, ok := byKey[a.Mnemonic+"\x00"+argvKey(a.Argv)]; ok {
			a.Target = g.Target(id)
		}
	}
	return nil
}
