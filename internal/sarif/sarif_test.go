package sarif

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"flag"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/ahab-go/ahab/internal/finding"
	"github.com/ahab-go/ahab/internal/finding/findingtest"
	"github.com/ahab-go/ahab/internal/mode"
	"github.com/ahab-go/ahab/internal/program"
	"github.com/ahab-go/ahab/internal/report"
	"github.com/ahab-go/ahab/internal/sarifschema"
	"github.com/ahab-go/ahab/internal/testenv"
)

// The parts of a SARIF log the tests read.
type sarifDoc struct {
	Runs []struct {
		Tool struct {
			Driver struct {
				Rules []struct {
					ID                   string
					HelpURI              string
					Help                 struct{ Text, Markdown string }
					DefaultConfiguration struct{ Level string }
				}
			}
		}
		AutomationDetails *struct{ ID string }
		Invocations       []struct {
			ToolExecutionNotifications []struct {
				Descriptor struct{ ID string }
				Level      string
				Message    struct{ Text string }
			}
		}
		Results []struct {
			RuleID              string
			RuleIndex           int
			Level               string
			Message             struct{ Text string }
			PartialFingerprints map[string]string
			Locations           []struct {
				PhysicalLocation *struct {
					ArtifactLocation struct{ URI, URIBaseID string }
					Region           *struct{ StartLine, StartColumn int }
				}
				LogicalLocations []struct{ FullyQualifiedName string }
			}
			Properties struct {
				Count, Distinct  int
				Target, Mnemonic string
				Remedy           string
			}
		}
		Properties struct {
			Mode                  string
			Findings, Occurrences int
			Collapsed             bool
		}
	}
}

// writeSARIF writes findings as SARIF, checks the log against the OASIS
// schema, and returns it raw and read.
func writeSARIF(t *testing.T, findings report.Findings, opts Options) ([]byte, sarifDoc) {
	t.Helper()
	var b bytes.Buffer
	if err := Write(&b, findings, opts); err != nil {
		t.Fatal(err)
	}
	if err := sarifschema.Validate(b.Bytes()); err != nil {
		t.Fatalf("the log does not validate against the SARIF 2.1.0 schema: %v", err)
	}
	var doc sarifDoc
	if err := json.Unmarshal(b.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.Runs) != 1 {
		t.Fatalf("%d runs, want 1", len(doc.Runs))
	}
	return b.Bytes(), doc
}

func notificationsOf(doc sarifDoc) string {
	var b strings.Builder
	for _, n := range doc.Runs[0].Invocations[0].ToolExecutionNotifications {
		fmt.Fprintf(&b, "%s %s: %s\n", n.Level, n.Descriptor.ID, n.Message.Text)
	}
	return b.String()
}

// kindsLocations places the fixture's targets: some with a line, one in
// another repository, one Bazel did not find.
func kindsLocations() Locations {
	return Locations{ByTarget: map[string]TargetLocation{
		"//a:gen":         {Path: "a/BUILD.bazel", Line: 3, Column: 8},
		"//a:b":           {Path: "a/BUILD.bazel", Line: 12, Column: 11},
		"//a:bin":         {Path: "a/BUILD.bazel", Line: 20, Column: 10},
		"//a:env":         {Path: "a/BUILD.bazel", Line: 31, Column: 8},
		"//net:fetch":     {Path: "net/BUILD", Line: 1, Column: 8},
		"//native:bridge": {Path: "native/BUILD", Line: 2, Column: 11},
		"//native:shim":   {Path: "native/BUILD", Line: 9, Column: 11},
		"//api:gen":       {Path: "api/BUILD", Line: 4, Column: 8},
		"//rel:stamp":     {Path: "rel/BUILD", Line: 7, Column: 6},
		// //rel:info: Bazel gave no location.
		"//crate:lib": {Path: "crate/BUILD.bazel", Line: 1, Column: 13},
	}}
}

// TestSARIFGolden pins the log of one finding of every kind (the printer
// goldens' shared fixture).
func TestSARIFGolden(t *testing.T) {
	fs := oneOfEachKind()
	fs = append(fs, finding.Counted{Count: 2, Finding: finding.Finding{Kind: finding.VariationSource,
		Action: ref("Genrule", "@tools//gen:stamp"), Variation: "clock", Command: "date +%s > $@"}})
	got, doc := writeSARIF(t, fs, Options{
		Mode:        mode.Default,
		ToolVersion: "0.3.0",
		HelpURI:     "https://github.com/ahab-go/ahab/blob/v0.3.0/docs/kinds.md",
		Category:    "services",
		Locations:   kindsLocations(),
		Notes:       []string{"3 violations suppressed by 2 exceptions"},
	})
	checkGolden(t, "testdata/kinds.sarif", got)
	if doc.Runs[0].AutomationDetails == nil || doc.Runs[0].AutomationDetails.ID != "services/" {
		t.Errorf("automationDetails %+v, want the id services/", doc.Runs[0].AutomationDetails)
	}
}

// TestSARIFRules: a rule per kind, in kind order, whose help is the
// kind's documentation and links to its section of docs/kinds.md.
func TestSARIFRules(t *testing.T) {
	_, doc := writeSARIF(t, report.Slice(nil), Options{HelpURI: "https://example.com/docs/kinds.md"})
	rules := doc.Runs[0].Tool.Driver.Rules
	if len(rules) != len(finding.Kinds()) {
		t.Fatalf("%d rules, want one per kind (%d)", len(rules), len(finding.Kinds()))
	}
	for i, k := range finding.Kinds() {
		r := rules[i]
		if r.ID != k.String() || r.HelpURI != "https://example.com/docs/kinds.md#"+k.String() {
			t.Errorf("rule %d: id %q helpUri %q, want %s and its anchor", i, r.ID, r.HelpURI, k)
		}
		if !strings.Contains(r.Help.Text, k.Info().Remedy) || !strings.Contains(r.Help.Markdown, k.Info().Excuse) {
			t.Errorf("rule %s: its help does not say how to fix and excuse the kind", k)
		}
		if !strings.Contains(report.KindsMarkdown(), "\n## "+k.String()+"\n\n"+r.Help.Markdown) {
			t.Errorf("rule %s: its help is not the kind's section of docs/kinds.md", k)
		}
	}
}

func TestSARIFLevels(t *testing.T) {
	want := map[finding.Kind]string{
		finding.EnvironmentLeak: "error", finding.BadPath: "error", finding.ExecutionRequirement: "error",
		finding.AbsolutePath: "error", finding.SystemProgram: "error", finding.HostDerivedProgram: "error",
		finding.WorkspaceStatus: "error", finding.UnknownProgram: "note", finding.NeverReproducible: "warning",
		finding.ConditionalReproducibility: "warning", finding.VariationSource: "warning",
	}
	fs := oneOfEachKind()
	fs = append(fs, finding.Counted{Count: 1, Finding: finding.Finding{Kind: finding.VariationSource, Action: ref("Genrule", "//v:v"), Variation: "pid"}})
	_, doc := writeSARIF(t, fs, Options{})
	run := doc.Runs[0]
	for i, r := range run.Results {
		if r.Level != want[finding.Kind(r.RuleIndex)] || r.RuleID != finding.Kind(r.RuleIndex).String() {
			t.Errorf("result %d: rule %s (index %d) level %s, want level %s", i, r.RuleID, r.RuleIndex, r.Level, want[finding.Kind(r.RuleIndex)])
		}
		// The message is the text report's sentence, and the count and
		// remedy travel with it.
		f := fs[i]
		if r.Message.Text != report.Sentence(&f.Finding, report.Palette{}) || r.Properties.Count != f.Count || r.Properties.Remedy != f.Remedy() {
			t.Errorf("result %d: %q ×%d, want %q ×%d with its remedy", i, r.Message.Text, r.Properties.Count, report.Sentence(&f.Finding, report.Palette{}), f.Count)
		}
	}
	for i, r := range run.Tool.Driver.Rules {
		if r.DefaultConfiguration.Level != want[finding.Kind(i)] {
			t.Errorf("rule %s: default level %s, want %s", r.ID, r.DefaultConfiguration.Level, want[finding.Kind(i)])
		}
	}
}

// TestSARIFFingerprints: a finding's fingerprint is its identity: the same
// in any order of actions, with any count, wherever its target is
// declared; and different for different findings.
func TestSARIFFingerprints(t *testing.T) {
	base := oneOfEachKind()
	fingerprints := func(fs []finding.Counted, locs Locations) map[string]string {
		set := finding.NewSet()
		for _, c := range fs {
			set.Add(c.Finding, c.Count)
		}
		_, doc := writeSARIF(t, set.Ordered(), Options{Locations: locs})
		out := map[string]string{}
		for _, r := range doc.Runs[0].Results {
			out[r.Message.Text] = r.PartialFingerprints[fingerprintKey]
		}
		return out
	}
	want := fingerprints(base, kindsLocations())
	seen := map[string]bool{}
	for sentence, fp := range want {
		if len(fp) != 64 || seen[fp] {
			t.Errorf("fingerprint %q of %q is malformed or not unique", fp, sentence)
		}
		seen[fp] = true
	}
	r := rand.New(rand.NewPCG(1, 2))
	for round := range 5 {
		shuffled := append([]finding.Counted(nil), base...)
		r.Shuffle(len(shuffled), func(i, j int) { shuffled[i], shuffled[j] = shuffled[j], shuffled[i] })
		// Another run: other counts, other lines, no workspace.
		for i := range shuffled {
			shuffled[i].Count += round + 1
		}
		got := fingerprints(shuffled, Locations{NoLines: "no Bazel ran"})
		for sentence, fp := range want {
			if got[sentence] != fp {
				t.Errorf("round %d: %q has fingerprint %s, was %s", round, sentence, got[sentence], fp)
			}
		}
	}
}

// TestSARIFDeterministic: the same findings in any order give the same
// bytes.
func TestSARIFDeterministic(t *testing.T) {
	fs := generated(2000, 7)
	var want []byte
	for seed := range uint64(3) {
		shuffled := append([]finding.Counted(nil), fs...)
		rand.New(rand.NewPCG(seed, 9)).Shuffle(len(shuffled), func(i, j int) { shuffled[i], shuffled[j] = shuffled[j], shuffled[i] })
		set := finding.NewSet()
		for _, c := range shuffled {
			set.Add(c.Finding, c.Count)
		}
		got, _ := writeSARIF(t, set.Ordered(), Options{Locations: Locations{NoLines: "no Bazel ran"}})
		if want == nil {
			want = got
		} else if !bytes.Equal(got, want) {
			t.Fatalf("seed %d: the log differs with another order of the same findings", seed)
		}
	}
}

func TestSARIFLocations(t *testing.T) {
	gcc := program.ID{Origin: program.Origin{Kind: program.System}, Path: "/usr/bin/gcc"}
	fs := report.Slice{
		{Count: 1, Finding: finding.Finding{Kind: finding.SystemProgram, Action: ref("CppCompile", "//app:main"), Program: gcc}},
		{Count: 1, Finding: finding.Finding{Kind: finding.SystemProgram, Action: ref("CppCompile", "//:root"), Program: gcc}},
		{Count: 1, Finding: finding.Finding{Kind: finding.SystemProgram, Action: ref("CppCompile", "//gone:x"), Program: gcc}},
		{Count: 1, Finding: finding.Finding{Kind: finding.SystemProgram, Action: ref("CppCompile", "@zlib//:z"), Program: gcc}},
		{Count: 1, Finding: finding.Finding{Kind: finding.SystemProgram, Action: ref("CppCompile", "@@rules_cc+//cc/sub:t"), Program: gcc}},
		{Count: 1, Finding: finding.Finding{Kind: finding.SystemProgram, Action: ref("CppCompile", "//a b:c"), Program: gcc}},
		{Count: 1, Finding: finding.Finding{Kind: finding.SystemProgram, Action: ref("CppCompile", "<unknown target>"), Program: gcc}},
	}
	type place struct {
		uri, base string
		line, col int // 0: no region
		none      bool
	}
	tests := []struct {
		name  string
		locs  Locations
		want  []place
		notes []string // parts of the notifications, in order
	}{
		{"main_repository_from_bazel_query", Locations{ByTarget: map[string]TargetLocation{
			"//app:main": {Path: "app/BUILD.bazel", Line: 5, Column: 10},
			"//:root":    {Path: "BUILD.bazel", Line: 1, Column: 1},
			"@zlib//:z":  {Path: "BUILD.bazel", Line: 3, Column: 1},
			"//a b:c":    {Path: "a b/BUILD", Line: 2, Column: 1},
		}}, []place{
			{uri: "app/BUILD.bazel", base: "%SRCROOT%", line: 5, col: 10},
			{uri: "BUILD.bazel", base: "%SRCROOT%", line: 1, col: 1},
			{uri: "gone/BUILD", base: "%SRCROOT%"},
			{uri: "external/zlib/BUILD.bazel"},
			{uri: "external/rules_cc+/cc/sub/BUILD"},
			{uri: "a%20b/BUILD", base: "%SRCROOT%", line: 2, col: 1},
			{none: true},
		}, []string{
			"warning locations: Bazel gave no location for 1 target",
			"note external: 2 targets are in external repositories",
			"warning locations: 1 target has no label",
		}},
		{"no_workspace", Locations{NoLines: "the findings come from a saved aquery dump and no Bazel ran"}, []place{
			{uri: "app/BUILD", base: "%SRCROOT%"},
			{uri: "BUILD", base: "%SRCROOT%"},
			{uri: "gone/BUILD", base: "%SRCROOT%"},
			{uri: "external/zlib/BUILD"},
			{uri: "external/rules_cc+/cc/sub/BUILD"},
			{uri: "a%20b/BUILD", base: "%SRCROOT%"},
			{none: true},
		}, []string{
			"note locations: the findings come from a saved aquery dump and no Bazel ran: results point at their package's BUILD file, without a line",
			"note external: 2 targets are in external repositories",
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, doc := writeSARIF(t, fs, Options{Locations: tt.locs})
			for i, r := range doc.Runs[0].Results {
				w := tt.want[i]
				loc := r.Locations[0]
				if loc.LogicalLocations[0].FullyQualifiedName != fs[i].Action.Target {
					t.Errorf("%s: logical location %q", fs[i].Action.Target, loc.LogicalLocations[0].FullyQualifiedName)
				}
				if w.none {
					if loc.PhysicalLocation != nil {
						t.Errorf("%s: a file %+v for what is no label", fs[i].Action.Target, loc.PhysicalLocation)
					}
					continue
				}
				p := loc.PhysicalLocation
				if p == nil || p.ArtifactLocation.URI != w.uri || p.ArtifactLocation.URIBaseID != w.base {
					t.Errorf("%s: %+v, want uri %q base %q", fs[i].Action.Target, p, w.uri, w.base)
					continue
				}
				switch {
				case w.line == 0 && p.Region != nil:
					t.Errorf("%s: region %+v, want none", fs[i].Action.Target, *p.Region)
				case w.line != 0 && (p.Region == nil || p.Region.StartLine != w.line || p.Region.StartColumn != w.col):
					t.Errorf("%s: region %+v, want line %d column %d", fs[i].Action.Target, p.Region, w.line, w.col)
				}
			}
			notes := notificationsOf(doc)
			rest := notes
			for _, n := range tt.notes {
				i := strings.Index(rest, n)
				if i < 0 {
					t.Errorf("notifications lack %q (in order):\n%s", n, notes)
					break
				}
				rest = rest[i+len(n):]
			}
		})
	}
}

// generated is n distinct findings spread over n/per targets, of mixed
// kinds, with counts.
func generated(n, per int) []finding.Counted {
	gcc := program.ID{Origin: program.Origin{Kind: program.System}, Path: "/usr/bin/gcc"}
	codegen := program.ID{Origin: program.Origin{Kind: program.Main}, Path: "tools/codegen"}
	out := make([]finding.Counted, 0, n)
	for i := range n {
		target := fmt.Sprintf("//pkg%d/sub:t%d", i/per/50, i/per)
		var f finding.Finding
		switch i % per % 3 {
		case 0:
			f = finding.Finding{Kind: finding.AbsolutePath, Action: ref("CppCompile", target), Path: fmt.Sprintf("/opt/inc%d", i%per),
				Site: finding.Site{Value: fmt.Sprintf("-I/opt/inc%d", i%per)}}
		case 1:
			f = finding.Finding{Kind: finding.SystemProgram, Action: ref(fmt.Sprintf("M%d", i%per), target), Program: gcc}
		default:
			f = finding.Finding{Kind: finding.UnknownProgram, Action: ref(fmt.Sprintf("M%d", i%per), target), Program: codegen}
		}
		out = append(out, finding.Counted{Finding: f, Count: 1 + i%4})
	}
	return out
}

func sorted(fs []finding.Counted) report.Slice { return report.Slice(findingtest.Sorted(fs)) }

// TestSARIFCollapse: past GitHub's 25,000 results per run, the findings of
// each target and kind become one result, and the log says so; the counts
// still add up to the report's.
func TestSARIFCollapse(t *testing.T) {
	fs := sorted(generated(30_000, 12))
	_, doc := writeSARIF(t, fs, Options{Locations: Locations{NoLines: "no Bazel ran"}})
	run := doc.Runs[0]
	if !run.Properties.Collapsed || run.Properties.Findings != 30_000 {
		t.Errorf("properties %+v, want collapsed with 30,000 findings", run.Properties)
	}
	// 2,500 targets with three kinds each.
	if len(run.Results) != 7_500 {
		t.Errorf("%d results, want one per target and kind (7,500)", len(run.Results))
	}
	occurrences, distinct := 0, 0
	fingerprints := map[string]bool{}
	for _, r := range run.Results {
		occurrences += r.Properties.Count
		distinct += r.Properties.Distinct
		fingerprints[r.PartialFingerprints[fingerprintKey]] = true
		if !strings.HasPrefix(r.Message.Text, "4 distinct ") || !strings.Contains(r.Message.Text, "in target "+r.Properties.Target+"; the first: ") {
			t.Fatalf("collapsed message %q", r.Message.Text)
		}
	}
	if occurrences != fs.Occurrences() || distinct != 30_000 || len(fingerprints) != len(run.Results) {
		t.Errorf("the collapsed results count %d occurrences of %d distinct findings with %d fingerprints, want %d, 30,000 and one each",
			occurrences, distinct, len(fingerprints), fs.Occurrences())
	}
	if n := notificationsOf(doc); !strings.Contains(n, "warning collapsed: 30000 distinct findings are more results than the 25000 a run may have: the findings of each target and kind are one result (7500 results)") {
		t.Errorf("notifications do not say the results were collapsed:\n%s", n)
	}
}

// TestSARIFTruncate: when even collapsed results are too many, the most
// severe are kept.
func TestSARIFTruncate(t *testing.T) {
	// Three findings of three kinds per target: collapsing merges
	// nothing. A third are unknown programs (notes), the rest errors.
	fs := sorted(generated(3_000, 3))
	_, doc := writeSARIF(t, fs, Options{MaxResults: 2_500})
	levels := map[string]int{}
	for _, r := range doc.Runs[0].Results {
		levels[r.Level]++
	}
	if len(doc.Runs[0].Results) != 2_500 || levels["error"] != 2_000 || levels["note"] != 500 {
		t.Errorf("kept %v, want the 2,000 errors and 500 of the 1,000 notes", levels)
	}
	if n := notificationsOf(doc); !strings.Contains(n, "even collapsed, there are more results than the 2500 a run may have: only the 2500 most severe of 3000 results are kept") {
		t.Errorf("notifications do not say results were left out:\n%s", n)
	}
}

// TestSARIFSizeLimit: a log over the gzipped size limit is collapsed, then
// cut to the most severe results until it fits.
func TestSARIFSizeLimit(t *testing.T) {
	fs := sorted(generated(6_000, 12))
	const limit = 60_000
	data, doc := writeSARIF(t, fs, Options{MaxGzipBytes: limit})
	var z bytes.Buffer
	zw := gzip.NewWriter(&z)
	zw.Write(data)
	zw.Close()
	if z.Len() > limit {
		t.Errorf("the log is %d bytes gzipped, over the limit of %d", z.Len(), limit)
	}
	n := notificationsOf(doc)
	if !strings.Contains(n, "more than the 60000 an upload may have: the findings of each target and kind are one result") ||
		!strings.Contains(n, "most severe of 1500 results are kept") {
		t.Errorf("notifications do not say the log was collapsed and cut:\n%s", n)
	}
	// The most severe: errors before warnings before notes.
	rank := map[string]int{"error": 0, "warning": 1, "note": 2}
	worst := 0
	for _, r := range doc.Runs[0].Results {
		worst = max(worst, rank[r.Level])
	}
	kept := len(doc.Runs[0].Results)
	if kept == 0 || kept >= 1500 {
		t.Errorf("kept %d results", kept)
	}
	if kept <= 1000 && worst > 0 {
		t.Errorf("kept a %d-ranked result while errors were left out", worst)
	}
}

var ref = findingtest.Ref

func oneOfEachKind() report.Slice { return report.Slice(findingtest.OneOfEachKind()) }

var update = flag.Bool("update", false, "rewrite the golden files under testdata/")

// checkGolden compares got with the golden file at path.
func checkGolden(t *testing.T, path string, got []byte) { testenv.Golden(t, path, got, *update) }

// TestEvidenceIsRelatedLocations: a finding's evidence is where the
// analysis saw the cause, not where to fix the finding, so SARIF gives it
// as related locations (§3.27.22), each with an id and the evidence's
// text; the fingerprint ignores it, and a log of Ahab 0.2's judgement has
// none.
func TestEvidenceIsRelatedLocations(t *testing.T) {
	f := findingtest.Full(finding.VariationSource)
	f.Evidence = []finding.Evidence{
		{File: "tools/gen.py", Line: 12, Text: "time.time() reaches the output"},
		{File: "external/rules_x/gen.py", Text: "reads the clock"},
		{File: "/usr/lib/python3/time.py", Line: 3, Text: "the machine's own"},
	}
	raw, _ := writeSARIF(t, report.Slice{{Finding: f, Count: 1}}, Options{Mode: mode.Default})
	var doc struct {
		Runs []struct {
			Results []struct {
				PartialFingerprints map[string]string
				RelatedLocations    []struct {
					ID               int
					PhysicalLocation struct {
						ArtifactLocation struct{ URI, URIBaseID string }
						Region           *struct{ StartLine int }
					}
					Message struct{ Text string }
				}
			}
		}
	}
	if err := json.Unmarshal(raw, &doc); err != nil {
		t.Fatal(err)
	}
	r := doc.Runs[0].Results[0]
	var got []string
	for _, l := range r.RelatedLocations {
		line := 0
		if l.PhysicalLocation.Region != nil {
			line = l.PhysicalLocation.Region.StartLine
		}
		got = append(got, fmt.Sprintf("%d %s %s:%d %s", l.ID, l.PhysicalLocation.ArtifactLocation.URIBaseID, l.PhysicalLocation.ArtifactLocation.URI, line, l.Message.Text))
	}
	want := []string{
		"1 %SRCROOT% tools/gen.py:12 time.time() reaches the output",
		"2  external/rules_x/gen.py:0 reads the clock",
		"3  file:///usr/lib/python3/time.py:3 the machine's own",
	}
	if !slices.Equal(got, want) {
		t.Errorf("related locations:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	bare := f
	bare.Evidence = nil
	if r.PartialFingerprints[fingerprintKey] != Fingerprint(&bare) {
		t.Error("the evidence changes the fingerprint")
	}
	compat, _ := writeSARIF(t, report.Slice{{Finding: f, Count: 1}}, Options{Mode: mode.Ahab02})
	if bytes.Contains(compat, []byte("relatedLocations")) {
		t.Error("a log of Ahab 0.2's judgement has the evidence")
	}
}
