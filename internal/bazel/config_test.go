package bazel

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/ahab-go/ahab/internal/action"
)

// testdata/config-dump-all.json is what Bazel 4.2.3's `bazel config
// --dump_all --output=json` printed after an aquery with
// --action_env=USER, then another with --action_env=FOO=/opt/x
// --action_env=BUILD_FLAVOR --test_env=TZDIR=/usr/share/zoneinfo: the
// server holds the first's configuration too.
const (
	usedChecksum  = "648909b2c1666a61fcd3c10a29c13c58fdf49c92b45e0b83824c25b90b3a5c0c"
	staleChecksum = "5bc5f5a9f2eb"
)

func TestParseConfigurations(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("testdata", "config-dump-all.json"))
	if err != nil {
		t.Fatal(err)
	}
	all, err := parseConfigurations(data)
	if err != nil {
		t.Fatal(err)
	}
	if len(all) != 4 {
		t.Fatalf("%d configurations, want 4", len(all))
	}
	i := slices.IndexFunc(all, func(c Configuration) bool { return c.Checksum == usedChecksum })
	if i < 0 {
		t.Fatalf("no configuration %s", usedChecksum)
	}
	c := all[i]
	if got, want := c.Inherited(), []string{"BUILD_FLAVOR"}; !slices.Equal(got, want) {
		t.Errorf("Inherited = %q, want %q", got, want)
	}
	for _, tc := range []struct {
		mnemonic string
		want     []action.EnvVar
	}{
		{"CppCompile", []action.EnvVar{{Key: "FOO", Value: "/opt/x"}}},
		{"TestRunner", []action.EnvVar{{Key: "FOO", Value: "/opt/x"}, {Key: "TZDIR", Value: "/usr/share/zoneinfo"}}},
		{"Genrule", nil}, // its dump entry shows what it gets
	} {
		if got := c.Environment(tc.mnemonic); !slices.Equal(got, tc.want) {
			t.Errorf("Environment(%s) = %q, want %q", tc.mnemonic, got, tc.want)
		}
	}
	stale := slices.IndexFunc(all, func(c Configuration) bool { return strings.HasPrefix(c.Checksum, staleChecksum) })
	if stale < 0 || !slices.Equal(all[stale].Inherited(), []string{"USER"}) {
		t.Errorf("the earlier aquery's configuration is not there with USER inherited: %+v", all)
	}
	host := slices.IndexFunc(all, func(c Configuration) bool { return c.IsHost })
	if host < 0 || len(all[host].ActionEnv) != 0 {
		t.Errorf("no host configuration, or one with an action environment")
	}
}

func TestParseEnvList(t *testing.T) {
	for _, tc := range []struct {
		name, in string
		want     []EnvOption
		err      bool
	}{
		{"empty", "[]", nil, false},
		{"values_and_inherited", "[A=1, B=null, C=]", []EnvOption{{Name: "A", Value: "1"}, {Name: "B", Inherited: true}, {Name: "C"}}, false},
		{"a_value_with_equals", "[A=x=y]", []EnvOption{{Name: "A", Value: "x=y"}}, false},
		{"not_a_list", "A=1", nil, true},
		{"no_name", "[=1]", nil, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := parseEnvList(tc.in)
			if (err != nil) != tc.err || !slices.Equal(got, tc.want) {
				t.Errorf("parseEnvList(%q) = %+v, %v; want %+v (error %v)", tc.in, got, err, tc.want, tc.err)
			}
		})
	}
}

// One `bazel config`, after the aquery, with its options, and only the
// configurations it names.
func TestConfigurations(t *testing.T) {
	f := newFakeBazel(t)
	r := f.runner("ok", "AHAB_FAKE_BAZEL_CONFIG="+mustAbs(t, filepath.Join("testdata", "config-dump-all.json")))
	req := AqueryRequest{OutputBase: "/ob/x", Configs: []string{"ci"}, Flags: []string{"--action_env=FOO=/opt/x"}, Label: "//..."}
	got, err := r.Configurations(context.Background(), req, []string{usedChecksum, "not-in-the-server"})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 || got[usedChecksum].Checksum != usedChecksum {
		t.Errorf("Configurations = %+v, want only %s", got, usedChecksum)
	}
	c := f.onlyCall(t)
	want := []string{"--output_base=/ob/x", "--output_user_root=/ob", "config", "--config=ci", "--action_env=FOO=/opt/x", "--dump_all", "--output=json"}
	if !slices.Equal(c.args, want) {
		t.Errorf("argv = %q, want %q", c.args, want)
	}
	if c.user != action.UserSentinel {
		t.Errorf("USER=%q, want the aquery's sentinel", c.user)
	}
}

func FuzzParseConfigurations(f *testing.F) {
	data, err := os.ReadFile(filepath.Join("testdata", "config-dump-all.json"))
	if err != nil {
		f.Fatal(err)
	}
	f.Add(data)
	f.Add([]byte(`[{"configHash":"a","fragmentOptions":[{"name":"x","options":{"action_env":"[A=null, B=1]","test_env":"[]"}}]}]`))
	f.Add([]byte(`[{"configHash":"a","fragmentOptions":[{"options":{"action_env":7}}]}]`))
	f.Fuzz(func(t *testing.T, data []byte) {
		configs, err := parseConfigurations(data)
		if err != nil {
			return
		}
		for _, c := range configs {
			if c.Checksum == "" {
				t.Errorf("a configuration without a checksum: %+v", c)
			}
			for _, o := range append(slices.Clone(c.ActionEnv), c.TestEnv...) {
				if o.Name == "" || o.Inherited && o.Value != "" {
					t.Errorf("option %+v", o)
				}
			}
			c.Environment("CppCompile")
			c.Inherited()
		}
	})
}
