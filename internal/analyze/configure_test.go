package analyze

import (
	"bytes"
	"slices"
	"strconv"
	"strings"
	"testing"

	"google.golang.org/protobuf/proto"

	"github.com/ahab-go/ahab/internal/action"
	"github.com/ahab-go/ahab/internal/aquery/analysispb"
	"github.com/ahab-go/ahab/internal/check"
	"github.com/ahab-go/ahab/internal/mode"
	"github.com/ahab-go/ahab/internal/report"
	"github.com/ahab-go/ahab/internal/spec"
)

// What the configurations give actions beyond what the dump shows is
// judged as the dump's own environment is, for each action by its own
// configuration: the target configuration's --action_env=FOO=/opt/x on its
// C++ actions, its --test_env on its tests, its inherited variables on its
// shell actions; nothing the dump shows twice; nothing for the tools'
// configuration, which has none of it.
func TestConfigurer(t *testing.T) {
	g := &analysispb.ActionGraphContainer{
		Configuration: []*analysispb.Configuration{{Id: 1, Checksum: "target"}, {Id: 2, Checksum: "exec"}},
		Targets:       []*analysispb.Target{{Id: 1, Label: "//a:a"}},
		Actions: []*analysispb.Action{
			{TargetId: 1, ConfigurationId: 1, Mnemonic: "CppCompile", Arguments: []string{"gcc", "-c", "a.c"}},
			{TargetId: 1, ConfigurationId: 1, Mnemonic: "Genrule", Arguments: []string{"/bin/bash", "-c", "echo"},
				EnvironmentVariables: []*analysispb.KeyValuePair{{Key: "FOO", Value: "/opt/x"}}},
			{TargetId: 1, ConfigurationId: 1, Mnemonic: "TestRunner", Arguments: []string{"test-setup.sh", "a_test"}},
			{TargetId: 1, ConfigurationId: 1, Mnemonic: "FileWrite"},
			{TargetId: 1, ConfigurationId: 2, Mnemonic: "CppCompile", Arguments: []string{"gcc", "-c", "tool.c"}},
		},
	}
	data, err := proto.Marshal(g)
	if err != nil {
		t.Fatal(err)
	}
	var asked map[uint32]string
	c := &Configurer{
		Applies: func(m string) bool { return m == "CppCompile" || m == "TestRunner" },
		Read: func(checksums map[uint32]string) map[uint32]Configuration {
			asked = checksums
			return map[uint32]Configuration{1: {
				Inherited: []string{"BUILD_FLAVOR"},
				Env: func(m string) []action.EnvVar {
					if m == "TestRunner" {
						return []action.EnvVar{{Key: "TZDIR", Value: "/usr/share/zoneinfo"}}
					}
					return []action.EnvVar{{Key: "FOO", Value: "/opt/x"}}
				},
			}}
		},
	}
	checks := check.All(spec.BuiltinFor(mode.Default))
	for _, workers := range []int{1, 3} {
		res, err := Dump(bytes.NewReader(data), "dump.pb", checks, Options{Workers: workers, Configurer: c, ByAction: true})
		if err != nil {
			t.Fatal(err)
		}
		if want := map[uint32]string{1: "target", 2: "exec"}; len(asked) != 2 || asked[1] != want[1] || asked[2] != want[2] {
			t.Errorf("Read was asked about %v, want %v", asked, want)
		}
		var got []string
		o := res.Findings.Ordered()
		for i := range o.Len() {
			c := o.At(i)
			if k := c.Kind.String(); k == "environment_leak" || k == "absolute_path" {
				got = append(got, strconv.Itoa(c.Count)+" "+report.Sentence(&c.Finding, report.Palette{}))
			}
		}
		want := []string{
			"1 hermeticity violation: Genrule action for target //a:a inherits environment variable \"BUILD_FLAVOR\"",
			"1 hermeticity violation: CppCompile action for target //a:a references absolute path \"/opt/x\" in environment variable \"FOO\"",
			"1 hermeticity violation: Genrule action for target //a:a references absolute path \"/opt/x\" in environment variable \"FOO\"",
			"1 hermeticity violation: TestRunner action for target //a:a references absolute path \"/usr/share/zoneinfo\" in environment variable \"TZDIR\"",
		}
		if len(got) != len(want) {
			t.Fatalf("%d workers: findings\n%s\nwant\n%s", workers, strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
		for i := range want {
			if !strings.HasPrefix(got[i], want[i]) {
				t.Errorf("%d workers: finding %d is\n  %s\nwant it to start\n  %s", workers, i, got[i], want[i])
			}
		}
		// By action too, for the comparison of builds.
		if i := slices.IndexFunc(res.ByAction, func(a ActionFindings) bool { return a.Mnemonic == "TestRunner" }); i < 0 || len(res.ByAction[i].Findings) == 0 {
			t.Errorf("%d workers: the test's finding is not kept by action", workers)
		}
	}
}
