package gengraph

import (
	"bytes"
	"crypto/sha256"
	"io"
	"slices"
	"strings"
	"testing"

	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"

	"github.com/ahab-go/ahab/internal/aquery/analysispb"
)

func generate(t *testing.T, opts Options) []byte {
	t.Helper()
	var buf bytes.Buffer
	st, err := Write(&buf, opts)
	if err != nil {
		t.Fatalf("Write(%+v): %v", opts, err)
	}
	if st.Bytes != int64(buf.Len()) || st.Actions != opts.Actions {
		t.Fatalf("Write(%+v) stats = %+v, expected %d bytes and %d actions", opts, st, buf.Len(), opts.Actions)
	}
	return buf.Bytes()
}

func decode(t *testing.T, b []byte) *analysispb.ActionGraphContainer {
	t.Helper()
	var c analysispb.ActionGraphContainer
	if err := proto.Unmarshal(b, &c); err != nil {
		t.Fatalf("dump does not decode as an ActionGraphContainer: %v", err)
	}
	return &c
}

func TestDeterministic(t *testing.T) {
	for _, f := range []Format{Proto, StreamedProto, JSONProto} {
		t.Run(f.String(), func(t *testing.T) {
			a := generate(t, Options{Actions: 3000, Seed: 7, Format: f})
			b := generate(t, Options{Actions: 3000, Seed: 7, Format: f})
			if !bytes.Equal(a, b) {
				t.Fatalf("two runs with the same seed differ: %x vs %x", sha256.Sum256(a), sha256.Sum256(b))
			}
			c := generate(t, Options{Actions: 3000, Seed: 8, Format: f})
			if bytes.Equal(a, c) {
				t.Fatal("seeds 7 and 8 give the same bytes, expected the seed to matter")
			}
		})
	}
}

func TestActionCountIsExact(t *testing.T) {
	for _, n := range []int{0, 1, 2, 5, 17, 1000} {
		c := decode(t, generate(t, Options{Actions: n, Seed: 1}))
		if len(c.Actions) != n {
			t.Errorf("-actions %d gave %d actions", n, len(c.Actions))
		}
	}
}

// TestBazel423FieldOrder checks the top-level order: artifacts, actions,
// targets, depSetOfFiles, configuration, ruleClasses, pathFragments.
func TestBazel423FieldOrder(t *testing.T) {
	b := generate(t, Options{Actions: 500, Seed: 1})
	var order []protowire.Number
	for len(b) > 0 {
		num, typ, n := protowire.ConsumeTag(b)
		if n < 0 || typ != protowire.BytesType {
			t.Fatalf("bad top-level tag")
		}
		b = b[n:]
		_, m := protowire.ConsumeBytes(b)
		b = b[m:]
		if len(order) == 0 || order[len(order)-1] != num {
			order = append(order, num)
		}
	}
	want := []protowire.Number{1, 2, 3, 4, 5, 7, 8}
	if !slices.Equal(order, want) {
		t.Fatalf("top-level field runs = %v, expected %v", order, want)
	}
}

// TestReferencesResolve checks the graph is consistent: every id an action,
// dep set or artifact names exists, and fragments form a tree.
func TestReferencesResolve(t *testing.T) {
	c := decode(t, generate(t, Options{Actions: 5000, Seed: 3}))
	targets, sets, arts, frags := map[uint32]bool{}, map[uint32]*analysispb.DepSetOfFiles{}, map[uint32]bool{}, map[uint32]*analysispb.PathFragment{}
	for _, x := range c.Targets {
		targets[x.Id] = true
	}
	for _, x := range c.DepSetOfFiles {
		sets[x.Id] = x
	}
	for _, x := range c.PathFragments {
		frags[x.Id] = x
	}
	for _, x := range c.Artifacts {
		arts[x.Id] = true
		if frags[x.PathFragmentId] == nil {
			t.Fatalf("artifact %d: unknown fragment %d", x.Id, x.PathFragmentId)
		}
	}
	for _, f := range c.PathFragments {
		if f.ParentId != 0 && frags[f.ParentId] == nil {
			t.Fatalf("fragment %d: unknown parent %d", f.Id, f.ParentId)
		}
	}
	for i, a := range c.Actions {
		if !targets[a.TargetId] {
			t.Fatalf("action %d: unknown target %d", i, a.TargetId)
		}
		for _, d := range a.InputDepSetIds {
			if sets[d] == nil {
				t.Fatalf("action %d: unknown dep set %d", i, d)
			}
		}
		for _, o := range a.OutputIds {
			if !arts[o] {
				t.Fatalf("action %d: unknown output %d", i, o)
			}
		}
	}
	for _, d := range c.DepSetOfFiles {
		for _, x := range d.TransitiveDepSetIds {
			if sets[x] == nil {
				t.Fatalf("dep set %d: unknown transitive %d", d.Id, x)
			}
		}
		for _, x := range d.DirectArtifactIds {
			if !arts[x] {
				t.Fatalf("dep set %d: unknown artifact %d", d.Id, x)
			}
		}
	}
	// A stamped genrule reaches stable-status.txt through 20+ dep sets.
	var depth func(id uint32) int
	depth = func(id uint32) int {
		d := sets[id]
		if slices.Contains(d.DirectArtifactIds, statusStable) {
			return 1
		}
		for _, x := range d.TransitiveDepSetIds {
			if n := depth(x); n > 0 {
				return n + 1
			}
		}
		return 0
	}
	stamped := 0
	for _, a := range c.Actions {
		for _, d := range a.InputDepSetIds {
			if n := depth(d); n > 0 {
				stamped++
				if n < 20 {
					t.Errorf("status file %d dep sets deep, expected 20+", n)
				}
			}
		}
	}
	if stamped == 0 {
		t.Error("no action reads stable-status.txt, expected some stamped genrules")
	}
}

// TestRealistic checks the shapes the benchmarks rely on are all there.
func TestRealistic(t *testing.T) {
	b := generate(t, Options{Actions: 20000, Seed: 1})
	if per := len(b) / 20000; per < 800 || per > 1400 {
		t.Errorf("%d bytes per action, expected about 1 KB", per)
	}
	c := decode(t, b)
	mnemonics := map[string]int{}
	longest := 0
	for _, a := range c.Actions {
		mnemonics[a.Mnemonic]++
		if a.Mnemonic == "CppCompile" {
			longest = max(longest, len(a.Arguments))
			if len(a.Arguments) < 60 {
				t.Fatalf("CppCompile with %d arguments, expected 60+", len(a.Arguments))
			}
		}
	}
	for _, m := range []string{"CppCompile", "CppArchive", "CppLink", "Genrule", "Rustc", "CargoBuildScriptRun", "PackageTar", "PackageZip", "TestRunner", "FileWrite"} {
		if mnemonics[m] == 0 {
			t.Errorf("no %s action in %v", m, mnemonics)
		}
	}
	text := string(b)
	for _, s := range []string{
		userSentinel, hostnameSentinel, "@@platforms//host:host", execConfig, "-2.params", ".rlib-0.params",
		"external/toolchains_llvm++llvm+llvm_toolchain/bin/cc_wrapper.sh",
		"external/rules_cc++cc_configure_extension+local_config_cc/cc_wrapper.sh",
		"@@rules_rust++crate+crates__", "/opt/vendor/include", "requires-network", "/bin/bash",
	} {
		if !strings.Contains(text, s) {
			t.Errorf("dump does not contain %q", s)
		}
	}
}

// TestFormatsAgree checks streamed_proto and jsonproto hold the same
// graph as proto.
func TestFormatsAgree(t *testing.T) {
	opts := Options{Actions: 800, Seed: 5}
	want := decode(t, generate(t, opts))

	opts.Format = StreamedProto
	s := generate(t, opts)
	got := new(analysispb.ActionGraphContainer)
	for len(s) > 0 {
		n, k := protowire.ConsumeVarint(s)
		if k < 0 || uint64(len(s)-k) < n {
			t.Fatal("streamed_proto: bad length prefix")
		}
		var one analysispb.ActionGraphContainer
		if err := proto.Unmarshal(s[k:k+int(n)], &one); err != nil {
			t.Fatal(err)
		}
		if items := len(one.Artifacts) + len(one.Actions) + len(one.Targets) + len(one.DepSetOfFiles) + len(one.Configuration) + len(one.RuleClasses) + len(one.PathFragments); items != 1 {
			t.Fatalf("streamed_proto message holds %d items, expected 1", items)
		}
		proto.Merge(got, &one)
		s = s[k+int(n):]
	}
	if !proto.Equal(got, want) {
		t.Error("streamed_proto graph differs from proto")
	}

	opts.Format = JSONProto
	var fromJSON analysispb.ActionGraphContainer
	if err := protojson.Unmarshal(generate(t, opts), &fromJSON); err != nil {
		t.Fatalf("jsonproto does not parse: %v", err)
	}
	if !proto.Equal(&fromJSON, want) {
		t.Error("jsonproto graph differs from proto")
	}
}

func TestParseFormat(t *testing.T) {
	for _, f := range []Format{Proto, StreamedProto, JSONProto} {
		if got, err := ParseFormat(f.String()); err != nil || got != f {
			t.Errorf("ParseFormat(%q) = %v, %v", f, got, err)
		}
	}
	if _, err := ParseFormat("textproto"); err == nil || !strings.Contains(err.Error(), "expected one of") {
		t.Errorf("ParseFormat(textproto) error = %v, expected a list of formats", err)
	}
}

func TestNegativeActions(t *testing.T) {
	if _, err := Write(io.Discard, Options{Actions: -1}); err == nil {
		t.Error("Write accepted -1 actions")
	}
}

// BenchmarkWrite shows the generator is far from the bottleneck and does
// not allocate per action.
func BenchmarkWrite(b *testing.B) {
	for b.Loop() {
		st, err := Write(io.Discard, Options{Actions: 10000, Seed: 1})
		if err != nil {
			b.Fatal(err)
		}
		b.SetBytes(st.Bytes)
	}
}
