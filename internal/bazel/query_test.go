package bazel

import (
	"context"
	"errors"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/ahab-go/ahab/internal/action"
)

func TestLocationsArgs(t *testing.T) {
	got, err := LocationsRequest{OutputBase: "/home/mark/.cache/bazel/_bazel_mark/0123"}.Args("/tmp/q.txt")
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"--output_base=/home/mark/.cache/bazel/_bazel_mark/0123", "--output_user_root=/home/mark/.cache/bazel/_bazel_mark",
		"query", "--keep_going", "--relative_locations", "--output=location", "--query_file=/tmp/q.txt"}
	if !slices.Equal(got, want) {
		t.Errorf("argv = %q\nwant   %q", got, want)
	}
	if _, err := (LocationsRequest{OutputBase: "/"}).Args("q"); err == nil {
		t.Error("an output base without a parent was accepted")
	}
}

func TestLocationsExpression(t *testing.T) {
	q := LocationsRequest{Labels: []string{"//a:b", "@r//c:d", `//q:it's`, `//q:say"x"`, `//q:both'"`, "<unknown target>", "//x:new\nline"}}
	got, n := q.expression()
	if want := `set("//a:b" "@r//c:d" "//q:it's" '//q:say"x"')`; got != want || n != 4 {
		t.Errorf("expression = %s (%d labels), want %s (4)", got, n, want)
	}
}

func TestParseLocations(t *testing.T) {
	out := "app/BUILD:3:10: cc_binary rule //app:toolbox\n" +
		"gen/BUILD.bazel:52:12: tool_output rule //gen:version_txt\r\n" +
		"cc/BUILD:3:6: alias rule @rules_cc//cc:toolchain_type\n" +
		"BUILD:1:1: genrule rule //:root\n" +
		"a:b/BUILD:2:4: genrule rule //a:b/c\n" +
		// A Bazel that ignored --relative_locations, and noise.
		"/abs/ws/x/BUILD:1:1: genrule rule //x:y\n" +
		"Loading: 3 packages loaded\n" +
		"weird line\n"
	want := map[string]Location{
		"//app:toolbox":                {"app/BUILD", 3, 10},
		"//gen:version_txt":            {"gen/BUILD.bazel", 52, 12},
		"@rules_cc//cc:toolchain_type": {"cc/BUILD", 3, 6},
		"//:root":                      {"BUILD", 1, 1},
		"//a:b/c":                      {"a:b/BUILD", 2, 4},
	}
	if got := parseLocations(out); !maps.Equal(got, want) {
		t.Errorf("got %v\nwant %v", got, want)
	}
}

func TestCanonicalLabel(t *testing.T) {
	for in, want := range map[string]string{
		"//a:b": "//a:b", "@//a:b": "//a:b", "@@//a:b": "//a:b", "@r//a:b": "@r//a:b", "@@r+//a:b": "@r+//a:b",
	} {
		if got := canonicalLabel(in); got != want {
			t.Errorf("canonicalLabel(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestLocations(t *testing.T) {
	setup := func(t *testing.T, output string, exit string) (*fakeBazel, *Runner, string) {
		f := newFakeBazel(t)
		out := filepath.Join(f.dir, "query.out")
		if err := os.WriteFile(out, []byte(output), 0o644); err != nil {
			t.Fatal(err)
		}
		copied := filepath.Join(f.dir, "query.copy")
		r := f.runner("ok", "AHAB_FAKE_BAZEL_QUERY_OUTPUT="+out, "AHAB_FAKE_BAZEL_QUERY_COPY="+copied, "AHAB_FAKE_BAZEL_QUERY_EXIT="+exit)
		return f, r, copied
	}
	req := LocationsRequest{OutputBase: "/ob/base", Labels: []string{"//app:toolbox", "@@//gen:x", "@rules_cc//cc:t", "//gone:x"}}

	t.Run("one_query_in_a_file_with_the_aquery_environment", func(t *testing.T) {
		f, r, copied := setup(t, "app/BUILD:3:10: cc_binary rule //app:toolbox\ngen/BUILD:5:8: genrule rule //gen:x\ncc/BUILD:1:1: alias rule @rules_cc//cc:t\n", "3")
		got, err := r.Locations(context.Background(), req)
		if err != nil {
			t.Fatal(err)
		}
		want := map[string]Location{
			"//app:toolbox":   {"app/BUILD", 3, 10},
			"@@//gen:x":       {"gen/BUILD", 5, 8},
			"@rules_cc//cc:t": {"cc/BUILD", 1, 1},
		}
		if !maps.Equal(got, want) {
			t.Errorf("got %v\nwant %v", got, want)
		}
		c := f.onlyCall(t)
		if c.user != action.UserSentinel || c.hostname != action.HostnameSentinel {
			t.Errorf("USER=%q HOSTNAME=%q, want the sentinels the aquery ran with", c.user, c.hostname)
		}
		if !slices.Contains(c.args, "--relative_locations") || !strings.HasPrefix(c.args[len(c.args)-1], "--query_file=") {
			t.Errorf("argv %q", c.args)
		}
		expr, err := os.ReadFile(copied)
		if err != nil {
			t.Fatal(err)
		}
		if want := `set("//app:toolbox" "@@//gen:x" "@rules_cc//cc:t" "//gone:x")`; string(expr) != want {
			t.Errorf("query %s, want %s", expr, want)
		}
		// The query file is gone.
		if _, err := os.Stat(strings.TrimPrefix(c.args[len(c.args)-1], "--query_file=")); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("the query file was left behind: %v", err)
		}
	})
	t.Run("bazel_fails", func(t *testing.T) {
		_, r, _ := setup(t, "", "2")
		_, err := r.Locations(context.Background(), req)
		var exit *ExitError
		if !errors.As(err, &exit) || exit.Command != "bazel query" || exit.ExitCode != 2 {
			t.Errorf("error %v, want an ExitError of bazel query with code 2", err)
		}
	})
	t.Run("nothing_to_ask", func(t *testing.T) {
		f, r, _ := setup(t, "", "0")
		got, err := r.Locations(context.Background(), LocationsRequest{OutputBase: "/ob/base", Labels: []string{"<unknown target>"}})
		if err != nil || len(got) != 0 {
			t.Errorf("got %v, %v", got, err)
		}
		if calls := f.calls(t); len(calls) != 0 {
			t.Errorf("Bazel ran %d times with nothing to ask", len(calls))
		}
	})
}

// FuzzParseLocations: whatever Bazel prints, parseLocations neither
// panics nor returns a location a SARIF log could not use: a relative
// path, a positive line and column, one label per line.
func FuzzParseLocations(f *testing.F) {
	f.Add("app/BUILD:3:10: cc_binary rule //app:toolbox\ncc/BUILD:3:6: alias rule @rules_cc//cc:toolchain_type\n")
	f.Add("/abs/BUILD:1:1: genrule rule //x:y\n")
	f.Add("a:1:2:3: b c\n::: \n:1:1: x y\n")
	f.Fuzz(func(t *testing.T, out string) {
		locs := parseLocations(out)
		if len(locs) > strings.Count(out, "\n")+1 {
			t.Fatalf("%d locations from %d lines", len(locs), strings.Count(out, "\n")+1)
		}
		for label, l := range locs {
			if l.Path == "" || strings.HasPrefix(l.Path, "/") || l.Line < 0 || l.Column < 0 || strings.ContainsAny(label, " \n") || label == "" {
				t.Fatalf("%q: %+v", label, l)
			}
		}
	})
}

func FuzzParseTargets(f *testing.F) {
	f.Add("//a:b (7c9f3e1)\n//a:b.txt (null)\n@r//x:y (HOST)\n")
	f.Add("INFO: no target\n\n (x)\n//a:b (\n")
	f.Fuzz(func(t *testing.T, out string) {
		seen := map[string]bool{}
		for _, l := range parseTargets(out) {
			if seen[l] || !strings.HasPrefix(l, "//") && !strings.HasPrefix(l, "@") || strings.ContainsAny(l, "\n") {
				t.Errorf("parseTargets(%q) gave %q", out, l)
			}
			seen[l] = true
		}
	})
}
