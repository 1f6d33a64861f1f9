package trace

import (
	"bufio"
	"bytes"
	"io"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
)

// Layout is where the traced build's files live. All paths are absolute
// with symlinks resolved, as the kernel reports them.
type Layout struct {
	// ExecRoot is the execution root: <output base>/execroot/<workspace>.
	ExecRoot string
	// OutputBase holds the execution root and the external repositories.
	OutputBase string
	// Workspace is the main repository's source directory.
	Workspace string
	// BazelRoot is a directory of Bazel's own (the scratch directory with
	// the output user root and install base); what an action reads there
	// outside the execution root is Bazel's, not the host's. "" for none.
	BazelRoot string
}

// buildPath maps an absolute path into the build's own tree to the path an
// action declares it by: an exec path ("pkg/a.c", "external/r/x",
// "bazel-out/…"), or, for the workspace, its source path (the same, for the
// main repository's files).
func (l *Layout) buildPath(p string) (string, bool) {
	if rel, ok := within(p, l.ExecRoot); ok {
		return rel, true
	}
	if rel, ok := within(p, path.Join(l.OutputBase, "external")); ok {
		return path.Join("external", rel), true
	}
	if rel, ok := within(p, l.Workspace); ok {
		return rel, true
	}
	return "", false
}

// above reports whether dir is an ancestor of the execution root, and
// names it relative to the execution root ("..", "../.."): its absolute
// path is a scratch directory of Bazel's, different in every run.
func (l *Layout) above(dir string) (string, bool) {
	rel, ok := within(l.ExecRoot, dir)
	if !ok || rel == "." {
		return "", false
	}
	return strings.Repeat("../", strings.Count(rel, "/")) + "..", true
}

// within reports whether p is dir or below it, and p relative to dir ("."
// for dir itself).
func within(p, dir string) (string, bool) {
	if dir == "" {
		return "", false
	}
	if p == dir {
		return ".", true
	}
	if dir == "/" {
		return p[1:], strings.HasPrefix(p, "/")
	}
	if strings.HasPrefix(p, dir) && len(p) > len(dir) && p[len(dir)] == '/' {
		return p[len(dir)+1:], true
	}
	return "", false
}

func withinAny(p string, dirs ...string) bool {
	for _, d := range dirs {
		if _, ok := within(p, d); ok {
			return true
		}
	}
	return false
}

// filesystem is what classification asks of the machine once the build is
// over and before its output base is removed: where symlinks lead, what is
// a directory and what it holds, and the C++ toolchain's list of built-in
// include directories.
type filesystem interface {
	EvalSymlinks(p string) (string, error)
	IsDir(p string) bool
	ReadDir(p string) ([]string, error)
	ReadFile(p string) ([]byte, error)
	// ReadHead reads at most n bytes from the start of a file.
	ReadHead(p string, n int) ([]byte, error)
}

type osFS struct{}

func (osFS) EvalSymlinks(p string) (string, error) { return filepath.EvalSymlinks(p) }
func (osFS) ReadFile(p string) ([]byte, error)     { return os.ReadFile(p) }

func (osFS) ReadHead(p string, n int) ([]byte, error) {
	f, err := os.Open(p)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	buf := make([]byte, n)
	m, err := io.ReadFull(f, buf)
	if err == io.ErrUnexpectedEOF || err == io.EOF {
		err = nil
	}
	return buf[:m], err
}

func (osFS) IsDir(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.IsDir()
}

func (osFS) ReadDir(p string) ([]string, error) {
	entries, err := os.ReadDir(p)
	names := make([]string, len(entries))
	for i, e := range entries {
		names[i] = e.Name()
	}
	return names, err
}

// Class is the kind of an undeclared access.
type Class uint8

const (
	// WorkspaceFile is a file of the build's own tree (a source file of the
	// main or an external repository, or another action's output) that the
	// action read without declaring it: the worst kind, as it changes with
	// the code and the action cache never knows.
	WorkspaceFile Class = iota + 1
	// HostFile is a file of the machine outside the build (/etc, /usr/include,
	// $HOME, /tmp, …) beyond the toolchain baseline.
	HostFile
	// DirectoryListing is a directory whose entries the action read while
	// it holds entries the action did not declare (walking up, globbing).
	DirectoryListing
)

var classTags = [...]string{WorkspaceFile: "workspace_file", HostFile: "host_file", DirectoryListing: "directory_listing"}

func (c Class) String() string {
	if int(c) < len(classTags) && classTags[c] != "" {
		return classTags[c]
	}
	return "unknown"
}

// The baseline rules: why a host file an action touched is the toolchain's
// own and not reported against it. docs/trace.md explains each.
const (
	RulePseudo    = "pseudo"    // /dev, /proc, /sys: the kernel's, not files of the host
	RuleLoader    = "loader"    // the dynamic loader: ld.so.cache and shared objects in the system library directories
	RuleLocale    = "locale"    // locale and character set data
	RuleProgram   = "program"   // a host program the action ran, and the symlinks leading to it
	RuleShell     = "shell"     // the user lookup every shell makes when it starts (nsswitch.conf, passwd, group)
	RuleCompiler  = "compiler"  // the C compiler's own installation (/usr/lib/gcc, …) and glibc's stdc-predef.h
	RuleToolchain = "toolchain" // an action of Bazel's C++ toolchain: its declared built-in include directories, the system libraries and the programs it looks up
	RuleBazel     = "bazel"     // Bazel's own installation
)

var (
	systemLibDirs = []string{"/lib", "/lib32", "/lib64", "/libx32", "/usr/lib", "/usr/lib32", "/usr/lib64", "/usr/libx32", "/usr/local/lib"}
	programDirs   = []string{"/bin", "/sbin", "/usr/bin", "/usr/sbin", "/usr/local/bin", "/usr/local/sbin"}
	compilerDirs  = []string{"/usr/lib/gcc", "/usr/libexec/gcc", "/usr/lib/gcc-cross", "/usr/lib/bfd-plugins", "/usr/lib/clang"}
	localeDirs    = []string{"/usr/lib/locale", "/usr/share/locale", "/usr/share/i18n"}
	loaderFiles   = []string{"/etc/ld.so.cache", "/etc/ld.so.preload", "/etc/ld.so.conf"}
	shellFiles    = []string{"/etc/nsswitch.conf", "/etc/passwd", "/etc/group"}
)

// toolchainMarker is the file Bazel's autoconfigured C++ toolchain adds to
// the inputs of every compile and link: it lists the host directories the
// toolchain declares as built-in include directories, so that a change to
// the list reruns the actions.
const toolchainMarker = "builtin_include_directory_paths"

// classifier decides, for each traced action, which of its accesses were
// undeclared and which were the toolchain's baseline.
type classifier struct {
	layout Layout
	fs     filesystem
	// includeDirs caches the directories each toolchain marker lists.
	includeDirs map[string][]string
	// resolved caches EvalSymlinks of host paths.
	resolved map[string]string
	baseline map[string]*BaselineEntry
}

func newClassifier(l Layout, fsys filesystem) *classifier {
	return &classifier{layout: l, fs: fsys, includeDirs: map[string][]string{}, resolved: map[string]string{}, baseline: map[string]*BaselineEntry{}}
}

func (c *classifier) evalSymlinks(p string) string {
	if r, ok := c.resolved[p]; ok {
		return r
	}
	r, err := c.fs.EvalSymlinks(p)
	if err != nil {
		r = ""
	}
	c.resolved[p] = r
	return r
}

// toolchain returns the built-in include directories the action declares
// through the C++ toolchain's marker, and whether it declares one at all.
func (c *classifier) toolchain(a *Action) ([]string, bool) {
	for _, in := range a.Inputs {
		if path.Base(in) != toolchainMarker {
			continue
		}
		dirs, ok := c.includeDirs[in]
		if !ok {
			data, _ := c.fs.ReadFile(path.Join(c.layout.ExecRoot, in))
			dirs = parseIncludeDirs(data)
			c.includeDirs[in] = dirs
		}
		return dirs, true
	}
	return nil, false
}

// parseIncludeDirs reads the absolute directories a toolchain marker
// lists, one a line after its prose header.
func parseIncludeDirs(data []byte) []string {
	var dirs []string
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if strings.HasPrefix(line, "/") {
			dirs = append(dirs, path.Clean(line))
		}
	}
	return dirs
}

// actionView is one action being classified.
type actionView struct {
	a            *actionTrace
	declared     map[string]bool // inputs and outputs
	declaredDirs map[string]bool // their ancestors, built on first need
	written      map[string]bool // absolute paths the action wrote
	isToolchain  bool
	// toolchainDirs are, for an action of the C++ toolchain, its built-in
	// include directories, the system library and program directories.
	toolchainDirs []string
	programs      map[string]bool // resolved paths of the host programs it ran
}

// classify sorts one action's accesses into undeclared ones, the baseline
// and the rest (declared, its own files, directories looked at).
func (c *classifier) classify(t *actionTrace) []Undeclared {
	v := &actionView{a: t, declared: map[string]bool{}, written: map[string]bool{}, programs: map[string]bool{}}
	for _, p := range t.action.Inputs {
		v.declared[path.Clean(p)] = true
	}
	for _, p := range t.action.Outputs {
		v.declared[path.Clean(p)] = true
	}
	for _, p := range t.action.OutputFiles {
		v.declared[path.Clean(p)] = true
	}
	if includeDirs, ok := c.toolchain(t.action); ok {
		v.isToolchain = true
		v.toolchainDirs = slices.Concat(includeDirs, systemLibDirs, programDirs)
	}
	paths := make([]string, 0, len(t.accesses))
	for p, acc := range t.accesses {
		paths = append(paths, p)
		if acc.ops&opWrite != 0 {
			v.written[p] = true
		}
		if acc.ops&opExec != 0 {
			v.programs[p] = true
			if r := c.evalSymlinks(p); r != "" {
				v.programs[r] = true
			}
		}
	}
	slices.Sort(paths)
	seen := map[Undeclared]bool{}
	var out []Undeclared
	for _, p := range paths {
		u, ok := c.access(v, p, t.accesses[p])
		if ok && !seen[u] {
			seen[u] = true
			out = append(out, u)
		}
	}
	slices.SortFunc(out, compareUndeclared)
	return out
}

func compareUndeclared(a, b Undeclared) int {
	if a.Class != b.Class {
		return int(a.Class) - int(b.Class)
	}
	return strings.Compare(a.Path, b.Path)
}

// access classifies one path an action touched; ok is false when it is not
// an undeclared access.
func (c *classifier) access(v *actionView, p string, acc *access) (Undeclared, bool) {
	if acc.ops&opWrite != 0 {
		return Undeclared{}, false // the action's own file: an output or a temporary
	}
	listed := acc.ops&opList != 0
	isDir := func() bool {
		switch {
		case acc.ops&opDir != 0:
			return true
		case acc.ops&opNotDir != 0:
			return false
		}
		return c.fs.IsDir(p)
	}
	if rel, ok := c.layout.buildPath(p); ok {
		return c.buildAccess(v, p, rel, acc, listed, isDir)
	}
	if withinAny(p, c.layout.BazelRoot) {
		// A directory above the execution root is Bazel's, but what it
		// holds is none of the action's inputs: listing it is walking up
		// (`ls ../../..`), not Bazel reading its own installation.
		if up, ok := c.layout.above(p); ok && listed {
			return Undeclared{Path: up, Class: DirectoryListing}, true
		}
		if listed || !isDir() {
			c.addBaseline(p, RuleBazel)
		}
		return Undeclared{}, false
	}
	// A host path; it may still lead into the build's tree.
	resolved := acc.resolved
	if resolved == "" {
		resolved = c.evalSymlinks(p)
	}
	if rel, ok := c.layout.buildPath(resolved); ok && resolved != p {
		return c.buildAccess(v, resolved, rel, acc, listed, isDir)
	}
	if !listed && isDir() {
		return Undeclared{}, false // looking at a directory reveals only that it exists
	}
	if rule := c.baselineRule(v, p, resolved, acc, listed); rule != "" {
		c.addBaseline(p, rule)
		return Undeclared{}, false
	}
	if listed {
		return Undeclared{Path: p, Class: DirectoryListing}, true
	}
	return Undeclared{Path: p, Class: HostFile}, true
}

// buildAccess classifies an access to the build's own tree: abs is the
// absolute path, rel its exec or source path.
func (c *classifier) buildAccess(v *actionView, abs, rel string, acc *access, listed bool, isDir func() bool) (Undeclared, bool) {
	if v.declared[rel] {
		return Undeclared{}, false
	}
	if listed {
		if c.listingDeclared(v, abs, rel) {
			return Undeclared{}, false
		}
		return Undeclared{Path: c.sourcePath(abs, rel, acc), Class: DirectoryListing}, true
	}
	if isDir() {
		return Undeclared{}, false
	}
	src := c.sourcePath(abs, rel, acc)
	if v.declared[src] {
		return Undeclared{}, false // reached by another route, such as an absolute path
	}
	if c.runfilesManifest(v, rel) {
		return Undeclared{}, false
	}
	return Undeclared{Path: src, Class: WorkspaceFile}, true
}

// runfilesManifest reports whether rel is the manifest of a runfiles tree
// the action declares files of (X.runfiles/MANIFEST or
// X.runfiles_manifest): the log lists a tree's files, not its manifest,
// which tools and their stubs read to find them.
func (c *classifier) runfilesManifest(v *actionView, rel string) bool {
	tree, ok := strings.CutSuffix(rel, "/MANIFEST")
	if !ok {
		if tree, ok = strings.CutSuffix(rel, ".runfiles_manifest"); !ok {
			return false
		}
		tree += ".runfiles"
	}
	if !strings.HasSuffix(tree, ".runfiles") {
		return false
	}
	v.buildDeclaredDirs()
	return v.declaredDirs[tree]
}

// sourcePath follows the symlinks of the execution root back to the
// workspace: the path of the file the user would edit.
func (c *classifier) sourcePath(abs, rel string, acc *access) string {
	resolved := acc.resolved
	if resolved == "" {
		resolved = c.evalSymlinks(abs)
	}
	if src, ok := within(resolved, c.layout.Workspace); ok {
		return src
	}
	return rel
}

// listingDeclared reports whether every entry of a directory in the build's
// tree is declared (or leads to something declared, or was written by the
// action): listing it then reveals nothing the action did not declare. A
// directory that is gone by now (the action's own temporary) counts as
// declared.
func (c *classifier) listingDeclared(v *actionView, abs, rel string) bool {
	names, err := c.fs.ReadDir(abs)
	if err != nil {
		return true
	}
	v.buildDeclaredDirs()
	for _, name := range names {
		child := path.Join(rel, name)
		if !v.declared[child] && !v.declaredDirs[child] && !v.written[path.Join(abs, name)] {
			return false
		}
	}
	return true
}

// buildDeclaredDirs fills declaredDirs with the ancestors of the declared
// paths, on first need.
func (v *actionView) buildDeclaredDirs() {
	if v.declaredDirs != nil {
		return
	}
	v.declaredDirs = map[string]bool{}
	for p := range v.declared {
		for d := path.Dir(p); d != "." && d != "/" && !v.declaredDirs[d]; d = path.Dir(d) {
			v.declaredDirs[d] = true
		}
	}
}

// baselineRule names the rule that makes a host access part of the
// toolchain baseline, or returns "".
func (c *classifier) baselineRule(v *actionView, p, resolved string, acc *access, listed bool) string {
	candidates := []string{p}
	if resolved != "" && resolved != p {
		candidates = append(candidates, resolved)
	}
	for _, q := range candidates {
		base := path.Base(q)
		switch {
		case withinAny(q, "/dev", "/proc", "/sys"):
			return RulePseudo
		case slices.Contains(loaderFiles, q), withinAny(q, "/etc/ld.so.conf.d"),
			!listed && isSharedObject(base) && withinAny(q, systemLibDirs...):
			return RuleLoader
		case q == "/etc/locale.alias", withinAny(q, localeDirs...),
			withinAny(q, systemLibDirs...) && strings.Contains(q, "/gconv/"):
			return RuleLocale
		case v.programs[q]:
			return RuleProgram
		case slices.Contains(shellFiles, q) && c.allShells(acc.programs):
			return RuleShell
		case q == "/usr/include/stdc-predef.h", withinAny(q, compilerDirs...), isLLVMDir(q):
			return RuleCompiler
		case v.isToolchain && withinAny(q, v.toolchainDirs...):
			return RuleToolchain
		}
	}
	if r := c.evalSymlinks(p); r != "" && v.programs[r] {
		return RuleProgram // a symlink on the way to a program it ran (/usr/bin/gcc-12)
	}
	return ""
}

// allShells reports whether every program is a shell: its name says so,
// or it is a script whose #! line names one (the kernel runs the
// interpreter of a script without opening it where strace can see).
func (c *classifier) allShells(programs []string) bool {
	for _, p := range programs {
		if !isShell(path.Base(p)) && !isShell(path.Base(c.interpreter(p))) {
			return false
		}
	}
	return len(programs) > 0
}

func isShell(name string) bool {
	switch name {
	case "bash", "sh", "dash", "zsh", "ksh", "mksh":
		return true
	}
	return false
}

// interpreter is the program a script's #! line names, "" for none.
func (c *classifier) interpreter(p string) string {
	if !strings.HasPrefix(p, "/") {
		p = path.Join(c.layout.ExecRoot, p)
	}
	head, err := c.fs.ReadHead(p, 256)
	if err != nil || !bytes.HasPrefix(head, []byte("#!")) {
		return ""
	}
	line, _, _ := bytes.Cut(head[2:], []byte("\n"))
	fields := strings.Fields(string(line))
	if len(fields) == 0 {
		return ""
	}
	if path.Base(fields[0]) == "env" && len(fields) > 1 {
		return fields[1] // #!/usr/bin/env bash
	}
	return fields[0]
}

// isSharedObject matches libc.so.6, libz.so, ld-linux-x86-64.so.2.
func isSharedObject(name string) bool {
	return strings.HasSuffix(name, ".so") || strings.Contains(name, ".so.")
}

// isLLVMDir matches Debian's versioned LLVM installations (/usr/lib/llvm-16/…).
func isLLVMDir(p string) bool {
	rest, ok := strings.CutPrefix(p, "/usr/lib/llvm-")
	return ok && rest != ""
}

// ruleOrder ranks the rules; a path that is baseline for several actions by
// different rules (a program one action ran and another only looked up)
// gets the first, so that the report does not depend on the actions' order.
var ruleOrder = []string{RulePseudo, RuleLoader, RuleLocale, RuleProgram, RuleShell, RuleCompiler, RuleToolchain, RuleBazel}

func (c *classifier) addBaseline(p, rule string) {
	e := c.baseline[p]
	if e == nil {
		e = &BaselineEntry{Path: p, Rule: rule}
		c.baseline[p] = e
	}
	if slices.Index(ruleOrder, rule) < slices.Index(ruleOrder, e.Rule) {
		e.Rule = rule
	}
	e.Actions++
}
