package shell

import (
	"slices"
	"strings"
)

// Inline code (python3 -c CODE, perl -e CODE, node -e CODE) is a program
// of its own that no spec can judge from the command line. Rather than
// parse three more languages, the code is read for the calls that ask the
// machine something, written the way scripts write them: time.time(),
// random., os.getpid(). A call that is there reaches the command's output
// like a `date` would; code that asks nothing is judged as before (an
// interpreter with unknown code). This sees the commonest cases and
// misses any other spelling, which is the safe direction: a miss costs
// recall, a false alarm precision, and a pattern here only fires on an
// explicit call.

// interpreter says which option of an interpreter introduces inline code,
// and what that code may call.
type interpreter struct {
	codeFlags []string
	calls     []codeCall
}

type codeCall struct {
	text string
	kind Kind
}

var pythonCalls = []codeCall{
	{"time.time(", Clock}, {"time.time_ns(", Clock}, {"time.ctime(", Clock}, {"time.localtime(", Clock},
	{"time.gmtime()", Clock}, {"datetime.now(", Clock}, {"datetime.today(", Clock}, {"datetime.utcnow(", Clock},
	{"date.today(", Clock},
	{"random.", Random}, {"uuid.uuid1(", Random}, {"uuid.uuid4(", Random}, {"os.urandom(", URandom}, {"secrets.", Random},
	{"os.getpid(", PID}, {"os.getppid(", PID},
	{"os.getcwd(", PWD}, {"Path.cwd(", PWD}, {"os.path.abspath(", PWD}, {"os.path.realpath(", PWD},
	{"socket.gethostname(", Hostname}, {"platform.node(", Hostname}, {"os.uname(", Uname},
	{"getpass.getuser(", User}, {"os.getlogin(", User},
	{"os.cpu_count(", CPUs}, {"multiprocessing.cpu_count(", CPUs},
	{"os.stat(", FileMeta}, {"getmtime(", FileMeta}, {"getctime(", FileMeta},
	{"os.listdir(", Order}, {"os.scandir(", Order}, {"glob.glob(", Order}, {"os.walk(", Order},
}

var perlCalls = []codeCall{
	{"time", Clock}, {"localtime", Clock}, {"gmtime", Clock},
	{"rand", Random}, {"$$", PID}, {"getppid", PID},
	{"cwd", PWD}, {"getcwd", PWD}, {"hostname", Hostname}, {"getlogin", User}, {"readdir", Order},
}

var nodeCalls = []codeCall{
	{"Date.now(", Clock}, {"new Date()", Clock}, {"performance.now(", Clock},
	{"Math.random(", Random}, {"crypto.random", Random}, {"randomUUID(", Random},
	{"process.pid", PID}, {"process.cwd(", PWD}, {"os.hostname(", Hostname}, {"os.userInfo(", User},
	{"os.cpus(", CPUs}, {"readdirSync(", Order},
}

var interpreters = map[string]interpreter{
	"python": {[]string{"-c"}, pythonCalls}, "python3": {[]string{"-c"}, pythonCalls}, "python2": {[]string{"-c"}, pythonCalls},
	"perl": {[]string{"-e", "-E"}, perlCalls},
	"node": {[]string{"-e", "--eval", "-p", "--print"}, nodeCalls}, "nodejs": {[]string{"-e", "--eval", "-p", "--print"}, nodeCalls},
}

// inlineSources returns the sources of variation the inline code of an
// interpreter's command line calls, each kind once, in the order of kinds.
// env holds the NAME=value assignments the command gets: Python writes a
// .pyc that holds no time when SOURCE_DATE_EPOCH is set, and iterates sets
// of strings in a fixed order when PYTHONHASHSEED is.
func inlineSources(name string, args, env []string) []codeCall {
	in, ok := interpreters[name]
	if !ok {
		return nil
	}
	code, ok := inlineCode(args, in.codeFlags)
	if !ok {
		return nil
	}
	words := name == "perl"
	var found []codeCall
	add := func(c codeCall) {
		if !slices.ContainsFunc(found, func(f codeCall) bool { return f.kind == c.kind }) {
			found = append(found, c)
		}
	}
	for _, c := range in.calls {
		if hasCall(code, c.text, words) {
			// A listing or set walked in sorted order has no order of the
			// machine's.
			if c.kind == Order && strings.Contains(code, "sort") {
				continue
			}
			add(c)
		}
	}
	if strings.HasPrefix(name, "python") {
		hasEnv := func(name string) bool {
			return slices.ContainsFunc(env, func(e string) bool { return strings.HasPrefix(e, name+"=") })
		}
		if (strings.Contains(code, "py_compile") || strings.Contains(code, "compileall")) &&
			!strings.Contains(code, "invalidation_mode") && !hasEnv("SOURCE_DATE_EPOCH") {
			add(codeCall{"py_compile", FileMeta})
		}
		if hasStringSet(code) && !strings.Contains(code, "sort") && !hasEnv("PYTHONHASHSEED") {
			add(codeCall{"a set of strings", Order})
		}
	}
	slices.SortFunc(found, func(a, b codeCall) int { return int(a.kind) - int(b.kind) })
	return found
}

// inlineCode finds the code a flag introduces: `-c CODE` or `-cCODE`.
func inlineCode(args, flags []string) (string, bool) {
	for i, a := range args {
		for _, f := range flags {
			if a == f && i+1 < len(args) {
				return args[i+1], true
			}
			if len(f) == 2 && strings.HasPrefix(a, f) && len(a) > 2 {
				return a[2:], true
			}
		}
	}
	return "", false
}

// hasCall says whether code holds call; for Perl, whose builtins take no
// parentheses, as a whole word.
func hasCall(code, call string, words bool) bool {
	for i := 0; ; {
		j := strings.Index(code[i:], call)
		if j < 0 {
			return false
		}
		at := i + j
		end := at + len(call)
		if !words || call == "$$" || (!isWordByte(code, at-1) && !isWordByte(code, end)) {
			return true
		}
		i = end
	}
}

func isWordByte(s string, i int) bool {
	if i < 0 || i >= len(s) {
		return false
	}
	c := s[i]
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// hasStringSet says whether Python code holds a set display of strings,
// {"a", "b"}: braces around quoted items with no colon (a dict's).
func hasStringSet(code string) bool {
	for i := 0; i < len(code); i++ {
		if code[i] != '{' {
			continue
		}
		end := strings.IndexByte(code[i:], '}')
		if end < 0 {
			return false
		}
		body := strings.TrimSpace(code[i+1 : i+end])
		if body != "" && (body[0] == '"' || body[0] == '\'') && strings.Contains(body, ",") && !strings.Contains(body, ":") {
			return true
		}
	}
	return false
}
