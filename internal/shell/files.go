package shell

import (
	"path"
	"slices"
	"strconv"
	"strings"

	"mvdan.cc/sh/v3/syntax"

	"github.com/ahab-go/ahab/internal/code"
)

// Files the script writes and reads are nodes of the flow graph, by name:
// what a command writes into a file reaches every command that reads it
// later, and a file reaches the sink when the action declares it as an
// output (or is inside one), or when its name cannot be known, since it
// may be one. So `date > $@` is a finding, `date > /tmp/log` is not, and
// `date > stamp; tar -cf $@ stamp` is again.

// fileKey names a file by its path relative to the execution root, as
// the script's working directory and the word say; known says the word
// is known. A word with unknown parts is named by its text, so that
// "$dir/a" written and "$dir" read meet.
func fileKey(st *state, v value) (key string, known bool) {
	s, ok := v.known()
	if !ok {
		// $PWD/x before any cd is x: the execution root is the directory.
		if st.cwd == nil && len(v.parts) > 1 && !v.parts[0].Known && isWorkingDirectory(v.parts[0].Text) {
			rest := value{parts: v.parts[1:], taint: v.taint}
			if r, ok := rest.known(); ok && strings.HasPrefix(r, "/") {
				return path.Clean(r[1:]), true
			}
		}
		return path.Clean(v.String()), false
	}
	if path.IsAbs(s) {
		return path.Clean(s), true
	}
	if st.cwd != nil {
		base, bk := st.cwd.known()
		if !bk {
			if rel, ok := belowRoot(*st.cwd); ok {
				return path.Clean(path.Join(rel, s)), true
			}
			return path.Clean(st.cwd.String() + "/" + s), false
		}
		return path.Clean(path.Join(base, s)), true
	}
	return path.Clean(s), true
}

func isWorkingDirectory(text string) bool {
	return text == "$PWD" || text == "${PWD}" || text == "$(pwd)" || text == "`pwd`"
}

// fileNode returns the node of the file a word names, making it on first
// use: wired to the sink when the file is an output, or may be one.
func (a *analyzer) fileNode(st *state, v value) int {
	key, known := fileKey(st, v)
	if n, ok := a.files[key]; ok {
		return n
	}
	n := a.g.add(fileNode, -1)
	a.files[key] = n
	if a.mayBeOutput(key, known, v) {
		a.g.edge(n, sinkID)
	}
	return n
}

// dirNode returns the node of what a program writes anywhere under a
// directory (make -C DIR), keyed by the directory's name and a slash: every
// file read under it reads it.
func (a *analyzer) dirNode(st *state, v value) int {
	key, known := fileKey(st, v)
	key = strings.TrimSuffix(key, "/") + "/"
	if n, ok := a.files[key]; ok {
		return n
	}
	n := a.g.add(fileNode, -1)
	a.files[key] = n
	outputUnder := a.opts.Outputs == nil || slices.ContainsFunc(a.opts.Outputs, func(o string) bool { return strings.HasPrefix(o, key) || key == "./" })
	if known && outputUnder || !known && a.mayBeOutput(key, known, v) {
		a.g.edge(n, sinkID)
	}
	return n
}

// mayBeOutput says whether a file may be one the action declares: it is
// one (or inside one), or its name holds something the script cannot
// know, unless all that is a temporary directory's name.
func (a *analyzer) mayBeOutput(key string, known bool, v value) bool {
	if known {
		return code.IsOutput(a.opts.Outputs, key)
	}
	if a.opts.Outputs == nil {
		return true
	}
	for _, t := range v.taint {
		if !t.temp {
			return true
		}
	}
	return len(v.taint) == 0
}

// readFile wires the file a word names into command n: what was written
// into it, and every file written under it when it is a directory.
func (a *analyzer) readFile(st *state, v value, n int) {
	key, _ := fileKey(st, v)
	if f, ok := a.files[key]; ok {
		a.g.edge(f, n)
	}
	prefix := strings.TrimSuffix(key, "/") + "/"
	if key == "." {
		prefix = ""
	}
	for name, f := range a.files {
		if strings.HasPrefix(name, prefix) && name != key {
			a.g.edge(f, n)
		}
		// What a program wrote anywhere under a directory above it.
		if strings.HasSuffix(name, "/") && strings.HasPrefix(key+"/", name) {
			a.g.edge(f, n)
		}
	}
}

// globbed wires the files the script wrote that a glob word lists ("$d"/part.*)
// into node n.
func (a *analyzer) globbed(st *state, v value, n int) {
	if !slices.ContainsFunc(v.parts, func(p Part) bool { return p.Known && strings.ContainsAny(p.Text, "*?[") }) {
		return
	}
	key, _ := fileKey(st, v)
	for name, f := range a.files {
		if m, err := path.Match(key, name); err == nil && m {
			a.g.edge(f, n)
		}
	}
}

// wroteUnder says the script wrote a file under the directory key.
func (a *analyzer) wroteUnder(key string) bool {
	prefix := strings.TrimSuffix(key, "/") + "/"
	for name := range a.files {
		if key == "." || strings.HasPrefix(name, prefix) {
			return true
		}
	}
	return false
}

// redirect applies a statement's redirections to its frame.
func (a *analyzer) redirect(fr frame, st *state, redirs []*syntax.Redirect) frame {
	for _, r := range redirs {
		fd := -1
		if r.N != nil {
			if n, err := strconv.Atoi(r.N.Value); err == nil {
				fd = n
			}
		}
		switch r.Op {
		case syntax.RdrOut, syntax.AppOut, syntax.RdrClob, syntax.RdrAll, syntax.AppAll:
			fr = a.redirectOut(fr, st, r, fd)
		case syntax.DplOut:
			fr = a.duplicate(fr, st, r, fd)
		case syntax.RdrIn:
			fr = a.redirectIn(fr, st, r)
		case syntax.Hdoc, syntax.DashHdoc, syntax.WordHdoc:
			fr = a.hereDocument(fr, st, r)
		}
	}
	return fr
}

func (a *analyzer) redirectOut(fr frame, st *state, r *syntax.Redirect, fd int) frame {
	target := a.target(fr, st, r.Word)
	switch {
	case r.Op == syntax.RdrAll || r.Op == syntax.AppAll:
		fr.out, fr.err = target, target
	case fd == 2:
		fr.err = target
	case fd == -1 || fd == 1:
		fr.out = target
	}
	return fr
}

// duplicate is `>&N`: another descriptor's destination, or `>&file`.
func (a *analyzer) duplicate(fr frame, st *state, r *syntax.Redirect, fd int) frame {
	var to dest
	switch word := r.Word.Lit(); word {
	case "1":
		to = fr.out
	case "2":
		to = fr.err
	case "-":
		to = null
	default:
		if _, err := strconv.Atoi(word); err == nil {
			to = dest{node: uncapturedID}
			break
		}
		// `>&file` is `&>file`.
		to = a.target(fr, st, r.Word)
		fr.out, fr.err = to, to
		return fr
	}
	if fd == 2 {
		fr.err = to
	} else if fd == -1 || fd == 1 {
		fr.out = to
	}
	return fr
}

// redirectIn is `< file`: a file of the machine whose content varies, or a
// file the script wrote, or a file of the build.
func (a *analyzer) redirectIn(fr frame, st *state, r *syntax.Redirect) frame {
	fr.piped, fr.stdinText = false, nil
	v := a.value(fr, st, r.Word, false)
	name, known := v.known()
	if known {
		if src, ok := a.machineFile(fr, name, r.Word.Pos()); ok {
			fr.stdin, fr.stdinFile = []taint{{node: src, mode: asContent}}, name
			return fr
		}
	}
	p := a.g.add(pipeNode, -1)
	a.readFile(st, v, p)
	// `< <(cmd)`: what the process substitution's commands print.
	for _, t := range v.taint {
		if t.mode == asContent {
			a.g.edge(t.node, p)
		}
	}
	fr.stdin = []taint{{node: p, mode: asContent}}
	fr.stdinFile = name
	if !known {
		fr.stdinFile = v.String()
	}
	return fr
}

func (a *analyzer) hereDocument(fr frame, st *state, r *syntax.Redirect) frame {
	word := r.Word
	if r.Op != syntax.WordHdoc {
		word = r.Hdoc
	}
	fr.stdinFile = ""
	if word == nil {
		fr.stdin, fr.stdinText = nil, nil
		return fr
	}
	fr.piped = false
	hfr := fr
	hfr.ctx = appendCtx(fr.ctx, Context{Kind: InHereDocument})
	// A quoted delimiter (<<'EOF') keeps the body as written.
	var v value
	if r.Op != syntax.WordHdoc && quotedDelimiter(r.Word) {
		v = value{parts: []Part{{Text: literalText(word), Known: true}}}
	} else {
		v = a.value(hfr, st, word, true)
	}
	if r.Op == syntax.WordHdoc {
		v.parts = append(v.parts, Part{Text: "\n", Known: true})
	}
	var in []taint
	for _, t := range v.taint {
		if t.mode != asTarget {
			in = append(in, taint{node: t.node, mode: asContent})
		}
	}
	fr.stdin, fr.stdinText, fr.stdinPos = in, &v, word.Pos()
	return fr
}

// literalText is the body of a here-document with a quoted delimiter,
// which the parser keeps as literals: the body alone, without the
// delimiter line its positions run up to.
func literalText(w *syntax.Word) string {
	var b strings.Builder
	for _, p := range w.Parts {
		if l, ok := p.(*syntax.Lit); ok {
			b.WriteString(l.Value)
		}
	}
	return b.String()
}

func quotedDelimiter(w *syntax.Word) bool {
	for _, p := range w.Parts {
		switch p := p.(type) {
		case *syntax.SglQuoted, *syntax.DblQuoted:
			return true
		case *syntax.Lit:
			if strings.Contains(p.Value, `\`) {
				return true
			}
		}
	}
	return false
}

// machineFile makes a source of a file of the machine whose content varies
// (/dev/urandom, /etc/hostname), as the library's files say.
func (a *analyzer) machineFile(fr frame, name string, p syntax.Pos) (int, bool) {
	if !path.IsAbs(name) {
		return 0, false
	}
	entry, ok := a.lib.File(path.Clean(name))
	if !ok || len(entry.Effects) == 0 {
		return 0, false
	}
	e := entry.Effects[0]
	return a.newSource(fr, e.Value, name, e.Because, p), true
}

// target resolves a redirection's file.
func (a *analyzer) target(fr frame, st *state, w *syntax.Word) dest {
	v := a.value(fr, st, w, false)
	name, _ := v.known()
	switch name {
	case "/dev/null":
		return null
	case "/dev/stdout", "/dev/fd/1":
		return fr.out
	case "/dev/stderr", "/dev/fd/2":
		return fr.err
	}
	// Process substitution as a target: `> >(cmd)`.
	for _, t := range v.taint {
		if t.mode == asTarget {
			return dest{node: t.node}
		}
	}
	return dest{node: a.fileNode(st, v)}
}
