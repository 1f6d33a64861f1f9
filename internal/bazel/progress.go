package bazel

import (
	"regexp"
	"strconv"
	"strings"
)

// Phase is what Bazel is doing, as its progress messages say.
type Phase uint8

const (
	// Starting is a client starting its server ("Starting local Bazel
	// server and connecting to it...").
	Starting Phase = iota + 1
	// Fetching is a repository rule running ("Fetching @repo; …").
	Fetching
	// Loading is reading BUILD files ("Loading: 3 packages loaded").
	Loading
	// Analyzing is configuring targets ("Analyzing: 11 targets (…)",
	// "INFO: Analyzed 11 targets (…)").
	Analyzing
	// Building is running actions ("[12 / 345] Compiling a.cc; 2s local").
	Building
	// Message is an ERROR: or WARNING: line, with the lines that continue
	// it: a line to print, never to overwrite with the next progress.
	Message
)

var phaseNames = [...]string{Starting: "starting", Fetching: "fetching", Loading: "loading",
	Analyzing: "analysing", Building: "building", Message: "message"}

func (p Phase) String() string {
	if int(p) < len(phaseNames) && phaseNames[p] != "" {
		return phaseNames[p]
	}
	return "Phase(" + strconv.Itoa(int(p)) + ")"
}

// Progress is one line of Bazel's stderr that says what it is doing.
type Progress struct {
	// Command is the command that printed it, as "bazel build".
	Command string
	Phase   Phase
	// Line is Bazel's own line, trimmed.
	Line string
	// Done and Total count the actions of the execution phase, from
	// "[Done / Total]"; both are 0 before it.
	Done, Total int
}

// actionCount is the "[12 / 345]" that starts an execution progress line;
// Bazel writes large numbers with thousands separators ("[1,234 / 5,678]").
var actionCount = regexp.MustCompile(`^\[([0-9,]+) / ([0-9,]+)\]`)

// parseProgress reads one line of Bazel's stderr (without its newline),
// printed without a terminal, so without curses: one message a line.
// ok is false for a line that says nothing of progress (INFO: Elapsed
// time, a test's output).
func parseProgress(line string) (Progress, bool) {
	line = strings.TrimRight(line, " \t\r")
	p := Progress{Line: line}
	switch {
	case line == "":
		return Progress{}, false
	case strings.HasPrefix(line, "ERROR:"), strings.HasPrefix(line, "WARNING:"):
		p.Phase = Message
	case strings.HasPrefix(line, "Starting local Bazel server"):
		p.Phase = Starting
	case strings.HasPrefix(line, "Fetching "), strings.HasPrefix(line, "INFO: Repository "):
		p.Phase = Fetching
	case strings.HasPrefix(line, "Loading:"):
		p.Phase = Loading
	case strings.HasPrefix(line, "Analyzing:"), strings.HasPrefix(line, "INFO: Analyzed "),
		strings.HasPrefix(line, "INFO: Analysis succeeded for only"):
		p.Phase = Analyzing
	case strings.HasPrefix(line, "INFO: Found "):
		p.Phase = Building
	default:
		m := actionCount.FindStringSubmatch(line)
		if m == nil {
			return Progress{}, false
		}
		p.Phase = Building
		p.Done, _ = strconv.Atoi(strings.ReplaceAll(m[1], ",", ""))
		p.Total, _ = strconv.Atoi(strings.ReplaceAll(m[2], ",", ""))
	}
	return p, true
}

// isContinuation says whether a line continues the message before it:
// Bazel indents the rest of a message that spans lines (" - /ws/nope and
// referenced by '//broken:lib'").
func isContinuation(line string) bool {
	return strings.HasPrefix(line, " ") || strings.HasPrefix(line, "\t")
}
