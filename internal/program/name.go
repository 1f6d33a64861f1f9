package program

import (
	"errors"
	"strings"

	"github.com/ahab-go/ahab/internal/quote"
)

// Of identifies the program an action runs from its argv[0] (§4.1). It
// drops what changes between Bazel versions, configurations and module
// versions (the output prefix, runfiles trees, repository versions and
// generated repository names) so one spec key covers every spelling.
func Of(executable string) ID {
	// §4.1 step 1: an absolute path or a bare name is found outside the
	// execution root (a bare name through PATH).
	if strings.HasPrefix(executable, "/") || !strings.Contains(executable, "/") {
		return ID{Origin: Origin{Kind: System}, Path: executable}
	}
	path := stripOutputPrefix(executable)

	// §4.1 step 3: the innermost runfiles tree names the repository.
	if i := strings.LastIndex(path, ".runfiles/"); i >= 0 {
		rest := path[i+len(".runfiles/"):]
		if repo, tail, ok := strings.Cut(rest, "/"); ok {
			return ID{Origin: decodeRepository(repo), Path: tail}
		}
	}

	// §4.1 step 4: an external repository, seen from the execution root
	// (external/) or from the main repository's runfiles (../).
	for _, prefix := range [...]string{"external/", "../"} {
		if rest, ok := strings.CutPrefix(path, prefix); ok {
			if repo, tail, ok := strings.Cut(rest, "/"); ok && tail != "" {
				return ID{Origin: decodeRepository(repo), Path: tail}
			}
			break
		}
	}
	return ID{Origin: Origin{Kind: Main}, Path: path}
}

// stripOutputPrefix turns bazel-out/<config>/<root>/<tail> into <tail>
// (§4.1 step 2). The configuration is not inspected: it differs between
// host and exec configurations and carries a hash on newer Bazels.
func stripOutputPrefix(path string) string {
	rest, ok := strings.CutPrefix(path, "bazel-out/")
	if !ok {
		return path
	}
	_, afterConfig, ok := strings.Cut(rest, "/")
	if !ok {
		return path
	}
	_, tail, ok := strings.Cut(afterConfig, "/")
	if !ok {
		return path
	}
	return tail
}

// decodeRepository reduces a canonical repository name to its module and
// extension (§4.1 decode_repo): `rules_rust+`, `rules_rust~0.40.0` and
// `rules_rust` are one module, and `rules_rust++crate+crates__anyhow-1.0.104`
// is its `crate` extension whatever crate the repository holds.
func decodeRepository(repo string) Origin {
	separator := "~"
	if strings.Contains(repo, "+") {
		separator = "+"
	}
	fields := strings.Split(repo, separator)
	var origin Origin
	if len(fields) >= 3 {
		origin.Extension = fields[len(fields)-2]
		origin.HasExtension = true
	}
	if module := fields[0]; module == "" || module == "_main" {
		origin.Kind = Main
	} else {
		origin.Kind = Module
		origin.Module = module
	}
	return origin
}

// String is the label form used in reports, exceptions and spec keys
// (§4.2).
func (id ID) String() string {
	switch id.Origin.Kind {
	case System:
		return id.Path
	case Main:
		if id.Origin.HasExtension {
			return "@+" + id.Origin.Extension + "//" + id.Path
		}
		return "//" + id.Path
	default:
		repo := id.Origin.Module
		if id.Origin.HasExtension {
			repo += "+" + id.Origin.Extension
		}
		return "@" + repo + "//" + id.Path
	}
}

// Parse reads a program name as written in spec keys, `same_as` targets
// and exceptions (§4.3). A name not starting with `@` or `//` is read as
// an argv[0] would be, so `external/rules_rust+/x` names `@rules_rust//x`.
func Parse(name string) (ID, error) {
	if !strings.HasPrefix(name, "@") {
		if path, ok := strings.CutPrefix(name, "//"); ok {
			return ID{Origin: Origin{Kind: Main}, Path: path}, nil
		}
		return Of(name), nil
	}
	repo, path, ok := strings.Cut(name[1:], "//")
	if !ok {
		return ID{}, errors.New(quote.Quote(name) + " names a repository but no program: expected `@repository//path`")
	}
	if path == "" {
		return ID{}, errors.New(quote.Quote(name) + " has no program after `//`")
	}
	var origin Origin
	module, extension, hasExtension := strings.Cut(repo, "+")
	if hasExtension {
		if extension == "" {
			return ID{}, errors.New(quote.Quote(name) + " has an empty extension name")
		}
		origin.Extension = extension
		origin.HasExtension = true
	}
	if module == "" {
		origin.Kind = Main
	} else {
		// §4.3: `@_main//x` stays a module named _main; only argv[0]
		// decoding folds _main into the main repository.
		origin.Kind = Module
		origin.Module = module
	}
	return ID{Origin: origin, Path: path}, nil
}

// IsPattern says whether the ID's path is a glob (§5.5): such a key
// answers for every program of the same origin whose path it matches.
func (id ID) IsPattern() bool {
	return strings.ContainsAny(id.Path, "*?")
}
