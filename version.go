// Package ahab is the module's root. It holds the one thing the whole
// module shares: the version, written once, in MODULE.bazel, which is what
// Bazel users depend on; the binary, the release archives and
// private/release.bzl all take it from there.
package ahab

import (
	_ "embed"
	"errors"
	"sync"

	"github.com/bazelbuild/buildtools/build"
)

//go:embed MODULE.bazel
var moduleBazel []byte

// Version is the version of this source tree, or "unknown" should
// MODULE.bazel lack one (a test sees to it that it does not).
var Version = sync.OnceValue(func() string {
	v, err := ModuleVersion(moduleBazel)
	if err != nil {
		return "unknown"
	}
	return v
})

// ModuleVersion reads the `version` of the `module(...)` call in the
// content of a MODULE.bazel.
func ModuleVersion(moduleBazel []byte) (string, error) {
	f, err := build.ParseModule("MODULE.bazel", moduleBazel)
	if err != nil {
		return "", err
	}
	for _, stmt := range f.Stmt {
		call, ok := stmt.(*build.CallExpr)
		if !ok || build.FormatString(call.X) != "module" {
			continue
		}
		for _, arg := range call.List {
			if assign, ok := arg.(*build.AssignExpr); ok && build.FormatString(assign.LHS) == "version" {
				if s, ok := assign.RHS.(*build.StringExpr); ok {
					return s.Value, nil
				}
			}
		}
	}
	return "", errors.New(`MODULE.bazel: module: no version, expected module(name = "ahab", version = "X.Y.Z")`)
}
