"""Provisions the Ahab binary for the host, shared by WORKSPACE and bzlmod.

Consumers of a release never build Ahab: a release publishes one static binary
per host platform, and this repository rule downloads the one for the machine
that runs Bazel, checked against the sha256 the release recorded in
release.bzl. Under `bazel run` the binary runs on that machine, so the host,
not an execution platform, decides which binary is needed. Where no published
binary matches (a checkout, an unreleased commit, a host the release lacks),
the rule builds Ahab from the source it was loaded from, with the machine's
Go, unless AHAB_PREBUILT_LOCAL names a binary.
"""

load("//private:release.bzl", "AHAB_PREBUILT", "AHAB_VERSION")

DEFAULT_URL_TEMPLATES = [
    "https://github.com/ahab-go/ahab/releases/download/v{version}/ahab-{version}-{platform}.tar.gz",
]

_LOCAL = "AHAB_PREBUILT_LOCAL"

# The root of the source this file belongs to: the module being built from
# source when no published binary matches.
_SOURCE = Label("//:go.mod")

_OS = {
    "darwin": "darwin",
    "linux": "linux",
    "mac os x": "darwin",
}

_ARCH = {
    "aarch64": "arm64",
    "amd64": "x86_64",
    "arm64": "arm64",
    "x86_64": "x86_64",
}

_BUILD = """\
load("@bazel_skylib//rules:native_binary.bzl", "native_binary")

# {origin}
native_binary(
    name = "ahab",
    src = "bin/ahab",
    out = "ahab_exe",
    visibility = ["//visibility:public"],
)
"""

def _getenv(rctx, name):
    # `getenv` (Bazel 7.1+) records the dependency itself; older versions rely
    # on the rule's `environ` list.
    if hasattr(rctx, "getenv"):
        return rctx.getenv(name, "")
    return rctx.os.environ.get(name, "")

def _host_platform(rctx):
    os = _OS.get(rctx.os.name.lower(), rctx.os.name.lower())
    if hasattr(rctx.os, "arch"):
        machine = rctx.os.arch
    else:
        # Bazel before 5.1 has no `arch`.
        result = rctx.execute(["uname", "-m"])
        machine = result.stdout.strip() if result.return_code == 0 else "unknown"
    return "%s_%s" % (os, _ARCH.get(machine.lower(), machine.lower()))

def _local_binary(rctx, directory):
    if not directory.startswith("/"):
        fail("%s=%r is not an absolute path, expected the absolute path of a directory holding an `ahab` binary" % (_LOCAL, directory))
    binary = rctx.path(directory + "/ahab")
    if not binary.exists:
        fail("%s=%r: %s does not exist, expected a directory holding an `ahab` binary" % (_LOCAL, directory, binary))
    rctx.symlink(binary, "bin/ahab")
    return "%s from %s=%s" % (binary, _LOCAL, directory)

def _released_binary(rctx):
    """Downloads the published binary, or says why there is none."""
    version = rctx.attr.version
    if not rctx.attr.sha256s:
        # Only a release records sums.
        return None, "Ahab %s is a source checkout or an unreleased commit, for which no binary is published" % version
    platform = _host_platform(rctx)
    sha256 = rctx.attr.sha256s.get(platform)
    if not sha256:
        return None, "Ahab %s publishes no binary for this host (%s), expected one of: %s" % (
            version,
            platform,
            ", ".join(sorted(rctx.attr.sha256s.keys())),
        )
    rctx.download_and_extract(
        url = [t.format(version = version, platform = platform) for t in rctx.attr.url_templates],
        sha256 = sha256,
        type = "tar.gz",
        output = "bin",
    )
    return "Ahab %s for %s, sha256 %s" % (version, platform, sha256), None

def _go_version(rctx):
    for line in rctx.read(_SOURCE).splitlines():
        if line.startswith("go "):
            return line[len("go "):].strip()
    return "(see go.mod)"

def _watch_source(rctx, root):
    # Bazel 7.1 and later refetch when a watched file changes; before, a
    # change to the checkout needs `bazel sync --only=<this repository>`.
    if not hasattr(rctx, "watch_tree"):
        return
    for name in ["go.mod", "go.sum", "MODULE.bazel", "version.go"]:
        rctx.watch(root.get_child(name))
    for name in ["cmd", "internal"]:
        rctx.watch_tree(root.get_child(name))

def _source_binary(rctx, why):
    """Builds Ahab from this file's own source with the Go on PATH."""
    go = rctx.which("go")
    if not go:
        fail(("%s, and there is no `go` on PATH to build it from source. Either install Go %s or later " +
              "and put it on PATH, and Bazel builds Ahab from this source and keeps it like any repository; " +
              "or build one yourself with `go build -o /some/dir/ahab ./cmd/ahab` in a checkout of Ahab and add " +
              "`build --repo_env=%s=/some/dir` and the same `query` and `fetch` lines to .bazelrc " +
              "(`common` on Bazel 7 and later)") % (why, _go_version(rctx), _LOCAL))
    root = rctx.path(_SOURCE).dirname
    _watch_source(rctx, root)

    # Static, as the released binaries are, so no C compiler is needed; the
    # version comes from MODULE.bazel, embedded, not from version control.
    env = {"CGO_ENABLED": "0"}
    if not rctx.os.environ.get("HOME"):
        # Go keeps its caches under HOME unless told otherwise; without
        # either, it keeps them in this repository.
        for name, directory in [("GOCACHE", "go/cache"), ("GOPATH", "go/path")]:
            if not rctx.os.environ.get(name):
                env[name] = str(rctx.path(directory))
    rctx.report_progress("building Ahab from %s with %s" % (root, go))
    result = rctx.execute(
        [go, "build", "-trimpath", "-buildvcs=false", "-o", str(rctx.path("bin/ahab")), "./cmd/ahab"],
        working_directory = str(root),
        environment = env,
        timeout = 3600,
    )
    if result.return_code != 0:
        fail("%s; building it from %s with %s failed (exit %d):\n%s%s\nSet %s=<directory containing an `ahab` binary> to use one you built instead" % (
            why,
            root,
            go,
            result.return_code,
            result.stdout,
            result.stderr,
            _LOCAL,
        ))
    return "%s: built from %s with %s" % (why, root, go)

def _ahab_prebuilt_impl(rctx):
    directory = _getenv(rctx, _LOCAL)
    if directory:
        origin = _local_binary(rctx, directory)
    else:
        origin, why = _released_binary(rctx)
        if why:
            origin = _source_binary(rctx, why)
    rctx.file("BUILD.bazel", _BUILD.format(origin = origin))
    rctx.file("WORKSPACE", 'workspace(name = "%s")\n' % rctx.name)

ahab_prebuilt = repository_rule(
    implementation = _ahab_prebuilt_impl,
    doc = "The Ahab binary for the host: `@<name>//:ahab`.",
    attrs = {
        "sha256s": attr.string_dict(
            doc = "Host platform (`linux_x86_64`, ...) -> sha256 of its archive.",
        ),
        "url_templates": attr.string_list(
            doc = "Where archives are published; `{version}` and `{platform}` are filled in.",
            default = DEFAULT_URL_TEMPLATES,
        ),
        "version": attr.string(mandatory = True),
    },
    environ = [_LOCAL],
)

def prebuilt_repository(name = "ahab_prebuilt", url_templates = DEFAULT_URL_TEMPLATES):
    """Declares the binary repository for this version of Ahab.

    Both `ahab_dependencies()` (WORKSPACE) and the `prebuilt` module extension
    (bzlmod) call this, so the two paths cannot differ.

    Args:
      name: the repository's name.
      url_templates: where the release archives are published.
    """
    ahab_prebuilt(
        name = name,
        version = AHAB_VERSION,
        sha256s = AHAB_PREBUILT,
        url_templates = url_templates,
    )
