package make

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"

	"github.com/ahab-go/ahab/internal/program"
	"github.com/ahab-go/ahab/internal/spec"
)

// What jobs share decides what their order changes, which the shell's
// reader does not say: whether a recipe line prints on make's standard
// output, and which files it writes, by redirection or through the roles
// of the programs it runs (the library's behaviours). A file is named by
// its word in the line, as make gives it to the shell, relative to make's
// directory; a job's cd is not followed.

// jobOutputs adds what a recipe line prints and writes to its job's.
func (r *reader) jobOutputs(j *job, text string) {
	f, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(text), "")
	if err != nil {
		// The shell's reader says so; what it prints is not known.
		j.prints = true
		return
	}
	o := outputs{r: r, j: j}
	for _, s := range f.Stmts {
		o.stmt(s, true)
	}
}

type outputs struct {
	r     *reader
	j     *job
	depth int
}

// stmt walks a statement whose standard output goes to make's when
// toMake.
func (o *outputs) stmt(s *syntax.Stmt, toMake bool) {
	if s == nil || o.depth > maxDepth {
		return
	}
	o.depth++
	defer func() { o.depth-- }()
	for _, rd := range s.Redirs {
		fd := ""
		if rd.N != nil {
			fd = rd.N.Value
		}
		switch rd.Op {
		case syntax.RdrOut, syntax.AppOut, syntax.RdrClob:
			if fd == "" || fd == "1" {
				toMake = false
			}
			o.write(rd.Word)
		case syntax.RdrAll, syntax.AppAll:
			toMake = false
			o.write(rd.Word)
		case syntax.DplOut:
			if fd == "" || fd == "1" {
				toMake = rd.Word.Lit() == "1"
			}
		}
	}
	switch c := s.Cmd.(type) {
	case *syntax.CallExpr:
		o.call(wordTexts(c.Args), toMake)
	case *syntax.BinaryCmd:
		if c.Op == syntax.Pipe || c.Op == syntax.PipeAll {
			o.stmt(c.X, false)
		} else {
			o.stmt(c.X, toMake)
		}
		o.stmt(c.Y, toMake)
	case *syntax.Block:
		o.stmts(c.Stmts, toMake)
	case *syntax.Subshell:
		o.stmts(c.Stmts, toMake)
	case *syntax.IfClause:
		for x := c; x != nil; x = x.Else {
			o.stmts(x.Cond, toMake)
			o.stmts(x.Then, toMake)
		}
	case *syntax.WhileClause:
		o.stmts(c.Cond, toMake)
		o.stmts(c.Do, toMake)
	case *syntax.ForClause:
		o.stmts(c.Do, toMake)
	case *syntax.CaseClause:
		for _, item := range c.Items {
			o.stmts(item.Stmts, toMake)
		}
	case *syntax.FuncDecl:
		o.stmt(c.Body, toMake)
	case *syntax.TimeClause:
		o.stmt(c.Stmt, toMake)
	case *syntax.DeclClause, *syntax.ArithmCmd, *syntax.TestClause, *syntax.LetClause:
	default:
		if toMake {
			o.j.prints = true
		}
	}
}

func (o *outputs) stmts(list []*syntax.Stmt, toMake bool) {
	for _, s := range list {
		o.stmt(s, toMake)
	}
}

// call is a command: it prints unless its behaviour says it prints
// nothing (cp, rm, mkdir), and writes the files its arguments give the
// role writes; a wrapper's command is its command's.
func (o *outputs) call(argv []string, toMake bool) {
	for len(argv) > 0 && strings.Contains(argv[0], "=") && isName(argv[0][:strings.IndexByte(argv[0], '=')]) {
		argv = argv[1:]
	}
	if len(argv) == 0 {
		return
	}
	lib := o.r.env.Library
	res := lib.Resolve(program.OfFor(lib.Mode())(argv[0]), argv[1:])
	if res.Spec == nil || res.Spec.Behaviour == nil || len(res.Wrappers) > 0 {
		if toMake {
			o.j.prints = true
		}
		return
	}
	inv := res.Spec.Behaviour.Read(argv[1:], nil, nil)
	if i := inv.Command(); i >= 0 {
		o.call(argv[1+inv.Args[i].Raw[0]:], toMake)
		return
	}
	if toMake && inv.Stdout != spec.Nothing {
		o.j.prints = true
	}
	for _, a := range inv.Args {
		if a.Role.Kind == spec.Writes && (a.HasValue || a.Option == "") {
			if a.Value == "-" {
				o.j.prints = o.j.prints || toMake
				continue
			}
			o.name(a.Value)
		}
	}
}

// write notes the file a redirection writes.
func (o *outputs) write(w *syntax.Word) {
	if w != nil {
		o.name(wordText(w))
	}
}

func (o *outputs) name(s string) {
	switch s {
	case "/dev/null", "/dev/stderr", "/dev/tty":
		return
	case "/dev/stdout":
		o.j.prints = true
		return
	}
	o.j.writes[strings.TrimPrefix(s, "./")] = true
}

func wordTexts(ws []*syntax.Word) []string {
	out := make([]string, len(ws))
	for i, w := range ws {
		out[i] = wordText(w)
	}
	return out
}

// wordText is a word without its quotes, its expansions as written: the
// same file has the same text whether quoted or not.
func wordText(w *syntax.Word) string {
	var b strings.Builder
	partsText(&b, w.Parts)
	return b.String()
}

func partsText(b *strings.Builder, parts []syntax.WordPart) {
	for _, p := range parts {
		switch p := p.(type) {
		case *syntax.Lit:
			b.WriteString(p.Value)
		case *syntax.SglQuoted:
			b.WriteString(p.Value)
		case *syntax.DblQuoted:
			partsText(b, p.Parts)
		case *syntax.ParamExp:
			if p.Param != nil {
				b.WriteString("${" + p.Param.Value + "}")
			}
		default:
			var sb strings.Builder
			if err := syntax.NewPrinter().Print(&sb, p); err == nil {
				b.WriteString(sb.String())
			}
		}
	}
}
