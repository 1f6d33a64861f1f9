// Package code is what an action runs beyond its command line: programs in
// some language (a shell script, a Python file, inline awk), read from the
// action's arguments, from its here-documents, or from the files of the
// workspace its tools are. It defines how the readers of each language hand
// a program to one another (Runner) and how they read the workspace (Files),
// and recognises a file's language; the readers themselves live in packages
// of their own (shell, python, perl, awk, csource, make), and package
// interp joins them.
package code

import (
	"fmt"
	"path"
	"slices"
	"strconv"
	"strings"

	"mvdan.cc/sh/v3/syntax"

	"github.com/ahab-go/ahab/internal/effect"
	"github.com/ahab-go/ahab/internal/spec"
)

// Languages, as roles name them (code:python, script:sh).
const (
	Shell      = "sh"
	Python     = "python"
	Perl       = "perl"
	Awk        = "awk"
	C          = "c"
	JavaScript = "javascript"
	Ruby       = "ruby"
	// Make is GNU make's language: a makefile, whose recipes are shell.
	Make = "make"
)

// Arg is one argument a program gets: its text when Known, otherwise the
// text as written where it was made ($(date), a variable Ahab cannot know).
type Arg struct {
	Text  string
	Known bool
}

// Program is a program to read.
type Program struct {
	Language string
	// Text is the program.
	Text string
	// File is the file Text was read from, as a person would open it
	// (tools/gen.py, external/repo/gen.sh); empty for inline code, whose
	// Site says where it is written.
	File string
	// Site is where inline code is written; for a file, line 1 of it.
	Site effect.Site
	// Args are its arguments: sys.argv[1:], @ARGV, $1…
	Args []Arg
	// Env holds the environment it gets, NAME=VALUE, when known.
	Env []string
	// Vars are the variables its interpreter's command line sets before
	// it runs (awk -v NAME=VALUE), as written there.
	Vars []Arg
	// Imports are the modules its interpreter's command line loads before
	// it runs (perl -MPOSIX=strftime, node -r ./setup.js), as written
	// there.
	Imports []Arg
	// Outputs are the files the action declares it writes (exec paths):
	// only a value that reaches one of them, or a file whose name cannot
	// be known, counts. Nil means every file counts.
	Outputs []string
	// Stdin is the program's standard input when it is a known text (a
	// here-document), for a program that reads its code from it.
	Stdin string
	// Module is the module a program is run as, by name (python3 -m
	// tools.gen), when Text is empty: the reader finds it the way its
	// language does.
	Module string
	// Depth counts how deep programs were handed to one another, so that
	// a program that runs itself ends.
	Depth int
}

// Where names where a program is written, for what a reader says of it:
// its file, or the place in a script that gives it inline.
func (p Program) Where() string {
	if p.File != "" {
		return p.File
	}
	return p.Site.String()
}

// TooLong is what a reader says of a program longer than the max bytes it
// reads, in language's name; ok is false for a program it reads.
func (p Program) TooLong(language string, max int) (out Outcome, ok bool) {
	if len(p.Text) <= max {
		return Outcome{}, false
	}
	return Outcome{Unread: []string{fmt.Sprintf("%s: %s program of %d bytes, more than the %d read", p.Where(), language, len(p.Text), max)}}, true
}

// Ordered is what a comparison operator of the languages that share them
// (==, !=, <, >, <=, >=) says of two values whose order is c, as
// cmp.Compare gives it; known is false for another operator.
func Ordered(op string, c int) (holds, known bool) {
	switch op {
	case "==":
		return c == 0, true
	case "!=":
		return c != 0, true
	case "<":
		return c < 0, true
	case ">":
		return c > 0, true
	case "<=":
		return c <= 0, true
	case ">=":
		return c >= 0, true
	}
	return false, false
}

// Outcome is what reading a program found.
type Outcome struct {
	// Stdout are the values that reach its standard output, each with
	// where; whether that is kept is the caller's to know.
	Stdout []effect.Reach
	// Files are the values that reach a file it writes that is an output,
	// or whose name cannot be known.
	Files []effect.Reach
	// Unread says what could not be followed and why ("eval of a computed
	// string", "python: invalid syntax at line 3"); a finding says so
	// rather than guess.
	Unread []string
}

// Note adds what could not be followed, once.
func (o *Outcome) Note(why string) {
	if !slices.Contains(o.Unread, why) {
		o.Unread = append(o.Unread, why)
	}
}

// MaxDepth bounds how deep programs hand programs to one another.
const MaxDepth = 8

// Runner reads a program in any language it knows.
type Runner interface {
	Run(p Program) Outcome
	// Uses lists what of the library's functions of a language a source
	// uses, as facts for the conditions of the program that reads it:
	// source:__DATE__ for a C file that uses __DATE__.
	Uses(language, text string) []string
	// UsesFile is Uses of a source the action reads, named by its exec
	// path, with what it includes from the workspace (a C source's quoted
	// headers).
	UsesFile(language, execPath string) []string
}

// Reader reads programs of one language: package python's, perl's…
type Reader interface {
	// Read follows a program and says what reaches its outputs; it hands
	// on the programs it runs in turn to env.Runner.
	Read(p Program, env Env) Outcome
	// Uses lists, as facts (source:NAME), which of the library's functions
	// of the language a source uses: a C file that uses __DATE__ gives
	// source:__DATE__.
	Uses(text string, lib *spec.Library) []string
}

// Env is what a reader reads with.
type Env struct {
	Library *spec.Library
	// Files reads the workspace files the program imports or reads; nil
	// when the workspace is not known.
	Files  Files
	Runner Runner
}

// Source is a file an action runs, found and read.
type Source struct {
	// Path is how a person finds it: relative to the workspace root for a
	// file of the main repository, external/REPO/… for another's.
	Path     string
	Text     string
	Language string
}

// Files reads the files an action runs and reads.
type Files interface {
	// Program finds the file holding the code of a program the action
	// runs, named by its exec path (a tool, a launcher, a script
	// argument), following a launcher to the script it starts. The error
	// says why not, in words a finding can carry.
	Program(execPath string) (Source, error)
	// Read reads a file the action reads (a source it compiles, a module
	// a script imports), by exec path.
	Read(execPath string) (Source, error)
	// Inputs lists the exec paths of the files the action reads.
	Inputs() []string
}

// Language recognises what language a file is in: by its first line
// (#!/usr/bin/env python3, #!/bin/bash), else by its name's extension; ""
// when neither says.
func Language(name, text string) string {
	if l := shebang(text); l != "" {
		return l
	}
	return byExtension(name)
}

// shebang reads the interpreter of a #! line.
func shebang(text string) string {
	if !strings.HasPrefix(text, "#!") {
		return ""
	}
	line, _, _ := strings.Cut(text[2:], "\n")
	fields := strings.Fields(line)
	if len(fields) == 0 {
		return ""
	}
	prog := path.Base(fields[0])
	if prog == "env" {
		// #!/usr/bin/env -S python3 -u
		for _, f := range fields[1:] {
			if !strings.HasPrefix(f, "-") && !strings.Contains(f, "=") {
				prog = path.Base(f)
				break
			}
		}
	}
	return Interpreter(prog)
}

// Interpreter is the language a program of that name reads.
func Interpreter(name string) string {
	name = strings.TrimRight(name, "0123456789.")
	switch name {
	case "sh", "bash", "dash", "ash", "ksh", "zsh", "mksh":
		return Shell
	case "python", "pypy":
		return Python
	case "perl":
		return Perl
	case "awk", "gawk", "mawk", "nawk":
		return Awk
	case "node", "nodejs", "deno", "bun":
		return JavaScript
	case "ruby":
		return Ruby
	case "make", "gmake", "remake":
		// GNU make and its debugger; BSD make (bmake) reads another
		// language.
		return Make
	}
	return ""
}

func byExtension(name string) string {
	switch path.Ext(name) {
	case ".sh", ".bash":
		return Shell
	case ".py":
		return Python
	case ".pl", ".pm":
		return Perl
	case ".awk":
		return Awk
	case ".js", ".mjs", ".cjs":
		return JavaScript
	case ".rb":
		return Ruby
	case ".c", ".h", ".cc", ".cpp", ".cxx", ".hh", ".hpp", ".hxx", ".C", ".m", ".mm", ".S":
		return C
	}
	return ""
}

// IsOutput says whether a file the program writes, by path relative to the
// execution root, is one of the outputs, or inside one (a tree artifact);
// with no outputs known every file is.
func IsOutput(outputs []string, p string) bool {
	if outputs == nil {
		return true
	}
	p = path.Clean(p)
	for _, o := range outputs {
		if p == o || strings.HasPrefix(p, o+"/") {
			return true
		}
	}
	return false
}

// CommandLine writes an argument vector as a shell command line, for a
// reader that hands a command to the shell's (subprocess.run(["date"])):
// a known argument quoted, an unknown one as a variable no script sets, so
// that the shell sees a word it cannot know.
func CommandLine(args []Arg) string {
	var b strings.Builder
	for i, a := range args {
		if i > 0 {
			b.WriteByte(' ')
		}
		if !a.Known {
			b.WriteString(`"${__ahab_unknown_` + strconv.Itoa(i) + `}"`)
			continue
		}
		q, err := syntax.Quote(a.Text, syntax.LangBash)
		if err != nil {
			// A NUL byte, which no argument can hold.
			b.WriteString(`"${__ahab_unknown_` + strconv.Itoa(i) + `}"`)
			continue
		}
		b.WriteString(q)
	}
	return b.String()
}
