package report

import "strings"

// SplitLabel returns the repository and package of a target label as
// aquery and query print it: "" for the main repository ("//a/b:c",
// "@//a/b:c", "@@//a/b:c"), the canonical name otherwise ("@r//a:c",
// "@@r+//a:c"). ok is false for what is not a label, such as the
// original's "<unknown target>".
func SplitLabel(label string) (repo, pkg string, ok bool) {
	if strings.HasPrefix(label, "@") {
		var found bool
		repo, label, found = strings.Cut(strings.TrimLeft(label, "@"), "//")
		if !found {
			return "", "", false
		}
		label = "//" + label
	}
	rest, ok := strings.CutPrefix(label, "//")
	if !ok {
		return "", "", false
	}
	pkg, _, _ = strings.Cut(rest, ":")
	return repo, pkg, true
}

// packageLabel is the label of a target's package, "//a/b" or "@r//a",
// or the label itself when it is not one.
func packageLabel(label string) string {
	repo, pkg, ok := SplitLabel(label)
	switch {
	case !ok:
		return label
	case repo == "":
		return "//" + pkg
	}
	return "@" + repo + "//" + pkg
}
