package shell

import (
	"path"
	"strings"
)

// shells are the shells whose scripts Analyze reads, by base name.
var shells = map[string]Dialect{
	"bash": Bash,
	"sh":   POSIX,
	"dash": POSIX,
}

// Recognize says whether argv runs a shell with a script given on its
// command line, `bash -c SCRIPT [ARG0 [ARG...]]`, and splits it. The shell
// may be named by a bare name or a path, or through `/usr/bin/env`; options
// may come before -c (`-e`, `-eu`, `-o pipefail`, `-ec`...) and the script is
// the first argument that is not an option. argv is the action's command
// line with its param files already spliced in. A shell running a script
// file (`/bin/bash x.genrule_script.sh`, which Bazel writes for very long
// genrule commands) is not recognised: the script is not on the command
// line.
func Recognize(argv []string) (Invocation, bool) {
	if len(argv) > 1 && path.Base(argv[0]) == "env" {
		// `/usr/bin/env bash -c ...`; env with options or assignments is
		// left alone, it is no longer just a way of finding bash.
		argv = argv[1:]
	}
	if len(argv) < 2 {
		return Invocation{}, false
	}
	dialect, ok := shells[path.Base(argv[0])]
	if !ok {
		return Invocation{}, false
	}
	inv := Invocation{Shell: argv[0], Dialect: dialect}
	command := false
	i := 1
	for ; i < len(argv); i++ {
		a := argv[i]
		if a == "--" || a == "-" {
			i++
			break
		}
		if len(a) < 2 || (a[0] != '-' && a[0] != '+') {
			break
		}
		if strings.HasPrefix(a, "--") {
			// --norc, --posix, --login...
			inv.Options = append(inv.Options, a)
			continue
		}
		// A bundle of single-letter options: -e, -eu, -ce, +x. The letters
		// o and O take the next argument (`-o pipefail`).
		letters := a[1:]
		if strings.ContainsRune(letters, 'c') {
			command = true
			letters = strings.ReplaceAll(letters, "c", "")
			if letters != "" {
				inv.Options = append(inv.Options, a[:1]+letters)
			}
		} else {
			inv.Options = append(inv.Options, a)
		}
		if strings.ContainsAny(letters, "oO") && i+1 < len(argv) {
			i++
			inv.Options = append(inv.Options, argv[i])
		}
	}
	if !command || i >= len(argv) {
		return Invocation{}, false
	}
	inv.Script = argv[i]
	inv.Args = argv[i+1:]
	return inv, true
}
