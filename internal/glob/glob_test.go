package glob

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// §12 glob.rs; the cases are §5.1's.
func TestGlob(t *testing.T) {
	type match struct {
		s    string
		want bool
	}
	tests := []struct {
		name    string
		pattern string
		cases   []match
	}{
		{"a_glob_without_wildcards_is_exact", "CppCompile", []match{
			{"CppCompile", true}, {"CppCompiler", false}, {"MyCppCompile", false}, {"", false},
		}},
		{"a_star_spans_slashes", "/usr/include/*", []match{
			{"/usr/include/stdio.h", true}, {"/usr/include/sys/types.h", true},
			{"/usr/include/", true}, {"/usr/local/include/stdio.h", false},
		}},
		{"a_star_spans_slashes", "*/bin/*", []match{
			{"@llvm//bin/clang", true}, {"bin/clang", false},
		}},
		{"a_star_matches_the_empty_string", "*", []match{{"", true}, {"anything/at/all", true}}},
		{"a_star_matches_the_empty_string", "**", []match{{"", true}, {"x", true}}},
		{"a_star_matches_the_empty_string", "a*", []match{{"a", true}, {"ab", true}, {"b", false}}},
		{"a_star_matches_the_empty_string", "*a", []match{{"a", true}, {"ba", true}, {"ab", false}}},
		{"a_question_mark_matches_exactly_one_character", "gcc-?", []match{
			{"gcc-9", true}, {"gcc-", false}, {"gcc-11", false},
		}},
		{"a_question_mark_matches_exactly_one_character", "?", []match{{"", false}, {"é", true}, {"ab", false}}},
		{"a_glob_is_anchored_at_both_ends", "abc", []match{{"xabc", false}, {"abcx", false}, {"abc", true}}},
		{"a_glob_is_anchored_at_both_ends", "a*c", []match{{"abcd", false}, {"xabc", false}, {"abbc", true}}},
		{"a_glob_backtracks_past_a_false_start", "*abc", []match{{"abxabc", true}, {"abxab", false}}},
		{"a_glob_backtracks_past_a_false_start", "a*b*c", []match{{"axxbxxc", true}, {"axxbxx", false}, {"abcbc", true}}},
		{"a_glob_backtracks_past_a_false_start", "--remap-path-prefix=${pwd}=*", []match{
			{"--remap-path-prefix=${pwd}=.", true}, {"--remap-path-prefix=/nowhere=.", false},
		}},
		{"a_glob_backtracks_past_a_false_start", "*\x00/*", []match{
			{"etc/app/current.txt\x00/etc/app/config.txt", true},
			{"etc/app/current.txt\x00etc/app/config.txt", false},
		}},
		{"a_glob_compares_whole_characters", "caf?", []match{{"café", true}, {"cafe", true}, {"caf", false}}},
		{"a_glob_compares_whole_characters", "*é", []match{{"café", true}, {"cafe", false}}},
		{"a_glob_compares_whole_characters", "*?", []match{{"é", true}, {"", false}}},
		{"a_glob_compares_whole_characters", "*??", []match{{"é", false}, {"éé", true}}},
		{"a_glob_compares_whole_characters", "??", []match{{"é", false}, {"ab", true}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			g := Compile(tc.pattern)
			if g.String() != tc.pattern {
				t.Errorf("Compile(%q).String() = %q", tc.pattern, g.String())
			}
			for _, c := range tc.cases {
				if got := g.Match(c.s); got != c.want {
					t.Errorf("%q.Match(%q) = %v, want %v", tc.pattern, c.s, got, c.want)
				}
			}
		})
	}
}

func TestGlobMatchDoesNotAllocate(t *testing.T) {
	globs := []Glob{Compile("-D__DATE__=*"), Compile("--remap-path-prefix=${pwd}=*"), Compile("gcc-?"), Compile("-c")}
	allocs := testing.AllocsPerRun(100, func() {
		for _, g := range globs {
			g.Match("--remap-path-prefix=${pwd}=.")
			g.Match("-D__DATE__=\"redacted\"")
		}
	})
	if allocs != 0 {
		t.Errorf("Match allocated %v times per run", allocs)
	}
}

func BenchmarkGlobMatch(b *testing.B) {
	g := Compile("*-ffile-prefix-map=*")
	for b.Loop() {
		g.Match("bazel-out/k8-fastbuild/bin/external/some/very/long/path/to/a/source/file.cc")
	}
}

// The star-only fast path must agree with the general matcher: compare
// them on every pattern and string up to four characters over {a, b, *}.
func TestGlobFastPathAgreesWithTheGeneralMatcher(t *testing.T) {
	var words func(alphabet string, n int) []string
	words = func(alphabet string, n int) []string {
		if n == 0 {
			return []string{""}
		}
		var out []string
		for _, w := range words(alphabet, n-1) {
			out = append(out, w)
			if len(w) == n-1 {
				for _, c := range alphabet {
					out = append(out, w+string(c))
				}
			}
		}
		return out
	}
	subjects := words("ab", 4)
	for _, p := range words("ab*", 4) {
		g := Compile(p)
		for _, s := range subjects {
			if got, want := g.Match(s), matchWildcards(p, s); got != want {
				t.Errorf("%q.Match(%q) = %v, the general matcher says %v", p, s, got, want)
			}
		}
	}
}

// Ahab 0.2's matcher, kept for --compat 0.2, takes a `*` of the text for
// the pattern's own `*` and never tries the wildcard there again: on these
// it misses matches the documented meaning finds, and on text without a
// `*` it always agrees.
func TestAhab02(t *testing.T) {
	for _, tc := range []struct {
		pattern, text string
		documented    bool
		ahab02        bool
	}{
		{"--x=*y", "--x=*zy", true, false},
		{"a*c", "a*bc", true, false},
		{"*", "a*b", true, true},
		{"a*", "a*", true, true},
		{"*b", "a*b", true, true},
		{"a*b*c", "a*x*b*c", true, false},
		{"?*", "**", true, true},
		{"a*c", "abc", true, true},
		{"--x=*", "--x=*", true, true},
		{"gcc-?", "gcc-*", true, true},
	} {
		if got := Compile(tc.pattern).Match(tc.text); got != tc.documented {
			t.Errorf("Compile(%q).Match(%q) = %v, want %v", tc.pattern, tc.text, got, tc.documented)
		}
		if got := CompileAhab02(tc.pattern).Match(tc.text); got != tc.ahab02 {
			t.Errorf("CompileAhab02(%q).Match(%q) = %v, want %v", tc.pattern, tc.text, got, tc.ahab02)
		}
	}
}

// On text without a `*`, the two matchers agree (the fuzz behind issue
// #16 found disagreements only where the text had one).
func FuzzAhab02AgreesWithoutStars(f *testing.F) {
	f.Add("a*b?c", "axxbyc")
	f.Add("*/bin/*", "@llvm//bin/clang")
	f.Fuzz(func(t *testing.T, pattern, text string) {
		if strings.Contains(text, "*") || !utf8.ValidString(text) || !utf8.ValidString(pattern) {
			return
		}
		if a, b := Compile(pattern).Match(text), matchAhab02(pattern, text); a != b {
			t.Fatalf("%q against %q: documented %v, Ahab 0.2 %v", pattern, text, a, b)
		}
	})
}
