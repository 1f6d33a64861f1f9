package bazel

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"regexp"
	"strconv"
	"strings"
)

const queryCommand = "bazel query"

// Location is where a target is declared: its BUILD file, relative to the
// root of the target's repository, and the line and column of the rule,
// or of the macro call that made it.
type Location struct {
	Path         string
	Line, Column int
}

// LocationsRequest asks where targets are declared.
type LocationsRequest struct {
	OutputBase string   // the aquery's, so that the query shares its server
	Labels     []string // as aquery printed them
}

// Args is the argv after the executable, with the query read from
// queryFile: one expression for every label, however many there are,
// which would not fit on a command line. --keep_going answers for the
// targets that exist when some no longer do; --relative_locations makes
// each path relative to its repository, as a SARIF log wants it.
func (q LocationsRequest) Args(queryFile string) ([]string, error) {
	root, err := OutputUserRoot(q.OutputBase)
	if err != nil {
		return nil, err
	}
	return []string{"--output_base=" + q.OutputBase, "--output_user_root=" + root, "query",
		"--keep_going", "--relative_locations", "--output=location", "--query_file=" + queryFile}, nil
}

// expression is the query of every label that can be written in Bazel's
// query language: set() of the labels, each quoted.
func (q LocationsRequest) expression() (string, int) {
	var b strings.Builder
	n := 0
	b.WriteString("set(")
	for _, label := range q.Labels {
		word, ok := queryWord(label)
		if !ok {
			continue
		}
		if n > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(word)
		n++
	}
	b.WriteString(")")
	return b.String(), n
}

// queryWord quotes a label for the query language, which has no escapes:
// a label with both kinds of quote, or that is no label (the original's
// "<unknown target>"), cannot be asked about.
func queryWord(label string) (string, bool) {
	if !strings.HasPrefix(label, "//") && !strings.HasPrefix(label, "@") ||
		strings.ContainsFunc(label, func(r rune) bool { return r < ' ' || r == 0x7f }) {
		return "", false
	}
	switch {
	case !strings.Contains(label, `"`):
		return `"` + label + `"`, true
	case !strings.Contains(label, "'"):
		return "'" + label + "'", true
	}
	return "", false
}

// Locations runs one `bazel query --output=location` for every label of
// q and returns where each target it found is declared, by the label as
// given. It runs with the aquery's environment (the sentinels in USER and
// HOSTNAME), so that a repository rule that reads them is not run again
// with other values. Bazel's exit status 3, some targets not found, is
// not an error: the map lacks them.
func (r *Runner) Locations(ctx context.Context, q LocationsRequest) (map[string]Location, error) {
	expr, n := q.expression()
	found := map[string]Location{}
	if n == 0 {
		return found, nil
	}
	file, err := os.CreateTemp("", "ahab-query-*.txt")
	if err != nil {
		return nil, fmt.Errorf("`%s`: writing the query: %w", queryCommand, err)
	}
	defer os.Remove(file.Name())
	_, err = file.WriteString(expr)
	if cerr := file.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return nil, fmt.Errorf("`%s`: writing the query: %w", queryCommand, err)
	}
	args, err := q.Args(file.Name())
	if err != nil {
		return nil, err
	}
	var stdout bytes.Buffer
	err = r.Run(ctx, Invocation{Command: queryCommand, Args: args, Env: withSentinels(r.environ()), Stdout: &stdout})
	if exit, ok := errors.AsType[*ExitError](err); ok && exit.ExitCode == partialSuccess {
		err = nil
	}
	if err != nil {
		return nil, err
	}
	byCanonical := map[string]string{}
	for _, label := range q.Labels {
		byCanonical[canonicalLabel(label)] = label
	}
	for label, loc := range parseLocations(stdout.String()) {
		if asked, ok := byCanonical[canonicalLabel(label)]; ok {
			found[asked] = loc
		}
	}
	return found, nil
}

// partialSuccess is Bazel's exit code when --keep_going got past errors,
// such as a target that does not exist.
const partialSuccess = 3

// locationLine is one line of --output=location: "PATH:LINE:COLUMN: what
// LABEL", what being "cc_binary rule", "source file" and so on.
var locationLine = regexp.MustCompile(`^(.+?):([0-9]+):([0-9]+): .* (\S+)$`)

// parseLocations reads --output=location. Lines it does not understand,
// and absolute paths (a Bazel that ignored --relative_locations), are
// skipped: a target without a location is reported without a line.
func parseLocations(out string) map[string]Location {
	locs := map[string]Location{}
	for line := range strings.Lines(out) {
		m := locationLine.FindStringSubmatch(strings.TrimRight(line, "\r\n"))
		if m == nil || strings.HasPrefix(m[1], "/") {
			continue
		}
		lineNo, err1 := strconv.Atoi(m[2])
		col, err2 := strconv.Atoi(m[3])
		if err1 != nil || err2 != nil {
			continue
		}
		locs[m[4]] = Location{Path: m[1], Line: lineNo, Column: col}
	}
	return locs
}

// canonicalLabel writes a label one way whichever Bazel printed it:
// "@@r//a:b" and "@r//a:b" alike, and the main repository as "//a:b".
func canonicalLabel(label string) string {
	if rest, ok := strings.CutPrefix(label, "@@"); ok {
		label = "@" + rest
	}
	if rest, ok := strings.CutPrefix(label, "@//"); ok {
		label = "//" + rest
	}
	return label
}

// TargetsRequest asks which targets a query expression names, configured
// as a build with the same options would configure them.
type TargetsRequest struct {
	OutputBase      string
	Configs         []string
	CompilationMode string
	Flags           []string
	Expr            string
}

// Targets runs `bazel cquery EXPR` with the build's options, so that what
// it names is what the build would configure, and returns the labels of
// the targets it prints, each once, in its order: a query turned into the
// targets of a `bazel build --target_pattern_file`. It runs with the
// aquery's environment (the sentinels), so that it shares the server of
// the static analysis in the same output base.
func (r *Runner) Targets(ctx context.Context, q TargetsRequest) ([]string, error) {
	root, err := OutputUserRoot(q.OutputBase)
	if err != nil {
		return nil, err
	}
	args := []string{"--output_base=" + q.OutputBase, "--output_user_root=" + root, "cquery"}
	for _, c := range q.Configs {
		args = append(args, "--config="+c)
	}
	if q.CompilationMode != "" {
		args = append(args, "--compilation_mode="+q.CompilationMode)
	}
	args = append(append(args, q.Flags...), "--output=label", q.Expr)
	var stdout bytes.Buffer
	if err := r.Run(ctx, Invocation{Command: cqueryCommand, Args: args, Env: withSentinels(r.environ()), Stdout: &stdout}); err != nil {
		return nil, err
	}
	return parseTargets(stdout.String()), nil
}

const cqueryCommand = "bazel cquery"

// parseTargets reads cquery's --output=label: one configured target a
// line, "//a:b (7c9f3e1)", "//a:b.txt (null)" for a source file.
func parseTargets(out string) []string {
	var labels []string
	seen := map[string]bool{}
	for line := range strings.Lines(out) {
		line = strings.TrimSpace(line)
		if i := strings.LastIndex(line, " ("); i > 0 && strings.HasSuffix(line, ")") {
			line = line[:i]
		}
		if line == "" || seen[line] || !strings.HasPrefix(line, "//") && !strings.HasPrefix(line, "@") {
			continue
		}
		seen[line] = true
		labels = append(labels, line)
	}
	return labels
}
