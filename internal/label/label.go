// Package label parses and writes Bazel target labels, as aquery and query
// print them and as reports carry them: a repository, written with @ or
// @@ (or not at all for the main repository), a package and a name.
package label

import (
	"errors"
	"strings"
)

// Label is a target label: @@repo//pkg/path:name.
type Label struct {
	// Repo is the repository's name without its @s; "" is the main
	// repository.
	Repo string
	// Pkg is the package, "" at the repository's root.
	Pkg string
	// Name is the target's name within its package.
	Name string
	// Ats is how many @ the label was written with: 0 for //pkg:name
	// (the main repository), 1 for @repo//pkg:name or @//pkg:name, 2 for
	// a canonical name, @@repo//pkg:name or @@//pkg:name. It says how
	// the label was written, so String gives back what Parse read.
	Ats int
}

// Parse reads a label in its full form, "//pkg:name" with an optional
// "@repo" or "@@repo" before it, or with the name left out when it is the
// package's last component ("//a/b" is "//a/b:b"). It refuses what Bazel
// would not print as a target's label: a relative label (":name"), a
// pattern ("//a/..."), a repository name holding a slash, and a package or
// name with an empty, "." or ".." component, so that no label names a
// file outside its package.
func Parse(s string) (Label, error) {
	var l Label
	rest := s
	for l.Ats < 2 && strings.HasPrefix(rest, "@") {
		rest = rest[1:]
		l.Ats++
	}
	if l.Ats > 0 {
		var ok bool
		l.Repo, rest, ok = strings.Cut(rest, "//")
		if !ok {
			return Label{}, errors.New("a repository must be followed by //")
		}
		rest = "//" + rest
		if strings.ContainsAny(l.Repo, "/@:") {
			return Label{}, errors.New("a repository name holds no slash, @ or colon")
		}
	}
	rest, ok := strings.CutPrefix(rest, "//")
	if !ok {
		return Label{}, errors.New("a label starts with //, @ or @@")
	}
	pkg, name, hasName := strings.Cut(rest, ":")
	if !hasName {
		if pkg == "" {
			return Label{}, errors.New("a label at the repository's root needs a name")
		}
		name = pkg[strings.LastIndexByte(pkg, '/')+1:]
	}
	if pkg != "" {
		if err := checkPath(pkg); err != nil {
			return Label{}, errors.New("package: " + err.Error())
		}
	}
	if name == "" {
		return Label{}, errors.New("empty name")
	}
	if err := checkPath(name); err != nil {
		return Label{}, errors.New("name: " + err.Error())
	}
	l.Pkg, l.Name = pkg, name
	return l, nil
}

// checkPath refuses empty, "." and ".." components, and what is a pattern
// rather than a label.
func checkPath(p string) error {
	for c := range strings.SplitSeq(p, "/") {
		switch c {
		case "":
			return errors.New("empty component")
		case ".", "..":
			return errors.New(`"." or ".." component`)
		case "...":
			return errors.New("a pattern, not a label")
		}
	}
	if strings.ContainsRune(p, ':') {
		return errors.New("more than one colon")
	}
	return nil
}

// String writes the label in its full form, with as many @ as it was
// read with: Parse(s).String() is s for every label in full form.
func (l Label) String() string {
	var b strings.Builder
	b.Grow(l.Ats + len(l.Repo) + 3 + len(l.Pkg) + len(l.Name))
	for range l.Ats {
		b.WriteByte('@')
	}
	b.WriteString(l.Repo)
	b.WriteString("//")
	b.WriteString(l.Pkg)
	b.WriteByte(':')
	b.WriteString(l.Name)
	return b.String()
}

// Normal is the label written one way whichever Bazel printed it, so that
// two spellings of one target compare equal: a repository with one @
// ("@@r//a:b" and "@r//a:b" alike), the main repository with none ("//a:b"
// for "@//a:b" and "@@//a:b").
func (l Label) Normal() Label {
	l.Ats = 0
	if l.Repo != "" {
		l.Ats = 1
	}
	return l
}

// IsMain says whether the label is of the main repository.
func (l Label) IsMain() bool { return l.Repo == "" }

// Package is the label of the target's package, "//a/b" or "@r//a/b", as
// it was written: what a person names when they mean every target in it.
func (l Label) Package() string {
	return strings.Repeat("@", l.Ats) + l.Repo + "//" + l.Pkg
}

// BuildFile is the path of the package's BUILD file when nothing says
// which file it is, relative to the root of its repository: "a/b/BUILD",
// or "BUILD" for the root package.
func (l Label) BuildFile() string {
	if l.Pkg == "" {
		return "BUILD"
	}
	return l.Pkg + "/BUILD"
}
