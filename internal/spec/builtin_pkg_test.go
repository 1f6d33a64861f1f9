package spec

import (
	"testing"
)

// The two requirements of the bsdtar spec (§6.8).
var (
	tarTimesUnmet = Unmet{
		Because: "the times an archive records are the filesystem's unless it is told otherwise",
		AnyOf:   []string{"* time=*", "--mtime=*", "@*"},
	}
	tarGzipUnmet = Unmet{
		Because: "gzip records the moment it compressed",
		AnyOf:   []string{"--options=*gzip:!timestamp*"},
	}
)

func TestBuiltinPkg(t *testing.T) {
	const (
		buildTar     = "@rules_pkg//pkg/private/tar/build_tar"
		buildTarPath = "bazel-out/k8-opt-exec/bin/external/rules_pkg+/pkg/private/tar/build_tar"
		bsdtar       = "@tar.bzl+toolchains//tar"
		bsdtarPath   = "external/tar.bzl++toolchains+bsd_tar_toolchains_linux_amd64/tar"
	)
	tarArgs := func(extra ...string) []string {
		return append([]string{buildTarPath, "--output=bazel-out/k8-fastbuild/bin/release/tarball.tar",
			"--mode=0644", "--owner=0.0", "--owner_name=root.root", "--manifest=bazel-out/k8-fastbuild/bin/release/tarball.manifest",
			"--directory=/opt/app"}, extra...)
	}
	bsd := func(args ...string) []string { return append([]string{bsdtarPath}, args...) }
	testInvocations(t, []invocation{
		{
			name:    "a_tar_told_when_to_say_it_was_written_is_reproducible",
			argv:    tarArgs("--mtime=portable"),
			program: buildTar, outcome: Reproducible,
		},
		{
			name:    "a_tar_with_no_mtime_is_reported",
			argv:    tarArgs(),
			program: buildTar, outcome: Conditional,
			unmet: []Unmet{missing("--mtime=*")},
		},
		{
			name:    "preserving_the_sources_mtime_breaks_it",
			argv:    tarArgs("--mtime=portable", "--preserve_mtime"),
			program: buildTar, outcome: Conditional,
			unmet: []Unmet{broken("--preserve_mtime")},
		},
		{
			name:    "the_tools_answer_to_both_of_their_names/build_tar",
			argv:    []string{"bazel-out/k8-opt-exec/bin/pkg/private/tar/build_tar", "--output=x.tar"},
			program: "//pkg/private/tar/build_tar", synonym: buildTar, outcome: Conditional,
			unmet: []Unmet{missing("--mtime=*")},
		},
		{
			name: "the_zip_tool_needs_no_timestamp_because_it_has_a_default",
			argv: []string{"bazel-out/k8-opt-exec/bin/external/rules_pkg+/pkg/private/zip/build_zip",
				"-o", "bazel-out/k8-fastbuild/bin/web/static_zip.zip", "-d", "/var/www/ledger", "-m", "0644"},
			program: "@rules_pkg//pkg/private/zip/build_zip", outcome: Reproducible,
		},
		{
			name:    "the_tools_answer_to_both_of_their_names/build_zip",
			argv:    []string{"bazel-out/k8-opt-exec/bin/pkg/private/zip/build_zip", "-o", "x.zip"},
			program: "//pkg/private/zip/build_zip", synonym: "@rules_pkg//pkg/private/zip/build_zip", outcome: Reproducible,
		},
		{
			name:    "the_tools_answer_to_both_of_their_names/make_deb",
			argv:    []string{"bazel-out/k8-opt-exec/bin/pkg/private/deb/make_deb", "--output=x.deb"},
			program: "//pkg/private/deb/make_deb", synonym: "@rules_pkg//pkg/private/deb/make_deb", outcome: Reproducible,
		},
		{
			name:    "make_deb is vouched for",
			argv:    []string{"bazel-out/k8-opt-exec/bin/external/rules_pkg+/pkg/private/deb/make_deb", "--output=x.deb", "--package=ledger"},
			program: "@rules_pkg//pkg/private/deb/make_deb", outcome: Reproducible,
		},
		{
			name:    "the_tools_answer_to_both_of_their_names/filter_directory",
			argv:    []string{"bazel-out/k8-opt-exec/bin/pkg/filter_directory", "--prefix=doc", "in", "out"},
			program: "//pkg/filter_directory", synonym: "@rules_pkg//pkg/filter_directory", outcome: Reproducible,
		},
		{
			name:    "filter_directory is vouched for",
			argv:    []string{"bazel-out/k8-opt-exec/bin/external/rules_pkg+/pkg/filter_directory", "--prefix=/opt/ledger/doc", "in", "out"},
			program: "@rules_pkg//pkg/filter_directory", outcome: Reproducible,
		},
		{
			name:    "brotli_compression_is_reproducible",
			argv:    []string{"bazel-out/k8-opt-exec/bin/external/brotli+/brotli", "--quality=11", "--force", "--output=bazel-out/k8-fastbuild/bin/web/app.js.br", "web/app.js"},
			program: "@brotli//brotli", outcome: Reproducible,
		},
		{
			name:    "the_tar_tool_is_reproducible_whichever_rule_dispatched_to_it",
			argv:    []string{"bazel-out/k8-opt-exec/bin/external/rules_tar+/tar/tool/tool_/tool", "--output", "x.tar", "--mtree", "x.mtree"},
			program: "@rules_tar//tar/tool/tool_/tool", outcome: Reproducible,
		},
		{
			name:    "tar_writing_from_a_specification_is_reproducible/gzip",
			argv:    bsd("--create", "--format", "gnutar", "--gzip", "--options=gzip:!timestamp", "--file", "group.tar.gz", "@group_mtree.txt"),
			program: bsdtar, outcome: Reproducible,
		},
		{
			name:    "tar_writing_from_a_specification_is_reproducible/xz",
			argv:    bsd("--create", "--xz", "--file", "source.tar.xz", "@source_mtree.txt"),
			program: bsdtar, outcome: Reproducible,
		},
		{
			name:    "tar_writing_from_a_specification_is_reproducible/uncompressed",
			argv:    bsd("--create", "--file", "o.tar", "@spec"),
			program: bsdtar, outcome: Reproducible,
		},
		{
			name:    "gzip_without_the_option_records_when_it_ran",
			argv:    bsd("--create", "--gzip", "--file", "o.tgz", "@spec"),
			program: bsdtar, outcome: Conditional,
			unmet: []Unmet{tarGzipUnmet},
		},
		{
			name:    "gzip_without_the_option_records_when_it_ran/other_options",
			argv:    bsd("--create", "--gzip", "--options", "gzip:compression-level=9", "--file", "o.tgz", "@spec"),
			program: bsdtar, outcome: Conditional,
			unmet: []Unmet{tarGzipUnmet},
		},
		{
			// The mtree file's lines as the expanded command line splices
			// them in place of its @ reference.
			name:    "a_spliced_specification_still_shows_that_it_states_the_times",
			argv:    bsd("--create", "--file", "o.tar", "#mtree", "./etc uid=0 gid=0 time=0.0 mode=0755 type=dir"),
			program: bsdtar, outcome: Reproducible,
		},
		{
			name:    "a_spliced_specification_still_shows_that_it_states_the_times/without_times",
			argv:    bsd("--create", "--file", "o.tar", "#mtree", "./etc uid=0 gid=0 mode=0755 type=dir"),
			program: bsdtar, outcome: Conditional,
			unmet: []Unmet{tarTimesUnmet},
		},
		{
			name:    "tar_creating_from_loose_files_records_their_timestamps",
			argv:    bsd("--create", "--file", "o.tar", "usr/share/doc"),
			program: bsdtar, outcome: Conditional,
			unmet: []Unmet{tarTimesUnmet},
		},
		{
			name:    "tar_creating_from_loose_files_records_their_timestamps/mtime_separate",
			argv:    bsd("--create", "--file", "o.tar", "--mtime", "0", "usr/share/doc"),
			program: bsdtar, outcome: Reproducible,
		},
		{
			name:    "tar_creating_from_loose_files_records_their_timestamps/mtime_joined",
			argv:    bsd("--create", "--file", "o.tar", "--mtime=0", "usr/share/doc"),
			program: bsdtar, outcome: Reproducible,
		},
		{
			name:    "extracting is reproducible",
			argv:    bsd("-x", "-f", "pkg.deb", "-C", "tmp"),
			program: bsdtar, outcome: Reproducible,
		},
		{
			name:    "both_toolchains_answer_with_the_same_tar/bazel_lib",
			argv:    []string{"external/bazel_lib++toolchains+bsd_tar_linux_amd64/tar", "--create", "--file", "o.tar", "@spec"},
			program: "@bazel_lib+toolchains//tar", synonym: bsdtar, outcome: Reproducible,
		},
		{
			name:    "both_toolchains_answer_with_the_same_tar/aspect_bazel_lib",
			argv:    []string{"external/aspect_bazel_lib++toolchains+bsd_tar_linux_amd64/tar", "--create", "--gzip", "--file", "o.tgz", "@spec"},
			program: "@aspect_bazel_lib+toolchains//tar", synonym: bsdtar, outcome: Conditional,
			unmet: []Unmet{tarGzipUnmet},
		},
	})
}
