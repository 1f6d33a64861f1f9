package action

import (
	"slices"
	"testing"

	"github.com/ahab-go/ahab/internal/mode"
)

func TestReferences(t *testing.T) {
	const p = "out/foo.params"
	for _, tc := range []struct {
		name     string
		arg      string
		execPath string
		want     bool
	}{
		{"the_at_prefix_is_a_reference", "@" + p, p, true},
		{"a_double_at_is_a_reference", "@@" + p, p, true},
		{"a_flagfile_prefix_is_a_reference", "--flagfile=" + p, p, true},
		{"a_single_dash_flagfile_is_a_reference", "-flagfile=" + p, p, true},
		{"an_embedded_at_is_a_reference", "-Wl,@" + p, p, true},
		{"a_path_valued_flag_is_not_a_reference", "-fmodule-map-file=" + p, p, false},
		{"a_bare_path_is_not_a_reference", p, p, false},
		{"a_longer_name_is_not_a_reference", "@" + p + ".bak", p, false},
		{"a_path_ending_alike_is_not_a_reference", "@x" + p, p, false},
		{"an_unrelated_argument_is_not_a_reference", "-c", p, false},
		{"an_empty_exec_path_never_matches", "@", "", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for _, m := range []mode.Mode{mode.Default, mode.Ahab02} {
				if got := References(tc.arg, tc.execPath, m); got != tc.want {
					t.Errorf("References(%q, %q, %v) = %v, want %v", tc.arg, tc.execPath, m, got, tc.want)
				}
			}
		})
	}
	// rules_go names its param files -param=FILE; Ahab 0.2 did not see
	// them as param files.
	t.Run("rules_go_param_is_a_reference_of_ahabs_own_judgement", func(t *testing.T) {
		if !References("-param="+p, p, mode.Default) || References("-param="+p, p, mode.Ahab02) {
			t.Error("-param=FILE: want a reference under the default judgement only")
		}
	})
}

func TestExpansion(t *testing.T) {
	foo := ParamFile{ExecPath: "out/foo.params", Lines: []string{"-O2", "-DNDEBUG"}}
	b := ParamFile{ExecPath: "b", Lines: []string{"-DFOO"}}
	for _, tc := range []struct {
		name string
		a    Action
		want []string
	}{
		{"a_command_line_without_param_files_is_unchanged",
			Action{Arguments: []string{"gcc", "-c", "a.c"}}, []string{"gcc", "-c", "a.c"}},
		{"a_referenced_param_file_is_spliced_in_place",
			Action{Arguments: []string{"gcc", "@out/foo.params", "-o", "foo.o"}, ParamFiles: []ParamFile{foo}},
			[]string{"gcc", "-O2", "-DNDEBUG", "-o", "foo.o"}},
		{"several_param_files_expand_independently",
			Action{Arguments: []string{"gcc", "@out/foo.params", "-x", "@b"}, ParamFiles: []ParamFile{foo, b}},
			[]string{"gcc", "-O2", "-DNDEBUG", "-x", "-DFOO"}},
		{"an_unreferenced_param_file_is_not_spliced",
			Action{Arguments: []string{"gcc", "-c"}, ParamFiles: []ParamFile{foo}}, []string{"gcc", "-c"}},
		{"an_empty_param_file_removes_the_reference",
			Action{Arguments: []string{"gcc", "@e", "-c"}, ParamFiles: []ParamFile{{ExecPath: "e"}}}, []string{"gcc", "-c"}},
		{"expansion_does_not_recurse",
			Action{Arguments: []string{"gcc", "@a"}, ParamFiles: []ParamFile{{ExecPath: "a", Lines: []string{"@b"}}, b}},
			[]string{"gcc", "@b"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := tc.a.ExpandedArgv(mode.Default); !slices.Equal(got, tc.want) {
				t.Errorf("ExpandedArgv = %q, want %q", got, tc.want)
			}
		})
	}
}

func TestAnalyzableStrings(t *testing.T) {
	t.Run("analyzable_strings_cover_the_command_line_and_every_param_file", func(t *testing.T) {
		a := Action{
			Arguments: []string{"clang", "@out/foo.params", "-fmodule-map-file=out/m.cppmap"},
			ParamFiles: []ParamFile{
				{ExecPath: "out/foo.params", Lines: []string{"-O2"}},
				{ExecPath: "out/m.cppmap", Lines: []string{`module "crosstool" {`}},
			},
		}
		var got []String
		a.AnalyzableStrings(func(s String) { got = append(got, s) })
		want := []String{
			{Value: "clang"}, {Value: "@out/foo.params"}, {Value: "-fmodule-map-file=out/m.cppmap"},
			{Value: "-O2", ParamFile: "out/foo.params", InParamFile: true},
			{Value: `module "crosstool" {`, ParamFile: "out/m.cppmap", InParamFile: true},
		}
		if !slices.Equal(got, want) {
			t.Errorf("got %+v\nwant %+v", got, want)
		}
	})
	t.Run("a_param_file_without_an_exec_path_is_still_a_param_file", func(t *testing.T) {
		a := Action{Arguments: []string{"ld"}, ParamFiles: []ParamFile{{Lines: []string{"-lm"}}}}
		var got []String
		a.AnalyzableStrings(func(s String) { got = append(got, s) })
		want := []String{{Value: "ld"}, {Value: "-lm", InParamFile: true}}
		if !slices.Equal(got, want) {
			t.Errorf("got %+v\nwant %+v", got, want)
		}
	})
	t.Run("a_param_file_referenced_twice_is_scanned_once", func(t *testing.T) {
		a := Action{Arguments: []string{"ld", "@p", "@p"}, ParamFiles: []ParamFile{{ExecPath: "p", Lines: []string{"-lm"}}}}
		n := 0
		a.AnalyzableStrings(func(s String) {
			if s.Value == "-lm" {
				n++
			}
		})
		if n != 1 {
			t.Errorf("the line was scanned %d times", n)
		}
	})
}
