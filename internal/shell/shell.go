// Package shell is an interpreter of the shell scripts actions run (`bash
// -c SCRIPT` of genrules and ctx.actions.run_shell, a tool's script): it
// parses a script, keeps its state (variables, the working directory,
// functions, what it established about files), follows its control flow,
// resolves the words of every command, and asks the spec library what each
// command does: what its arguments, standard input and output are to it,
// and what value of the machine or the moment it writes (package effect).
// It then follows each such value through pipes, variables, substitutions
// and files to see whether it reaches a file the action declares.
//
// Nothing about a particular program is written here: what `date`, `tar`
// or a workspace tool does is data (internal/spec/library). The model says
// what it cannot know: a word with a part that depends on the run keeps
// that part unknown, a file whose name cannot be known may be an output,
// and what could not be followed is listed in Script.Unread. The script's
// own standard output is not a file: Bazel does not keep it.
package shell

import (
	"fmt"
	"strings"

	"github.com/ahab-go/ahab/internal/effect"
	"github.com/ahab-go/ahab/internal/spec"
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
	// Printed are the sources of variation whose value reaches the
	// script's own standard output, which Bazel throws away but a program
	// running the script may keep (subprocess.check_output).
	Printed []Source
	// Truncated says the script was too big or too deeply nested to follow
	// to the end: the model covers a prefix of it.
	Truncated bool
	// Unread says what the analysis could not follow, and why: an eval of
	// a computed string, a tool whose file could not be read, code in a
	// language nobody reads.
	Unread []string
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
	// Context lists the constructs the command sits in, outermost first.
	Context []Context
	// FromPipe says the command reads a pipe from another command: what
	// it reads has no name and no time (gzip records neither).
	FromPipe bool
	// Facts are what the script established before the command (fixed:mtime
	// after touch -d, fixed:mode after chmod): conditions of specs see them.
	Facts []string
	// Effects are the effects of the command's spec that apply to it and
	// that nothing neutralised; Neutralised those a fact neutralised.
	Effects     []spec.Effect
	Neutralised []spec.Neutralised
	// Wrappers are the programs the command was run through (env, nice,
	// xargs -P...), outermost first, with what their specs say of them.
	Wrappers []Wrapper
	// Read is the file of the program's code when it was read and judged
	// (a tool's script); Unreadable says why it could not be, when the
	// program is in the workspace and has no spec.
	Read, Unreadable string
}

// Wrapper is a program a command was run through, and the effects of its
// spec that apply (xargs -P: the order its jobs finish in) or that an
// option neutralised.
type Wrapper struct {
	Name        string // the program word, as the script names it
	Effects     []spec.Effect
	Neutralised []spec.Neutralised
}

// Program is the program word, Argv[0].
func (c *Command) Program() Word {
	if len(c.Argv) == 0 {
		return Word{}
	}
	return c.Argv[0]
}

// SpecArgs is what a reproducibility spec of Ahab 0.2's format sees of the
// command: the assignments the script gives it (NAME=value, as `env` would
// show them), then its arguments, so that a spec can ask for
// `SOURCE_DATE_EPOCH=*` the way it asks for a flag.
func (c *Command) SpecArgs() []string {
	args := make([]string, 0, len(c.Env)+len(c.Argv))
	for _, w := range c.Env {
		args = append(args, w.String())
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

// Source is a value that varies and reaches an output: where it is
// written, as written, and why it varies.
type Source struct {
	Value effect.Value
	Text  string // as written: "$RANDOM", "date", "/dev/urandom", "time.time()"
	// Because says why it varies, in the library's words.
	Because string
	Pos     Pos // where in the script the command or word that brings it in is
	// Site is where it is written, when in a file of its own: the tool's
	// script or source a command of the script runs.
	Site effect.Site
	// Command is the index in Script.Commands of the first command the
	// value enters on its way to a file.
	Command int
}

// ParseError is a script that does not parse.
type ParseError struct {
	Pos     Pos
	Message string // what the parser said
	// TooDeep says the script nests past what is analysed, which the
	// shell itself would run.
	TooDeep bool
}

func (e *ParseError) Error() string {
	if e.TooDeep {
		return fmt.Sprintf("script too deeply nested to analyse at line %d column %d: %s", e.Pos.Line, e.Pos.Column, e.Message)
	}
	return fmt.Sprintf("script does not parse at line %d column %d: %s", e.Pos.Line, e.Pos.Column, e.Message)
}
