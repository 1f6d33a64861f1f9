package finding

import (
	"strings"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/ahab-go/ahab/internal/quote"
)

// Remedy is the one concrete thing to do about f: its kind's remedy with
// f's particulars filled in (the requirement it declares, the variable it
// leaks, the program it runs), and for a spec's verdict what the spec's
// unmet clauses ask for. JSON in it (a spec to paste, an exception) is one
// line and valid as written.
func (f *Finding) Remedy() string {
	if f.Kind >= numKinds {
		return ""
	}
	return kinds[f.Kind].remedy(f)
}

// The remedies of the kinds, one function each, referenced from the kind
// table. They must not read the table themselves (an initialisation
// cycle), so each names its kind's tag.

func environmentLeakRemedy(f *Finding) string {
	if f.Source == Inherited {
		return "give " + f.Site.Key + " a fixed value for the build (--action_env=" + f.Site.Key +
			"=VALUE in .bazelrc) or stop passing it (drop --action_env=" + f.Site.Key + ")"
	}
	variable := "USER"
	if f.Source == Hostname {
		variable = "HOSTNAME"
	}
	// The sentinel is in the environment of Bazel alone: what Bazel
	// itself passes on (--action_env=NAME) is reported as inherited, so a
	// value in a command line or an environment was read while Bazel
	// loaded the build, which only a repository rule can do.
	fix := "write a fixed value instead of $" + variable + " where a repository rule reads it (repository_ctx.os.environ or getenv, or a command it runs with repository_ctx.execute)"
	if f.Site.Location == EnvVar {
		return fix + ", or give " + f.Site.Key + " a fixed value where a rule sets it (its env)"
	}
	return fix
}

func badPathRemedy(*Finding) string {
	return "build with --incompatible_strict_action_env and without --action_env=PATH (and drop PATH from any env a rule gives the action), so that the action gets PATH=/bin:/usr/bin:/usr/local/bin"
}

func executionRequirementRemedy(f *Finding) string {
	target := f.Action.Target
	switch f.Requirement {
	case "requires-network":
		return "move the network out of the build: download in a repository rule (http_archive, http_file) with a sha256, " +
			"make the file an input of " + target + " and drop requires-network"
	case "no-sandbox":
		return "declare as inputs the files the action reads, then drop no-sandbox from " + target + " so that it runs sandboxed"
	case "local":
		return "declare as inputs the files the action reads, then drop local from " + target + " so that it runs sandboxed and remotely like any other"
	}
	return "remove the execution requirement " + quote.Quote(f.Requirement) + " from " + target
}

func absolutePathRemedy(f *Finding) string {
	path := quote.Quote(f.Path)
	if f.Site.Location == EnvVar {
		return "set " + f.Site.Key + " to a path relative to the execution root (with the file an input of the action) instead of " + path
	}
	fix := "make " + path + " an input (a new_local_repository holding it, or a copy in the workspace) and pass its path relative to the execution root, or use a hermetic toolchain"
	excuse := "excuse it with an --exceptions-json entry: " +
		jsonObject("kind", jsonString("absolute_path"), "target", jsonString(f.Action.Target), "path", jsonString(f.Path))
	// A path that is not the build machine's says where a file goes once
	// the output is unpacked or deployed: declared_paths of the program's
	// spec says so for an option, an exception for a script.
	switch option, ok := optionOf(f.Site.Value); {
	case ok:
		return fix + "; if it is where a file goes inside the artifact being built, add " +
			jsonObject("declared_paths", "["+jsonString(option+"=*")+"]") + " to the spec of the program the action runs, or " + excuse
	case f.Site.Value == f.Path:
		return fix + "; if it is where a file goes inside the artifact being built, add the option before it to the declared_paths and takes_value of the spec of the program the action runs, or " + excuse
	case strings.ContainsAny(f.Site.Value, " \n"):
		return fix + "; if it is where a file goes on the machine the output is deployed to, " + excuse
	}
	return fix
}

// optionOf returns the name of the option an argument like --name=/path
// sets, if it is one.
func optionOf(arg string) (string, bool) {
	name, _, ok := strings.Cut(arg, "=")
	if !ok || !strings.HasPrefix(name, "-") || len(name) < 2 || strings.ContainsAny(name, "/ ") {
		return "", false
	}
	return name, true
}

func systemProgramRemedy(f *Finding) string {
	p := f.Program.String()
	if f.Command == "" && (strings.HasSuffix(p, "/bash") || strings.HasSuffix(p, "/sh")) {
		// Genrules and run_shell run their script with Bazel's shell,
		// which is the machine's (--shell_executable).
		return "keep the script to what every shell does and excuse the machine's shell with an --exceptions-json entry: " +
			jsonObject("kind", jsonString("system_program"), "program", jsonString(p), "reason", jsonString("Bazel runs scripts with the machine's shell"))
	}
	return "run a tool the build provides instead of " + quote.Quote(p) +
		": a toolchain's, or a label of the workspace (in a genrule's tools, called through $(execpath …); in a rule, an executable attribute)"
}

func hostDerivedProgramRemedy(f *Finding) string {
	return "replace " + quote.Quote(f.Program.String()) + " with a tool the build provides: " +
		"for C++, register a hermetic toolchain (one that downloads its compiler, such as toolchains_llvm) instead of the autoconfigured one"
}

func unknownProgramRemedy(f *Finding) string {
	p := jsonString(f.Program.String())
	spec := jsonObject("programs", jsonObject(p, jsonObject("spec", jsonObject("reproducibility", jsonString("always")))))
	return "describe it in a --repro-specs file: " + spec + ` (or "never", or "sometimes" with the options it needs); or excuse it with an --exceptions-json entry: ` +
		jsonObject("kind", jsonString("unknown_program"), "program", p)
}

func neverReproducibleRemedy(f *Finding) string {
	return "replace " + quote.Quote(f.Program.String()) + " with a tool that can be made deterministic; or excuse " + f.Action.Target + " with an --exceptions-json entry: " +
		jsonObject("kind", jsonString("never_reproducible"), "program", jsonString(f.Program.String()), "target", jsonString(f.Action.Target))
}

func workspaceStatusRemedy(f *Finding) string {
	unstamp := "set stamp = 0 on " + f.Action.Target + " (or build without --stamp)"
	if f.Action.Mnemonic == "Genrule" {
		// A genrule reads the file in its command, where it is no
		// longer an input once unstamped: a sandbox has no such file.
		unstamp += " and stop reading " + quote.Quote(f.Path) + " in its cmd"
	}
	return unstamp + ", unless it is a release target; excuse a release target with an --exceptions-json entry: " +
		jsonObject("kind", jsonString("workspace_status"), "target", jsonString(f.Action.Target))
}

// conditionalReproducibilityRemedy says, for each unmet clause of the
// spec, what would meet it, with the clause's own reason: the spec is
// where the remedy lives.
func conditionalReproducibilityRemedy(f *Finding) string {
	if len(f.Unmet) == 0 {
		return "pass the options the program's spec requires"
	}
	var b strings.Builder
	for i, u := range f.Unmet {
		if i > 0 {
			b.WriteString("; ")
		}
		if len(u.Present) > 0 {
			b.WriteString("drop ")
			b.WriteString(strings.Join(u.Present, " "))
		} else {
			b.WriteString("pass ")
			for j, p := range u.AnyOf {
				if j > 0 {
					b.WriteString(" or ")
				}
				// A pattern's * is whatever the user chooses there.
				b.WriteString(strings.ReplaceAll(p, "*", "…"))
			}
		}
		b.WriteString(" (")
		b.WriteString(u.Because)
		b.WriteString(")")
	}
	return b.String()
}

func variationSourceRemedy(f *Finding) string {
	switch f.Variation {
	case "clock":
		// Bazel gives actions no SOURCE_DATE_EPOCH of its own: the hint
		// says where it comes from.
		return "write a fixed time instead of the current one: a date you choose (date -u -d @0 +%F), or SOURCE_DATE_EPOCH given to the action " +
			"(--action_env=SOURCE_DATE_EPOCH=0, which compilers honour for __DATE__ and __TIME__; date -u -d \"@$SOURCE_DATE_EPOCH\")"
	case "random":
		return "write a fixed value instead of a random one, or seed the generator with a constant first " +
			"(RANDOM=1 in the shell, srand(1) in awk and Perl, -frandom-seed=NAME for gcc, --random-source=FILE of an input for shuf and sort -R)"
	case "urandom":
		return "write a fixed value instead of random bytes, or bytes derived from the action's inputs (sha256sum $<)"
	case "pid":
		return "write a fixed value instead of a process id"
	case "pwd":
		return "write a path relative to the execution root instead of the directory the action runs in (drop the $(pwd)/ or $PWD/ before it, realpath --relative-to=.); " +
			"for a compiler, map it out (-ffile-prefix-map=$PWD=.)"
	case "hostname":
		return "write a fixed value instead of the machine's name"
	case "user":
		return "write a fixed value instead of the user's name or id"
	case "owner":
		return "give the files a fixed owner as the archiver records them (tar --owner=0 --group=0 --numeric-owner, cpio -R 0:0, zip -X); " +
			"from a listing, write their names (ls -1 rather than ls -l)"
	case "mode":
		return "give the files fixed permissions as the archiver records them (tar --mode=u=rwX,go=rX); " +
			"from a listing, write their names (ls -1 rather than ls -l)"
	case "mtime":
		// touch on the inputs themselves would follow Bazel's links into
		// the checkout and change the user's files.
		return "give the files a fixed time as the archiver records them (tar --mtime=@0, gzip -n, ar D rather than U; " +
			"for zip and cpio, copy the files and touch -d @0 the copies first); from a listing, write their names (ls -1 rather than ls -l)"
	case "inode":
		return "have the archiver renumber what it records (cpio --reproducible) or add files by name (tar --sort=name)"
	case "tempname":
		return "name the file yourself, under $(@D), and write that name instead of a random one (mktemp, File::Temp)"
	case "uname":
		return "write a fixed value instead of what the kernel says of itself"
	case "cpus":
		return "write a fixed number instead of the machine's number of CPUs"
	case "order":
		return "sort what you list before writing it (find … | LC_ALL=C sort, tar --sort=name, sort readdir in Perl, .sort() in JavaScript)"
	case "hashseed":
		return "sort what you write from a hash or a set (sort keys %h in Perl, sorted(…) in Python), " +
			"or fix the seed for the command (PERL_HASH_SEED=0 perl …, PYTHONHASHSEED=0 python3 …)"
	case "parallel":
		return "write the jobs' output in a fixed order: one job at a time (xargs -P 1), or sort it, or keep each job's output apart (make --output-sync, parallel --keep-order)"
	case "filemeta":
		return "write files' names and contents, not their times, owners, modes or sizes on disk (ls -1 rather than ls -l, stat --format=%n, du --apparent-size)"
	case "environment":
		return "write only the variables you need, with fixed values, instead of the whole environment"
	case "timezone":
		return "write times in UTC (date -u, TZ=UTC) instead of the machine's time zone (/etc/localtime, /etc/timezone)"
	case "locale":
		return "write the locale you choose instead of the machine's, and run what follows the locale in it (LC_ALL=C)"
	}
	return "write a fixed value instead of one that differs between runs or machines"
}

// jsonString is s as a JSON string; invalid UTF-8 becomes U+FFFD.
func jsonString(s string) string {
	b, _ := jsontext.AppendQuote(nil, s)
	return string(b)
}

// jsonObject writes the members given as key, JSON value pairs on one
// line, as a person would: {"kind": "x", "program": "y"}. A key is a bare
// word or already a JSON string.
func jsonObject(members ...string) string {
	var b strings.Builder
	b.WriteByte('{')
	for i := 0; i+1 < len(members); i += 2 {
		if i > 0 {
			b.WriteString(", ")
		}
		key := members[i]
		if !strings.HasPrefix(key, `"`) {
			key = jsonString(key)
		}
		b.WriteString(key)
		b.WriteString(": ")
		b.WriteString(members[i+1])
	}
	b.WriteByte('}')
	return b.String()
}
