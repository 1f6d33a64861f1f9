// Package interp joins the readers of the languages actions run: given a
// program in some language (a script, inline code, a tool's file), it hands
// it to the reader of that language, and gives each reader a way to hand
// on the programs it finds in turn (os.system's shell string, a
// subprocess's argv, a here-document given to python3). A language nobody
// reads is said so, never taken for clean.
package interp

import (
	"strconv"

	"github.com/ahab-go/ahab/internal/code"
	"github.com/ahab-go/ahab/internal/effect"
	"github.com/ahab-go/ahab/internal/shell"
	"github.com/ahab-go/ahab/internal/spec"
)

// Runner dispatches programs to the readers of their languages. It is a
// code.Runner.
type Runner struct {
	lib     *spec.Library
	files   code.Files
	readers map[string]code.Reader
}

// New returns a runner for one action: lib says what programs and
// functions do, files reads the action's workspace files (nil: none).
func New(lib *spec.Library, files code.Files, readers map[string]code.Reader) *Runner {
	return &Runner{lib: lib, files: files, readers: readers}
}

// Run reads p in its language.
func (r *Runner) Run(p code.Program) code.Outcome {
	if p.Depth > code.MaxDepth {
		return code.Outcome{Unread: []string{"programs run programs past " + strconv.Itoa(code.MaxDepth) + " levels"}}
	}
	if p.Language == code.Shell {
		return r.shell(p)
	}
	rd, ok := r.readers[p.Language]
	if !ok {
		where := p.File
		if where == "" {
			where = p.Site.String()
		}
		return code.Outcome{Unread: []string{where + ": " + p.Language + " is a language Ahab does not read"}}
	}
	return rd.Read(p, code.Env{Library: r.lib, Files: r.files, Runner: r})
}

// Uses asks the reader of a language what a source uses.
func (r *Runner) Uses(language, text string) []string {
	rd, ok := r.readers[language]
	if !ok {
		return nil
	}
	return rd.Uses(text, r.lib)
}

// shell reads a shell script on its own: what reaches its files, and what
// it prints, which the program that ran it may keep.
func (r *Runner) shell(p code.Program) code.Outcome {
	inv := shell.Invocation{Shell: "sh", Dialect: shell.Bash, Script: p.Text}
	for _, a := range p.Args {
		inv.Args = append(inv.Args, a.Text)
	}
	s, err := shell.Analyze(inv, shell.Options{Library: r.lib, Outputs: p.Outputs, Env: p.Env, Files: r.files, Runner: r, File: p.File, Depth: p.Depth})
	if err != nil {
		where := p.File
		if where == "" {
			where = p.Site.String()
		}
		return code.Outcome{Unread: []string{where + ": " + err.Error()}}
	}
	var out code.Outcome
	for _, src := range s.Sources {
		out.Files = append(out.Files, reach(src, p))
	}
	for _, src := range s.Printed {
		out.Stdout = append(out.Stdout, reach(src, p))
	}
	out.Unread = s.Unread
	return out
}

// reach is a source of a script as the program that ran it sees it: a
// source of the script's own text is placed at the program's site.
func reach(src shell.Source, p code.Program) effect.Reach {
	site := src.Site
	if site.File == "" && p.File == "" {
		site = p.Site
	}
	return effect.Reach{Value: src.Value, Text: src.Text, Because: src.Because, Site: site}
}
