package execlog

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/ahab-go/ahab/internal/execlog/spawnpb"
	"github.com/ahab-go/ahab/internal/spawn"
	"github.com/ahab-go/ahab/internal/wire"
)

// runfilesTree decodes ExecLogEntry.RunfilesTree and expands it into the
// files of the tree, with their paths inside it, the way the flat formats
// list a runfiles tree among a spawn's inputs. spawn.proto documents the
// layering; later layers overwrite earlier ones at the same path:
//
//  1. symlinks (symlinks_id), relative to the tree's workspace directory;
//  2. the artifacts of input_set_id at their canonical runfiles paths;
//  3. empty_files, relative to the workspace directory, empty;
//  4. root symlinks (root_symlinks_id), relative to the tree;
//  5. _repo_mapping, from repo_mapping_manifest;
//  6. <workspace>/.runfile, empty, when nothing else would create the
//     workspace directory (and external runfiles are not also laid out
//     under it the legacy way).
func (c *compactReader) runfilesTree(b []byte) (node, error) {
	var n node
	var inputSet, symlinks, rootSymlinks uint32
	var empty []string
	var repoMapping []byte
	hasRepoMapping, legacy := false, false
	f := wire.NewFields(b, runfilesTreeDesc, payloadLevel)
	for f.Next() {
		switch f.Num {
		case spawnpb.RunfilesTreePath:
			n.dir.path = string(f.Bytes())
		case spawnpb.RunfilesTreeInputSetID:
			inputSet = f.Uint32()
		case spawnpb.RunfilesTreeSymlinksID:
			symlinks = f.Uint32()
		case spawnpb.RunfilesTreeRootSymlinksID:
			rootSymlinks = f.Uint32()
		case spawnpb.RunfilesTreeEmptyFiles:
			empty = append(empty, string(f.Bytes()))
		case spawnpb.RunfilesTreeRepoMappingManifest:
			repoMapping = f.Bytes()
			hasRepoMapping = true
		case spawnpb.RunfilesTreeLegacyExternalRunfiles:
			legacy = f.Bool()
		}
	}
	if err := f.Err(); err != nil {
		return n, err
	}
	tree := n.dir.path
	t := runfiles{files: map[string]spawn.File{}}
	ws := tree + "/" + c.workspace + "/"
	wsExists := false
	if symlinks != 0 {
		set, err := c.ref("symlinks_id", symlinks, entrySymlinkEntrySet)
		if err != nil {
			return n, err
		}
		if err := c.symlinkFiles(set, ws, &t); err != nil {
			return n, err
		}
		wsExists = wsExists || len(t.files) > 0
	}
	if inputSet != 0 {
		set, err := c.ref("input_set_id", inputSet, entryInputSet)
		if err != nil {
			return n, err
		}
		var bad error
		err = c.walkSets(set, func(_ uint32, inputs []uint32) {
			for _, in := range inputs {
				if c.isSeen(in) {
					continue
				}
				c.mark(in)
				if c.kind(in) == entryRunfilesTree {
					bad = fmt.Errorf("input_set_id %d holds runfiles tree %s, expected only files, directories and symlinks", inputSet, c.pathOf(in, &c.tmp))
					continue
				}
				if !isExternal(c.pathOf(in, &c.tmp)) {
					wsExists = true
				}
				for _, file := range c.appendFiles(nil, in, &c.tmp) {
					for _, p := range c.runfilesPaths(file.Path, legacy) {
						file.Path = tree + "/" + p
						t.put(file)
					}
				}
			}
		})
		if err := cmp.Or(bad, err); err != nil {
			return n, err
		}
	}
	for _, e := range empty {
		wsExists = true
		t.put(spawn.File{Path: ws + e})
	}
	if rootSymlinks != 0 {
		set, err := c.ref("root_symlinks_id", rootSymlinks, entrySymlinkEntrySet)
		if err != nil {
			return n, err
		}
		before := len(t.rootNames)
		if err := c.symlinkFiles(set, tree+"/", &t); err != nil {
			return n, err
		}
		for _, name := range t.rootNames[before:] {
			if strings.HasPrefix(name, c.workspace+"/") {
				wsExists = true
			}
		}
	}
	if hasRepoMapping {
		file, err := logFile(repoMapping, payloadLevel-1, "", nil)
		if err != nil {
			return n, fmt.Errorf("repo_mapping_manifest: %w", err)
		}
		file.Path = tree + "/_repo_mapping"
		t.put(file)
	}
	if !legacy && !wsExists {
		t.put(spawn.File{Path: ws + ".runfile"})
	}
	// Each file of the tree is stored: count it.
	if err := c.step(len(t.files)); err != nil {
		return n, err
	}
	n.dir.files = make([]spawn.File, 0, len(t.files))
	for _, file := range t.files {
		n.dir.files = append(n.dir.files, file)
	}
	slices.SortFunc(n.dir.files, func(a, b spawn.File) int { return strings.Compare(a.Path, b.Path) })
	return n, nil
}

// runfiles is a tree being assembled: path → file, later puts winning.
type runfiles struct {
	files map[string]spawn.File
	// rootNames collects the names symlinkFiles laid out, in order.
	rootNames []string
}

func (t *runfiles) put(f spawn.File) { t.files[f.Path] = f }

// symlinkFiles lays out the symlinks of a symlink entry set under prefix:
// its transitive sets first, then its own entries, later ones winning.
// A symlink to a directory stands for the directory's files.
func (c *compactReader) symlinkFiles(set uint32, prefix string, t *runfiles) error {
	return c.walkSets(set, func(node uint32, targets []uint32) {
		for i, name := range c.namesOf(node) {
			t.rootNames = append(t.rootNames, name)
			at := prefix + name
			target := targets[i]
			if target == noTarget {
				t.put(spawn.File{Path: at})
				continue
			}
			if c.kind(target) != entryDirectory {
				file := c.appendFiles(nil, target, &c.tmp)[0]
				file.Path = at
				t.put(file)
				continue
			}
			dir := c.pathOf(target, &c.tmp)
			for _, file := range c.appendFiles(nil, target, &c.tmp) {
				file.Path = at + strings.TrimPrefix(file.Path, dir)
				t.put(file)
			}
		}
	})
}

// runfilesPaths returns where an artifact lies in a runfiles tree,
// relative to the tree: an output's configuration prefix
// (bazel-out/<config>/bin/) is dropped; a file of an external repository
// lies under the repository's name (and, with legacy external runfiles,
// also under <workspace>/external/); any other under <workspace>/.
func (c *compactReader) runfilesPaths(execPath string, legacy bool) []string {
	p := trimOutputPrefix(execPath)
	if rest, ok := strings.CutPrefix(p, "external/"); ok {
		if legacy {
			return []string{rest, c.workspace + "/" + p}
		}
		return []string{rest}
	}
	return []string{c.workspace + "/" + p}
}

// trimOutputPrefix drops "bazel-out/<config>/<bin or genfiles>/" (or
// blaze-out) from a generated file's exec path.
func trimOutputPrefix(p string) string {
	rest, ok := strings.CutPrefix(p, "bazel-out/")
	if !ok {
		if rest, ok = strings.CutPrefix(p, "blaze-out/"); !ok {
			return p
		}
	}
	for range 2 {
		i := strings.IndexByte(rest, '/')
		if i <= 0 {
			return p
		}
		rest = rest[i+1:]
	}
	return rest
}

// isExternal reports whether an exec path belongs to an external
// repository, as a source file or as an output.
func isExternal(p string) bool {
	return strings.HasPrefix(trimOutputPrefix(p), "external/")
}
