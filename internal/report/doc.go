// Package report prints findings. Each kind's sentence (§8.3) is written
// in sentence.go, the one place a kind's wording lives; the text report
// (text.go, with its hints, evidence and sign-off, §1.8), the JSON report
// (json.go, §8.1), the summary (summary.go), the diff of --expect-json
// (diff.go, §8.6) and the kinds' documentation (kinds.go) are built from
// it and from the kind table. The SARIF log (package sarif) and the
// reports of ahab diff and ahab trace quote findings through it; reading
// a JSON report back is package savedreport's.
//
// Printers are pure functions over finding data, each a Write function on
// an io.Writer with its options; colour is a bool the caller decides
// (§1.6), and every value from a graph or a report is shown escaped
// (package quote), so a report can neither break its lines nor drive the
// terminal.
package report
