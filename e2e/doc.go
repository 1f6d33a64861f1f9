// Package e2e holds Ahab's end-to-end tests: Ahab's Starlark (MODULE.bazel,
// defs.bzl, private/*.bzl) linted with buildifier; workspaces analyzed by
// the real Bazel on PATH through the macros, the binary provisioning and the
// nested `bazel aquery`; and every hint of `ahab --hints` followed literally
// in a workspace that Bazel then builds (TestHints). The Bazel tests skip
// when no `bazel` is on PATH, except under CI=true, where a skip is a
// failure.
package e2e
