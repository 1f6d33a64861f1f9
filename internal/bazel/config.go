package bazel

import (
	"bytes"
	"context"
	"fmt"
	"slices"
	"strings"
)

const configCommand = "bazel config"

// InheritedActionEnv returns the variables the build of q passes to its
// actions from the client's environment: --action_env=NAME with no value.
// aquery shows neither such a variable nor its value, so Ahab reads the
// configuration instead: an aquery of nothing (`set()`, which loads no
// package) makes the server build the configurations of q's options, and
// `bazel config` prints them, an inherited variable as NAME=null in
// action_env. Both run with q's options and environment, so the real
// aquery that follows reuses the server and its configurations. The host
// configuration's own action_env (--host_action_env) is not read.
func (r *Runner) InheritedActionEnv(ctx context.Context, q AqueryRequest) ([]string, error) {
	args, err := q.configArgs()
	if err != nil {
		return nil, err
	}
	empty := q
	empty.Label = "set()"
	if err := r.Aquery(ctx, empty, drain); err != nil {
		return nil, err
	}
	list, err := r.config(ctx, args)
	if err != nil {
		return nil, err
	}
	var names []string
	for _, id := range configIDs(list) {
		out, err := r.config(ctx, append(slices.Clone(args), id))
		if err != nil {
			return nil, err
		}
		for _, name := range inheritedNames(out) {
			if !slices.Contains(names, name) {
				names = append(names, name)
			}
		}
	}
	slices.Sort(names)
	return names, nil
}

// configArgs is the argv of `bazel config` with the aquery's options.
func (q AqueryRequest) configArgs() ([]string, error) {
	root, err := OutputUserRoot(q.OutputBase)
	if err != nil {
		return nil, err
	}
	args := []string{"--output_base=" + q.OutputBase, "--output_user_root=" + root, "config"}
	for _, c := range q.Configs {
		args = append(args, "--config="+c)
	}
	if q.CompilationMode != "" {
		args = append(args, "--compilation_mode="+q.CompilationMode)
	}
	return append(args, q.Flags...), nil
}

func (r *Runner) config(ctx context.Context, args []string) (string, error) {
	var stdout bytes.Buffer
	// The aquery's environment: a different one would not change the
	// options, but it is what the configurations were made with.
	cmd, stderr := r.command(ctx, withSentinels(r.environ()), args)
	cmd.Stdout = &stdout
	guard, err := start(cmd, configCommand)
	if err != nil {
		return "", err
	}
	waitErr := cmd.Wait()
	guard.release()
	if state := cmd.ProcessState; state != nil && !state.Success() {
		return "", exitError(configCommand, state, stderr)
	}
	if waitErr != nil {
		return "", fmt.Errorf("`%s`: %w", configCommand, waitErr)
	}
	return stdout.String(), nil
}

// configIDs reads the list `bazel config` prints: a heading, then one
// configuration id a line, the host's marked " (host)".
func configIDs(list string) []string {
	var ids []string
	for line := range strings.Lines(list) {
		f := strings.Fields(line)
		if len(f) == 1 && isHex(f[0]) {
			ids = append(ids, f[0])
		}
	}
	return ids
}

func isHex(s string) bool {
	return len(s) >= 32 && strings.Trim(s, "0123456789abcdef") == ""
}

// inheritedNames reads `action_env: [A=null, B=value]` from one
// configuration's dump and returns the names whose value is null.
func inheritedNames(dump string) []string {
	var names []string
	for line := range strings.Lines(dump) {
		rest, ok := strings.CutPrefix(strings.TrimSpace(line), "action_env: [")
		if !ok {
			continue
		}
		rest = strings.TrimSuffix(strings.TrimSpace(rest), "]")
		for _, entry := range strings.Split(rest, ", ") {
			if name, ok := strings.CutSuffix(entry, "=null"); ok && name != "" && !strings.Contains(name, "=") {
				names = append(names, name)
			}
		}
	}
	return names
}
