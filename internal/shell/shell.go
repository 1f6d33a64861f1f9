// Package shell sees inside the shell scripts actions run (`bash -c
// SCRIPT`, genrules and ctx.actions.run_shell): it parses a script, resolves
// the words of every command it runs, and follows what each command prints
// and each source of variation ($RANDOM, `date`, /dev/urandom...) to see
// whether it reaches a file the action writes.
//
// The model is deliberately simple and says what it cannot know: a word
// with a part that depends on the run (a command substitution, an unset
// variable) keeps that part marked unknown, and a value reaches a file only
// along the paths spelled out in flow.go. The script's own standard output
// is not a file: Bazel does not keep it.
package shell

import (
	"fmt"
	"strings"
)

// Dialect is the language a shell speaks.
type Dialect uint8

// The two dialects. Bazel runs genrules and run_shell actions with bash;
// sh and dash speak POSIX, which has no $RANDOM, $BASHPID, $EPOCHSECONDS...
const (
	Bash Dialect = iota
	POSIX
)

// Invocation is a shell run with a script: `bash [OPTIONS] -c SCRIPT [ARG0
// [ARG...]]`.
type Invocation struct {
	Shell   string   // the shell as argv names it: /bin/bash, sh, ...
	Dialect Dialect  // what the shell speaks
	Options []string // the options before the script, -c left out
	Script  string
	// Args are the words after the script: $0, then $1, $2... For
	// ctx.actions.run_shell they are its `arguments`.
	Args []string
}

// Script is what Analyze found in a script.
type Script struct {
	Invocation
	// Genrule says the script starts with Bazel's genrule prefix
	// (`source external/bazel_tools/tools/genrule/genrule-setup.sh;`),
	// which is Bazel's own and is neither listed nor judged.
	Genrule bool
	// Commands are the simple commands the script runs, in the order they
	// appear, with wrappers (env, xargs, find -exec...) unwrapped and
	// function bodies listed once per call.
	Commands []Command
	// Sources are the sources of variation whose value reaches a file,
	// in the order they appear, each once.
	Sources []Source
	// Truncated says the script was too big or too deeply nested to follow
	// to the end: the model covers a prefix of it.
	Truncated bool
}

// Pos is a place in Invocation.Script: a byte offset and a 1-based line and
// column (in bytes).
type Pos struct {
	Offset, Line, Column int
}

func (p Pos) String() string { return fmt.Sprintf("%d:%d", p.Line, p.Column) }

// Command is one simple command of a script.
type Command struct {
	// Argv is the command line with words resolved as far as the script
	// says: Argv[0] is the program word (after unwrapping wrappers such as
	// `env` or `xargs`).
	Argv []Word
	// Env holds the assignments the script gives the program, NAME=value,
	// in the order made: those on its command line (`TZ=UTC date`, `env
	// TZ=UTC date`) and the variables the script exported earlier.
	Env []Word
	// Text is the command as written, on one line, for reports.
	Text string
	// Pos is where the command starts. For a command inside a string the
	// script evaluates (eval, bash -c) it is exact only when the string is a
	// plain literal; otherwise it is the position of that string.
	Pos Pos
	// Output says whether what the command produces reaches a file.
	Output Output
	// Writes says the command writes content of its own making to files
	// named by its arguments (tar -f, gcc -o, gzip FILE, sed -i, a tool
	// we know nothing about) rather than, or as well as, printing. cp,
	// mv, mkdir and touch make files but not content, and do not count.
	Writes bool
	// Context lists the constructs the command sits in, outermost first.
	Context []Context
	// FromPipe says the command reads a pipe from another command: what
	// it reads has no name and no time (gzip records neither).
	FromPipe bool
	// TimesFixed says an earlier command of the script set files' times to
	// a given date (touch -d, touch -t), as scripts do before an archiver
	// that records them.
	TimesFixed bool
}

// Program is the program word, Argv[0].
func (c *Command) Program() Word {
	if len(c.Argv) == 0 {
		return Word{}
	}
	return c.Argv[0]
}

// SpecArgs is what a reproducibility spec sees of the command: the
// assignments the script gives it (NAME=value, as `env` would show them),
// `stdin=pipe` when it reads a pipe, `touch=fixed` when the script set
// files' times before it (TimesFixed), then its arguments. Putting these
// first lets a spec ask for `SOURCE_DATE_EPOCH=*` or accept `stdin=pipe`
// the way it asks for a flag.
func (c *Command) SpecArgs() []string {
	args := make([]string, 0, len(c.Env)+2+len(c.Argv))
	for _, w := range c.Env {
		args = append(args, w.String())
	}
	if c.FromPipe {
		args = append(args, "stdin=pipe")
	}
	if c.TimesFixed {
		args = append(args, "touch=fixed")
	}
	for _, w := range c.Argv[min(1, len(c.Argv)):] {
		args = append(args, w.String())
	}
	return args
}

// Output is where a command's product ends up.
type Output uint8

// The three outputs.
const (
	// Uncaptured: it reaches only the script's standard output or error,
	// which Bazel does not keep.
	Uncaptured Output = iota
	// Discarded: it reaches nothing (/dev/null, a variable never used).
	Discarded
	// Sink: it reaches a file: a redirection, or a file the command or a
	// command it feeds writes.
	Sink
)

var outputNames = [...]string{"uncaptured", "discarded", "sink"}

func (o Output) String() string {
	if int(o) < len(outputNames) {
		return outputNames[o]
	}
	return "unknown"
}

// ContextKind is a construct a command can sit in.
type ContextKind uint8

// The contexts, named by String.
const (
	InPipeline            ContextKind = iota // a | b
	InSubstitution                           // $(...) or `...`
	InProcessSubstitution                    // <(...) or >(...)
	InSubshell                               // ( ... )
	InCondition                              // if, while, until and case tests
	InBranch                                 // a branch of if or case
	InLoop                                   // the body of for or while
	InFunction                               // Name: the function called
	InEval                                   // eval STRING
	InShell                                  // Name: the shell of a nested `bash -c`
	InWrapper                                // Name: env, xargs, find -exec, timeout...
	InBackground                             // cmd &
	InHereDocument                           // the body of <<EOF, or <<<
)

var contextNames = [...]string{
	"pipeline", "substitution", "process-substitution", "subshell", "condition",
	"branch", "loop", "function", "eval", "shell", "wrapper", "background", "here-document",
}

func (k ContextKind) String() string {
	if int(k) < len(contextNames) {
		return contextNames[k]
	}
	return "unknown"
}

// Context is one construct around a command.
type Context struct {
	Kind ContextKind
	Name string // the function, shell or wrapper; empty otherwise
}

func (c Context) String() string {
	if c.Name == "" {
		return c.Kind.String()
	}
	return c.Kind.String() + " " + c.Name
}

// Word is a resolved word: the parts the script fixes are known, the rest
// (what a command prints, an unset variable) are unknown and keep the text
// they were written as.
type Word struct {
	Parts []Part
}

// Part is a piece of a word.
type Part struct {
	Text  string // the value when Known, else the text as written
	Known bool
}

// Literal is a word made of one known part.
func Literal(s string) Word { return Word{Parts: []Part{{Text: s, Known: true}}} }

// String is the word with unknown parts as written: `-d @$(cat f)`.
func (w Word) String() string {
	if len(w.Parts) == 1 {
		return w.Parts[0].Text
	}
	var b strings.Builder
	for _, p := range w.Parts {
		b.WriteString(p.Text)
	}
	return b.String()
}

// Value is the word's value when every part is known.
func (w Word) Value() (string, bool) {
	for _, p := range w.Parts {
		if !p.Known {
			return "", false
		}
	}
	return w.String(), true
}

// Kind is a kind of source of variation: a value that changes from run to
// run or from machine to machine.
type Kind uint8

// The kinds, named by String. The names are stable: reports and exceptions
// use them.
const (
	Random      Kind = iota // $RANDOM, $SRANDOM, uuidgen, shuf
	PID                     // $$, $BASHPID, $PPID, $!
	PWD                     // $PWD, pwd, realpath: the execution root's path
	Clock                   // date, $EPOCHSECONDS, $SECONDS...
	URandom                 // reads of /dev/urandom, /dev/random, /proc/sys/kernel/random/*
	Hostname                // hostname, uname -n, $HOSTNAME, /etc/hostname
	User                    // whoami, id, $UID, $EUID
	TempName                // mktemp's name, $TMPDIR
	Uname                   // uname -a, -r, -v: the kernel
	CPUs                    // nproc, /proc/cpuinfo
	Order                   // find, ls -U: the order a directory lists in
	FileMeta                // ls -l, stat, date -r: file times, owners and modes
	Environment             // env, printenv, set: every variable, $PWD among them
)

var kindNames = [...]string{
	"random", "pid", "pwd", "clock", "urandom", "hostname", "user", "tempname",
	"uname", "cpus", "order", "filemeta", "environment",
}

func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return "unknown"
}

// Kinds lists every kind in order.
func Kinds() []Kind {
	kinds := make([]Kind, len(kindNames))
	for i := range kinds {
		kinds[i] = Kind(i)
	}
	return kinds
}

// Source is a source of variation that reaches a file.
type Source struct {
	Kind Kind
	Text string // as written: "$RANDOM", "date", "/dev/urandom"
	Pos  Pos
	// Command is the index in Script.Commands of the first command the
	// value enters on its way to a file.
	Command int
}

// ParseError is a script that does not parse.
type ParseError struct {
	Pos     Pos
	Message string // what the parser said
}

func (e *ParseError) Error() string {
	return fmt.Sprintf("script does not parse at line %d column %d: %s", e.Pos.Line, e.Pos.Column, e.Message)
}
