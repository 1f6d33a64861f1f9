package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
)

// specFields lists the keys spec.json may hold, in the order the docs give
// them. Anything else is refused: a misspelt "compilation-mode" silently
// ignored would record an expectation for a build nobody asked for.
var specFields = []string{"repo", "commit", "label", "configs", "compilation_mode", "workspace", "weight"}

// Spec is one fishery target's spec.json (§11).
type Spec struct {
	// Repo is where the project's source comes from: a network URL
	// (https://…), a file:// URL, or a path relative to the target's own
	// directory (a git bundle or a git directory kept in this repository).
	Repo string
	// Commit is the full SHA the target is pinned to.
	Commit string
	// Label is the query expression analysed, `//...` by default.
	Label string
	// Configs become --config flags, in order.
	Configs []string
	// CompilationMode becomes --compilation-mode when not empty.
	CompilationMode string
	// Workspace is the subdirectory of work/ that is analysed, "." by default.
	Workspace string
	// Weight is the target's relative cost, used only to balance ci shards.
	Weight int
}

// ParseSpec reads a spec.json document; file names it in errors.
func ParseSpec(data []byte, file string) (Spec, error) {
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(data, &raw); err != nil {
		return Spec{}, fmt.Errorf("%s: %v, expected a JSON object", file, err)
	}
	if raw == nil {
		return Spec{}, fmt.Errorf("%s: null, expected a JSON object", file)
	}
	var unknown []string
	for key := range raw {
		if !contains(specFields, key) {
			unknown = append(unknown, key)
		}
	}
	if len(unknown) > 0 {
		sort.Strings(unknown)
		return Spec{}, fmt.Errorf("%s: unknown field %q, expected one of: %s", file, unknown[0], strings.Join(specFields, ", "))
	}
	s := Spec{Label: "//...", Workspace: ".", Weight: 1}
	field := func(key string, into any, want string) error {
		value, ok := raw[key]
		if !ok {
			return nil
		}
		dec := json.NewDecoder(bytes.NewReader(value))
		if err := dec.Decode(into); err != nil || bytes.Equal(bytes.TrimSpace(value), []byte("null")) {
			return fmt.Errorf("%s: %s: got %s, expected %s", file, key, value, want)
		}
		return nil
	}
	if err := field("repo", &s.Repo, "a string"); err != nil {
		return Spec{}, err
	}
	if err := field("commit", &s.Commit, "a string"); err != nil {
		return Spec{}, err
	}
	if err := field("label", &s.Label, "a string"); err != nil {
		return Spec{}, err
	}
	if err := field("configs", &s.Configs, "a list of strings"); err != nil {
		return Spec{}, err
	}
	if err := field("compilation_mode", &s.CompilationMode, "a string"); err != nil {
		return Spec{}, err
	}
	if err := field("workspace", &s.Workspace, "a string"); err != nil {
		return Spec{}, err
	}
	if err := field("weight", &s.Weight, "an integer"); err != nil {
		return Spec{}, err
	}
	if _, ok := raw["repo"]; !ok || s.Repo == "" {
		return Spec{}, fmt.Errorf("%s: repo: missing, expected the project's git URL or a path to a bundle", file)
	}
	if _, ok := raw["commit"]; !ok {
		return Spec{}, fmt.Errorf("%s: commit: missing, expected a full 40-character commit SHA", file)
	}
	if !isFullSHA(s.Commit) {
		return Spec{}, fmt.Errorf("%s: commit: %q is not a full commit SHA, expected 40 lowercase hex digits", file, s.Commit)
	}
	if s.Label == "" {
		return Spec{}, fmt.Errorf("%s: label: empty, expected a query expression such as \"//...\"", file)
	}
	for i, c := range s.Configs {
		if c == "" {
			return Spec{}, fmt.Errorf("%s: configs: entry %d is empty, expected a config name", file, i+1)
		}
	}
	if _, ok := raw["compilation_mode"]; ok && s.CompilationMode == "" {
		return Spec{}, fmt.Errorf("%s: compilation_mode: empty, expected fastbuild, dbg or opt (or leave it out)", file)
	}
	clean := path.Clean(s.Workspace)
	if s.Workspace == "" || path.IsAbs(s.Workspace) || clean == ".." || strings.HasPrefix(clean, "../") {
		return Spec{}, fmt.Errorf("%s: workspace: %q leaves work/, expected a relative directory inside the checkout", file, s.Workspace)
	}
	if s.Weight < 1 {
		return Spec{}, fmt.Errorf("%s: weight: %d, expected a positive integer", file, s.Weight)
	}
	return s, nil
}

// NeedsNetwork says whether fetching the target's source needs the network.
// A target is local when its repo is a path or a file:// URL: its source is
// kept in this repository (or on this machine), and it must be analysable by
// the Bazel found here.
func (s Spec) NeedsNetwork() bool {
	u, err := url.Parse(s.Repo)
	if err != nil || u.Scheme == "" || len(u.Scheme) == 1 { // a Windows drive letter is no scheme
		return false
	}
	return u.Scheme != "file"
}

// fetchSource turns a local repo into what `git fetch` accepts for a pinned
// commit: a bundle must be given as a plain path (git does not read bundles
// through file:// URLs, and fetches a bundle whole whatever --depth says), a
// git directory as a file:// URL so that --depth 1 is honoured. dir is the
// target's directory, against which relative paths are resolved. Network
// URLs are returned unchanged.
func (s Spec) fetchSource(dir string) (source string, isBundle bool, err error) {
	if s.NeedsNetwork() {
		return s.Repo, false, nil
	}
	p := s.Repo
	if strings.HasPrefix(p, "file://") {
		u, err := url.Parse(p)
		if err != nil {
			return "", false, fmt.Errorf("repo %q is not a valid file:// URL: %v", s.Repo, err)
		}
		p = u.Path
	} else if !filepath.IsAbs(p) {
		p = filepath.Join(dir, filepath.FromSlash(p))
	}
	info, err := os.Stat(p)
	if err != nil {
		return "", false, fmt.Errorf("repo %q: %v", s.Repo, err)
	}
	if info.Mode().IsRegular() {
		return p, true, nil
	}
	return "file://" + filepath.ToSlash(p), false, nil
}

func isFullSHA(s string) bool {
	if len(s) != 40 {
		return false
	}
	for _, c := range s {
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
			return false
		}
	}
	return true
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
