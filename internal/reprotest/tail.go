package reprotest

import "strings"

// lineTail is an io.Writer keeping the last max lines written (a line
// longer than maxLine keeps its end). Bazel prints its progress on stderr
// for the whole build; the lines that explain a failure are the last.
type lineTail struct {
	max   int
	lines []string
	part  []byte // the unfinished last line
}

const maxLine = 4 << 10

func (t *lineTail) Write(p []byte) (int, error) {
	n := len(p)
	for len(p) > 0 {
		i := strings.IndexByte(string(p), '\n')
		if i < 0 {
			t.part = append(t.part, p...)
			if len(t.part) > 2*maxLine {
				t.part = append(t.part[:0], t.part[len(t.part)-maxLine:]...)
			}
			break
		}
		t.part = append(t.part, p[:i]...)
		line := t.part
		if len(line) > maxLine {
			line = line[len(line)-maxLine:]
		}
		t.lines = append(t.lines, string(line))
		if len(t.lines) > 2*t.max {
			t.lines = append(t.lines[:0], t.lines[len(t.lines)-t.max:]...)
		}
		t.part = t.part[:0]
		p = p[i+1:]
	}
	return n, nil
}

// String returns the kept lines, valid UTF-8, without trailing blank ones.
func (t *lineTail) String() string {
	lines := t.lines
	if len(t.part) > 0 {
		lines = append(lines[:len(lines):len(lines)], string(t.part))
	}
	if len(lines) > t.max {
		lines = lines[len(lines)-t.max:]
	}
	return strings.ToValidUTF8(strings.TrimRight(strings.Join(lines, "\n"), " \t\r\n"), "\uFFFD")
}
