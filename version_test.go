package ahab

import "testing"

func TestVersion(t *testing.T) {
	if _, err := ModuleVersion(moduleBazel); err != nil {
		t.Fatal(err)
	}
	if Version() == "unknown" || Version() == "" {
		t.Errorf("Version() = %q", Version())
	}
}

func TestModuleVersion(t *testing.T) {
	for _, tc := range []struct{ name, in, want string }{
		{"module first", "module(name = \"ahab\", version = \"1.0.0\")\nbazel_dep(name = \"x\", version = \"9\")\n", "1.0.0"},
		{"no module version", "module(name = \"ahab\")\nbazel_dep(name = \"x\", version = \"9\")\n", ""},
		{"not starlark", "module(", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := ModuleVersion([]byte(tc.in))
			if got != tc.want || (err == nil) != (tc.want != "") {
				t.Errorf("ModuleVersion = %q, %v; expected %q", got, err, tc.want)
			}
		})
	}
}
