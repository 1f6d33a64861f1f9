package cli

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/pflag"

	"github.com/ahab-go/ahab/internal/atomicfile"
	"github.com/ahab-go/ahab/internal/bazel"
	"github.com/ahab-go/ahab/internal/label"
	"github.com/ahab-go/ahab/internal/mode"
	"github.com/ahab-go/ahab/internal/report"
	"github.com/ahab-go/ahab/internal/sarif"
)

// presentation is how the user asked the findings to be shown besides the
// text report: as a SARIF log, as a summary instead of the list, with a
// hint under each finding. Analyses and merges share it.
type presentation struct {
	sarif         string
	sarifCategory string
	summary       bool
	hints         bool
}

func (p *presentation) addFlags(fs *pflag.FlagSet) {
	onceString(fs, &p.sarif, "sarif", "", "also write the findings to `FILE` as SARIF 2.1.0 for code scanning (atomically; - for stdout)")
	onceString(fs, &p.sarifCategory, "sarif-category", "", "with --sarif, the run's category `NAME`, so that the logs of several slices upload side by side")
	onceBool(fs, &p.summary, "summary", "", "print the findings counted per kind, program, package and path instead of listing them")
	onceBool(fs, &p.hints, "hints", "", "print under each finding what to do about it")
}

// check rejects combinations that contradict each other.
func (p *presentation) check(verbose bool, writeJSON string) error {
	switch {
	case p.sarifCategory != "" && p.sarif == "":
		return usageError{"--sarif-category needs --sarif"}
	case p.summary && p.hints:
		return usageError{"--hints puts a line under each finding of the list, which --summary replaces"}
	case p.sarif == "-" && verbose:
		return usageError{"--sarif - writes the SARIF log to stdout, where --verbose prints the actions"}
	case p.sarif == "-" && writeJSON == "-":
		return usageError{"--sarif - and --write-json - would both write to stdout: send one of them to a file"}
	}
	return nil
}

// writeFindings writes the findings: the list, or the summary and the
// suppression note and scope.
func writeFindings(w io.Writer, o *options, findings report.Findings, opts report.TextOptions) error {
	if !o.summary {
		return report.WriteText(w, findings, opts)
	}
	err := report.WriteSummary(w, report.Summarize(findings, report.SummaryTop), report.SummaryOptions{Color: opts.Color})
	for _, line := range []string{opts.Note, opts.Scope} {
		if err == nil && line != "" {
			_, err = io.WriteString(w, "\n  "+report.Palette{Color: opts.Color}.Faint(line))
		}
	}
	return err
}

// bazelSession is the Bazel an analysis ran, kept to ask it later where
// the targets with findings are declared.
type bazelSession struct {
	runner *bazel.Runner
	req    bazel.AqueryRequest
}

// docsURL is the page a SARIF rule's helpUri points into: docs/kinds.md of
// the release this binary is, on GitHub. The schema wants an absolute
// URI; a fork that publishes its own docs changes it here.
func docsURL() string {
	return "https://github.com/ahab-go/ahab/blob/v" + Version() + "/docs/kinds.md"
}

// writeSARIF writes the SARIF log of findings, judged as m, to --sarif,
// atomically, or to stdout for "-". note is the suppression note.
func writeSARIF(sys System, o *options, res resolver, findings report.Findings, m mode.Mode, note string) error {
	opts := sarif.Options{
		Mode:        m,
		ToolVersion: Version(),
		HelpURI:     docsURL(),
		Category:    o.sarifCategory,
		Locations:   locate(sys, o, findings),
	}
	if note != "" {
		opts.Notes = []string{strings.TrimSuffix(strings.TrimPrefix(note, "("), ")")}
	}
	write := func(w io.Writer) error { return sarif.Write(w, findings, opts) }
	if o.sarif == "-" {
		return writeStdout(sys, write)
	}
	return atomicfile.Write(res.path(o.sarif), "SARIF report", write)
}

// locate finds where the targets of findings are declared: with one
// `bazel query` when the analysis ran Bazel, else from the workspace's
// files, without lines.
func locate(sys System, o *options, findings report.Findings) sarif.Locations {
	var labels []string
	seen := map[string]bool{}
	for i := range findings.Len() {
		if t := findings.At(i).Action.Target; !seen[t] {
			seen[t] = true
			labels = append(labels, t)
		}
	}
	if o.session == nil {
		why := "the findings come from merged reports and no Bazel ran"
		switch {
		case o.explainJSON != "":
			why = "the findings come from a saved report and no Bazel ran"
		case o.aqueryFile != "":
			why = "the findings come from a saved aquery dump and no Bazel ran"
		}
		return sarif.Locations{ByTarget: buildFiles(workspaceRoot(sys), labels), NoLines: why}
	}
	found, err := o.session.runner.Locations(context.Background(), bazel.LocationsRequest{OutputBase: o.session.req.OutputBase, Labels: labels})
	if err != nil {
		warn(sys, "could not ask Bazel where the targets are declared, so the SARIF results point at BUILD files without a line: %s", oneLine(err.Error()))
		return sarif.Locations{ByTarget: buildFiles(workspaceRoot(sys), labels), NoLines: "bazel query failed: " + oneLine(err.Error())}
	}
	locs := sarif.Locations{ByTarget: make(map[string]sarif.TargetLocation, len(found))}
	for label, l := range found {
		locs.ByTarget[label] = sarif.TargetLocation{Path: l.Path, Line: l.Line, Column: l.Column}
	}
	return locs
}

// workspaceRoot is the Bazel workspace Ahab runs in, or "" when it is in
// none: BUILD_WORKSPACE_DIRECTORY under `bazel run`, else the nearest
// directory holding a workspace file.
func workspaceRoot(sys System) string {
	if dir, ok := sys.LookupEnv("BUILD_WORKSPACE_DIRECTORY"); ok && dir != "" {
		return dir
	}
	dir := bazel.WorkingDir(sys.LookupEnv)
	if dir == "" {
		wd, err := os.Getwd()
		if err != nil {
			return ""
		}
		dir = wd
	}
	for {
		for _, name := range []string{"MODULE.bazel", "REPO.bazel", "WORKSPACE.bazel", "WORKSPACE"} {
			if _, err := os.Stat(filepath.Join(dir, name)); err == nil {
				return dir
			}
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return ""
		}
		dir = parent
	}
}

// buildFiles names the BUILD file of each main-repository target's
// package, BUILD.bazel where the workspace has one and BUILD otherwise.
func buildFiles(root string, labels []string) map[string]sarif.TargetLocation {
	locs := map[string]sarif.TargetLocation{}
	if root == "" {
		return locs
	}
	for _, target := range labels {
		l, err := label.Parse(target)
		if err != nil || !l.IsMain() {
			continue
		}
		path := filepath.ToSlash(filepath.Join(l.Pkg, "BUILD.bazel"))
		if _, err := os.Stat(filepath.Join(root, filepath.FromSlash(path))); err != nil {
			path = l.BuildFile()
		}
		locs[target] = sarif.TargetLocation{Path: path}
	}
	return locs
}
