package trace

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"strconv"
)

// ParseError is a line of strace output that cannot be read. It renders as
//
//	strace.txt: line 12: unterminated string, expected a closing '"'
type ParseError struct {
	File string
	Line int
	Err  error
}

func (e *ParseError) Error() string {
	return fmt.Sprintf("%s: line %d: %v", e.File, e.Line, e.Err)
}

func (e *ParseError) Unwrap() error { return e.Err }

// Kind says what a Record is.
type Kind uint8

const (
	// Syscall is a completed system call, its unfinished and resumed halves
	// joined: `openat(AT_FDCWD</x>, "a", O_RDONLY) = 3</x/a>`.
	Syscall Kind = iota + 1
	// Signal is a delivered signal: `--- SIGCHLD {si_signo=SIGCHLD, ...} ---`.
	Signal
	// Exit is the end of a process or thread: `+++ exited with 0 +++`,
	// `+++ killed by SIGKILL +++`.
	Exit
)

// Record is one event of an `strace -f` log. Its byte slices alias the
// Scanner's buffer and are valid until the next call to Scan.
type Record struct {
	// Line is the 1-based line on which the record ended (the resumed half
	// of a split system call).
	Line int
	PID  int
	Kind Kind
	// Name is the system call's name, or the signal's for a Signal.
	Name []byte
	// Args is the text between the system call's parentheses.
	Args []byte
	// Result is the text after " = ": "3</etc/passwd>",
	// "-1 ENOENT (No such file or directory)", "?".
	Result []byte
}

// Scanner reads the records of an `strace -f -o FILE` log one at a time, as
// bufio.Scanner reads lines. It keeps nothing of a record once the next is
// read, except the first half of each system call still in progress (one per
// process at most), so its memory does not grow with the log.
type Scanner struct {
	r    *bufio.Reader
	name string
	line int
	// Want, when set, is asked about each system call as soon as its name is
	// known; a system call it does not want is skipped without its arguments
	// being looked at (the cheap path for the bulk of a log).
	Want func(pid int, name []byte) bool

	rec     Record
	buf     []byte         // the current line, when longer than the reader's buffer
	join    []byte         // the two halves of a split system call
	pending map[int][]byte // pid → the first half of an unfinished call
	err     error
}

// NewScanner reads from r; name is the file name used in errors.
func NewScanner(r io.Reader, name string) *Scanner {
	return &Scanner{r: bufio.NewReaderSize(r, 64<<10), name: name, pending: map[int][]byte{}}
}

// Err is the error that stopped Scan, nil at the end of the input.
func (s *Scanner) Err() error { return s.err }

// Record is the record Scan read.
func (s *Scanner) Record() *Record { return &s.rec }

// Scan reads the next record, skipping lines that hold none (an unfinished
// system call, a call Want rejected, a message strace adds about a process).
// It returns false at the end of the input or on an error.
func (s *Scanner) Scan() bool {
	for s.err == nil {
		line, err := s.readLine()
		if err != nil {
			if err != io.EOF {
				s.err = fmt.Errorf("%s: %w", s.name, err)
			}
			return false
		}
		ok, err := s.parse(line)
		if err != nil {
			s.err = &ParseError{File: s.name, Line: s.line, Err: err}
			return false
		}
		if ok {
			return true
		}
	}
	return false
}

// readLine returns the next line without its newline. A line longer than
// the reader's buffer is gathered in s.buf, which grows only as bytes arrive.
func (s *Scanner) readLine() ([]byte, error) {
	s.line++
	chunk, err := s.r.ReadSlice('\n')
	if err == nil || (err == io.EOF && len(chunk) > 0) {
		return bytes.TrimSuffix(chunk, []byte{'\n'}), nil
	}
	if err != bufio.ErrBufferFull {
		return nil, err
	}
	s.buf = append(s.buf[:0], chunk...)
	for {
		chunk, err = s.r.ReadSlice('\n')
		s.buf = append(s.buf, chunk...)
		switch err {
		case nil:
			return s.buf[:len(s.buf)-1], nil
		case io.EOF:
			return s.buf, nil
		case bufio.ErrBufferFull:
			continue
		default:
			return nil, err
		}
	}
}

var (
	unfinishedSuffix = []byte(" <unfinished ...>")
	resumedPrefix    = []byte("<... ")
	resumedSuffix    = []byte(" resumed>")
)

// parse reads one line into s.rec; ok is false when the line completes no
// record.
func (s *Scanner) parse(line []byte) (ok bool, err error) {
	if len(line) == 0 || bytes.HasPrefix(line, []byte("[ ")) {
		return false, nil // "[ Process PID=9 runs in 32 bit mode. ]" and the like
	}
	pid, rest, err := cutPID(line)
	if err != nil {
		return false, err
	}
	s.rec = Record{Line: s.line, PID: pid}
	switch {
	case bytes.HasPrefix(rest, []byte("--- ")):
		// --- SIGCHLD {...} ---
		s.rec.Kind = Signal
		name, _, _ := bytes.Cut(rest[4:], []byte(" "))
		s.rec.Name = name
		return true, nil
	case bytes.HasPrefix(rest, []byte("+++ ")):
		// +++ exited with 0 +++, +++ killed by SIGKILL +++,
		// +++ superseded by execve in pid N +++
		delete(s.pending, pid)
		s.rec.Kind = Exit
		return true, nil
	case bytes.HasPrefix(rest, resumedPrefix):
		end := bytes.Index(rest, resumedSuffix)
		if end < 0 {
			return false, errors.New(`a resumed system call without " resumed>", expected "<... NAME resumed>"`)
		}
		first, ok := s.pending[pid]
		if !ok {
			return false, nil // its first half was not wanted
		}
		delete(s.pending, pid)
		s.join = append(append(s.join[:0], first...), rest[end+len(resumedSuffix):]...)
		if bytes.HasSuffix(s.join, unfinishedSuffix) {
			// "<... wait4 resumed> <unfinished ...>": suspended again.
			s.pending[pid] = append([]byte(nil), s.join[:len(s.join)-len(unfinishedSuffix)]...)
			return false, nil
		}
		return s.syscall(s.join)
	}
	open := bytes.IndexByte(rest, '(')
	if open <= 0 || !isName(rest[:open]) {
		// Something strace says about a process in its own words, such as
		// "???( <detached ...>" or "[ Process PID=1 runs in 32 bit mode. ]".
		return false, nil
	}
	delete(s.pending, pid) // an unfinished call never resumed (the process died)
	if s.Want != nil && !s.Want(pid, rest[:open]) {
		return false, nil
	}
	if bytes.HasSuffix(rest, unfinishedSuffix) {
		s.pending[pid] = append([]byte(nil), rest[:len(rest)-len(unfinishedSuffix)]...)
		return false, nil
	}
	return s.syscall(rest)
}

// syscall reads `NAME(ARGS) = RESULT` into s.rec.
func (s *Scanner) syscall(text []byte) (bool, error) {
	open := bytes.IndexByte(text, '(')
	if open <= 0 {
		return false, errors.New("a system call without arguments, expected NAME(...)")
	}
	closeAt, err := skipArgs(text, open+1)
	if err != nil {
		return false, err
	}
	rest := bytes.TrimLeft(text[closeAt+1:], " ")
	if !bytes.HasPrefix(rest, []byte("=")) {
		return false, fmt.Errorf("no result after %s(...), expected \" = \"", text[:open])
	}
	s.rec.Kind = Syscall
	s.rec.Name = text[:open]
	s.rec.Args = text[open+1 : closeAt]
	s.rec.Result = bytes.TrimLeft(rest[1:], " ")
	return true, nil
}

// cutPID reads the process id that starts every line of `strace -f -o`
// ("1234 openat(...)"), or the "[pid 1234] " strace writes to a terminal.
func cutPID(line []byte) (int, []byte, error) {
	if bytes.HasPrefix(line, []byte("[pid ")) {
		end := bytes.IndexByte(line, ']')
		if end < 0 {
			return 0, nil, errors.New(`"[pid" without "]"`)
		}
		pid, err := atoiPID(bytes.TrimSpace(line[5:end]))
		return pid, bytes.TrimLeft(line[end+1:], " "), err
	}
	i := 0
	for i < len(line) && line[i] >= '0' && line[i] <= '9' {
		i++
	}
	if i == 0 || i == len(line) || line[i] != ' ' {
		return 0, nil, fmt.Errorf("%s does not start with a process id, expected the output of strace -f", quoteLine(line))
	}
	pid, err := atoiPID(line[:i])
	return pid, bytes.TrimLeft(line[i:], " "), err
}

func atoiPID(b []byte) (int, error) {
	pid, err := strconv.Atoi(string(b))
	if err != nil || pid <= 0 {
		return 0, fmt.Errorf("process id %q is not a positive number", b)
	}
	return pid, nil
}

// quoteLine shows the start of a bad line in an error.
func quoteLine(line []byte) string {
	const max = 60
	if len(line) > max {
		return strconv.Quote(string(line[:max])) + "..."
	}
	return strconv.Quote(string(line))
}

func isName(b []byte) bool {
	for _, c := range b {
		if !(c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}

// skipArgs finds the parenthesis that closes the argument list opened just
// before text[i], stepping over strings, fd paths ("3</a/b>"), comments and
// nested brackets, and returns its index.
func skipArgs(text []byte, i int) (int, error) {
	depth := 0
	for i < len(text) {
		switch c := text[i]; c {
		case '"', '<':
			end, err := skipQuoted(text, i)
			if err != nil {
				return 0, err
			}
			i = end
			continue
		case '/':
			if i+1 < len(text) && text[i+1] == '*' {
				end := bytes.Index(text[i+2:], []byte("*/"))
				if end < 0 {
					return 0, errors.New(`unterminated comment, expected "*/"`)
				}
				i += 2 + end + 2
				continue
			}
		case '(', '[', '{':
			depth++
		case ']', '}':
			depth--
		case ')':
			if depth == 0 {
				return i, nil
			}
			depth--
		}
		i++
	}
	return 0, errors.New(`unterminated argument list, expected ")"`)
}

// skipQuoted returns the index just past the string or fd path starting at
// text[i] (a '"' or a '<'), honouring backslash escapes.
func skipQuoted(text []byte, i int) (int, error) {
	closer := byte('"')
	if text[i] == '<' {
		closer = '>'
	}
	for j := i + 1; j < len(text); j++ {
		switch text[j] {
		case '\\':
			j++
		case closer:
			return j + 1, nil
		}
	}
	return 0, fmt.Errorf("unterminated %s, expected a closing '%c'", map[byte]string{'"': "string", '>': "fd path"}[closer], closer)
}

// splitArgs splits an argument list at its top-level commas, trimming the
// spaces around each argument.
func splitArgs(args []byte) ([][]byte, error) {
	var out [][]byte
	start, depth := 0, 0
	for i := 0; i < len(args); {
		switch c := args[i]; c {
		case '"', '<':
			end, err := skipQuoted(args, i)
			if err != nil {
				return nil, err
			}
			i = end
			continue
		case '/':
			if i+1 < len(args) && args[i+1] == '*' {
				end := bytes.Index(args[i+2:], []byte("*/"))
				if end < 0 {
					return nil, errors.New(`unterminated comment, expected "*/"`)
				}
				i += 2 + end + 2
				continue
			}
		case '(', '[', '{':
			depth++
		case ')', ']', '}':
			depth--
		case ',':
			if depth == 0 {
				out = append(out, bytes.TrimSpace(args[start:i]))
				start = i + 1
			}
		}
		i++
	}
	if rest := bytes.TrimSpace(args[start:]); len(rest) > 0 || len(out) > 0 {
		out = append(out, rest)
	}
	return out, nil
}

// unquote decodes the C-style string strace prints ("a\nb\33[0m\"") at the
// start of arg. truncated reports the "..." strace appends to a string
// longer than its -s limit.
func unquote(arg []byte) (s string, truncated bool, err error) {
	if len(arg) == 0 || arg[0] != '"' {
		return "", false, fmt.Errorf("%s is not a string, expected a quoted path", quoteLine(arg))
	}
	end, err := skipQuoted(arg, 0)
	if err != nil {
		return "", false, err
	}
	s, err = unescape(arg[1 : end-1])
	return s, bytes.HasPrefix(arg[end:], []byte("...")), err
}

// unescape decodes strace's escapes: \\ \" \t \n \v \f \r, octal \NNN
// (one to three digits) and, with -x, \xHH.
func unescape(b []byte) (string, error) {
	if bytes.IndexByte(b, '\\') < 0 {
		return string(b), nil
	}
	out := make([]byte, 0, len(b))
	for i := 0; i < len(b); i++ {
		c := b[i]
		if c != '\\' {
			out = append(out, c)
			continue
		}
		i++
		if i == len(b) {
			return "", errors.New("a backslash at the end of a string, expected an escape")
		}
		switch c = b[i]; c {
		case 'n':
			out = append(out, '\n')
		case 't':
			out = append(out, '\t')
		case 'r':
			out = append(out, '\r')
		case 'v':
			out = append(out, '\v')
		case 'f':
			out = append(out, '\f')
		case 'a':
			out = append(out, '\a')
		case 'b':
			out = append(out, '\b')
		case 'x':
			if i+2 >= len(b) {
				return "", errors.New(`a short \x escape, expected two hex digits`)
			}
			v, err := strconv.ParseUint(string(b[i+1:i+3]), 16, 8)
			if err != nil {
				return "", fmt.Errorf(`bad \x escape %q, expected two hex digits`, b[i+1:i+3])
			}
			out = append(out, byte(v))
			i += 2
		case '0', '1', '2', '3', '4', '5', '6', '7':
			v, n := 0, 0
			for n < 3 && i+n < len(b) && b[i+n] >= '0' && b[i+n] <= '7' {
				v = v*8 + int(b[i+n]-'0')
				n++
			}
			if v > 0xff {
				return "", fmt.Errorf(`octal escape \%s is above \377`, b[i:i+n])
			}
			out = append(out, byte(v))
			i += n - 1
		default:
			out = append(out, c) // \\ \" and anything else stands for itself
		}
	}
	return string(out), nil
}

// fdPath reads the path strace -y prints after a file descriptor or
// AT_FDCWD ("3</etc/passwd>", "AT_FDCWD</work>"). ok is false when there is
// none or it is not a file system path ("3<pipe:[1234]>", "AT_FDCWD").
func fdPath(arg []byte) (path string, ok bool, err error) {
	open := bytes.IndexByte(arg, '<')
	if open < 0 {
		return "", false, nil
	}
	end, err := skipQuoted(arg, open)
	if err != nil {
		return "", false, err
	}
	p, err := unescape(arg[open+1 : end-1])
	if err != nil {
		return "", false, err
	}
	if len(p) == 0 || p[0] != '/' {
		return "", false, nil
	}
	if cut, found := cutSuffix(p, " (deleted)"); found {
		p = cut
	}
	return p, true, nil
}

func cutSuffix(s, suffix string) (string, bool) {
	if len(s) >= len(suffix) && s[len(s)-len(suffix):] == suffix {
		return s[:len(s)-len(suffix)], true
	}
	return s, false
}

// result reads a system call's result: the return value, and the path
// strace -y adds when it is a file descriptor ("3</etc/passwd>"). ok is false
// for a failure ("-1 ENOENT (...)") or an unknown result ("?").
func result(res []byte) (ret int64, path string, ok bool, err error) {
	i := 0
	if i < len(res) && res[i] == '-' {
		i++
	}
	start := i
	hex := bytes.HasPrefix(res[i:], []byte("0x"))
	if hex {
		i += 2
		start = i
	}
	for i < len(res) && (res[i] >= '0' && res[i] <= '9' || hex && (res[i]|0x20 >= 'a' && res[i]|0x20 <= 'f')) {
		i++
	}
	if i == start {
		return 0, "", false, nil
	}
	base := 10
	if hex {
		base = 16
	}
	ret, perr := strconv.ParseInt(string(res[start:i]), base, 64)
	if perr != nil {
		return 0, "", false, nil
	}
	if res[0] == '-' {
		return -ret, "", false, nil
	}
	if i < len(res) && res[i] == '<' {
		if path, _, err = fdPath(res[i:]); err != nil {
			return 0, "", false, err
		}
	}
	return ret, path, true, nil
}

// stringArray decodes an argv array: ["a", "b"]. truncated reports that
// strace shortened an element or the array itself.
func stringArray(arg []byte) (out []string, truncated bool, err error) {
	if len(arg) < 2 || arg[0] != '[' || arg[len(arg)-1] != ']' {
		return nil, false, fmt.Errorf("%s is not an array of strings, expected [\"...\", ...]", quoteLine(arg))
	}
	elems, err := splitArgs(arg[1 : len(arg)-1])
	if err != nil {
		return nil, false, err
	}
	for _, e := range elems {
		if bytes.Equal(e, []byte("...")) {
			truncated = true
			continue
		}
		s, t, err := unquote(e)
		if err != nil {
			return nil, false, err
		}
		truncated = truncated || t
		out = append(out, s)
	}
	return out, truncated, nil
}
