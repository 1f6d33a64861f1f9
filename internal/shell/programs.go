package shell

import (
	"path"
	"strings"
)

// What the data flow needs to know about a program, by base name. A program
// not listed is a tool we know nothing about: it may read standard input,
// and it may write files named by its arguments (generated tools usually
// take --output $@), so both count.
type tool struct {
	noStdin      bool // never reads standard input
	printsArgs   bool // prints its arguments (echo, printf)
	recordsPaths bool // prints or stores the paths it is given (find, tar, sha256sum)
	// writes says whether the command writes files named by its
	// arguments; nil means never.
	writes func(args []string) bool
	sorts  bool // its output's order is its own (sort)
	silent bool // prints nothing worth having (cd, rm, true)
	// text says which arguments are text (a sed script, a grep pattern)
	// rather than files, for the programs that take both.
	text func(args []string) []bool
}

func always([]string) bool { return true }

// unless returns a writes function that is true unless one of flags is
// among the arguments (gzip -c writes to standard output).
func unless(flags ...string) func([]string) bool {
	return func(args []string) bool {
		for _, a := range args {
			for _, f := range flags {
				if a == f || (len(f) == 2 && f[0] == '-' && isShortBundle(a) && strings.IndexByte(a[1:], f[1]) >= 0) {
					return false
				}
			}
		}
		return true
	}
}

// when returns a writes function that is true when one of the flags is
// among the arguments, alone or as flag=value (sed -i, sort -o).
func when(flags ...string) func([]string) bool {
	return func(args []string) bool {
		for _, a := range args {
			for _, f := range flags {
				if a == f || strings.HasPrefix(a, f+"=") || (len(f) == 2 && strings.HasPrefix(a, f) && !strings.HasPrefix(a, "--")) {
					return true
				}
			}
		}
		return false
	}
}

func isShortBundle(a string) bool {
	return len(a) > 1 && a[0] == '-' && a[1] != '-'
}

var (
	printer   = tool{noStdin: true, printsArgs: true}
	filter    = tool{}                                  // reads input, prints
	namer     = tool{noStdin: true, recordsPaths: true} // prints the names it is given
	asker     = tool{noStdin: true}                     // prints what the machine says
	writer    = tool{noStdin: true, writes: always}     // writes files, prints nothing worth having
	quiet     = tool{noStdin: true, silent: true}
	compiler  = tool{noStdin: true, recordsPaths: true, writes: always}
	archiver  = tool{recordsPaths: true, writes: always}
	squeezer  = tool{writes: unless("-c", "--stdout", "--to-stdout", "-t", "--test", "-l", "--list")}
	summarist = tool{recordsPaths: true} // sha256sum, wc: prints names beside sums
)

var programs = map[string]tool{
	"echo": printer, "printf": printer,

	"cat": filter, "tac": filter, "rev": filter, "tr": filter, "cut": filter, "paste": filter,
	"head": filter, "tail": filter, "uniq": filter, "nl": filter, "fold": filter, "fmt": filter,
	"column": filter, "od": filter, "hexdump": filter, "xxd": filter, "base64": filter,
	"base32": filter, "expand": filter, "unexpand": filter, "iconv": filter, "strings": filter,
	"numfmt": filter, "jq": filter, "envsubst": filter, "diff": filter, "cmp": filter,
	"comm": filter, "join": filter, "tsort": filter,
	"sed": {writes: when("-i", "--in-place"), text: sedText},
	"awk": {text: awkText}, "gawk": {text: awkText}, "mawk": {text: awkText},
	"grep": {text: grepText}, "egrep": {text: grepText}, "fgrep": {text: grepText},
	"sort": {sorts: true, writes: when("-o", "--output")},
	"tee":  {writes: always},

	"wc": summarist, "md5sum": summarist, "sha1sum": summarist, "sha224sum": summarist,
	"sha256sum": summarist, "sha384sum": summarist, "sha512sum": summarist, "b2sum": summarist,
	"cksum": summarist, "sum": summarist,

	"basename": namer, "dirname": namer, "realpath": namer, "readlink": namer, "ls": namer,
	"find": {noStdin: true, recordsPaths: true}, "stat": namer, "file": namer, "du": namer,

	"date": asker, "pwd": asker, "hostname": asker, "uname": asker, "whoami": asker, "id": asker,
	"groups": asker, "logname": asker, "nproc": asker, "uuidgen": asker, "mktemp": asker,
	"printenv": asker, "env": asker, "seq": asker, "getconf": asker, "arch": asker,
	"hostid": asker, "tty": asker, "shuf": filter, "yes": printer,

	"true": quiet, "false": quiet, ":": quiet, "test": quiet, "[": quiet, "sleep": quiet,
	"cd": quiet, "set": quiet, "shift": quiet, "exit": quiet, "return": quiet, "umask": quiet,
	"trap": quiet, "wait": quiet, "unset": quiet, "shopt": quiet, "rm": quiet, "rmdir": quiet,
	"chmod": quiet, "chown": quiet, "chgrp": quiet, "kill": quiet, "hash": quiet, "alias": quiet,
	"read": {}, "command": quiet, "type": quiet, "which": quiet,

	// They make files, but nothing they are given becomes content.
	"cp": quiet, "mv": quiet, "install": quiet, "ln": quiet, "mkdir": quiet, "touch": quiet,
	"truncate": quiet, "mkfifo": quiet, "split": {writes: always}, "csplit": {writes: always},
	"dd":    {writes: when("of")},
	"patch": {writes: always},

	"tar": archiver, "zip": archiver, "jar": archiver, "cpio": archiver,
	// ar stores its members under their base names.
	"ar":    {noStdin: true, writes: always},
	"unzip": {noStdin: true, writes: unless("-p", "-l", "-t", "-v", "-Z")},
	"gzip":  squeezer, "gunzip": squeezer, "xz": squeezer, "unxz": squeezer, "bzip2": squeezer,
	"bunzip2": squeezer, "zstd": squeezer, "unzstd": squeezer, "lz4": squeezer, "brotli": squeezer,
	"lzma": squeezer, "zcat": filter, "xzcat": filter, "bzcat": filter, "zstdcat": filter,

	"gcc": compiler, "g++": compiler, "cc": compiler, "c++": compiler, "clang": compiler,
	"clang++": compiler, "cpp": compiler, "as": compiler, "ld": compiler, "strip": writer,
	"objcopy": writer, "ranlib": writer,
}

// programOf returns what is known about the program argv0 names.
func programOf(argv0 string) (tool, bool) {
	p, ok := programs[path.Base(argv0)]
	return p, ok
}

func unknownProgram() tool {
	return tool{writes: always}
}

// sedText marks sed's script arguments: the values of -e and
// --expression, or the first operand when there is no -e.
func sedText(args []string) []bool {
	return scriptThenFiles(args, []string{"-e", "--expression"}, []string{"-f", "--file", "-l", "--line-length"})
}

// grepText marks grep's pattern: the values of -e, or the first operand.
func grepText(args []string) []bool {
	return scriptThenFiles(args, []string{"-e", "--regexp"}, []string{"-f", "--file", "-m", "--max-count", "-A", "-B", "-C", "--label"})
}

// awkText marks awk's program (the first operand unless -f) and its -v
// assignments.
func awkText(args []string) []bool {
	return scriptThenFiles(args, []string{"-v", "--assign"}, []string{"-f", "--file", "-F", "--field-separator"})
}

// scriptThenFiles marks as text the values of the script flags and, when
// none was given, the first operand; valued flags take the next argument.
func scriptThenFiles(args, scriptFlags, valued []string) []bool {
	text := make([]bool, len(args))
	sawScript := false
	var operands []int
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case contains(scriptFlags, a) && i+1 < len(args):
			text[i+1] = true
			i++
			if a != "-v" && a != "--assign" {
				sawScript = true
			}
		case contains(valued, a) && i+1 < len(args):
			i++
		case strings.HasPrefix(a, "-") && len(a) > 1:
			for _, f := range scriptFlags {
				if strings.HasPrefix(a, f) && len(a) > len(f) {
					text[i] = true
					if f != "-v" && f != "--assign" {
						sawScript = true
					}
				}
			}
		default:
			operands = append(operands, i)
		}
	}
	if !sawScript && len(operands) > 0 {
		text[operands[0]] = true
	}
	return text
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// sourceOf says whether a command prints something the machine knows
// rather than something the build gave it: the kind, and true. args are
// the arguments, argv[0] left out.
func sourceOf(name string, args []string) (Kind, bool) {
	switch name {
	case "date":
		for _, a := range args {
			switch {
			case a == "-r" || a == "--reference" || strings.HasPrefix(a, "--reference="):
				return FileMeta, true
			case a == "-d" || a == "--date" || a == "-f" || a == "--file" ||
				strings.HasPrefix(a, "--date=") || strings.HasPrefix(a, "--file="):
				return 0, false
			case isShortBundle(a) && !strings.HasPrefix(a, "-+"):
				// -ud @0, -d@0, -ur FILE
				for _, c := range a[1:] {
					if c == 'r' {
						return FileMeta, true
					}
					if c == 'd' || c == 'f' {
						return 0, false
					}
				}
			}
		}
		return Clock, true
	case "pwd":
		return PWD, true
	case "realpath":
		// Inputs are symbolic links into the machine's own directories:
		// only a relative path with links left alone is fixed.
		if !hasLongPrefix(args, "--relative-to", "--relative-base") || !(hasShort(args, "s") || hasLong(args, "--strip", "--no-symlinks")) {
			return PWD, true
		}
	case "readlink":
		if hasShort(args, "fem") || hasLong(args, "--canonicalize", "--canonicalize-existing", "--canonicalize-missing") {
			return PWD, true
		}
	case "hostname", "dnsdomainname", "domainname", "hostid":
		return Hostname, true
	case "uname":
		switch {
		case hasShort(args, "n") || hasLong(args, "--nodename"):
			return Hostname, true
		case hasShort(args, "arv") || hasLong(args, "--all", "--kernel-release", "--kernel-version"):
			return Uname, true
		}
	case "whoami", "logname", "groups":
		return User, true
	case "id":
		return User, true
	case "mktemp":
		return TempName, true
	case "uuidgen":
		if hasShort(args, "ms") || hasLong(args, "--md5", "--sha1") {
			return 0, false
		}
		return Random, true
	case "shuf":
		if !hasLongPrefix(args, "--random-source") {
			return Random, true
		}
	case "nproc":
		return CPUs, true
	case "getconf":
		for _, a := range args {
			if strings.Contains(a, "NPROCESSORS") {
				return CPUs, true
			}
		}
	case "ls":
		switch {
		case hasShort(args, "lgonis") || hasLong(args, "--full-time", "--inode", "--size", "--numeric-uid-gid") || hasLongPrefix(args, "--format=long", "--format=verbose", "--time-style"):
			return FileMeta, true
		case hasShort(args, "tucUf") || hasLongPrefix(args, "--sort=none", "--sort=time", "--time="):
			return Order, true
		}
	case "stat":
		if statPrintsMeta(args) {
			return FileMeta, true
		}
	case "find":
		if findPrintsMeta(args) {
			return FileMeta, true
		}
		return Order, true
	case "env", "printenv":
		if name == "printenv" && len(args) > 0 {
			return 0, false
		}
		return Environment, true
	}
	return 0, false
}

// hasShort says whether an argument is a bundle of single-letter options
// holding one of letters.
func hasShort(args []string, letters string) bool {
	for _, a := range args {
		if a == "--" {
			return false
		}
		if isShortBundle(a) && strings.ContainsAny(a[1:], letters) {
			return true
		}
	}
	return false
}

func hasLong(args []string, flags ...string) bool {
	for _, a := range args {
		if contains(flags, a) {
			return true
		}
	}
	return false
}

func hasLongPrefix(args []string, prefixes ...string) bool {
	for _, a := range args {
		for _, p := range prefixes {
			if strings.HasPrefix(a, p) {
				return true
			}
		}
	}
	return false
}

// statDirectives are the directives of stat's format that print what the
// machine decided about a file (times, owners, mode, inode, device) rather
// than its name, size or type.
const statDirectives = "aAuUgGxXyYzZwWiIdDmCBbo"

func statPrintsMeta(args []string) bool {
	for i, a := range args {
		format := ""
		switch {
		case (a == "-c" || a == "--format" || a == "--printf") && i+1 < len(args):
			format = args[i+1]
		case strings.HasPrefix(a, "--format=") || strings.HasPrefix(a, "--printf="):
			_, format, _ = strings.Cut(a, "=")
		case strings.HasPrefix(a, "-c") && len(a) > 2:
			format = a[2:]
		default:
			continue
		}
		return formatHas(format, statDirectives)
	}
	// The default format prints everything.
	return true
}

// findDirectives are find -printf's directives for times, owners, modes
// and inodes.
const findDirectives = "aAcCtTgGuUmMiDbk"

func findPrintsMeta(args []string) bool {
	for i, a := range args {
		if (a == "-printf" || a == "-fprintf") && i+1 < len(args) && formatHas(args[i+1], findDirectives) {
			return true
		}
		if a == "-ls" || a == "-fls" {
			return true
		}
	}
	return false
}

// formatHas says whether a printf-style format uses one of the directives.
func formatHas(format, directives string) bool {
	for i := 0; i+1 < len(format); i++ {
		if format[i] != '%' {
			continue
		}
		i++
		if format[i] == '%' {
			continue
		}
		// Skip flags and widths: %-10U.
		for i < len(format) && strings.IndexByte("-+ #0123456789.", format[i]) >= 0 {
			i++
		}
		if i < len(format) && strings.IndexByte(directives, format[i]) >= 0 {
			return true
		}
	}
	return false
}

// fileSources are the files whose content the machine decides.
var fileSources = []struct {
	prefix string
	kind   Kind
}{
	{"/dev/urandom", URandom},
	{"/dev/random", URandom},
	{"/proc/sys/kernel/random/", URandom},
	{"/etc/hostname", Hostname},
	{"/proc/sys/kernel/hostname", Hostname},
	{"/etc/machine-id", Hostname},
	{"/proc/cpuinfo", CPUs},
	{"/proc/uptime", Clock},
	{"/proc/self/", PID},
}

// fileSource says whether an operand or a redirection names a file whose
// content the machine decides. An operand may carry a flag (`if=/dev/urandom`).
func fileSource(word string) (Kind, bool) {
	if i := strings.LastIndexByte(word, '='); i >= 0 {
		word = word[i+1:]
	}
	for _, f := range fileSources {
		if word == f.prefix || (strings.HasSuffix(f.prefix, "/") && strings.HasPrefix(word, f.prefix)) {
			return f.kind, true
		}
	}
	return 0, false
}

// pathProducers print a path: their output, used as a word, is a path.
var pathProducers = map[string]bool{
	"mktemp": true, "pwd": true, "realpath": true, "readlink": true, "dirname": true, "basename": true,
}

// builtins are bash's builtins that a script runs without a program:
// the shell itself does what they say, so no spec judges them.
var builtins = map[string]bool{
	":": true, ".": true, "[": true, "alias": true, "bg": true, "bind": true, "break": true,
	"builtin": true, "caller": true, "cd": true, "command": true, "compgen": true, "complete": true,
	"continue": true, "declare": true, "dirs": true, "disown": true, "echo": true, "enable": true,
	"eval": true, "exec": true, "exit": true, "export": true, "false": true, "fc": true, "fg": true,
	"getopts": true, "hash": true, "help": true, "history": true, "jobs": true, "kill": true,
	"let": true, "local": true, "logout": true, "mapfile": true, "popd": true, "printf": true,
	"pushd": true, "pwd": true, "read": true, "readarray": true, "readonly": true, "return": true,
	"set": true, "shift": true, "shopt": true, "source": true, "suspend": true, "test": true,
	"times": true, "trap": true, "true": true, "type": true, "typeset": true, "ulimit": true,
	"umask": true, "unalias": true, "unset": true, "wait": true,
}

// IsBuiltin says whether bash runs name itself rather than a program.
// What a builtin prints is judged here, by the sources of variation it
// touches ($RANDOM, pwd...), not by a spec.
func IsBuiltin(name string) bool { return builtins[name] }
