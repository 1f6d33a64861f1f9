package aquery

import (
	"bytes"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"

	"google.golang.org/protobuf/proto"

	"github.com/ahab-go/ahab/internal/aquery/analysispb"
	"github.com/ahab-go/ahab/internal/wire"
)

// The fuzz targets and how to run them are in docs/fuzzing.md. Each keeps
// its corpus in testdata/fuzz/<FuzzName>/; `go test` runs every corpus
// entry as a test.

// maxFuzzInput bounds what the fuzz targets try. A dump's structure shows
// in a few hundred bytes; bigger inputs only make every run, and every
// minimisation of a new input, slower.
const maxFuzzInput = 4 << 10

// fuzzSeeds are the graphs every target starts from, beside its corpus.
func fuzzSeeds(f *testing.F) {
	f.Add(dump(f, statusGraph()...))
	f.Add(dump(f, complete()...))
	f.Add(toStreamed(f, dump(f, append(statusGraph(),
		deps(1, []uint32{1, 2}, 2), deps(2, []uint32{3}, 1), tgt(1, "//a"),
		act(&analysispb.Action{TargetId: 1, Mnemonic: "M", Arguments: []string{"a"}, InputDepSetIds: []uint32{1}}))...)))
}

// FuzzDecode checks that no input makes Decode panic or hang, in any
// format, and that what it returns is usable. It decodes on one goroutine,
// so that an input covers the same code every time it runs (minimising a
// new input depends on it).
func FuzzDecode(f *testing.F) {
	fuzzSeeds(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > maxFuzzInput {
			return
		}
		for _, format := range []Format{Detect, Proto, StreamedProto, JSONProto, TextProto} {
			var actions []*Action
			g, err := Decode(bytes.NewReader(data), "fuzz", Options{Format: format}, func(_ int, a *Action) error {
				actions = append(actions, a)
				return nil
			})
			if err != nil {
				var de *Error
				if g != nil || !errors.As(err, &de) || de.File != "fuzz" {
					t.Fatalf("%v: error %v (graph %v), want an *Error naming the file and no graph", format, err, g != nil)
				}
				continue
			}
			if g.Actions() != len(actions) {
				t.Fatalf("%v: Actions() = %d, fn saw %d", format, g.Actions(), len(actions))
			}
			for _, a := range actions {
				a.ResolveInputs(g)
			}
		}
	})
}

// FuzzDecodeParallel checks that the pipeline agrees with a sequential read
// of the binary formats: the same error, or the same actions with the same
// targets and status files.
func FuzzDecodeParallel(f *testing.F) {
	fuzzSeeds(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > maxFuzzInput {
			return
		}
		for _, format := range []Format{Proto, StreamedProto} {
			seq, seqErr := summarize(data, Options{Format: format})
			par, parErr := summarize(data, Options{Format: format, Workers: 3, ReuseActions: true})
			switch {
			case (seqErr == nil) != (parErr == nil):
				t.Fatalf("%v: sequential error %v, parallel error %v", format, seqErr, parErr)
			case seqErr != nil && seqErr.Error() != parErr.Error():
				t.Fatalf("%v: sequential error %q, parallel error %q", format, seqErr, parErr)
			case !slices.Equal(seq, par):
				t.Fatalf("%v: sequential actions %q, parallel %q", format, seq, par)
			}
		}
	})
}

// summarize decodes data and describes each action with its target and
// status inputs, in sorted order.
func summarize(data []byte, opts Options) ([]string, error) {
	g, actions, err := decodeAll(data, opts)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, a := range actions {
		a.ResolveInputs(g)
		out = append(out, fmt.Sprintf("%s %q %q %q", a.Mnemonic, g.Target(a.TargetID), a.Arguments, a.StatusInputs))
	}
	slices.Sort(out)
	return out, nil
}

// FuzzDecodeMatchesUnmarshal checks the hand-written decoder against the
// generated code: proto.Unmarshal of the same bytes into analysispb, then
// the same checks of ids and references written plainly over the decoded
// container, must fail exactly when Decode fails, and otherwise give the
// same actions, targets and status files. Where the original's prost and
// the generated Go code differ, Decode sides with prost (§2), and those
// errors are let through: a known field of the wrong wire type (which Go
// keeps as an unknown field), unknown groups nested past prost's recursion
// limit of 100 (Go allows 10000), and field numbers past 2^29-1 inside an
// unknown group.
func FuzzDecodeMatchesUnmarshal(f *testing.F) {
	fuzzSeeds(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > maxFuzzInput {
			return
		}
		g, got, err := decodeAll(data, Options{Format: Proto})
		var c analysispb.ActionGraphContainer
		uerr := proto.Unmarshal(data, &c)
		if uerr == nil {
			uerr = checkContainer(&c)
		}
		switch {
		case err != nil && uerr == nil:
			if errors.Is(err, wire.ErrWireType) || errors.Is(err, wire.ErrTooDeep) || errors.Is(err, wire.ErrFieldNumber) {
				return
			}
			t.Fatalf("Decode failed where proto.Unmarshal did not: %v", err)
		case err == nil && uerr != nil:
			t.Fatalf("Decode succeeded where proto.Unmarshal failed: %v", uerr)
		case err != nil:
			return
		}
		var in interner
		want := make([]*Action, 0, len(c.GetActions()))
		for _, pa := range c.GetActions() {
			want = append(want, fromProtoAction(pa, &in))
		}
		if len(got) != len(want) {
			t.Fatalf("%d actions, proto.Unmarshal has %d", len(got), len(want))
		}
		labels := map[uint32]string{}
		for _, tg := range c.GetTargets() {
			labels[tg.GetId()] = tg.GetLabel()
		}
		status := statusOf(&c)
		for i := range got {
			if !reflect.DeepEqual(got[i], want[i]) {
				t.Fatalf("action %d: got %+v\nwant %+v", i+1, got[i], want[i])
			}
			if label, ok := labels[got[i].TargetID]; ok && g.Target(got[i].TargetID) != label {
				t.Fatalf("action %d: target %q, want %q", i+1, g.Target(got[i].TargetID), label)
			}
			var wantStatus []string
			for _, ds := range got[i].InputDepSets {
				for _, p := range status[ds] {
					if !slices.Contains(wantStatus, p) {
						wantStatus = append(wantStatus, p)
					}
				}
			}
			if gotStatus := g.StatusInputs(got[i].InputDepSets); !slices.Equal(gotStatus, wantStatus) {
				t.Fatalf("action %d: status inputs %q, want %q", i+1, gotStatus, wantStatus)
			}
		}
	})
}

// checkContainer checks a decoded container's ids and references as
// Decode must: each id once per kind; each reference naming an element,
// where a singular reference of 0 names nothing.
func checkContainer(c *analysispb.ActionGraphContainer) error {
	type ids map[uint32]bool
	define := func(kind string, all []uint32) (ids, error) {
		m := ids{}
		for _, id := range all {
			if m[id] {
				return nil, fmt.Errorf("%s %d defined twice", kind, id)
			}
			m[id] = true
		}
		return m, nil
	}
	idsOf := func(n int, id func(int) uint32) []uint32 {
		out := make([]uint32, n)
		for i := range out {
			out[i] = id(i)
		}
		return out
	}
	var errs []error
	must := func(m ids, err error) ids {
		errs = append(errs, err)
		return m
	}
	artifacts := must(define("artifact", idsOf(len(c.Artifacts), func(i int) uint32 { return c.Artifacts[i].GetId() })))
	targets := must(define("target", idsOf(len(c.Targets), func(i int) uint32 { return c.Targets[i].GetId() })))
	depSets := must(define("dep set", idsOf(len(c.DepSetOfFiles), func(i int) uint32 { return c.DepSetOfFiles[i].GetId() })))
	configs := must(define("configuration", idsOf(len(c.Configuration), func(i int) uint32 { return c.Configuration[i].GetId() })))
	aspects := must(define("aspect descriptor", idsOf(len(c.AspectDescriptors), func(i int) uint32 { return c.AspectDescriptors[i].GetId() })))
	rules := must(define("rule class", idsOf(len(c.RuleClasses), func(i int) uint32 { return c.RuleClasses[i].GetId() })))
	fragments := must(define("path fragment", idsOf(len(c.PathFragments), func(i int) uint32 { return c.PathFragments[i].GetId() })))
	if err := errors.Join(errs...); err != nil {
		return err
	}
	one := func(m ids, id uint32, what string) error {
		if id != 0 && !m[id] {
			return fmt.Errorf("%s %d names nothing", what, id)
		}
		return nil
	}
	all := func(m ids, list []uint32, what string) error {
		for _, id := range list {
			if !m[id] {
				return fmt.Errorf("%s %d names nothing", what, id)
			}
		}
		return nil
	}
	for _, a := range c.Actions {
		errs = append(errs, one(targets, a.GetTargetId(), "target_id"), one(configs, a.GetConfigurationId(), "configuration_id"),
			one(artifacts, a.GetPrimaryOutputId(), "primary_output_id"), all(aspects, a.GetAspectDescriptorIds(), "aspect_descriptor_ids"),
			all(depSets, a.GetInputDepSetIds(), "input_dep_set_ids"), all(artifacts, a.GetOutputIds(), "output_ids"))
	}
	for _, tg := range c.Targets {
		errs = append(errs, one(rules, tg.GetRuleClassId(), "rule_class_id"))
	}
	for _, a := range c.Artifacts {
		errs = append(errs, one(fragments, a.GetPathFragmentId(), "path_fragment_id"))
	}
	for _, d := range c.DepSetOfFiles {
		errs = append(errs, all(depSets, d.GetTransitiveDepSetIds(), "transitive_dep_set_ids"), all(artifacts, d.GetDirectArtifactIds(), "direct_artifact_ids"))
	}
	for _, p := range c.PathFragments {
		errs = append(errs, one(fragments, p.GetParentId(), "parent_id"))
	}
	return errors.Join(errs...)
}

// statusOf is §3.5 written plainly over a decoded container: for each dep
// set, the paths of the status files it reaches, in the order first
// reached.
func statusOf(c *analysispb.ActionGraphContainer) map[uint32][]string {
	fragments := map[uint32]*analysispb.PathFragment{}
	for _, p := range c.PathFragments {
		fragments[p.GetId()] = p
	}
	path := func(id uint32) (string, bool) {
		var labels []string
		for steps := 0; id != 0; steps++ {
			p, ok := fragments[id]
			if !ok || steps > len(fragments) {
				return "", false
			}
			labels = append([]string{p.GetLabel()}, labels...)
			id = p.GetParentId()
		}
		return strings.Join(labels, "/"), true
	}
	paths := map[uint32]string{}
	for _, a := range c.Artifacts {
		leaf, ok := fragments[a.GetPathFragmentId()]
		if !ok || leaf.GetLabel() != "stable-status.txt" && leaf.GetLabel() != "volatile-status.txt" {
			continue
		}
		if p, ok := path(a.GetPathFragmentId()); ok {
			paths[a.GetId()] = p
		}
	}
	sets := map[uint32]testDepSet{}
	var order []uint32
	for _, d := range c.DepSetOfFiles {
		var direct []uint32
		for _, a := range d.GetDirectArtifactIds() {
			if _, ok := paths[a]; ok {
				direct = append(direct, a)
			}
		}
		sets[d.GetId()] = testDepSet{direct: direct, trans: d.GetTransitiveDepSetIds()}
		order = append(order, d.GetId())
	}
	slices.Sort(order)
	out := map[uint32][]string{}
	for id, reach := range recursiveReachOf(sets, order, func(a uint32) bool { _, ok := paths[a]; return ok }) {
		for _, a := range reach {
			out[id] = append(out[id], paths[a])
		}
	}
	return out
}
