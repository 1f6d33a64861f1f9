package program

import (
	"errors"
	"slices"
	"strings"

	"github.com/ahab-go/ahab/internal/mode"
	"github.com/ahab-go/ahab/internal/quote"
)

// Of identifies the program an action runs from its argv[0] (§4.1). It
// drops what changes between Bazel versions, configurations and module
// versions (the output prefix, runfiles trees, repository versions and
// generated repository names) so one spec key covers every spelling.
//
// Unlike Ahab 0.2 (OfAhab02), it also reads the sibling repository layout
// (--experimental_sibling_repository_layout, the default under Bazel's
// path mapping), where an external repository's outputs are under
// bazel-out/<repository>/<config>/bin/ rather than the main repository's
// bazel-out/<config>/bin/external/<repository>/.
func Of(executable string) ID { return of(executable, true) }

// OfAhab02 is Of as Ahab 0.2 had it, for --compat 0.2: it reads
// bazel-out/<repository>/<config>/bin/<path> as the main repository's
// bin/<path>.
func OfAhab02(executable string) ID { return of(executable, false) }

// OfFor returns Of or OfAhab02, as mode m reads programs.
func OfFor(m mode.Mode) func(string) ID {
	if m == mode.Ahab02 {
		return OfAhab02
	}
	return Of
}

func of(executable string, siblings bool) ID {
	// §4.1 step 1: an absolute path or a bare name is found outside the
	// execution root (a bare name through PATH).
	if strings.HasPrefix(executable, "/") || !strings.Contains(executable, "/") {
		return ID{Origin: Origin{Kind: System}, Path: executable}
	}
	if siblings {
		if repo, tail, ok := siblingOutput(executable); ok && !strings.Contains(tail, ".runfiles/") {
			return ID{Origin: decodeRepository(repo), Path: tail}
		}
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

// outputRoots are the directories a configuration's outputs go under.
var outputRoots = []string{"bin", "genfiles", "testlogs"}

// siblingOutput reads bazel-out/<repository>/<config>/<root>/<tail>, the
// sibling layout's output path of an external repository. In the main
// repository's own layout the second part is the root, which tells the
// two apart.
func siblingOutput(path string) (repo, tail string, ok bool) {
	rest, ok := strings.CutPrefix(path, "bazel-out/")
	if !ok {
		return "", "", false
	}
	parts := strings.SplitN(rest, "/", 4)
	if len(parts) < 4 || parts[3] == "" || slices.Contains(outputRoots, parts[1]) || !slices.Contains(outputRoots, parts[2]) {
		return "", "", false
	}
	return parts[0], parts[3], true
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
func Parse(name string) (ID, error) { return parse(name, Of) }

// ParseAhab02 is Parse reading argv[0]-like names with OfAhab02.
func ParseAhab02(name string) (ID, error) { return parse(name, OfAhab02) }

// ParseFor returns Parse or ParseAhab02, as mode m reads programs.
func ParseFor(m mode.Mode) func(string) (ID, error) {
	if m == mode.Ahab02 {
		return ParseAhab02
	}
	return Parse
}

func parse(name string, of func(string) ID) (ID, error) {
	if !strings.HasPrefix(name, "@") {
		if path, ok := strings.CutPrefix(name, "//"); ok {
			return ID{Origin: Origin{Kind: Main}, Path: path}, nil
		}
		return of(name), nil
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
