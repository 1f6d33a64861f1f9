// Command release cross-compiles the prebuilt Ahab binaries and records their
// sha256 sums in private/release.bzl, where the Bazel module extension and
// ahab_dependencies() read them. Run it from the module root:
//
//	go run ./internal/devtools/release                 # all platforms into dist/, rewrites private/release.bzl
//	go run ./internal/devtools/release --platform linux_x86_64 --table ""
//
// Building twice gives the same bytes (see internal/release), so anyone can
// check a published archive against the recorded sum.
package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"

	"github.com/spf13/pflag"

	"github.com/ahab-go/ahab"
	"github.com/ahab-go/ahab/internal/release"
)

func main() {
	if err := run(os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "release:", err)
		os.Exit(1)
	}
}

func run(args []string) error {
	flags := pflag.NewFlagSet("release", pflag.ContinueOnError)
	out := flags.String("out", "dist", "directory for the archives and SHA256SUMS")
	table := flags.String("table", filepath.Join("private", "release.bzl"), `Starlark table to rewrite ("" to leave it alone)`)
	version := flags.String("version", "", "version to publish (default: MODULE.bazel's)")
	names := flags.StringSlice("platform", nil, "platform to build (repeatable; default: all)")
	if err := flags.Parse(args); err != nil {
		return err
	}
	if flags.NArg() > 0 {
		return fmt.Errorf("unexpected argument %q", flags.Arg(0))
	}

	moduleBazel, err := os.ReadFile("MODULE.bazel")
	if err != nil {
		return fmt.Errorf("%w (run from the module root)", err)
	}
	moduleVersion, err := ahab.ModuleVersion(moduleBazel)
	if err != nil {
		return err
	}
	if *version == "" {
		*version = moduleVersion
	} else if *version != moduleVersion {
		return fmt.Errorf("--version %s: MODULE.bazel says %s, expected the same", *version, moduleVersion)
	}
	var platforms []release.Platform
	for _, name := range *names {
		p, err := release.PlatformNamed(name)
		if err != nil {
			return fmt.Errorf("--platform: %w", err)
		}
		platforms = append(platforms, p)
	}

	artifacts, err := release.Build(context.Background(), release.Options{
		ModuleDir: ".",
		OutDir:    *out,
		Version:   *version,
		Platforms: platforms,
	})
	if err != nil {
		return err
	}
	if err := checkHostVersion(artifacts, *version); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(*out, "SHA256SUMS"), release.SHA256Sums(artifacts), 0o644); err != nil {
		return err
	}
	for _, a := range artifacts {
		fmt.Printf("%s  %s\n", a.SHA256, a.Path)
	}
	if *table != "" {
		if len(artifacts) != len(release.Platforms) {
			return errors.New("--table: a partial release would drop published platforms; build all of them or pass --table \"\"")
		}
		if err := os.WriteFile(*table, release.Table(*version, artifacts), 0o644); err != nil {
			return err
		}
		fmt.Printf("wrote %s\n", *table)
	}
	return nil
}

// checkHostVersion runs the binary built for this machine, if any, so that a
// release whose binary reports another version than MODULE.bazel is refused.
func checkHostVersion(artifacts []release.Artifact, version string) error {
	for _, a := range artifacts {
		if a.Platform.GOOS != runtime.GOOS || a.Platform.GOARCH != runtime.GOARCH {
			continue
		}
		archive, err := os.Open(a.Path)
		if err != nil {
			return err
		}
		binary, err := release.ReadArchive(archive)
		archive.Close()
		if err != nil {
			return fmt.Errorf("%s: %w", a.Path, err)
		}
		dir, err := os.MkdirTemp("", "ahab-release-check-")
		if err != nil {
			return err
		}
		defer os.RemoveAll(dir)
		if err := os.WriteFile(filepath.Join(dir, "ahab"), binary, 0o755); err != nil {
			return err
		}
		got, err := exec.Command(filepath.Join(dir, "ahab"), "--version").Output()
		if err != nil {
			return fmt.Errorf("%s: ahab --version: %w", a.Path, err)
		}
		if want := "ahab " + version; strings.TrimSpace(string(got)) != want {
			return fmt.Errorf("%s: ahab --version printed %q, expected %q", a.Path, strings.TrimSpace(string(got)), want)
		}
	}
	return nil
}
