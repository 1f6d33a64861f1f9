package main

import (
	"fmt"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/ahab-go/ahab/internal/jsonfile"
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

// maxWeight bounds a weight so that adding up every target's cannot
// overflow; real weights are single digits.
const maxWeight = 1 << 20

// ParseSpec reads a spec.json document; path names it in errors. The file
// is read strictly (package jsonfile): an unknown or repeated field, a value
// of the wrong type and anything after the object are errors. Errors are
// *jsonfile.Error; one about a field, its value or its absence has the
// field's name as Entry.
func ParseSpec(path string, data []byte) (Spec, error) {
	d := jsonfile.NewBytesDecoder(path, data)
	s := Spec{Label: "//...", Workspace: ".", Weight: 1}
	var seen []string
	err := d.Fields("a spec object", specFields, func(field string) error {
		seen = append(seen, field)
		d.SetEntry(field)
		err := readSpecField(d, field, &s)
		d.SetEntry("")
		return err
	})
	for _, required := range []struct{ field, expected string }{
		{"repo", "the project's git URL or a path to a bundle"},
		{"commit", "a full 40-character commit SHA"},
	} {
		if err == nil && !slices.Contains(seen, required.field) {
			d.SetEntry(required.field)
			err = d.Errorf("missing, expected %s", required.expected)
		}
	}
	if err == nil {
		err = d.End()
	}
	if err != nil {
		return Spec{}, err
	}
	return s, nil
}

// readSpecField reads the value of one field into s and checks it; the
// errors are placed at the value.
func readSpecField(d *jsonfile.Decoder, field string, s *Spec) error {
	var err error
	switch field {
	case "repo":
		if s.Repo, err = d.String("a string"); err == nil && s.Repo == "" {
			err = d.Errorf("empty, expected the project's git URL or a path to a bundle")
		}
	case "commit":
		if s.Commit, err = d.String("a string"); err == nil && !isFullSHA(s.Commit) {
			err = d.Errorf("%q is not a full commit SHA, expected 40 lowercase hex digits", s.Commit)
		}
	case "label":
		if s.Label, err = d.String("a string"); err == nil && s.Label == "" {
			err = d.Errorf("empty, expected a query expression such as \"//...\"")
		}
	case "configs":
		s.Configs = nil
		err = d.Array("a sequence of config names", func() error {
			c, err := d.String("a string")
			if err == nil && c == "" {
				err = d.Errorf("entry %d is empty, expected a config name", len(s.Configs)+1)
			}
			s.Configs = append(s.Configs, c)
			return err
		})
	case "compilation_mode":
		if s.CompilationMode, err = d.String("a string"); err == nil && s.CompilationMode == "" {
			err = d.Errorf("empty, expected fastbuild, dbg or opt (or leave it out)")
		}
	case "workspace":
		if s.Workspace, err = d.String("a string"); err == nil && !insideCheckout(s.Workspace) {
			err = d.Errorf("%q leaves work/, expected a relative directory inside the checkout", s.Workspace)
		}
	case "weight":
		var w uint64
		if w, err = d.Uint("a positive integer", maxWeight); err == nil && w == 0 {
			err = d.Errorf("invalid value: integer `0`, expected a positive integer")
		}
		s.Weight = int(w)
	}
	return err
}

// insideCheckout says whether the slash-separated relative path p stays
// inside the directory it is relative to.
func insideCheckout(p string) bool {
	clean := path.Clean(p)
	return p != "" && !path.IsAbs(p) && clean != ".." && !strings.HasPrefix(clean, "../")
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
