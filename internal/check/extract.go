package check

import (
	"iter"
	"strings"
)

// AbsolutePaths yields the "/-rooted runs" of s: the substrings that look
// like absolute paths on the build machine (§3.4.1). It works on bytes, so
// non-ASCII text splits runs, and it allocates nothing
// (BenchmarkAbsolutePaths): every run is a substring of s. The rules are the original's, byte for byte, because
// they decide what users see reported and what their exceptions match.
func AbsolutePaths(s string) iter.Seq[string] {
	return func(yield func(string) bool) { absolutePaths(s, yield) }
}

func absolutePaths(s string, yield func(string) bool) {
	for i := 0; i < len(s); {
		// Runs only start at a slash; skip straight to the next one.
		j := strings.IndexByte(s[i:], '/')
		if j < 0 {
			return
		}
		i += j
		if !startsRun(s, i) {
			i++
			continue
		}
		end := runEnd(s, i+1)
		if !yield(s[i:end]) {
			return
		}
		// §3.4.1: scanning resumes at the byte that stopped the run.
		i = end
	}
}

// startsRun reports whether the slash at s[i] starts a run (§3.4.1): a path
// character other than another slash follows it, and it sits at a boundary.
func startsRun(s string, i int) bool {
	if i+1 >= len(s) || !isPathChar(s[i+1]) || s[i+1] == '/' {
		return false
	}
	if i == 0 {
		return true
	}
	if isPathChar(s[i-1]) {
		// The common case, a slash inside a relative path such as
		// bazel-out/k8-fastbuild: only a glued flag makes it a boundary.
		// (A placeholder or a bracket group ends in '}', ')' or ']', none of
		// them path characters, so nothing below is skipped.)
		return gluedToFlag(s, i)
	}
	// A path relative to ${pwd}, $(exec_root) or ${output_base} is inside
	// the build, however absolute it looks.
	if closesPlaceholder(s, i) {
		return false
	}
	at := bracketStart(s, i)
	return at == 0 || !isPathChar(s[at-1]) || gluedToFlag(s, i)
}

// runEnd returns where a run that continues at s[j] stops: at the first
// byte that is neither a path character nor a bracket that nests, so a
// bracketed directory (`/usr/lib/[abi]/x`) stays in the run while the `]`
// closing a list (`[/usr/lib]`) ends it.
func runEnd(s string, j int) int {
	depth := 0
	for ; j < len(s); j++ {
		switch c := s[j]; {
		case isPathChar(c):
		case c == '[':
			depth++
		case c == ']' && depth > 0:
			depth--
		default:
			return j
		}
	}
	return j
}

// bracketStart moves the boundary question for the slash at s[i] to the
// opening of a balanced [...] group directly before it, because a
// bracketed directory name continues the relative path around it. It
// returns i when there is no such group.
func bracketStart(s string, i int) int {
	if s[i-1] != ']' {
		return i
	}
	depth := 0
	for j := i - 2; j >= 0; j-- {
		switch c := s[j]; {
		case c == ']':
			depth++
		case c == '[':
			if depth == 0 {
				return j
			}
			depth--
		case c == '/' || isASCIISpace(c):
			return i
		}
	}
	return i
}

// gluedFlags are the compiler and linker flags whose value is written
// without a separator (`-I/usr/include`). Others, such as `-B/usr/bin`,
// are not recognised (§3.4.1).
var gluedFlags = [...]string{"-I", "-L", "-isystem", "-iquote", "-idirafter"}

// gluedToFlag reports whether the slash at s[i] directly follows one of the
// gluedFlags that itself starts the string or follows a non-path character.
func gluedToFlag(s string, i int) bool {
	// Most slashes sit inside relative paths: rule them out by the one
	// letter that ends every glued flag before comparing whole flags.
	switch s[i-1] {
	case 'I', 'L', 'm', 'e', 'r':
	default:
		return false
	}
	before := s[:i]
	for _, flag := range gluedFlags {
		if !strings.HasSuffix(before, flag) {
			continue
		}
		at := i - len(flag)
		if at == 0 || !isPathChar(s[at-1]) {
			return true
		}
	}
	return false
}

// closesPlaceholder reports whether the slash at s[i] directly follows
// ${name} or $(name) where name is one of the placeholders Bazel rules
// use for the execution root (§3.4.1).
func closesPlaceholder(s string, i int) bool {
	var opener byte
	switch s[i-1] {
	case '}':
		opener = '{'
	case ')':
		opener = '('
	default:
		return false
	}
	end := i - 1
	start := end
	for start > 0 && isNameChar(s[start-1]) {
		start--
	}
	if start < 2 || s[start-2] != '$' || s[start-1] != opener {
		return false
	}
	switch s[start:end] {
	case "pwd", "exec_root", "output_base":
		return true
	}
	return false
}

// isPathChar reports whether b may appear in a path: ASCII letters and
// digits and / . - _ + ~ @ % (§3.4.1).
func isPathChar(b byte) bool {
	return pathChars[b]
}

var pathChars = func() (t [256]bool) {
	for c := 'a'; c <= 'z'; c++ {
		t[c] = true
		t[c-'a'+'A'] = true
	}
	for c := '0'; c <= '9'; c++ {
		t[c] = true
	}
	for _, c := range "/.-_+~@%" {
		t[c] = true
	}
	return t
}()

func isNameChar(b byte) bool {
	return b == '_' || 'a' <= b && b <= 'z' || 'A' <= b && b <= 'Z' || '0' <= b && b <= '9'
}

// isASCIISpace is Rust's u8::is_ascii_whitespace: no vertical tab.
func isASCIISpace(b byte) bool {
	return b == ' ' || b == '\t' || b == '\n' || b == '\f' || b == '\r'
}
