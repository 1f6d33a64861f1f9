// Package spawndiff compares the execution logs of two builds: it matches
// their spawns, gives each divergent one a verdict, traces cascades back to
// their root causes, and writes the text and JSON reports (docs/diff.md).
//
// A log is read (package execlog) into a Log, a compact summary built one
// spawn at a time; Diff is a pure function of two Logs; WriteText and
// WriteJSON print its Result.
package spawndiff
