package trace

import (
	"bytes"
	"errors"
	"io"
	"path"
	"slices"
	"strings"

	"github.com/ahab-go/ahab/internal/finding"
)

// Action is what the trace needs to know of one spawn of the build, as the
// execution log describes it. Paths are exec paths (relative to the
// execution root).
type Action struct {
	Mnemonic string
	// Target is the label of the action's target, "" when not known.
	Target string
	// Argv is the command line, argv[0] included.
	Argv []string
	// Inputs are every file the spawn declared: sources, tools, runfiles
	// and param files.
	Inputs []string
	// Outputs are the files the spawn declared it writes (a tree
	// artifact's directory, not its files); they name the action in the
	// reports and find it in the static analysis.
	Outputs []string
	// OutputFiles are the files the spawn produced, a tree artifact's
	// expanded; they are its own, like Outputs.
	OutputFiles []string
	// Causes are the static analysis's findings for the action's
	// (attachStatic).
	Causes []finding.Finding
}

// op is a bit set of what an action did to one path.
type op uint16

const (
	opRead   op = 1 << iota // opened for reading
	opStat                  // stat, access or readlink
	opList                  // its entries were read (getdents)
	opWrite                 // opened for writing or created
	opExec                  // executed
	opDir                   // the trace shows it is a directory
	opNotDir                // the trace shows it is not a directory
)

// access is everything one action did to one path (the key of its map: the
// lexical absolute path the program asked for).
type access struct {
	ops op
	// resolved is where the kernel found the file, when strace -y showed
	// it (symlinks followed); "" otherwise.
	resolved string
	// programs are the programs that touched it, kept only for the files
	// a shell reads when it starts (see RuleShell).
	programs []string
}

// actionTrace is one action and what its processes touched.
type actionTrace struct {
	action   *Action
	traced   bool
	accesses map[string]*access
}

func (a *actionTrace) touch(p string, o op, resolved, program string) {
	if a.accesses == nil {
		a.accesses = map[string]*access{}
	}
	acc := a.accesses[p]
	if acc == nil {
		acc = &access{}
		a.accesses[p] = acc
	}
	acc.ops |= o
	if resolved != "" && acc.resolved == "" {
		acc.resolved = resolved
	}
	if program != "" && slices.Contains(shellFiles, p) && !slices.Contains(acc.programs, program) {
		acc.programs = append(acc.programs, program)
	}
}

// fsState is the part of a process that CLONE_FS shares: its working
// directory.
type fsState struct{ cwd string }

// process is one traced process or thread.
type process struct {
	fs  *fsState
	exe string // the program it runs, as execve named it
	// act is the action this process works for, nil if none.
	act *actionTrace
	// wrapperOf is set on a process that runs an action's command through
	// a wrapper (Bazel's process-wrapper): its own doings are Bazel's, its
	// children's are the action's.
	wrapperOf *actionTrace
}

// pendingWindow bounds how long, in lines, the records of a process whose
// parent has not yet said it created it are kept. strace can print a
// child's first system calls (even its exit) before its parent's clone
// returns; the wait is one system call long in practice, a few lines, and
// far less than this. A process still unclaimed after it (its parent was
// killed inside clone, say, which strace prints as "= ?") is taken for one
// that is no action's, and what it did is dropped, so that memory stays
// bounded whatever the log.
var pendingWindow = 1 << 14

type pendingRecord struct {
	line         int
	name         string
	args, result string
}

// pendingProcess is what a process not yet known did: it may even have
// exited before its parent's clone returned.
type pendingProcess struct {
	records   []pendingRecord
	firstLine int
	exited    bool
}

// attributor rebuilds the process tree of a traced build from its strace
// log and gives each file event to the action whose process tree made it.
type attributor struct {
	execRoot string
	spawns   map[string][]*actionTrace // argv key → actions, in log order
	procs    map[int]*process
	// pending holds the records of processes not yet known, by pid.
	pending   map[int]*pendingProcess
	nextSweep int // the line at which to look for stale pending processes
	root      int // the first process of the log: the traced command
	file      string
}

// attribute reads an strace log and returns the actions with what each
// touched. Only records of processes that work for an action (and of
// processes whose parent is not yet known) are decoded.
func attribute(r io.Reader, name string, actions []*actionTrace, execRoot string) error {
	at := &attributor{
		execRoot: execRoot,
		spawns:   map[string][]*actionTrace{},
		procs:    map[int]*process{},
		pending:  map[int]*pendingProcess{},
		file:     name,
	}
	for _, a := range actions {
		k := argvKey(a.action.Argv)
		at.spawns[k] = append(at.spawns[k], a)
	}
	sc := NewScanner(r, name)
	sc.Want = at.want
	for sc.Scan() {
		if err := at.record(sc.Record()); err != nil {
			return err
		}
	}
	return sc.Err()
}

func argvKey(argv []string) string { return strings.Join(argv, "\x00") }

// structural system calls shape the process tree and are followed for every
// process.
func structural(name []byte) bool {
	switch string(name) {
	case "clone", "clone3", "fork", "vfork", "execve", "execveat", "chdir", "fchdir":
		return true
	}
	return false
}

func (at *attributor) want(pid int, name []byte) bool {
	if structural(name) {
		return true
	}
	p := at.procs[pid]
	if p == nil {
		return true // not known yet: kept until its parent says it made it
	}
	return p.act != nil
}

func (at *attributor) record(rec *Record) error {
	if at.root == 0 {
		at.root = rec.PID
		at.procs[rec.PID] = &process{fs: &fsState{}}
	}
	p := at.procs[rec.PID]
	switch rec.Kind {
	case Exit:
		if p != nil {
			delete(at.procs, rec.PID)
		} else if pp := at.pending[rec.PID]; pp != nil {
			pp.exited = true // its parent's clone has yet to return
		}
		return nil
	case Syscall:
	default:
		return nil
	}
	if p == nil {
		at.sweep(rec.Line)
		pp := at.pending[rec.PID]
		if pp == nil {
			pp = &pendingProcess{firstLine: rec.Line}
			at.pending[rec.PID] = pp
		}
		pp.records = append(pp.records, pendingRecord{
			line: rec.Line, name: string(rec.Name), args: string(rec.Args), result: string(rec.Result),
		})
		return nil
	}
	if err := at.syscall(p, rec); err != nil {
		var pe *ParseError
		if errors.As(err, &pe) {
			return err // a replayed record of a child, with its own line
		}
		return &ParseError{File: at.file, Line: rec.Line, Err: err}
	}
	return nil
}

// sweep drops the pending processes no parent claimed within the window,
// looking every few thousand lines.
func (at *attributor) sweep(line int) {
	if line < at.nextSweep {
		return
	}
	at.nextSweep = line + pendingWindow/16
	for pid, pp := range at.pending {
		if line-pp.firstLine <= pendingWindow {
			continue
		}
		delete(at.pending, pid)
		if !pp.exited {
			at.procs[pid] = &process{fs: &fsState{}} // no action's
		}
	}
}

// adopt gives a new process its parent's state and replays what it did
// before the parent's clone returned.
func (at *attributor) adopt(parent *process, child int, shareFS bool) error {
	c := &process{fs: parent.fs, exe: parent.exe, act: parent.act}
	if !shareFS {
		c.fs = &fsState{cwd: parent.fs.cwd}
	}
	if parent.wrapperOf != nil {
		c.act = parent.wrapperOf
	}
	at.procs[child] = c
	pp := at.pending[child]
	if pp == nil {
		return nil
	}
	delete(at.pending, child)
	for _, pr := range pp.records {
		rec := &Record{Line: pr.line, PID: child, Kind: Syscall, Name: []byte(pr.name), Args: []byte(pr.args), Result: []byte(pr.result)}
		if err := at.record(rec); err != nil {
			return err
		}
	}
	if pp.exited {
		delete(at.procs, child)
	}
	return nil
}

func (at *attributor) syscall(p *process, rec *Record) error {
	ret, resPath, ok, err := result(rec.Result)
	if err != nil {
		return err
	}
	if !ok {
		return nil // failed calls change nothing and are not reported
	}
	name := string(rec.Name)
	switch name {
	case "clone", "clone3", "fork", "vfork":
		if ret <= 0 {
			return nil // the child's own view of fork, or nothing
		}
		shareFS := (name == "clone" || name == "clone3") && bytes.Contains(rec.Args, []byte("CLONE_FS"))
		return at.adopt(p, int(ret), shareFS)
	}
	if p.act == nil && !structural(rec.Name) {
		return nil
	}
	args, err := splitArgs(rec.Args)
	if err != nil {
		return err
	}
	arg := func(i int) []byte {
		if i < len(args) {
			return args[i]
		}
		return nil
	}
	switch name {
	case "execve":
		return at.exec(p, p.fs.cwd, arg(0), arg(1))
	case "execveat":
		base, err := at.base(p, arg(0))
		if err != nil {
			return err
		}
		return at.exec(p, base, arg(1), arg(2))
	case "chdir":
		dir, _, err := unquote(arg(0))
		if err != nil {
			return err
		}
		p.fs.cwd = join(p.fs.cwd, dir)
	case "fchdir":
		if dir, ok, err := fdPath(arg(0)); err != nil {
			return err
		} else if ok {
			p.fs.cwd = dir
		}
	case "open", "creat":
		o := openOp(arg(1))
		if name == "creat" {
			o = opWrite
		}
		return at.touch(p, p.fs.cwd, arg(0), o, resPath)
	case "openat":
		return at.touchAt(p, arg(0), arg(1), openOp(arg(2)), resPath)
	case "openat2":
		return at.touchAt(p, arg(0), arg(1), openOp(arg(2)), resPath)
	case "stat", "lstat", "stat64", "lstat64":
		return at.touch(p, p.fs.cwd, arg(0), opStat|statMode(arg(1)), "")
	case "newfstatat", "fstatat64":
		return at.touchAt(p, arg(0), arg(1), opStat|statMode(arg(2)), "")
	case "statx":
		return at.touchAt(p, arg(0), arg(1), opStat|statMode(arg(4)), "")
	case "access", "readlink":
		return at.touch(p, p.fs.cwd, arg(0), opStat, "")
	case "faccessat", "faccessat2", "readlinkat":
		return at.touchAt(p, arg(0), arg(1), opStat, "")
	case "getdents", "getdents64":
		if dir, ok, err := fdPath(arg(0)); err != nil {
			return err
		} else if ok {
			p.act.touch(dir, opList|opDir, "", p.exe)
		}
	}
	return nil
}

// exec follows a successful execve: the process now runs another program,
// and may have become an action's (or an action's wrapper).
func (at *attributor) exec(p *process, base string, file, argvArg []byte) error {
	prog, _, err := unquote(file)
	if err != nil {
		return err
	}
	prog = join(base, prog)
	p.exe = prog
	if p.act != nil {
		p.act.touch(prog, opExec|opNotDir, "", prog)
		return nil
	}
	if p.fs.cwd != at.execRoot || p.wrapperOf != nil {
		return nil
	}
	argv, truncated, err := stringArray(argvArg)
	if err != nil || truncated {
		return err // a truncated argv matches no spawn
	}
	a, wrapped := at.match(argv)
	if a == nil {
		return nil
	}
	a.traced = true
	if wrapped {
		p.wrapperOf = a
	} else {
		p.act = a
		a.touch(prog, opExec|opNotDir, "", prog)
	}
	return nil
}

// match finds the spawn argv runs: argv itself, or what follows a
// wrapper's options (Bazel 4.2.3 runs `process-wrapper --timeout=0
// --kill_delay=15 ARGV...`; newer ones put "--" before ARGV). Spawns with
// the same argv are taken in log order.
func (at *attributor) match(argv []string) (a *actionTrace, wrapped bool) {
	if a := at.take(argv); a != nil {
		return a, false
	}
	for k := 1; k < len(argv); k++ {
		if argv[k] == "--" {
			return at.take(argv[k+1:]), true
		}
		if !strings.HasPrefix(argv[k], "--") {
			return at.take(argv[k:]), true
		}
	}
	return nil, false
}

// take returns the first action not yet traced whose argv is argv, or,
// when all were, the first (a command run twice is still that action's).
func (at *attributor) take(argv []string) *actionTrace {
	if len(argv) == 0 {
		return nil
	}
	list := at.spawns[argvKey(argv)]
	for _, a := range list {
		if !a.traced {
			return a
		}
	}
	if len(list) > 0 {
		return list[0]
	}
	return nil
}

// base is the directory a *at system call's dirfd names: the path strace
// -y printed ("AT_FDCWD</w>", "3</w/d>") or, without one, the process's
// working directory. An AT_FDCWD path also corrects the working directory
// we track.
func (at *attributor) base(p *process, dirfd []byte) (string, error) {
	dir, ok, err := fdPath(dirfd)
	if err != nil {
		return "", err
	}
	if !ok {
		return p.fs.cwd, nil
	}
	if bytes.HasPrefix(dirfd, []byte("AT_FDCWD")) {
		p.fs.cwd = dir
	}
	return dir, nil
}

func (at *attributor) touchAt(p *process, dirfd, file []byte, o op, resolved string) error {
	base, err := at.base(p, dirfd)
	if err != nil {
		return err
	}
	return at.touch(p, base, file, o, resolved)
}

func (at *attributor) touch(p *process, base string, file []byte, o op, resolved string) error {
	name, _, err := unquote(file)
	if err != nil {
		return err
	}
	if name == "" {
		return nil // AT_EMPTY_PATH: about an open descriptor, already seen
	}
	p.act.touch(selfCwd(join(base, name), p.fs.cwd), o, resolved, p.exe)
	return nil
}

// selfCwd replaces /proc/self/cwd, which Bazel gives C++ actions as PWD, by
// the working directory it stands for: the file behind it is the action's
// concern, not the kernel's.
func selfCwd(p, cwd string) string {
	for _, prefix := range []string{"/proc/self/cwd", "/proc/thread-self/cwd"} {
		if rest, ok := strings.CutPrefix(p, prefix); ok && cwd != "" && (rest == "" || rest[0] == '/') {
			return cwd + rest
		}
	}
	return p
}

// join resolves name against the directory base lexically.
func join(base, name string) string {
	if strings.HasPrefix(name, "/") || base == "" {
		return path.Clean(name)
	}
	return path.Join(base, name)
}

// openOp reads open's flags ("O_RDONLY|O_CLOEXEC", or openat2's
// "{flags=O_RDONLY, resolve=...}").
func openOp(flags []byte) op {
	var o op
	if bytes.Contains(flags, []byte("O_WRONLY")) || bytes.Contains(flags, []byte("O_RDWR")) ||
		bytes.Contains(flags, []byte("O_CREAT")) || bytes.Contains(flags, []byte("O_TRUNC")) {
		o |= opWrite
	} else {
		o |= opRead
	}
	if bytes.Contains(flags, []byte("O_DIRECTORY")) {
		o |= opDir
	}
	return o
}

// statMode reads the file type from a stat result.
func statMode(buf []byte) op {
	i := bytes.Index(buf, []byte("mode=S_IF"))
	if i < 0 {
		return 0
	}
	switch t := buf[i+len("mode=S_IF"):]; {
	case bytes.HasPrefix(t, []byte("DIR")):
		return opDir
	case bytes.HasPrefix(t, []byte("LNK")):
		return 0 // lstat of a symlink: whether it leads to a directory is not known
	default:
		return opNotDir
	}
}
