package spec

import (
	"slices"
	"strings"
	"testing"

	"github.com/ahab-go/ahab/internal/program"
)

// readAs is how the built-in library reads a command line: each argument
// as conditions see it with its role, and the effects that apply.
func readAs(t *testing.T, argv ...string) (args []string, effects []string) {
	t.Helper()
	lib := Builtin()
	r := lib.Resolve(program.Of(argv[0]), argv[1:])
	if r.Spec == nil || r.Spec.Behaviour == nil {
		t.Fatalf("%s: no behaviour in the built-in library", argv[0])
	}
	inv := r.Spec.Behaviour.Read(r.Args, nil, nil)
	for _, a := range inv.Args {
		args = append(args, a.String()+" "+a.Role.String())
	}
	for _, e := range inv.Effects {
		effects = append(effects, e.Value.String())
	}
	return args, effects
}

// TestGrammar is how option grammars read command lines: bundles, values
// attached or apart, canonical names, keywords, the end of options.
func TestGrammar(t *testing.T) {
	for _, tc := range []struct {
		name string
		argv []string
		want []string
	}{
		{"tar_traditional_bundle", []string{"tar", "chf", "out.tar", "d"}, []string{"--create value", "--dereference value", "--file=out.tar writes", "d records"}},
		{"tar_dashed_bundle", []string{"tar", "-chf", "out.tar", "d"}, []string{"--create value", "--dereference value", "--file=out.tar writes", "d records"}},
		{"tar_options_apart", []string{"tar", "-c", "-h", "-f", "out.tar", "d"}, []string{"--create value", "--dereference value", "--file=out.tar writes", "d records"}},
		{"tar_long_options", []string{"tar", "--create", "--dereference", "--file=out.tar", "d"}, []string{"--create value", "--dereference value", "--file=out.tar writes", "d records"}},
		{"tar_traditional_value_letter_first", []string{"tar", "cfh", "out.tar", "d"}, []string{"--create value", "--file=out.tar writes", "--dereference value", "d records"}},
		{"tar_directory_option", []string{"tar", "-czf", "out.tgz", "-C", "dir", "."}, []string{"--create value", "--gzip value", "--file=out.tgz writes", "--directory=dir cwd", ". records"}},
		{"tar_extract_reads_the_file", []string{"tar", "-xf", "in.tar", "member"}, []string{"--extract value", "--file=in.tar reads", "member value"}},
		{"date_bundle_with_a_value", []string{"date", "-ud", "@0", "+%s"}, []string{"--utc value", "--date=@0 value", "+%s value"}},
		{"date_attached_value", []string{"date", "-d@0"}, []string{"--date=@0 value"}},
		{"gcc_values_attached_and_apart", []string{"gcc", "-DX=1", "-I", "inc", "-O2", "-Wall", "-c", "a.c", "-o", "a.o"},
			[]string{"-DX=1 value", "-Iinc value", "-O2 value", "-Wall value", "-c value", "a.c records", "-oa.o writes"}},
		{"gcc_compiles_without_o_into_objects_named_after_sources", []string{"gcc", "-g", "-c", "src/a.c", "b.c"}, []string{"-g value", "-c value", "src/a.c derives:.o", "b.c derives:.o"}},
		{"gcc_assembles_without_o", []string{"gcc", "-S", "a.c"}, []string{"-S value", "a.c derives:.s"}},
		{"gcc_preprocesses_to_stdout", []string{"gcc", "-E", "-c", "a.c"}, []string{"-E value", "-c value", "a.c records"}},
		{"find_single_dash_long_options", []string{"find", "d", "-name", "*.c", "-type", "f"}, []string{"d records", "-name=*.c value", "-type=f value"}},
		{"dd_keywords", []string{"dd", "if=/dev/urandom", "of=out", "bs=8"}, []string{"if=/dev/urandom reads", "of=out writes", "bs=8 value"}},
		{"the_end_of_options", []string{"cat", "--", "-n"}, []string{"-n reads"}},
		{"an_undeclared_long_option_is_kept", []string{"sort", "--frobnicate", "x"}, []string{"--frobnicate value", "x reads"}},
		{"cp_last_operand_written", []string{"cp", "a", "b", "dir"}, []string{"a reads", "b reads", "dir writes"}},
		{"env_assignments_then_the_command", []string{"env", "-i", "A=1", "B=2", "cmd", "x"}, []string{"--ignore-environment value", "A=1 assign", "B=2 assign", "cmd command", "x value"}},
		{"python_script_and_its_arguments", []string{"python3", "-u", "gen.py", "out"}, []string{"-u value", "gen.py script:python", "out value"}},
		{"python_inline_code", []string{"python3", "-c", "print(1)", "x"}, []string{"-cprint(1) code:python", "x value"}},
		{"perl_bundle_with_code", []string{"perl", "-lane", "print $F[0]", "in"}, []string{"-l value", "-a value", "-n value", "-eprint $F[0] code:perl", "in reads"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, _ := readAs(t, tc.argv...)
			if !slices.Equal(got, tc.want) {
				t.Errorf("%s reads as\n  %s\nwant\n  %s", strings.Join(tc.argv, " "), strings.Join(got, "\n  "), strings.Join(tc.want, "\n  "))
			}
		})
	}
}

// TestEffects is when the built-in library's effects apply, beside the
// options that neutralise them.
func TestEffects(t *testing.T) {
	for _, tc := range []struct {
		name string
		argv []string
		want []string
	}{
		{"date_prints_the_clock", []string{"date", "+%s"}, []string{"clock"}},
		{"date_given_a_date", []string{"date", "-d", "@0"}, []string{"timezone"}},
		{"date_given_a_date_in_utc", []string{"date", "-u", "-d", "@0"}, nil},
		{"date_given_a_date_in_a_bundle", []string{"date", "-ud@0"}, nil},
		{"date_given_a_date_as_seconds", []string{"date", "-d", "@0", "+%s"}, nil},
		{"date_of_a_file", []string{"date", "-r", "f"}, []string{"mtime", "timezone"}},
		{"date_of_a_file_in_utc", []string{"date", "-u", "-r", "f"}, []string{"mtime"}},
		{"tar_records_times_and_owners", []string{"tar", "-cf", "out.tar", "a.txt"}, []string{"mtime", "owner", "owner"}},
		{"tar_normalised", []string{"tar", "--mtime=@0", "--owner=0", "--group=0", "-cf", "out.tar", "a.txt"}, nil},
		{"tar_extracting_records_nothing", []string{"tar", "-xf", "in.tar"}, nil},
		{"gcc_debugging_information", []string{"gcc", "-g", "-c", "a.c"}, []string{"pwd"}},
		{"gcc_debugging_turned_off", []string{"gcc", "-g", "-g0", "-c", "a.c"}, nil},
		{"gcc_prefix_map", []string{"gcc", "-g", "-ffile-prefix-map=/x=.", "-c", "a.c"}, nil},
		{"gcc_link_time_optimisation", []string{"gcc", "-flto", "-c", "a.c"}, []string{"random", "pwd"}},
		{"gcc_link_time_optimisation_seeded", []string{"gcc", "-flto", "-frandom-seed=1", "-c", "a.c"}, []string{"pwd"}},
		{"gcc_link_time_optimisation_off", []string{"gcc", "-flto", "-fno-lto", "-c", "a.c"}, nil},
		{"gcc_coverage", []string{"gcc", "--coverage", "-c", "a.c"}, []string{"random", "pwd"}},
		{"gcc_coverage_seeded", []string{"gcc", "--coverage", "-frandom-seed=a.o", "-c", "a.c"}, []string{"pwd"}},
		{"uname_machine", []string{"uname", "-m"}, nil},
		{"uname_all", []string{"uname", "-a"}, []string{"hostname", "uname", "uname"}},
		{"uname_release", []string{"uname", "-r"}, []string{"uname"}},
		{"gzip_of_a_file", []string{"gzip", "-k", "f"}, []string{"mtime"}},
		{"gzip_without_a_name", []string{"gzip", "-nk", "f"}, nil},
		{"ar_deterministic_by_default", []string{"ar", "rcs", "lib.a", "a.o"}, nil},
		{"ar_undeterministic", []string{"ar", "rcsU", "lib.a", "a.o"}, []string{"mtime"}},
		{"ar_undeterministic_then_deterministic", []string{"ar", "rcsUD", "lib.a", "a.o"}, nil},
		{"xargs_in_parallel", []string{"xargs", "-P4", "echo"}, []string{"parallel"}},
		{"xargs_one_at_a_time", []string{"xargs", "-P1", "echo"}, nil},
		{"sort_random", []string{"sort", "-R", "f"}, []string{"random"}},
		{"nproc_may_use", []string{"nproc"}, []string{"cpus"}},
		{"nproc_all_the_machine_has", []string{"nproc", "--all"}, []string{"cpus"}},
		{"tty_under_bazel_has_no_terminal", []string{"tty"}, nil},
		{"logname_the_login_session", []string{"logname"}, []string{"user"}},
		{"diff_recursive_sorts", []string{"diff", "-r", "a", "b"}, nil},
		{"diff_unified_prints_times", []string{"diff", "-u", "a", "b"}, []string{"mtime"}},
		{"diff_unified_labelled", []string{"diff", "-u", "--label", "a", "--label", "b", "a", "b"}, nil},
		{"ls_long_listing", []string{"ls", "-l", "f"}, []string{"mtime", "owner"}},
		{"ls_sizes_on_disk", []string{"ls", "-s", "f"}, []string{"filemeta"}},
		{"vdir_is_a_long_listing", []string{"vdir", "f"}, []string{"mtime", "owner"}},
		{"stat_default", []string{"stat", "f"}, []string{"mtime", "owner", "inode", "filemeta"}},
		{"stat_owner", []string{"stat", "-c", "%U", "f"}, []string{"owner"}},
		{"stat_size", []string{"stat", "-c", "%s %n", "f"}, nil},
		{"find_printf_times", []string{"find", "f", "-printf", "%T@"}, []string{"mtime"}},
		{"find_printf_sizes", []string{"find", "f", "-printf", "%s"}, nil},
		{"find_ls", []string{"find", "f", "-ls"}, []string{"mtime", "owner", "inode", "filemeta"}},
		{"cpio_renumbered_inodes_keep_devices", []string{"cpio", "-o", "--renumber-inodes"}, []string{"inode", "mtime", "owner"}},
		{"cpio_without_devices_keeps_inodes", []string{"cpio", "-o", "--ignore-devno"}, []string{"inode", "mtime", "owner"}},
		{"cpio_reproducible", []string{"cpio", "-o", "--reproducible", "-R", "0:0"}, []string{"mtime"}},
		{"tar_sort_inode_of_files_made", []string{"tar", "--sort=inode", "--mtime=@0", "--owner=0", "--group=0", "-cf", "o", "d"}, nil},
		{"gcc_date_defined_leaves_time", []string{"gcc", "-D__DATE__=x", "-c", "a.c"}, nil},
		{"gcc_lto_link", []string{"gcc", "-flto=4", "-frandom-seed=x", "a.o", "-o", "prog"}, nil},
		{"gcc_lto_object", []string{"gcc", "-flto=4", "-frandom-seed=x", "-c", "a.c"}, []string{"pwd"}},
		{"make_parallel", []string{"make", "-j4"}, []string{"parallel"}},
		{"make_output_sync_keeps_no_order", []string{"make", "-j4", "--output-sync=target"}, []string{"parallel"}},
		{"make_one_job", []string{"make", "-j1"}, nil},
		{"env_prints_the_environment", []string{"env"}, []string{"environment"}},
		{"env_running_a_command", []string{"env", "A=1", "date"}, nil},
		{"parallel_in_order", []string{"parallel", "-k", "echo {}"}, nil},
		{"printf_time_given", []string{"printf", "%(%F)T", "0"}, []string{"timezone"}},
		{"printf_time_now", []string{"printf", "%(%F)T"}, []string{"clock"}},
		{"zip_local_times", []string{"zip", "o.zip", "f"}, []string{"mtime", "owner", "timezone"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, got := readAs(t, tc.argv...)
			if !slices.Equal(got, tc.want) {
				t.Errorf("%s: effects %q, want %q", strings.Join(tc.argv, " "), got, tc.want)
			}
		})
	}
}

// TestConditionsNameCanonicalOptions: a condition that names an option by
// an alias is refused when the file is read, since it would never hold.
func TestConditionsNameCanonicalOptions(t *testing.T) {
	_, err := Parse("s.json", []byte(`{"programs": {"//t": {"spec": {"options": ["-c|--stdout"], "effects": [{"value": "clock", "because": "x", "unless": ["-c"]}]}}}}`), 0)
	if err == nil || !strings.Contains(err.Error(), `names -c, which conditions see as --stdout`) {
		t.Errorf("error %v, want one naming the canonical --stdout", err)
	}
}

// TestRemoves is what a command line takes out of what the program is
// given, the behaviour's and its cases' (gzip -l prints no time, -lv does).
func TestRemoves(t *testing.T) {
	for _, tc := range []struct {
		name string
		argv []string
		want []string
	}{
		{"sort", []string{"sort", "f"}, []string{"order", "hashseed", "parallel"}},
		{"gzip_list", []string{"gzip", "-l", "f.gz"}, []string{"mtime"}},
		{"gzip_list_verbose", []string{"gzip", "-lv", "f.gz"}, nil},
		{"gzip_list_verbose_apart", []string{"gzip", "-v", "-l", "f.gz"}, nil},
		{"unzip_contents", []string{"unzip", "-p", "f.zip"}, []string{"mtime", "owner", "mode", "inode", "timezone"}},
		{"unzip_listing", []string{"unzip", "-l", "f.zip"}, nil},
		{"a_count_against_zero", []string{"[", "x", "-gt", "0", "]"}, []string{"cpus", "pid", "clock"}},
		{"a_value_against_another", []string{"[", "x", "-eq", "999", "]"}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			lib := Builtin()
			r := lib.Resolve(program.Of(tc.argv[0]), tc.argv[1:])
			inv := r.Spec.Behaviour.Read(r.Args, nil, nil)
			var got []string
			for _, v := range inv.Removes {
				got = append(got, v.String())
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("%s: removes %q, want %q", strings.Join(tc.argv, " "), got, tc.want)
			}
		})
	}
}
