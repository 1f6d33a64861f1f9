package trace

import (
	"io"

	"github.com/ahab-go/ahab/internal/execlog"
	"github.com/ahab-go/ahab/internal/spawn"
)

// readExecLog reads the build's execution log (any format Bazel writes,
// recognised from the content; name is its file name in errors) into the
// actions the trace attributes processes to.
func readExecLog(r io.Reader, name string) ([]Action, error) {
	var actions []Action
	_, err := execlog.Read(r, name, execlog.Options{}, func(s *spawn.Spawn) error {
		actions = append(actions, actionOf(s))
		return nil
	})
	if err != nil {
		return nil, err
	}
	return actions, nil
}

// actionOf is what the trace needs of a spawn.
func actionOf(s *spawn.Spawn) Action {
	a := Action{Mnemonic: s.Mnemonic, Target: s.Target, Argv: s.Args, Outputs: s.Outputs}
	a.Inputs = make([]string, len(s.Inputs))
	for i, in := range s.Inputs {
		a.Inputs[i] = in.Path
	}
	if len(s.OutputFiles) > 0 {
		a.OutputFiles = make([]string, len(s.OutputFiles))
		for i, out := range s.OutputFiles {
			a.OutputFiles[i] = out.Path
		}
	}
	return a
}
