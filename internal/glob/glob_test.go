package glob

import (
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"
)

// §12 glob.rs; the cases are §5.1's. Each §12 test holds several
// patterns, each a subtest of its own so that -run can pick one.
func TestGlob(t *testing.T) {
	type match struct {
		s    string
		want bool
	}
	type pattern struct {
		name    string
		pattern string
		cases   []match
	}
	tests := []struct {
		name     string
		patterns []pattern
	}{
		{"a_glob_without_wildcards_is_exact", []pattern{
			{"mnemonic", "CppCompile", []match{{"CppCompile", true}, {"CppCompiler", false}, {"MyCppCompile", false}, {"", false}}},
		}},
		{"a_star_spans_slashes", []pattern{
			{"trailing", "/usr/include/*", []match{
				{"/usr/include/stdio.h", true}, {"/usr/include/sys/types.h", true},
				{"/usr/include/", true}, {"/usr/local/include/stdio.h", false},
			}},
			{"both_ends", "*/bin/*", []match{{"@llvm//bin/clang", true}, {"bin/clang", false}}},
		}},
		{"a_star_matches_the_empty_string", []pattern{
			{"alone", "*", []match{{"", true}, {"anything/at/all", true}}},
			{"twice", "**", []match{{"", true}, {"x", true}}},
			{"trailing", "a*", []match{{"a", true}, {"ab", true}, {"b", false}}},
			{"leading", "*a", []match{{"a", true}, {"ba", true}, {"ab", false}}},
		}},
		{"a_question_mark_matches_exactly_one_character", []pattern{
			{"after_a_literal", "gcc-?", []match{{"gcc-9", true}, {"gcc-", false}, {"gcc-11", false}}},
			{"alone", "?", []match{{"", false}, {"é", true}, {"ab", false}}},
		}},
		{"a_glob_is_anchored_at_both_ends", []pattern{
			{"literal", "abc", []match{{"xabc", false}, {"abcx", false}, {"abc", true}}},
			{"inner_star", "a*c", []match{{"abcd", false}, {"xabc", false}, {"abbc", true}}},
		}},
		{"a_glob_backtracks_past_a_false_start", []pattern{
			{"leading_star", "*abc", []match{{"abxabc", true}, {"abxab", false}}},
			{"two_stars", "a*b*c", []match{{"axxbxxc", true}, {"axxbxx", false}, {"abcbc", true}}},
			{"placeholder", "--remap-path-prefix=${pwd}=*", []match{
				{"--remap-path-prefix=${pwd}=.", true}, {"--remap-path-prefix=/nowhere=.", false},
			}},
			{"nul_separated", "*\x00/*", []match{
				{"etc/app/current.txt\x00/etc/app/config.txt", true},
				{"etc/app/current.txt\x00etc/app/config.txt", false},
			}},
		}},
		{"a_glob_compares_whole_characters", []pattern{
			{"question_mark", "caf?", []match{{"café", true}, {"cafe", true}, {"caf", false}}},
			{"star_then_letter", "*é", []match{{"café", true}, {"cafe", false}}},
			{"star_then_one", "*?", []match{{"é", true}, {"", false}}},
			{"star_then_two", "*??", []match{{"é", false}, {"éé", true}}},
			{"two", "??", []match{{"é", false}, {"ab", true}}},
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			for _, p := range tc.patterns {
				t.Run(p.name, func(t *testing.T) {
					g := Compile(p.pattern)
					if g.String() != p.pattern {
						t.Errorf("Compile(%q).String() = %q", p.pattern, g.String())
					}
					for _, c := range p.cases {
						if got := g.Match(c.s); got != c.want {
							t.Errorf("%q.Match(%q) = %v, want %v", p.pattern, c.s, got, c.want)
						}
					}
				})
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

// BenchmarkGlobMatch matches every glob of a set against every argument
// of a command line, as a spec's assessment does: "library" is globs
// shaped like the built-in library's (a flag's name, then `*`) against a
// compile command line, "leading-star" the costlier shape `*flag*`
// against long paths. Each runs with Match and, for comparison, with the
// equivalent regular expressions, which Match is written to avoid.
func BenchmarkGlobMatch(b *testing.B) {
	compile := []string{"external/toolchains_llvm++llvm+llvm_toolchain/bin/cc_wrapper.sh",
		"--target=x86_64-unknown-linux-gnu", "-U_FORTIFY_SOURCE", "-fstack-protector", "-Wall", "-g0", "-O2",
		"-DNDEBUG", "-std=c++17", "-MD", "-MF", "bazel-out/k8-opt/bin/src/a/_objs/lib/f.pic.d",
		"-frandom-seed=bazel-out/k8-opt/bin/src/a/_objs/lib/f.pic.o", "-fPIC", "-iquote", ".", "-iquote",
		"bazel-out/k8-opt/bin", "-isystem", "external/zlib+", "-no-canonical-prefixes",
		"-Wno-builtin-macro-redefined", `-D__DATE__="redacted"`, `-D__TIMESTAMP__="redacted"`,
		`-D__TIME__="redacted"`,
		"-fdebug-prefix-map=external/toolchains_llvm++llvm+llvm_toolchain_llvm/=__bazel_toolchain_llvm_repo__/",
		"-c", "src/a/f.cc", "-o", "bazel-out/k8-opt/bin/src/a/_objs/lib/f.pic.o"}
	paths := []string{"bazel-out/k8-fastbuild/bin/external/some/very/long/path/to/a/source/file.cc",
		"external/toolchains_llvm++llvm+llvm_toolchain_llvm/include/c++/v1/__algorithm/ranges_find_if_not.h"}
	for _, set := range []struct {
		name     string
		patterns []string
		args     []string
	}{
		{"library", []string{"-D__DATE__=*", "-D__TIME__=*", "-D__TIMESTAMP__=*", "-ffile-prefix-map=*",
			"-fdebug-prefix-map=*", "-fdebug-compilation-dir=*", "-gdwarf*", "-gz*", "--remap-path-prefix=${pwd}=*",
			"-Cincremental=*", "gcc-?"}, compile},
		{"leading-star", []string{"*-ffile-prefix-map=*", "*/bin/*"}, paths},
	} {
		globs := make([]Glob, len(set.patterns))
		regexps := make([]*regexp.Regexp, len(set.patterns))
		for i, p := range set.patterns {
			globs[i] = Compile(p)
			regexps[i] = regexp.MustCompile(globRegexp(p))
		}
		b.Run(set.name+"/glob", func(b *testing.B) {
			for b.Loop() {
				for _, g := range globs {
					for _, a := range set.args {
						g.Match(a)
					}
				}
			}
		})
		b.Run(set.name+"/regexp", func(b *testing.B) {
			for b.Loop() {
				for _, re := range regexps {
					for _, a := range set.args {
						re.MatchString(a)
					}
				}
			}
		})
	}
}

// globRegexp is the regular expression that matches what pattern does.
func globRegexp(pattern string) string {
	var re strings.Builder
	re.WriteString(`^(?s:`)
	for _, c := range pattern {
		switch c {
		case '*':
			re.WriteString(`.*`)
		case '?':
			re.WriteString(`.`)
		default:
			re.WriteString(regexp.QuoteMeta(string(c)))
		}
	}
	re.WriteString(`)$`)
	return re.String()
}

// The regular expressions of BenchmarkGlobMatch must match what the globs
// match, or the comparison says nothing.
func TestGlobRegexpAgrees(t *testing.T) {
	for _, p := range []string{"-D__DATE__=*", "*/bin/*", "gcc-?", "a*b*c", "*é", "caf?"} {
		re := regexp.MustCompile(globRegexp(p))
		for _, s := range []string{"", "-D__DATE__=x", "@llvm//bin/clang", "gcc-9", "gcc-11", "abc", "axxbxxc", "café", "cafe", "a\nb\nc"} {
			if got, want := re.MatchString(s), Compile(p).Match(s); got != want {
				t.Errorf("%q against %q: regexp %v, glob %v", p, s, got, want)
			}
		}
	}
}

// Ahab 0.2 matched the simple shapes (`*`, `lit*`, `*lit`, `*lit*`) by
// prefix, suffix and substring, so they match a text holding a `*` as
// documented (issue #26). Its general matcher, kept for --compat 0.2 for
// every other pattern, takes a `*` of the text for the pattern's own `*`
// and never tries the wildcard there again: on those it misses matches
// the documented meaning finds, and on text without a `*` it always
// agrees.
func TestAhab02(t *testing.T) {
	for _, tc := range []struct {
		name          string
		pattern, text string
		documented    bool
		ahab02        bool
	}{
		// The simple shapes: a prefix, suffix or substring test.
		{"a_prefix_holds_a_star", "--exclude=*", "--exclude=*.pyc", true, true},
		{"a_prefix_is_the_text", "--x=*", "--x=*", true, true},
		{"a_prefix_before_two_stars", "a*", "a*b", true, true},
		{"a_star_alone_matches_a_leading_star", "*", "*Gen", true, true},
		{"a_star_alone_matches_an_inner_star", "*", "a*b", true, true},
		{"two_stars_alone", "**", "**a", true, true},
		{"a_suffix_after_a_star", "*a", "*aa", true, true},
		{"a_suffix_is_the_end", "*b", "a*b", true, true},
		{"a_substring_around_a_star", "*a*", "a*b", true, true},
		{"a_substring_that_is_not_there", "*c*", "a*b", false, false},
		{"a_suffix_that_is_not_there", "*c", "a*b", false, false},
		// Every other shape keeps the quirk.
		{"an_inner_star", "a*c", "a*bc", true, false},
		{"an_inner_star_without_a_star_in_the_text", "a*c", "abc", true, true},
		{"a_prefix_and_a_suffix", "--x=*y", "--x=*zy", true, false},
		{"three_stars", "a*b*c", "a*x*b*c", true, false},
		{"three_stars_alone", "***", "***a", true, false},
		{"a_leading_star_and_an_inner_one", "*a*b", "x*ab", true, true},
		{"a_trailing_star_and_an_inner_one", "a*b*", "a*xb", true, false},
		{"a_question_mark_before_a_star", "a?*", "ab*c", true, false},
		{"a_question_mark_in_a_suffix", "*x?", "*xxa", true, false},
		{"a_question_mark_and_a_star", "?*", "**", true, true},
		{"a_question_mark_takes_a_star", "gcc-?", "gcc-*", true, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := Compile(tc.pattern).Match(tc.text); got != tc.documented {
				t.Errorf("Compile(%q).Match(%q) = %v, want %v", tc.pattern, tc.text, got, tc.documented)
			}
			if got := CompileAhab02(tc.pattern).Match(tc.text); got != tc.ahab02 {
				t.Errorf("CompileAhab02(%q).Match(%q) = %v, want %v", tc.pattern, tc.text, got, tc.ahab02)
			}
		})
	}
}

// FuzzGlob holds both matchers to their definitions: Compile to the
// regular expression that says what a pattern means; CompileAhab02 to a
// prefix, suffix or substring test on the simple shapes (issue #26), and
// to Compile on text without a `*` (the fuzz behind issue #16 found
// disagreements only where the text had one). Patterns and texts are
// bounded as spec files' are in practice, so that regexp compiles fast.
// The seeds are the corpus in testdata/fuzz/FuzzGlob, each named for
// what it holds.
func FuzzGlob(f *testing.F) {
	f.Fuzz(func(t *testing.T, pattern, text string) {
		if len(pattern) > 256 || len(text) > 1024 || !utf8.ValidString(text) || !utf8.ValidString(pattern) {
			return
		}
		documented := Compile(pattern).Match(text)
		if want := regexp.MustCompile(globRegexp(pattern)).MatchString(text); documented != want {
			t.Fatalf("Compile(%q).Match(%q) = %v, the regular expression says %v", pattern, text, documented, want)
		}
		ahab02 := CompileAhab02(pattern).Match(text)
		if simple, want := simpleMatch(pattern, text); simple && ahab02 != want {
			t.Fatalf("CompileAhab02(%q).Match(%q) = %v, a simple shape, want %v", pattern, text, ahab02, want)
		}
		if !strings.Contains(text, "*") && ahab02 != documented {
			t.Fatalf("%q against %q: documented %v, Ahab 0.2 %v", pattern, text, documented, ahab02)
		}
	})
}

// simpleMatch is Ahab 0.2's test for the simple shapes, written out: ok
// is false for a pattern of another shape.
func simpleMatch(pattern, text string) (ok, match bool) {
	stars := strings.Count(pattern, "*")
	switch {
	case strings.Contains(pattern, "?"):
		return false, false
	case pattern == "*":
		return true, true
	case stars == 1 && strings.HasSuffix(pattern, "*"):
		return true, strings.HasPrefix(text, strings.TrimSuffix(pattern, "*"))
	case stars == 1 && strings.HasPrefix(pattern, "*"):
		return true, strings.HasSuffix(text, strings.TrimPrefix(pattern, "*"))
	case stars == 2 && strings.HasPrefix(pattern, "*") && strings.HasSuffix(pattern, "*"):
		return true, strings.Contains(text, pattern[1:len(pattern)-1])
	}
	return false, false
}
