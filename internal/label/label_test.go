package label

import (
	"strings"
	"testing"
)

func TestParse(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want Label
	}{
		{"//a/b:c", Label{Pkg: "a/b", Name: "c"}},
		{"//:root", Label{Name: "root"}},
		{"//a/b", Label{Pkg: "a/b", Name: "b"}},
		{"@//a:b", Label{Pkg: "a", Name: "b", Ats: 1}},
		{"@@//a:b", Label{Pkg: "a", Name: "b", Ats: 2}},
		{"@r//a:b", Label{Repo: "r", Pkg: "a", Name: "b", Ats: 1}},
		{"@@rules_rust+//util/process_wrapper:process_wrapper", Label{Repo: "rules_rust+", Pkg: "util/process_wrapper", Name: "process_wrapper", Ats: 2}},
		{"@@bazel_tools~cc_configure_extension~local_config_cc//:cc-compiler-k8", Label{Repo: "bazel_tools~cc_configure_extension~local_config_cc", Name: "cc-compiler-k8", Ats: 2}},
		{"//a:b/c.txt", Label{Pkg: "a", Name: "b/c.txt"}},
		{"//a:file with spaces", Label{Pkg: "a", Name: "file with spaces"}},
	} {
		t.Run(tc.in, func(t *testing.T) {
			got, err := Parse(tc.in)
			if err != nil {
				t.Fatal(err)
			}
			if got != tc.want {
				t.Errorf("got %#v, want %#v", got, tc.want)
			}
		})
	}
}

func TestParseRefuses(t *testing.T) {
	for _, in := range []string{
		"", "<unknown target>", ":b", "a:b", "//a/...", "//...", "//a/..:b", "//a/./b:c", "//a//b:c", "//a/:b",
		"//a:", "//", "@r", "@r/x//a:b", "@@@r//a:b", "//a:b:c", "//a:../b", "//:",
	} {
		if l, err := Parse(in); err == nil {
			t.Errorf("Parse(%q) = %#v, want an error", in, l)
		}
	}
}

// TestParseStringRoundtrip: a label in full form reads back as written,
// and any label written reads back as itself.
func TestParseStringRoundtrip(t *testing.T) {
	for _, s := range []string{
		"//a/b:c", "//:root", "@//a:b", "@@//a:b", "@r//a:b", "@@r+//a/b:c", "@r//:BUILD", "//a:b/c.txt",
	} {
		l, err := Parse(s)
		if err != nil {
			t.Fatalf("Parse(%q): %v", s, err)
		}
		if got := l.String(); got != s {
			t.Errorf("Parse(%q).String() = %q", s, got)
		}
		back, err := Parse(l.String())
		if err != nil || back != l {
			t.Errorf("Parse(%q) = %#v, %v; want %#v", l.String(), back, err, l)
		}
	}
	// The short form is written in full.
	if got := mustParse(t, "//a/b").String(); got != "//a/b:b" {
		t.Errorf("Parse(//a/b).String() = %q, want //a/b:b", got)
	}
}

func TestNormal(t *testing.T) {
	for in, want := range map[string]string{
		"//a:b": "//a:b", "@//a:b": "//a:b", "@@//a:b": "//a:b", "@r//a:b": "@r//a:b", "@@r+//a:b": "@r+//a:b",
	} {
		if got := mustParse(t, in).Normal().String(); got != want {
			t.Errorf("Parse(%q).Normal() = %q, want %q", in, got, want)
		}
	}
}

func TestPackageAndBuildFile(t *testing.T) {
	for _, tc := range []struct{ in, pkg, build string }{
		{"//a/b:c", "//a/b", "a/b/BUILD"},
		{"//:c", "//", "BUILD"},
		{"@r//x:y", "@r//x", "x/BUILD"},
		{"@@r+//x/y:z", "@@r+//x/y", "x/y/BUILD"},
	} {
		l := mustParse(t, tc.in)
		if got := l.Package(); got != tc.pkg {
			t.Errorf("Parse(%q).Package() = %q, want %q", tc.in, got, tc.pkg)
		}
		if got := l.BuildFile(); got != tc.build {
			t.Errorf("Parse(%q).BuildFile() = %q, want %q", tc.in, got, tc.build)
		}
	}
}

func mustParse(t *testing.T, s string) Label {
	t.Helper()
	l, err := Parse(s)
	if err != nil {
		t.Fatalf("Parse(%q): %v", s, err)
	}
	return l
}

// FuzzParse holds Parse to its round trip on whatever it accepts, and
// bounds its work by the input.
func FuzzParse(f *testing.F) {
	for _, s := range []string{"//a:b", "@r//a/b:c", "@@//:x", "//a/b", "<unknown target>", "@@r+//a:b/c", "//a/..:b"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if len(s) > 1<<12 {
			return
		}
		l, err := Parse(s)
		if err != nil {
			return
		}
		back, err := Parse(l.String())
		if err != nil || back != l {
			t.Fatalf("Parse(%q) = %#v, whose String %q reads back as %#v, %v", s, l, l.String(), back, err)
		}
		if strings.Contains(s, ":") && l.String() != s {
			t.Fatalf("Parse(%q).String() = %q", s, l.String())
		}
	})
}
