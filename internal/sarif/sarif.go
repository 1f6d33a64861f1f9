// Package sarif writes findings as a SARIF 2.1.0 log for code scanning
// (GitHub's and any SARIF viewer's): a rule per kind, a result per
// distinct finding, placed at its target's BUILD file.
package sarif

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/url"
	"slices"
	"strings"

	"github.com/ahab-go/ahab/internal/finding"
	"github.com/ahab-go/ahab/internal/label"
	"github.com/ahab-go/ahab/internal/mode"
	"github.com/ahab-go/ahab/internal/report"
)

// SARIF 2.1.0 (OASIS) is written from small typed structs below rather
// than with a SARIF library: Ahab fills a dozen of the format's objects,
// the structs fix the field order so the output is byte-stable, and
// github.com/owenrumney/go-sarif/v3 would bring a JSON schema validator
// (gojsonschema) and a UUID package into the binary. Tests validate every
// log against the vendored OASIS schema (internal/sarifschema).

// GitHub code scanning's limits on one upload: more results per run are
// rejected, and so is a larger gzipped file.
const (
	GitHubMaxResults   = 25_000
	GitHubMaxGzipBytes = 10 << 20
)

// Options says how to write a SARIF log.
type Options struct {
	Mode        mode.Mode
	ToolVersion string // e.g. "0.3.0"
	// HelpURI is the page documenting the kinds (docs/kinds.md); a rule's
	// helpUri is it with the kind's tag as the fragment. "" leaves helpUri
	// out. It must be absolute: the schema says helpUri is a URI.
	HelpURI string
	// Category becomes the run's automationDetails.id ("CATEGORY/"), so
	// that several slices of one build upload side by side; "" for none.
	Category string
	// Locations says where targets are declared.
	Locations Locations
	// Notes are told in the run's notifications, such as the note of what
	// exceptions suppressed.
	Notes []string
	// MaxResults and MaxGzipBytes are the limits the log must fit; zero
	// means GitHub's (GitHubMaxResults, GitHubMaxGzipBytes).
	MaxResults, MaxGzipBytes int
}

// Locations says where each target is declared, for the physical
// location of its results.
type Locations struct {
	// ByTarget maps a label (as in the findings) to its declaration. A
	// target it lacks points at its package's BUILD file, without a line.
	ByTarget map[string]TargetLocation
	// NoLines, when set, says why no target has a line, for the run's
	// notifications: "no Bazel ran", or why its query failed. When it is
	// empty, Bazel was asked and a target missing from ByTarget is one it
	// did not find.
	NoLines string
}

// TargetLocation is where a target is declared.
type TargetLocation struct {
	// Path is the BUILD file, relative to the root of the target's
	// repository ("app/BUILD.bazel").
	Path string
	// Line and Column are where the rule (or the macro that made it) is
	// called; 0 when unknown.
	Line, Column int
}

// fingerprintKey names Ahab's partial fingerprint; the version changes
// only if what the fingerprint is computed from does.
const fingerprintKey = "ahabFinding/v1"

// Fingerprint identifies a finding across runs: a hash of its kind, its
// action's mnemonic and target and its own fields, as the JSON report
// writes them (a contract), never of its count, its evidence or where its
// target is declared. GitHub uses it to tell a new alert from one it has seen.
func Fingerprint(f *finding.Finding) string {
	sum := sha256.Sum256(report.FingerprintJSON(f))
	return hex.EncodeToString(sum[:])
}

// collapsedFingerprint identifies the collapsed result of one kind in one
// target.
func collapsedFingerprint(k finding.Kind, target string) string {
	sum := sha256.Sum256([]byte("collapsed\x00" + k.String() + "\x00" + target))
	return hex.EncodeToString(sum[:])
}

// Write writes findings, in report order, as a SARIF 2.1.0 log of
// one run: a rule per kind, a result per distinct finding with its count,
// level, sentence, remedy, fingerprint and the BUILD file of its target.
// Past opts' limits it collapses the results of each target and kind into
// one, and past them still keeps the most severe; the run's notifications
// say so. It is a pure function of its arguments.
func Write(w io.Writer, findings report.Findings, opts Options) error {
	maxResults, maxBytes := opts.MaxResults, opts.MaxGzipBytes
	if maxResults <= 0 {
		maxResults = GitHubMaxResults
	}
	if maxBytes <= 0 {
		maxBytes = GitHubMaxGzipBytes
	}
	log := sarifLog{
		Schema:  "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json",
		Version: "2.1.0",
		Runs:    []sarifRun{newRun(findings, opts)},
	}
	run := &log.Runs[0]
	var notes []sarifNotification
	for _, n := range opts.Notes {
		notes = append(notes, notification("exceptions", "note", n))
	}
	// What was left out is said last, once: collapsing, then keeping
	// only the most severe results.
	var collapsed, truncated *sarifNotification
	var results, all []sarifResult
	located := false // notes says which results have no line
	place := func(rs []sarifResult, locNotes []sarifNotification) {
		results, all = rs, rs
		if !located {
			notes = append(notes, locNotes...)
			located = true
		}
	}
	collapse := func(why string) {
		groups := groupFindings(findings)
		collapsed = ptr(notification("collapsed", "warning", fmt.Sprintf(
			"%s: the findings of each target and kind are one result (%d results)", why, len(groups))))
		if len(groups) > maxResults {
			// Only the results that are kept are built.
			truncated = ptr(notification("truncated", "warning", fmt.Sprintf(
				"even collapsed, there are more results than the %d a run may have: only the %d most severe of %d results are kept",
				maxResults, maxResults, len(groups))))
			groups = mostSevere(groups, maxResults, func(g group) finding.Kind { return g.kind })
		}
		place(groupResults(findings, groups, opts.Locations, opts.Mode))
		run.Properties.Collapsed = true
	}
	keep := func(n int, why string) {
		results = mostSevere(all, n, func(r sarifResult) finding.Kind { return finding.Kind(r.RuleIndex) })
		truncated = ptr(notification("truncated", "warning", fmt.Sprintf(
			"%s: only the %d most severe of %d results are kept", why, n, len(all))))
	}
	encode := func() ([]byte, int, error) {
		run.Results = results
		run.Invocations[0].ToolExecutionNotifications = slices.Clip(notes)
		for _, n := range []*sarifNotification{collapsed, truncated} {
			if n != nil {
				run.Invocations[0].ToolExecutionNotifications = append(run.Invocations[0].ToolExecutionNotifications, *n)
			}
		}
		data, err := encodeSARIF(&log)
		size := len(data)
		if size > maxBytes {
			size = gzipSize(data)
		}
		return data, size, err
	}

	if n := findings.Len(); n > maxResults {
		collapse(fmt.Sprintf("%d distinct findings are more results than the %d a run may have", n, maxResults))
	} else {
		place(distinctResults(findings, opts.Locations, opts.Mode))
	}
	data, size, err := encode()
	if err == nil && size > maxBytes && collapsed == nil {
		collapse(fmt.Sprintf("the log would be %d bytes gzipped, more than the %d an upload may have", size, maxBytes))
		data, size, err = encode()
	}
	for err == nil && size > maxBytes && len(results) > 0 {
		// Shrink in proportion to the excess, with a margin, so that a
		// round or two suffice.
		n := min(len(results)-1, int(float64(len(results))*float64(maxBytes)/float64(size)*0.9))
		keep(max(n, 0), fmt.Sprintf("the log would be more than the %d bytes gzipped an upload may have", maxBytes))
		data, size, err = encode()
	}
	if err != nil {
		return err
	}
	_, err = w.Write(data)
	return err
}

func newRun(findings report.Findings, opts Options) sarifRun {
	run := sarifRun{
		Tool: sarifTool{Driver: sarifDriver{
			Name:           "ahab",
			Version:        opts.ToolVersion,
			InformationURI: "https://github.com/ahab-go/ahab",
		}},
		Invocations: []sarifInvocation{{ExecutionSuccessful: true}},
		Properties: sarifRunProperties{
			Mode:        opts.Mode.String(),
			Findings:    findings.Len(),
			Occurrences: findings.Occurrences(),
		},
	}
	if opts.Category != "" {
		run.AutomationDetails = &sarifAutomationDetails{ID: opts.Category + "/"}
	}
	for _, k := range finding.Kinds() {
		info := k.Info()
		rule := sarifRule{
			ID:                   info.Tag,
			Name:                 ruleName(info.Tag),
			ShortDescription:     sarifText{Text: report.KindTitle(k)},
			FullDescription:      sarifText{Text: report.KindDescription(k)},
			Help:                 sarifMessage{Text: report.KindHelpText(k), Markdown: report.KindHelpMarkdown(k)},
			DefaultConfiguration: sarifConfiguration{Level: info.Class.Level()},
			Properties:           sarifRuleProperties{Tags: []string{"bazel", classTag(info.Class)}},
		}
		if opts.HelpURI != "" {
			rule.HelpURI = opts.HelpURI + "#" + info.Tag
		}
		run.Tool.Driver.Rules = append(run.Tool.Driver.Rules, rule)
	}
	return run
}

// ruleName is a tag in the UpperCamelCase SARIF names are usually
// written in: absolute_path is AbsolutePath.
func ruleName(tag string) string {
	b := []byte(tag)
	out := b[:0]
	upper := true
	for _, c := range b {
		switch {
		case c == '_':
			upper = true
		case upper && 'a' <= c && c <= 'z':
			out = append(out, c-'a'+'A')
			upper = false
		default:
			out = append(out, c)
			upper = false
		}
	}
	return string(out)
}

func classTag(c finding.Class) string {
	if c == finding.HermeticityViolation {
		return "hermeticity"
	}
	return "reproducibility"
}

func notification(id, level, text string) sarifNotification {
	return sarifNotification{Descriptor: sarifReference{ID: id}, Level: level, Message: sarifText{Text: text}}
}

// distinctResults is a result per finding, and the notifications that
// say which results have no line and why.
func distinctResults(findings report.Findings, locs Locations, m mode.Mode) ([]sarifResult, []sarifNotification) {
	results := make([]sarifResult, 0, findings.Len())
	placed := placer{locs: locs, seen: map[string]bool{}}
	for i := range findings.Len() {
		c := findings.At(i)
		results = append(results, newResult(&c.Finding, c.Count, placed.location(c.Action.Target), m))
	}
	return results, placed.notifications()
}

// newResult is the result of one finding that occurred count times, at
// loc, judged as m.
func newResult(f *finding.Finding, count int, loc sarifLocation, m mode.Mode) sarifResult {
	r := sarifResult{
		RuleID:              f.Kind.String(),
		RuleIndex:           int(f.Kind),
		Level:               f.Kind.Class().Level(),
		Message:             sarifText{Text: report.Sentence(f, report.Palette{})},
		Locations:           []sarifLocation{loc},
		PartialFingerprints: map[string]string{fingerprintKey: Fingerprint(f)},
		Properties: sarifResultProperties{
			Count:    count,
			Target:   f.Action.Target,
			Mnemonic: f.Action.Mnemonic,
			Remedy:   f.Remedy(),
		},
	}
	if m != mode.Ahab02 {
		r.RelatedLocations = evidenceLocations(f.Evidence)
	}
	return r
}

// evidenceLocations are the places a finding's evidence names. SARIF
// 2.1.0 keeps a result's locations for where the problem is to be fixed,
// and more than one only when every one must change (§3.27.12); the
// evidence is where the analysis saw the cause, which relatedLocations
// holds (§3.27.22), each with its own id and message.
func evidenceLocations(evidence []finding.Evidence) []sarifLocation {
	var locs []sarifLocation
	for _, e := range evidence {
		if e.File == "" {
			// In the action's own command or script: the result's own
			// location (its BUILD file) is where that is written.
			continue
		}
		art := sarifArtifactLocation{URI: uriOf(e.File), URIBaseID: "%SRCROOT%"}
		switch {
		case strings.HasPrefix(e.File, "/"):
			art = sarifArtifactLocation{URI: (&url.URL{Scheme: "file", Path: e.File}).String()}
		case strings.HasPrefix(e.File, "external/"):
			// Not in this repository: no base GitHub could resolve.
			art.URIBaseID = ""
		}
		loc := sarifLocation{ID: len(locs) + 1, PhysicalLocation: &sarifPhysicalLocation{ArtifactLocation: art}, Message: &sarifText{Text: e.Text}}
		if e.Line > 0 {
			loc.PhysicalLocation.Region = &sarifRegion{StartLine: e.Line}
		}
		locs = append(locs, loc)
	}
	return locs
}

// group is the findings of one kind in one target, which a collapsed log
// reports as one result: where the first is in report order, and how many
// there are.
type group struct {
	kind                         finding.Kind
	target                       string
	first, distinct, occurrences int
}

// groupFindings groups findings by target and kind, in report order of
// each group's first finding.
func groupFindings(findings report.Findings) []group {
	type key struct {
		kind   finding.Kind
		target string
	}
	index := map[key]int{}
	var groups []group
	for i := range findings.Len() {
		c := findings.At(i)
		k := key{c.Kind, c.Action.Target}
		g, ok := index[k]
		if !ok {
			g = len(groups)
			index[k] = g
			groups = append(groups, group{kind: c.Kind, target: c.Action.Target, first: i})
		}
		groups[g].distinct++
		groups[g].occurrences += c.Count
	}
	return groups
}

// groupResults is a result per group; a group of one is that finding's
// own result.
func groupResults(findings report.Findings, groups []group, locs Locations, m mode.Mode) ([]sarifResult, []sarifNotification) {
	placed := placer{locs: locs, seen: map[string]bool{}}
	results := make([]sarifResult, len(groups))
	for i, g := range groups {
		c := findings.At(g.first)
		r := newResult(&c.Finding, g.occurrences, placed.location(g.target), m)
		if g.distinct > 1 {
			r.Message.Text = fmt.Sprintf("%d distinct %s findings (%d occurrences) in target %s; the first: %s",
				g.distinct, g.kind, g.occurrences, g.target, r.Message.Text)
			r.PartialFingerprints[fingerprintKey] = collapsedFingerprint(g.kind, g.target)
			r.Properties.Distinct = g.distinct
			r.Properties.Mnemonic = ""
		}
		results[i] = r
	}
	return results, placed.notifications()
}

// mostSevere keeps n of xs, errors before warnings before notes and each
// in report order, and returns them in report order.
func mostSevere[T any](xs []T, n int, kind func(T) finding.Kind) []T {
	if n >= len(xs) {
		return xs
	}
	rank := func(x T) int {
		switch kind(x).Class().Level() {
		case "error":
			return 0
		case "warning":
			return 1
		}
		return 2
	}
	order := make([]int, len(xs))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return rank(xs[a]) - rank(xs[b]) })
	keep := order[:n]
	slices.Sort(keep)
	out := make([]T, n)
	for i, j := range keep {
		out[i] = xs[j]
	}
	return out
}

func ptr[T any](v T) *T { return &v }

// placer gives each target's results a location and counts those that
// lack a line, for the notifications.
type placer struct {
	locs                       Locations
	seen                       map[string]bool
	external, missing, nowhere int // distinct targets
	noLine                     int
}

func (p *placer) location(target string) sarifLocation {
	loc := sarifLocation{LogicalLocations: []sarifLogicalLocation{{FullyQualifiedName: target}}}
	first := !p.seen[target]
	p.seen[target] = true
	count := func(n *int) {
		if first {
			*n++
		}
	}
	l, err := label.Parse(target)
	if err != nil {
		count(&p.nowhere)
		return loc
	}
	declared, found := p.locs.ByTarget[target]
	path := declared.Path
	if path == "" {
		path = l.BuildFile()
	}
	phys := &sarifPhysicalLocation{}
	switch {
	case !l.IsMain():
		// Its BUILD file is not in this repository, so there is no line
		// GitHub could show; the path still says which file it is.
		count(&p.external)
		phys.ArtifactLocation = sarifArtifactLocation{URI: uriOf("external/" + l.Repo + "/" + path)}
	case found && declared.Line > 0:
		phys.ArtifactLocation = sarifArtifactLocation{URI: uriOf(path), URIBaseID: "%SRCROOT%"}
		phys.Region = &sarifRegion{StartLine: declared.Line, StartColumn: declared.Column}
	default:
		if p.locs.NoLines == "" {
			count(&p.missing)
		}
		count(&p.noLine)
		phys.ArtifactLocation = sarifArtifactLocation{URI: uriOf(path), URIBaseID: "%SRCROOT%"}
	}
	loc.PhysicalLocation = phys
	return loc
}

func (p *placer) notifications() []sarifNotification {
	var notes []sarifNotification
	if p.locs.NoLines != "" && p.noLine > 0 {
		notes = append(notes, notification("locations", "note",
			p.locs.NoLines+": results point at their package's BUILD file, without a line"))
	}
	if p.missing > 0 {
		notes = append(notes, notification("locations", "warning", fmt.Sprintf(
			"Bazel gave no location for %d %s: %s point at %s package's BUILD file, without a line",
			p.missing, report.Plural(p.missing, "target", "targets"), report.Plural(p.missing, "its results", "their results"), report.Plural(p.missing, "its", "their"))))
	}
	if p.external > 0 {
		notes = append(notes, notification("external", "note", fmt.Sprintf(
			"%d %s in external repositories, whose BUILD files are not in this one: %s point at external/REPOSITORY/PACKAGE/BUILD, without a line",
			p.external, report.Plural(p.external, "target is", "targets are"), report.Plural(p.external, "its results", "their results"))))
	}
	if p.nowhere > 0 {
		notes = append(notes, notification("locations", "warning", fmt.Sprintf(
			"%d %s no label, so %s no file", p.nowhere, report.Plural(p.nowhere, "target has", "targets have"), report.Plural(p.nowhere, "its results have", "their results have"))))
	}
	return notes
}

// uriOf is a relative path as a URI reference: escaped, and never read as
// a scheme.
func uriOf(path string) string {
	return (&url.URL{Path: path}).String()
}

func encodeSARIF(log *sarifLog) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(log); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// gzipSize is how big data is gzipped, as GitHub measures an upload.
// Text never grows when compressed, so WriteSARIF compresses only a log
// bigger than the limit.
func gzipSize(data []byte) int {
	var n countingWriter
	zw := gzip.NewWriter(&n)
	zw.Write(data)
	zw.Close()
	return int(n)
}

type countingWriter int

func (c *countingWriter) Write(p []byte) (int, error) {
	*c += countingWriter(len(p))
	return len(p), nil
}

// The SARIF objects Ahab writes, in the schema's names.

type sarifLog struct {
	Schema  string     `json:"$schema"`
	Version string     `json:"version"`
	Runs    []sarifRun `json:"runs"`
}

type sarifRun struct {
	Tool              sarifTool               `json:"tool"`
	AutomationDetails *sarifAutomationDetails `json:"automationDetails,omitempty"`
	Invocations       []sarifInvocation       `json:"invocations"`
	Results           []sarifResult           `json:"results"`
	Properties        sarifRunProperties      `json:"properties"`
}

type sarifRunProperties struct {
	Mode        string `json:"mode"`        // the judgement: "default" or "0.2"
	Findings    int    `json:"findings"`    // distinct findings, before any collapsing
	Occurrences int    `json:"occurrences"` // the sum of their counts
	Collapsed   bool   `json:"collapsed"`   // results are per target and kind
}

type sarifTool struct {
	Driver sarifDriver `json:"driver"`
}

type sarifDriver struct {
	Name           string      `json:"name"`
	Version        string      `json:"version,omitempty"`
	InformationURI string      `json:"informationUri"`
	Rules          []sarifRule `json:"rules"`
}

type sarifRule struct {
	ID                   string              `json:"id"`
	Name                 string              `json:"name"`
	ShortDescription     sarifText           `json:"shortDescription"`
	FullDescription      sarifText           `json:"fullDescription"`
	Help                 sarifMessage        `json:"help"`
	HelpURI              string              `json:"helpUri,omitempty"`
	DefaultConfiguration sarifConfiguration  `json:"defaultConfiguration"`
	Properties           sarifRuleProperties `json:"properties"`
}

type sarifText struct {
	Text string `json:"text"`
}

type sarifMessage struct {
	Text     string `json:"text"`
	Markdown string `json:"markdown"`
}

type sarifConfiguration struct {
	Level string `json:"level"`
}

type sarifRuleProperties struct {
	Tags []string `json:"tags"`
}

type sarifAutomationDetails struct {
	ID string `json:"id"`
}

type sarifInvocation struct {
	ExecutionSuccessful        bool                `json:"executionSuccessful"`
	ToolExecutionNotifications []sarifNotification `json:"toolExecutionNotifications,omitempty"`
}

type sarifNotification struct {
	Descriptor sarifReference `json:"descriptor"`
	Level      string         `json:"level"`
	Message    sarifText      `json:"message"`
}

type sarifReference struct {
	ID string `json:"id"`
}

type sarifResult struct {
	RuleID              string                `json:"ruleId"`
	RuleIndex           int                   `json:"ruleIndex"`
	Level               string                `json:"level"`
	Message             sarifText             `json:"message"`
	Locations           []sarifLocation       `json:"locations"`
	RelatedLocations    []sarifLocation       `json:"relatedLocations,omitempty"`
	PartialFingerprints map[string]string     `json:"partialFingerprints"`
	Properties          sarifResultProperties `json:"properties"`
}

type sarifResultProperties struct {
	Count    int    `json:"count"`              // occurrences
	Distinct int    `json:"distinct,omitempty"` // findings in a collapsed result
	Target   string `json:"target"`
	Mnemonic string `json:"mnemonic,omitempty"`
	Remedy   string `json:"remedy"`
}

type sarifLocation struct {
	ID               int                    `json:"id,omitempty"` // only related locations have one
	PhysicalLocation *sarifPhysicalLocation `json:"physicalLocation,omitempty"`
	LogicalLocations []sarifLogicalLocation `json:"logicalLocations,omitempty"`
	Message          *sarifText             `json:"message,omitempty"`
}

type sarifPhysicalLocation struct {
	ArtifactLocation sarifArtifactLocation `json:"artifactLocation"`
	Region           *sarifRegion          `json:"region,omitempty"`
}

type sarifArtifactLocation struct {
	URI       string `json:"uri"`
	URIBaseID string `json:"uriBaseId,omitempty"`
}

type sarifRegion struct {
	StartLine   int `json:"startLine"`
	StartColumn int `json:"startColumn,omitempty"`
}

type sarifLogicalLocation struct {
	FullyQualifiedName string `json:"fullyQualifiedName"`
}
