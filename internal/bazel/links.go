package bazel

import (
	"bufio"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
)

// IsConvenienceLink says whether path is one of the links a build leaves
// in a workspace (bazel-bin, bazel-out, bazel-<workspace>…): a symbolic
// link named bazel-* into an output base's execution root, or any link
// into an execution root beside which an output base's DO_NOT_BUILD_HERE
// stands (another --symlink_prefix). A copy of the workspace must not
// take them: they lead into the user's output base.
func IsConvenienceLink(path string) bool {
	info, err := os.Lstat(path)
	if err != nil || info.Mode()&os.ModeSymlink == 0 {
		return false
	}
	target, err := os.Readlink(path)
	if err != nil {
		return false
	}
	if !filepath.IsAbs(target) {
		target = filepath.Join(filepath.Dir(path), target)
	}
	target = filepath.Clean(target)
	sep := string(filepath.Separator)
	i := strings.Index(target+sep, sep+"execroot"+sep)
	if i < 0 {
		return false
	}
	if strings.HasPrefix(filepath.Base(path), "bazel-") {
		return true
	}
	_, err = os.Stat(filepath.Join(target[:i], "DO_NOT_BUILD_HERE"))
	return err == nil
}

// foreignLinks lists the convenience links at the top of workspace that
// lead to a directory outside outputBase. Bazel expands //... by walking
// the workspace and skips only the links into its own output base
// (bazelbuild/bazel#13951): with another output base it walks into these
// and loads what it finds there as packages of the workspace (`error
// loading package 'bazel-ws/external/…'`).
func foreignLinks(workspace, outputBase string) []string {
	entries, err := os.ReadDir(workspace)
	if err != nil {
		return nil
	}
	ob, err := filepath.EvalSymlinks(outputBase)
	if err != nil {
		ob = filepath.Clean(outputBase)
	}
	var links []string
	for _, e := range entries {
		path := filepath.Join(workspace, e.Name())
		if e.Type()&os.ModeSymlink == 0 || !IsConvenienceLink(path) {
			continue
		}
		target, err := filepath.EvalSymlinks(path)
		if err != nil {
			continue // dangling: nothing to walk into
		}
		if info, err := os.Stat(target); err != nil || !info.IsDir() {
			continue
		}
		if rel, err := filepath.Rel(ob, target); err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			continue // into the output base Bazel runs with: it skips them
		}
		links = append(links, e.Name())
	}
	return links
}

// Scope rewrites the target patterns that cover a workspace's root
// (//..., //...:all, //...:*, …) so that Bazel, run with an output base
// other than the one the workspace's convenience links lead into, does
// not walk into them: the pattern becomes the root package and one
// recursive pattern for each directory at the top that holds a package,
// the links left out. Nothing of the workspace is changed. The zero Scope,
// and one for a workspace without such links, rewrites nothing.
type Scope struct {
	root  bool     // the workspace's root is a package
	dirs  []string // the directories at the top that hold a package
	links []string // what is left out, for messages
}

// ScopeFor is the Scope of commands run in workspace with outputBase.
// It reads the top of the workspace, and walks each directory there only
// until it finds a BUILD file, and only when the workspace has links that
// lead elsewhere.
func ScopeFor(workspace, outputBase string) Scope {
	links := foreignLinks(workspace, outputBase)
	if len(links) == 0 {
		return Scope{}
	}
	s := Scope{links: links, root: hasBuildFile(workspace)}
	ignored := bazelIgnored(workspace)
	entries, _ := os.ReadDir(workspace)
	for _, e := range entries {
		name := e.Name()
		if slices.Contains(links, name) || slices.Contains(ignored, name) || isVCS(name) {
			continue
		}
		path := filepath.Join(workspace, name)
		if info, err := os.Stat(path); err != nil || !info.IsDir() {
			continue
		}
		if holdsPackage(path) {
			s.dirs = append(s.dirs, name)
		}
	}
	return s
}

// isVCS says whether a directory at the top is a version control
// system's: Bazel walks it too, but nobody keeps BUILD files there, and
// walking it costs.
func isVCS(name string) bool {
	return name == ".git" || name == ".hg" || name == ".svn"
}

// Excluded is what the Scope leaves out: the links, by name.
func (s Scope) Excluded() []string { return s.links }

// rootPattern matches the patterns of the whole workspace: //..., with an
// optional main-repository @ or @@ and target suffix.
var rootPattern = regexp.MustCompile(`^(-?)(@@?)?//\.\.\.(:[^\s()]*)?$`)

// Patterns rewrites `bazel build` target patterns (-// excludes).
func (s Scope) Patterns(patterns []string) []string {
	if s.links == nil {
		return patterns
	}
	var out []string
	for _, p := range patterns {
		m := rootPattern.FindStringSubmatch(p)
		if m == nil {
			out = append(out, p)
			continue
		}
		out = append(out, s.expand(m[1], m[2], m[3])...)
	}
	return out
}

// Query rewrites the words of a query expression that are patterns of the
// whole workspace into the union of the patterns that replace them.
func (s Scope) Query(expr string) string {
	if s.links == nil {
		return expr
	}
	var b strings.Builder
	for i := 0; i < len(expr); {
		c := expr[i]
		switch {
		case c == '"' || c == '\'':
			j := strings.IndexByte(expr[i+1:], c)
			if j < 0 {
				b.WriteString(expr[i:])
				return b.String()
			}
			word := expr[i : i+j+2]
			b.WriteString(s.word(word[1:len(word)-1], word))
			i += j + 2
		case isWordByte(c):
			j := i
			for j < len(expr) && isWordByte(expr[j]) {
				j++
			}
			b.WriteString(s.word(expr[i:j], expr[i:j]))
			i = j
		default:
			b.WriteByte(c)
			i++
		}
	}
	return b.String()
}

// isWordByte says whether c may be part of a word of Bazel's query
// language: a label, a pattern, a function's name. Blanks, parentheses,
// quotes and commas separate words; an operator (+, -, ^) stands alone
// between blanks, and a word may hold '+' (Bzlmod's canonical names).
func isWordByte(c byte) bool {
	return strings.IndexByte(" \t\r\n()\"',", c) < 0
}

func (s Scope) word(word, original string) string {
	m := rootPattern.FindStringSubmatch(word)
	if m == nil || m[1] != "" {
		return original
	}
	parts := s.expand("", m[2], m[3])
	if len(parts) == 0 {
		return "set()"
	}
	return "(" + strings.Join(parts, " + ") + ")"
}

// expand is the patterns that replace //...SUFFIX (with its repository
// prefix, and a leading "-" for an excluding build pattern).
func (s Scope) expand(minus, repo, suffix string) []string {
	var out []string
	if s.root {
		target := suffix
		if target == "" {
			target = ":all"
		}
		out = append(out, minus+repo+"//"+target)
	}
	for _, d := range s.dirs {
		out = append(out, minus+repo+"//"+d+"/..."+suffix)
	}
	return out
}

// buildFiles are the names of a package's BUILD file.
var buildFiles = []string{"BUILD.bazel", "BUILD"}

func hasBuildFile(dir string) bool {
	for _, name := range buildFiles {
		if info, err := os.Stat(filepath.Join(dir, name)); err == nil && !info.IsDir() {
			return true
		}
	}
	return false
}

// holdsPackage says whether dir or a directory below it holds a BUILD
// file, breadth first (packages are usually near the top), following
// links to directories as Bazel does but never into a convenience link
// or twice into one directory.
func holdsPackage(dir string) bool {
	seen := map[string]bool{}
	queue := []string{dir}
	for len(queue) > 0 {
		d := queue[0]
		queue = queue[1:]
		real, err := filepath.EvalSymlinks(d)
		if err != nil || seen[real] {
			continue
		}
		seen[real] = true
		if hasBuildFile(d) {
			return true
		}
		entries, err := os.ReadDir(d)
		if err != nil {
			continue
		}
		for _, e := range entries {
			path := filepath.Join(d, e.Name())
			switch {
			case e.IsDir():
				queue = append(queue, path)
			case e.Type()&os.ModeSymlink != 0 && !IsConvenienceLink(path):
				if info, err := os.Stat(path); err == nil && info.IsDir() {
					queue = append(queue, path)
				}
			}
		}
	}
	return false
}

// bazelIgnored reads the workspace's .bazelignore: one directory a line,
// relative to the root, which Bazel does not walk.
func bazelIgnored(workspace string) []string {
	f, err := os.Open(filepath.Join(workspace, ".bazelignore"))
	if err != nil {
		return nil
	}
	defer f.Close()
	var names []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if line := strings.Trim(strings.TrimSpace(sc.Text()), "/"); line != "" && !strings.HasPrefix(line, "#") {
			names = append(names, line)
		}
	}
	return names
}

// IsPattern says whether s is a target pattern as `bazel build` takes
// one (//a/..., -//a:b, :all, @r//x), rather than an expression of the
// query language (deps(//a), "//... - //x/...", set(//a //b)).
func IsPattern(s string) bool {
	return s != "" && !strings.ContainsAny(s, " \t\r\n()\"',")
}

// Query is the query expression of labels given as `bazel build` takes
// them: their union, a pattern after "-" subtracted, an expression of the
// query language in parentheses. A single pattern or expression is kept
// as it is.
func Query(labels []string) string {
	if len(labels) == 1 && !strings.HasPrefix(labels[0], "-") {
		return labels[0]
	}
	var b strings.Builder
	for i, l := range labels {
		minus := false
		if rest, ok := strings.CutPrefix(l, "-"); ok && IsPattern(l) {
			minus, l = true, rest
		}
		if !IsPattern(l) {
			l = "(" + l + ")"
		}
		switch {
		case i == 0 && minus:
			b.WriteString("set() - ")
		case minus:
			b.WriteString(" - ")
		case i > 0:
			b.WriteString(" + ")
		}
		b.WriteString(l)
	}
	return b.String()
}
