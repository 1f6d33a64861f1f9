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
	if f.Site.Location == EnvVar {
		return "find what sets " + f.Site.Key + " from $" + variable + " (--action_env, a rule's env, a repository rule) and give it a fixed value"
	}
	return "find what copies $" + variable + " into the build (a repository rule reading repository_ctx.os.environ, --action_env=" +
		variable + ", a genrule command expanding it) and write a fixed value instead"
}

func badPathRemedy(*Finding) string {
	return "build with --incompatible_strict_action_env and without --action_env=PATH, so that the action gets PATH=/bin:/usr/bin:/usr/local/bin"
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
	fix := "make " + path + " an input and pass it relative to the execution root, or use a hermetic toolchain"
	// A path that is not the build machine's says where a file goes once
	// the output is unpacked or deployed: declared_paths of the program's
	// spec says so for an option, an exception for a script.
	switch option, ok := optionOf(f.Site.Value); {
	case ok:
		return fix + "; if it is where a file goes inside the artifact being built, add " +
			jsonObject("declared_paths", "["+jsonString(option+"=*")+"]") + " to the spec of the program the action runs"
	case f.Site.Value == f.Path:
		return fix + "; if it is where a file goes inside the artifact being built, add the option before it to the declared_paths and takes_value of the spec of the program the action runs"
	case strings.ContainsAny(f.Site.Value, " \n"):
		return fix + "; if it is where a file goes on the machine the output is deployed to, excuse it: " +
			jsonObject("kind", jsonString("absolute_path"), "target", jsonString(f.Action.Target), "path", jsonString(f.Path))
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
		return "keep the script to what every shell does and excuse the machine's shell: " +
			jsonObject("kind", jsonString("system_program"), "program", jsonString(p), "reason", jsonString("Bazel runs scripts with the machine's shell"))
	}
	return "run a tool the build provides (a toolchain, or a label in the rule's tools called through $(execpath …)) instead of " + quote.Quote(p)
}

func hostDerivedProgramRemedy(f *Finding) string {
	return "register a hermetic toolchain instead of the autoconfigured one that generated " + quote.Quote(f.Program.String()) +
		" (for C++, one that downloads its compiler, such as toolchains_llvm)"
}

func unknownProgramRemedy(f *Finding) string {
	p := jsonString(f.Program.String())
	spec := jsonObject("programs", jsonObject(p, jsonObject("spec", jsonObject("reproducibility", jsonString("always")))))
	return "describe it in a --repro-specs file: " + spec + ` (or "never", or "sometimes" with the options it needs); or excuse it: ` +
		jsonObject("kind", jsonString("unknown_program"), "program", p)
}

func neverReproducibleRemedy(f *Finding) string {
	return "replace " + quote.Quote(f.Program.String()) + " with a tool that can be made deterministic; or excuse " + f.Action.Target + ": " +
		jsonObject("kind", jsonString("never_reproducible"), "program", jsonString(f.Program.String()), "target", jsonString(f.Action.Target))
}

func workspaceStatusRemedy(f *Finding) string {
	return "set stamp = 0 on " + f.Action.Target + " (or build without --stamp) unless it is a release target; excuse a release target: " +
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
		// Bazel gives actions no SOURCE_DATE_EPOCH: a fixed date, written
		// in the command, is what works as it is.
		return "write a fixed time instead of the current one (date -u -d @0 +%F), or one the action is given (--action_env=SOURCE_DATE_EPOCH=0 and date -u -d \"@$SOURCE_DATE_EPOCH\")"
	case "random", "urandom":
		return "write a fixed value, or one seeded from the action's inputs (a hash of them), instead of a random one"
	case "pid":
		return "write a fixed value instead of a process id"
	case "pwd":
		return "write a path relative to the execution root instead of the directory the action runs in; for a compiler, map it out (-ffile-prefix-map=$PWD=.)"
	case "hostname":
		return "write a fixed value instead of the machine's name"
	case "user":
		return "write a fixed value instead of the user's name or id"
	case "owner":
		return "give the files a fixed owner as the archiver records them (tar --owner=0 --group=0 --numeric-owner, cpio -R 0:0, zip -X)"
	case "mode":
		return "give the files fixed permissions as the archiver records them (tar --mode=u=rwX,go=rX)"
	case "mtime":
		return "give the files a fixed time as the archiver records them (tar --mtime=@0, gzip -n; or touch -d @0 them first)"
	case "inode":
		return "have the archiver renumber what it records (cpio --reproducible)"
	case "tempname":
		return "name the file yourself, under $(@D), instead of writing mktemp's random name"
	case "uname":
		return "write a fixed value instead of what the kernel says of itself"
	case "cpus":
		return "write a fixed number instead of the machine's number of CPUs"
	case "order":
		return "sort what you list (find … | LC_ALL=C sort, tar --sort=name) before writing it"
	case "hashseed":
		return "sort what you write from a set or hash (sorted(...), sort keys), or fix the seed (PYTHONHASHSEED=0, PERL_HASH_SEED=0)"
	case "parallel":
		return "write the jobs' output in a fixed order: one job at a time, or sort it, or keep each job's output apart (make --output-sync)"
	case "filemeta":
		return "write no file times or owners; before archiving, set them (touch -d @0)"
	case "environment":
		return "write only the variables you need, with fixed values, instead of the whole environment"
	case "timezone":
		return "print times in UTC (date -u, TZ=UTC)"
	case "locale":
		return "run it in a fixed locale (LC_ALL=C)"
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
