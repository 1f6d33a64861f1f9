package buildcorpus

import (
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"slices"
)

// This file recomputes verdicts from two execution logs, independently of
// testdata/builds/truth.py, so that the tests can check the committed truth
// tables against the committed logs and against a fresh double build.

// spawn is the part of a SpawnExec (Bazel's spawn.proto, as
// --execution_log_json_file writes it) that verdicts depend on.
type spawn struct {
	CommandArgs          []string `json:"commandArgs"`
	EnvironmentVariables []struct {
		Name  string `json:"name"`
		Value string `json:"value"`
	} `json:"environmentVariables"`
	Inputs        []file   `json:"inputs"`
	ListedOutputs []string `json:"listedOutputs"`
	ActualOutputs []file   `json:"actualOutputs"`
	Mnemonic      string   `json:"mnemonic"`
}

type file struct {
	Path   string `json:"path"`
	Digest struct {
		Hash string `json:"hash"`
	} `json:"digest"`
}

// readLog reads a JSON execution log: SpawnExec objects one after another.
func readLog(path string) ([]spawn, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	dec := json.NewDecoder(f)
	var spawns []spawn
	for {
		var s spawn
		if err := dec.Decode(&s); err == io.EOF {
			return spawns, nil
		} else if err != nil {
			return nil, fmt.Errorf("%s: spawn %d: %w", path, len(spawns)+1, err)
		}
		spawns = append(spawns, s)
	}
}

// countMessages counts the length-delimited messages of a binary execution
// log, failing if the last one is cut short.
func countMessages(path string) (int, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return 0, err
	}
	n := 0
	for len(data) > 0 {
		size, k := binary.Uvarint(data)
		if k <= 0 || size > uint64(len(data)-k) {
			return 0, fmt.Errorf("%s: message %d: truncated", path, n+1)
		}
		data = data[k+int(size):]
		n++
	}
	return n, nil
}

func digests(files []file) map[string]string {
	m := make(map[string]string, len(files))
	for _, f := range files {
		m[f.Path] = f.Digest.Hash
	}
	return m
}

func environment(s spawn) []string {
	var env []string
	for _, v := range s.EnvironmentVariables {
		env = append(env, v.Name+"="+v.Value)
	}
	slices.Sort(env)
	return env
}

// verdictOf is the verdict for one spawn's two runs; produced holds every
// path some spawn wrote.
func verdictOf(old, new spawn, produced map[string]bool) Verdict {
	if !slices.Equal(old.CommandArgs, new.CommandArgs) {
		return CommandChanged
	}
	if !slices.Equal(environment(old), environment(new)) {
		return EnvironmentChanged
	}
	oldIn, newIn := digests(old.Inputs), digests(new.Inputs)
	changed := false
	for p := range maps.Keys(oldIn) {
		if h, ok := newIn[p]; !ok || h != oldIn[p] {
			if !produced[p] {
				return InputChanged
			}
			changed = true
		}
	}
	for p := range maps.Keys(newIn) {
		if _, ok := oldIn[p]; !ok {
			if !produced[p] {
				return InputChanged
			}
			changed = true
		}
	}
	outputsDiffer := !maps.Equal(digests(old.ActualOutputs), digests(new.ActualOutputs))
	switch {
	case changed && outputsDiffer:
		return Downstream
	case changed:
		return Absorbed
	case outputsDiffer:
		return Nondeterministic
	}
	return Identical
}

// computed is a verdict with the spawn's mnemonic, keyed by first output.
type computed struct {
	Mnemonic string
	Verdict  Verdict
}

// verdicts computes the verdict of every spawn with outputs in two logs.
func verdicts(oldPath, newPath string) (map[string]computed, error) {
	old, err := readLog(oldPath)
	if err != nil {
		return nil, err
	}
	new, err := readLog(newPath)
	if err != nil {
		return nil, err
	}
	produced := map[string]bool{}
	for _, s := range append(slices.Clone(old), new...) {
		for _, f := range s.ActualOutputs {
			produced[f.Path] = true
		}
	}
	byOutput := func(path string, spawns []spawn) (map[string]spawn, error) {
		m := map[string]spawn{}
		for i, s := range spawns {
			if len(s.ListedOutputs) == 0 {
				continue
			}
			if _, dup := m[s.ListedOutputs[0]]; dup {
				return nil, fmt.Errorf("%s: spawn %d: output %q is also the first output of an earlier spawn", path, i+1, s.ListedOutputs[0])
			}
			m[s.ListedOutputs[0]] = s
		}
		return m, nil
	}
	oldBy, err := byOutput(oldPath, old)
	if err != nil {
		return nil, err
	}
	newBy, err := byOutput(newPath, new)
	if err != nil {
		return nil, err
	}
	result := map[string]computed{}
	for output, o := range oldBy {
		n, ok := newBy[output]
		if !ok {
			return nil, fmt.Errorf("%s: no spawn writes %q, which %s has", newPath, output, oldPath)
		}
		result[output] = computed{Mnemonic: o.Mnemonic, Verdict: verdictOf(o, n, produced)}
	}
	if len(newBy) != len(oldBy) {
		return nil, errors.New(newPath + ": spawns that " + oldPath + " does not have")
	}
	return result, nil
}
