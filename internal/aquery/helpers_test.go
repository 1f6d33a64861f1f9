package aquery

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"unsafe"

	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"

	"github.com/ahab-go/ahab/internal/action"
	"github.com/ahab-go/ahab/internal/aquery/analysispb"
)

// conformanceDir returns the shared conformance set. It is the one place that
// knows where it lives: next to the repository, found by walking up to
// go.mod. Tests skip when it is absent.
func conformanceDir(t testing.TB) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			break
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatal("no go.mod above the package directory")
		}
		dir = parent
	}
	conf := filepath.Join(dir, "testdata", "conformance")
	if _, err := os.Stat(conf); err != nil {
		t.Fatalf("conformance dumps not available: %v", err)
	}
	return conf
}

// conformanceDumps returns the paths of the binary and jsonproto dumps.
func conformanceDumps(t testing.TB) (binary, jsonproto []string) {
	dir := conformanceDir(t)
	binary, _ = filepath.Glob(filepath.Join(dir, "real", "*.pb"))
	all, _ := filepath.Glob(filepath.Join(dir, "synthetic", "*.json"))
	for _, p := range all {
		// Skip the reports, specs and exceptions beside the dumps.
		if filepath.Ext(p[:len(p)-len(".json")]) == "" {
			jsonproto = append(jsonproto, p)
		}
	}
	if len(binary) == 0 || len(jsonproto) == 0 {
		t.Fatalf("no dumps found in %s", dir)
	}
	return binary, jsonproto
}

func readFile(t testing.TB, path string) []byte {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// decodeAll decodes data and returns the graph and every action: in dump
// order when decoded on one goroutine, and copied when opts.ReuseActions
// says fn may not keep them.
func decodeAll(data []byte, opts Options) (*Graph, []*Action, error) {
	var mu sync.Mutex
	var actions []*Action
	g, err := Decode(bytes.NewReader(data), "dump.pb", opts, func(_ int, a *Action) error {
		if opts.ReuseActions {
			a = cloneAction(a)
		}
		mu.Lock()
		defer mu.Unlock()
		actions = append(actions, a)
		return nil
	})
	return g, actions, err
}

// cloneAction copies an action and its strings, out of memory the decoder
// reuses.
func cloneAction(a *Action) *Action {
	c := *a
	clone := func(ss []string) []string {
		if ss == nil {
			return nil
		}
		out := make([]string, len(ss))
		for i, s := range ss {
			out[i] = strings.Clone(s)
		}
		return out
	}
	c.Mnemonic = strings.Clone(a.Mnemonic)
	c.Arguments = clone(a.Arguments)
	c.ExecutionInfo = clone(a.ExecutionInfo)
	c.InputDepSets = slices.Clone(a.InputDepSets)
	c.OutputIDs = slices.Clone(a.OutputIDs)
	c.Env = nil
	for _, e := range a.Env {
		c.Env = append(c.Env, action.EnvVar{Key: strings.Clone(e.Key), Value: strings.Clone(e.Value)})
	}
	c.ParamFiles = nil
	for _, pf := range a.ParamFiles {
		c.ParamFiles = append(c.ParamFiles, action.ParamFile{ExecPath: strings.Clone(pf.ExecPath), Lines: clone(pf.Lines)})
	}
	return &c
}

func mustDecode(t testing.TB, data []byte, opts Options) (*Graph, []*Action) {
	t.Helper()
	g, actions, err := decodeAll(data, opts)
	if err != nil {
		t.Fatalf("Decode: %v", err)
	}
	return g, actions
}

// elem is one top-level element of a container.
type elem struct {
	num protowire.Number
	msg proto.Message
}

func art(id, fragment uint32) elem {
	return elem{fieldArtifacts, &analysispb.Artifact{Id: id, PathFragmentId: fragment}}
}

func act(a *analysispb.Action) elem { return elem{fieldActions, a} }

func tgt(id uint32, label string) elem {
	return elem{fieldTargets, &analysispb.Target{Id: id, Label: label}}
}

func deps(id uint32, direct []uint32, transitive ...uint32) elem {
	return elem{fieldDepSetOfFiles, &analysispb.DepSetOfFiles{Id: id, DirectArtifactIds: direct, TransitiveDepSetIds: transitive}}
}

func frag(id uint32, label string, parent uint32) elem {
	return elem{fieldPathFragments, &analysispb.PathFragment{Id: id, Label: label, ParentId: parent}}
}

// dump encodes elements as a binary container, in exactly the given order.
func dump(t testing.TB, elems ...elem) []byte {
	t.Helper()
	var b []byte
	for _, e := range elems {
		body, err := proto.Marshal(e.msg)
		if err != nil {
			t.Fatal(err)
		}
		b = protowire.AppendTag(b, e.num, protowire.BytesType)
		b = protowire.AppendBytes(b, body)
	}
	return b
}

// toStreamed rewrites a binary dump as streamed_proto: each top-level element
// becomes a container message of its own, in the same order.
func toStreamed(t testing.TB, data []byte) []byte {
	t.Helper()
	var out []byte
	for len(data) > 0 {
		_, _, tl := protowire.ConsumeTag(data)
		if tl < 0 {
			t.Fatal(protowire.ParseError(tl))
		}
		_, bl := protowire.ConsumeBytes(data[tl:])
		if bl < 0 {
			t.Fatal(protowire.ParseError(bl))
		}
		out = protowire.AppendBytes(out, data[:tl+bl])
		data = data[tl+bl:]
	}
	return out
}

// splitElements returns the top-level elements of a binary dump.
func splitElements(t testing.TB, data []byte) [][]byte {
	t.Helper()
	var out [][]byte
	for len(data) > 0 {
		_, _, tl := protowire.ConsumeTag(data)
		_, bl := protowire.ConsumeBytes(data[tl:])
		if tl < 0 || bl < 0 {
			t.Fatal("bad dump")
		}
		out = append(out, data[:tl+bl])
		data = data[tl+bl:]
	}
	return out
}

// referenceActions decodes data with the generated code, as an independent
// oracle for the hand-written decoder.
func referenceActions(t testing.TB, data []byte) []*Action {
	t.Helper()
	var c analysispb.ActionGraphContainer
	if err := proto.Unmarshal(data, &c); err != nil {
		t.Fatal(err)
	}
	var in interner
	var out []*Action
	for _, a := range c.GetActions() {
		out = append(out, fromProtoAction(a, &in))
	}
	return out
}

func unsafeStringData(s string) *byte { return unsafe.StringData(s) }

// fromProtoAction converts a generated action to the model, the way Decode
// decodes it.
func fromProtoAction(pa *analysispb.Action, strs *interner) *Action {
	a := &Action{ConfigurationID: pa.GetConfigurationId(), InputDepSets: pa.GetInputDepSetIds(), OutputIDs: pa.GetOutputIds()}
	a.TargetID = pa.GetTargetId()
	a.Mnemonic = strs.intern([]byte(pa.GetMnemonic()))
	a.Arguments = pa.GetArguments()
	for _, kv := range pa.GetEnvironmentVariables() {
		a.Env = append(a.Env, action.EnvVar{Key: strs.intern([]byte(kv.GetKey())), Value: kv.GetValue()})
	}
	for _, kv := range pa.GetExecutionInfo() {
		a.ExecutionInfo = append(a.ExecutionInfo, strs.intern([]byte(kv.GetKey())))
	}
	for _, pf := range pa.GetParamFiles() {
		a.ParamFiles = append(a.ParamFiles, action.ParamFile{ExecPath: pf.GetExecPath(), Lines: pf.GetArguments()})
	}
	return a
}
