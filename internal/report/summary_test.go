package report

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/ahab-go/ahab/internal/finding"
	"github.com/ahab-go/ahab/internal/finding/findingtest"
	"github.com/ahab-go/ahab/internal/program"
)

func TestSummarize(t *testing.T) {
	gcc := program.ID{Origin: program.Origin{Kind: program.System}, Path: "/usr/bin/gcc"}
	codegen := program.ID{Origin: program.Origin{Kind: program.Main}, Path: "tools/codegen"}
	abs := func(target, path string, n int) finding.Counted {
		return finding.Counted{Count: n, Finding: finding.Finding{Kind: finding.AbsolutePath, Action: ref("CppCompile", target), Path: path,
			Site: finding.Site{Value: "-I" + path}}}
	}
	prog := func(k finding.Kind, target string, p program.ID, n int) finding.Counted {
		return finding.Counted{Count: n, Finding: finding.Finding{Kind: k, Action: ref("M", target), Program: p}}
	}
	fs := sorted([]finding.Counted{
		abs("//a:x", "/usr/include", 3),
		abs("//a:y", "/usr/include/c++/12", 1),
		abs("//a/b:z", "/opt/tc/include", 2),
		abs("@ext//c:d", "/usr", 1),
		prog(finding.SystemProgram, "//a:x", gcc, 4),
		prog(finding.SystemProgram, "//a/b:z", gcc, 1),
		prog(finding.UnknownProgram, "//a/b:z", codegen, 1),
	})
	want := Summary{
		Distinct: 7, Occurrences: 13, Targets: 4, Packages: 3,
		Kinds: []SummaryRow{{"absolute_path", 4, 7}, {"system_program", 2, 5}, {"unknown_program", 1, 1}},
		// Most distinct findings first, then occurrences, then name.
		TopPrograms: []SummaryRow{{"/usr/bin/gcc", 2, 5}, {"//tools/codegen", 1, 1}},
		TopPackages: []SummaryRow{{"//a", 3, 8}, {"//a/b", 3, 4}, {"@ext//c", 1, 1}},
		TopPrefixes: []SummaryRow{{"/usr/include", 2, 4}, {"/opt/tc", 1, 2}, {"/usr", 1, 1}},
	}
	if got := Summarize(fs, 10); !reflect.DeepEqual(got, want) {
		t.Errorf("got\n%+v\nwant\n%+v", got, want)
	}
	// Only the top n.
	if got := Summarize(fs, 1); len(got.TopPrograms) != 1 || len(got.TopPackages) != 1 || got.TopPackages[0].Name != "//a" || len(got.TopPrefixes) != 1 {
		t.Errorf("top 1: %+v", got)
	}
}

func TestPathPrefix(t *testing.T) {
	for path, want := range map[string]string{
		"/usr/include/stdio.h": "/usr/include",
		"/usr/include":         "/usr/include",
		"/usr":                 "/usr",
		"/":                    "/",
		"/home/alice/.cache/x": "/home/alice",
	} {
		if got := pathPrefix(path); got != want {
			t.Errorf("pathPrefix(%q) = %q, want %q", path, got, want)
		}
	}
}

func TestSummaryGolden(t *testing.T) {
	var b strings.Builder
	if err := WriteSummary(&b, Summarize(oneOfEachKind(), SummaryTop), SummaryOptions{}); err != nil {
		t.Fatal(err)
	}
	checkGolden(t, "testdata/kinds.summary.txt", []byte(b.String()+"\n"))
}

// big is a report of n distinct findings of every kind, over many
// programs, packages and paths.
func big(n int) Slice {
	r := rand.New(rand.NewPCG(3, 4))
	var fs []finding.Counted
	for i := range n {
		k := finding.Kind(i % len(finding.Kinds()))
		target := fmt.Sprintf("//service%d/very/deep/package/path/number%d:target_with_a_long_name_%d", r.IntN(40), r.IntN(300), i)
		f := finding.Finding{Kind: k, Action: ref("Mnemonic", target)}
		switch {
		case k.HasProgram():
			f.Program = program.ID{Origin: program.Origin{Kind: program.Module, Module: fmt.Sprintf("rules_%d", r.IntN(60)),
				Extension: "an_extension_with_a_long_name", HasExtension: true}, Path: "some/tool/deep/inside/the/repository"}
		case k == finding.AbsolutePath:
			f.Path = fmt.Sprintf("/opt/toolchain-%d/lib/%d", r.IntN(50), i)
		case k == finding.VariationSource:
			f.Variation = "clock"
		}
		fs = append(fs, finding.Counted{Finding: f, Count: 1 + r.IntN(5)})
	}
	return sorted(fs)
}

// TestSummaryFitsAScreen: a 100,000-finding report summarises in 25 lines
// of at most 100 columns.
func TestSummaryFitsAScreen(t *testing.T) {
	fs := big(100_000)
	var b strings.Builder
	if err := WriteSummary(&b, Summarize(fs, SummaryTop), SummaryOptions{}); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(b.String(), "\n")
	if len(lines) > 25 {
		t.Errorf("%d lines, want at most 25:\n%s", len(lines), b.String())
	}
	for _, l := range lines {
		if n := utf8.RuneCountInString(l); n > 100 {
			t.Errorf("a line of %d columns, want at most 100: %q", n, l)
		}
	}
	if !strings.HasPrefix(lines[0], "found 100,000 distinct findings (") {
		t.Errorf("the first line does not say how many findings there are: %q", lines[0])
	}
	for _, want := range []string{"conditional_reproducibility", "variation_source", "/opt/toolchain-", "@rules_", "//service"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("the summary lacks %q:\n%s", want, b.String())
		}
	}
}

func TestSummaryOrderIndependent(t *testing.T) {
	fs := big(3_000)
	want := Summarize(fs, SummaryTop)
	shuffled := append(Slice(nil), fs...)
	rand.New(rand.NewPCG(5, 6)).Shuffle(len(shuffled), func(i, j int) { shuffled[i], shuffled[j] = shuffled[j], shuffled[i] })
	if got := Summarize(shuffled, SummaryTop); !reflect.DeepEqual(got, want) {
		t.Error("the summary depends on the order of the findings")
	}
}

func TestShortenAndCount(t *testing.T) {
	for n, want := range map[int]string{0: "0", 999: "999", 1000: "1,000", 412337: "412,337", 1234567: "1,234,567"} {
		if got := thousands(n); got != want {
			t.Errorf("thousands(%d) = %q, want %q", n, got, want)
		}
	}
}

// sorted is fs as a report lists them.
func sorted(fs []finding.Counted) Slice { return Slice(findingtest.Sorted(fs)) }
