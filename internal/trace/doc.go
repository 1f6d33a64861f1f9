// Package trace finds what a build's actions read without declaring it: it
// builds a label with Bazel under strace in a scratch output base, gives each
// traced process tree to the spawn of the execution log it ran, and reports
// per action the files it opened, stat'ed or listed outside its declared
// inputs and outputs, apart from the host toolchain's own files (the
// baseline), beside the static analysis's findings for the same action.
//
// The pipeline is Run → (aquery of the label, analysed as `ahab LABEL` would;
// strace log; execution log, read by internal/execlog, whose spawns get their
// targets and findings from the aquery by their outputs) → Analyze: Scanner
// reads the log a record at a time, an attributor rebuilds the process tree
// (clone, fork, vfork, execve, chdir) and matches
// each `process-wrapper … ARGV` against the spawns, and a classifier resolves
// each path against the execution root and sorts it into workspace_file,
// host_file, directory_listing or the baseline. WriteText and WriteJSON
// print the Report. docs/trace.md documents the rules and the JSON format.
//
// Actions run with --spawn_strategy=standalone: in the execution root, on
// the host's file system, which is what makes their undeclared reads
// visible. Under a sandbox an action sees only a tree of symlinks to its
// declared inputs (and, with the Linux sandbox, a read-only view of the
// host), so a workspace file it did not declare is simply missing there and
// the action fails or behaves differently; the host files stay visible
// either way.
package trace
