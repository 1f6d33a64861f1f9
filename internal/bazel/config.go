package bazel

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/ahab-go/ahab/internal/action"
)

const configCommand = "bazel config"

// Configuration is what a build configuration's options say of the
// environment of its actions, as `bazel config` shows it: what aquery does
// not. Bazel's proto aquery never shows a variable the build inherits from
// whoever runs Bazel (--action_env=NAME), and Bazel 4.2.3's omits the
// environment of C++ and test actions, which the configuration holds.
type Configuration struct {
	// Checksum names it, as aquery's Configuration.checksum does.
	Checksum string
	// IsHost is the host configuration, whose --action_env is the build's
	// --host_action_env.
	IsHost bool
	// ActionEnv is --action_env, in order: NAME=VALUE, or NAME inherited.
	ActionEnv []EnvOption
	// TestEnv is --test_env, likewise.
	TestEnv []EnvOption
}

// EnvOption is one --action_env or --test_env.
type EnvOption struct {
	Name, Value string
	// Inherited is NAME with no value: the value of whoever runs Bazel.
	Inherited bool
}

// cppActions are the mnemonics of the C++ rules' actions, which get the
// configuration's action environment; Bazel 4.2.3's proto aquery omits
// their environment.
var cppActions = []string{"CppCompile", "CppLink", "CppArchive", "CppLTOIndexing", "CppLTOBackend", "CppLinkstampCompile"}

// testAction is the mnemonic of a test's run, which gets --test_env
// besides the action environment; aquery omits the --test_env part.
const testAction = "TestRunner"

// OmitsEnvironment says whether aquery may not show the whole environment
// an action of mnemonic gets from its configuration (Environment).
func OmitsEnvironment(mnemonic string) bool {
	return mnemonic == testAction || slices.Contains(cppActions, mnemonic)
}

// Environment is the environment, with values, that an action of mnemonic
// gets from c and aquery may not show: the action environment for the C++
// rules' actions, the test environment and the action environment for a
// test; nothing for the others, whose dump entries show what they get.
func (c Configuration) Environment(mnemonic string) []action.EnvVar {
	var opts []EnvOption
	switch {
	case slices.Contains(cppActions, mnemonic):
		opts = c.ActionEnv
	case mnemonic == testAction:
		opts = append(slices.Clone(c.ActionEnv), c.TestEnv...)
	}
	var env []action.EnvVar
	for _, o := range opts {
		if o.Inherited {
			continue
		}
		// A later option for the same name wins, as in Bazel.
		if i := slices.IndexFunc(env, func(e action.EnvVar) bool { return e.Key == o.Name }); i >= 0 {
			env = slices.Delete(env, i, i+1)
		}
		env = append(env, action.EnvVar{Key: o.Name, Value: o.Value})
	}
	return env
}

// Inherited names the variables c's actions inherit from whoever runs
// Bazel (--action_env=NAME), sorted.
func (c Configuration) Inherited() []string {
	var names []string
	for _, o := range c.ActionEnv {
		if o.Inherited && !slices.Contains(names, o.Name) {
			names = append(names, o.Name)
		}
	}
	slices.Sort(names)
	return names
}

// maxConfigOutput bounds what `bazel config --dump_all` may print: a
// configuration is some 16 KB of JSON, and a build has a few.
const maxConfigOutput = 64 << 20

// Configurations runs one `bazel config --dump_all --output=json` with
// q's options and environment, right after the aquery of q (the server
// holds the configurations it built), and returns those of them whose
// checksum is among checksums, by checksum: the configurations the aquery
// used. The server may hold others, left by earlier commands with other
// options, which say nothing of this build.
func (r *Runner) Configurations(ctx context.Context, q AqueryRequest, checksums []string) (map[string]Configuration, error) {
	args, err := q.configArgs()
	if err != nil {
		return nil, err
	}
	var stdout bytes.Buffer
	out := &limitedWriter{w: &stdout, n: maxConfigOutput}
	// The aquery's environment: another would not change the options, but
	// it is what the configurations were made with.
	if err := r.Run(ctx, Invocation{Command: configCommand, Args: append(args, "--dump_all", "--output=json"), Env: withSentinels(r.environ()), Stdout: out}); err != nil {
		return nil, err
	}
	if out.n < 0 {
		return nil, fmt.Errorf("`%s` printed more than %d bytes", configCommand, maxConfigOutput)
	}
	all, err := parseConfigurations(stdout.Bytes())
	if err != nil {
		return nil, fmt.Errorf("`%s` output: %w", configCommand, err)
	}
	found := map[string]Configuration{}
	for _, c := range all {
		if slices.Contains(checksums, c.Checksum) {
			found[c.Checksum] = c
		}
	}
	return found, nil
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

// configJSON is one configuration of `bazel config --dump_all
// --output=json`: every option of every fragment, each value as Java
// prints it ("[FOO=/opt/x, USER=null]" for a list of entries).
type configJSON struct {
	ConfigHash      string `json:"configHash"`
	IsHost          bool   `json:"isHost"`
	FragmentOptions []struct {
		Name    string         `json:"name"`
		Options map[string]any `json:"options"`
	} `json:"fragmentOptions"`
}

// parseConfigurations reads `bazel config --dump_all --output=json`.
func parseConfigurations(data []byte) ([]Configuration, error) {
	var dump []configJSON
	if err := json.Unmarshal(data, &dump); err != nil {
		return nil, err
	}
	var out []Configuration
	for i, d := range dump {
		if d.ConfigHash == "" {
			return nil, fmt.Errorf("configuration %d: no configHash", i+1)
		}
		c := Configuration{Checksum: d.ConfigHash, IsHost: d.IsHost}
		for _, f := range d.FragmentOptions {
			for key, into := range map[string]*[]EnvOption{"action_env": &c.ActionEnv, "test_env": &c.TestEnv} {
				v, ok := f.Options[key]
				if !ok {
					continue
				}
				s, ok := v.(string)
				if !ok {
					return nil, fmt.Errorf("configuration %s: %s is not a string", d.ConfigHash, key)
				}
				opts, err := parseEnvList(s)
				if err != nil {
					return nil, fmt.Errorf("configuration %s: %s: %w", d.ConfigHash, key, err)
				}
				*into = opts
			}
		}
		out = append(out, c)
	}
	return out, nil
}

// parseEnvList reads a list of environment options as Java prints a
// List<Map.Entry<String, String>>: "[A=1, B=null]", a null value meaning
// the variable is inherited. A value that holds ", " cannot be told from
// two entries: Bazel's text is ambiguous there.
func parseEnvList(s string) ([]EnvOption, error) {
	s = strings.TrimSpace(s)
	inner, open := strings.CutPrefix(s, "[")
	inner, closed := strings.CutSuffix(inner, "]")
	if !open || !closed {
		return nil, fmt.Errorf("%q is not a list, expected [NAME=VALUE, …]", s)
	}
	if strings.TrimSpace(inner) == "" {
		return nil, nil
	}
	var opts []EnvOption
	for entry := range strings.SplitSeq(inner, ", ") {
		name, value, ok := strings.Cut(entry, "=")
		if !ok || name == "" {
			return nil, fmt.Errorf("entry %q, expected NAME=VALUE", entry)
		}
		if value == "null" {
			opts = append(opts, EnvOption{Name: name, Inherited: true})
			continue
		}
		opts = append(opts, EnvOption{Name: name, Value: value})
	}
	return opts, nil
}

// limitedWriter writes to w until n bytes are spent, then drops the rest
// and sets n below zero.
type limitedWriter struct {
	w io.Writer
	n int64
}

func (l *limitedWriter) Write(p []byte) (int, error) {
	if l.n < int64(len(p)) {
		l.n = -1
		return len(p), nil
	}
	l.n -= int64(len(p))
	return l.w.Write(p)
}
