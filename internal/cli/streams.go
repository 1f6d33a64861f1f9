package cli

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/ahab-go/ahab/internal/atomicfile"
	"github.com/ahab-go/ahab/internal/exception"
	"github.com/ahab-go/ahab/internal/mode"
	"github.com/ahab-go/ahab/internal/quote"
	"github.com/ahab-go/ahab/internal/report"
)

// streams is where a run's output goes. The text report goes to standard
// output, so that `ahab … > report.txt` holds it, unless a machine-readable
// report was asked for there (--write-json - or --sarif -), in which case
// the text goes to standard error with the diagnostics.
type streams struct {
	sys    System
	report io.Writer // the text report
	// reportIsTerminal decides colour and the sign-off of the report.
	reportIsTerminal bool
}

func newStreams(sys System, o *options) streams {
	if o.writeJSON == "-" || o.sarif == "-" {
		return streams{sys: sys, report: sys.Stderr, reportIsTerminal: sys.StderrIsTerminal}
	}
	return streams{sys: sys, report: sys.Stdout, reportIsTerminal: sys.StdoutIsTerminal}
}

// color decides colour for one stream (no-color.org): only on a terminal,
// never when NO_COLOR is set to anything but the empty string, and never
// on a terminal that says it is dumb.
func (s streams) color(w io.Writer) bool {
	terminal := s.reportIsTerminal
	if w != s.report {
		terminal = w == s.sys.Stderr && s.sys.StderrIsTerminal || w == s.sys.Stdout && s.sys.StdoutIsTerminal
	}
	return s.sys.color(terminal)
}

// present prints the text report: the findings (listed, with hints when
// asked, or summed up) with how much was analysed, or the clean bill, and
// on standard error the ready-made exception set that would excuse most of
// them, if one would and using does not hold it. It fails the run when
// there are findings, unless --no-fail.
func (s streams) present(o *options, findings report.Findings, summary exception.Summary, sc scope, using []exception.Exception) error {
	if set := suggestSet(findings, using, o.mode); set != "" {
		note(s.sys, "%s", set)
	}
	opts := report.TextOptions{
		Color:   s.color(s.report),
		Note:    summary.Note(),
		SignOff: !o.shutUp && s.reportIsTerminal,
		Scope:   sc.String(),
		Hints:   o.hints,
		Mode:    o.mode,
	}
	if findings.Len() == 0 {
		io.WriteString(s.report, report.AllPassed(opts))
		return nil
	}
	io.WriteString(s.report, "\n")
	if err := writeFindings(s.report, o, findings, opts); err != nil {
		return err
	}
	io.WriteString(s.report, "\n")
	if o.noFail {
		return nil
	}
	return exitError{ExitFindings}
}

// printError prints the error that ends a run, on one line unless the
// error spans lines itself (Bazel's output does), with nothing in it that
// could drive the terminal or forge another line: every message escapes
// the names it holds (quote.IfNeeded), and quote.Lines catches what a
// message took from elsewhere, such as Bazel's stderr.
func printError(sys System, err error) {
	fmt.Fprintf(sys.Stderr, "Error: %s\n", quote.Lines(err.Error()))
}

// warn prints a warning, made safe as printError makes an error. Warnings
// go to standard error whether or not it is a terminal: CI reads them.
func warn(sys System, format string, args ...any) {
	fmt.Fprintf(sys.Stderr, "warning: %s\n", quote.Lines(fmt.Sprintf(format, args...)))
}

// note prints advice, made safe as warn makes a warning.
func note(sys System, format string, args ...any) {
	fmt.Fprintf(sys.Stderr, "note: %s\n", quote.Lines(fmt.Sprintf(format, args...)))
}

// String says how much was analysed, or nothing when it is not known (a
// saved report does not say).
func (sc scope) String() string {
	if !sc.known {
		return ""
	}
	return fmt.Sprintf("(%s of %s analysed)", report.Count(sc.actions, "action"), report.Count(sc.targets, "target"))
}

// writeJSONReport writes the JSON report of mode m to path atomically
// (§8.1), or to standard output for "-".
func writeJSONReport(s streams, path string, findings report.Findings, m mode.Mode) error {
	write := func(w io.Writer) error {
		bw := bufio.NewWriterSize(w, 1<<20)
		if err := report.WriteJSON(bw, findings, m); err != nil {
			return err
		}
		return bw.Flush()
	}
	if path == "-" {
		return writeStdout(s.sys, write)
	}
	return atomicfile.Write(path, "JSON report", write)
}

// writeStdout writes a machine-readable report (JSON, SARIF) to standard
// output; on a terminal, with the C1 controls a terminal may obey escaped
// (report.TerminalJSON).
func writeStdout(sys System, write func(io.Writer) error) error {
	if !sys.StdoutIsTerminal {
		return write(sys.Stdout)
	}
	w := report.NewTerminalJSON(sys.Stdout)
	if err := write(w); err != nil {
		return err
	}
	return w.Flush()
}

// checkOutputDir says what is wrong with the directory a report is to be
// written in, before any work is done.
func checkOutputDir(flag, path string) error {
	if path == "-" {
		return nil
	}
	if path == "" {
		return usageError{fmt.Sprintf("%s needs a file name (- for standard output)", flag)}
	}
	dir := filepath.Dir(path)
	info, err := os.Stat(dir)
	switch {
	case err != nil:
		return fmt.Errorf("%s %s: the directory %s does not exist, expected an existing directory to write the report in", flag, quoteArg(path), quoteArg(dir))
	case !info.IsDir():
		return fmt.Errorf("%s %s: %s is not a directory", flag, quoteArg(path), quoteArg(dir))
	}
	return nil
}
