"""Provisions the Ahab binary for the host, shared by WORKSPACE and bzlmod.

Consumers never build Ahab: a release publishes one static binary per host
platform, and this repository rule downloads the one for the machine that runs
Bazel, checked against the sha256 the release recorded in release.bzl. Under
`bazel run` the binary runs on that machine, so the host, not an execution
platform, decides which binary is needed.
"""

load("//private:release.bzl", "AHAB_PREBUILT", "AHAB_VERSION")

DEFAULT_URL_TEMPLATES = [
    "https://github.com/ahab-go/ahab/releases/download/v{version}/ahab-{version}-{platform}.tar.gz",
]

_LOCAL = "AHAB_PREBUILT_LOCAL"

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
    version = rctx.attr.version
    advice = "set %s=<directory containing an `ahab` binary> to use one you built" % _LOCAL
    if not rctx.attr.sha256s:
        # Only a release records sums: this is a source checkout of Ahab.
        fail(("Ahab %s is a source checkout, which publishes no binaries: build one with " +
              "`go build -o /some/dir/ahab ./cmd/ahab` in the checkout, then add " +
              "`build --repo_env=%s=/some/dir` and the same `query` and `fetch` lines to .bazelrc " +
              "(`common` on Bazel 7 and later), or depend on a released version of Ahab") % (version, _LOCAL))
    platform = _host_platform(rctx)
    sha256 = rctx.attr.sha256s.get(platform)
    if not sha256:
        fail("Ahab %s publishes no binary for this host (%s), expected one of: %s; %s" % (
            version,
            platform,
            ", ".join(sorted(rctx.attr.sha256s.keys())),
            advice,
        ))
    rctx.download_and_extract(
        url = [t.format(version = version, platform = platform) for t in rctx.attr.url_templates],
        sha256 = sha256,
        type = "tar.gz",
        output = "bin",
    )
    return "Ahab %s for %s, sha256 %s" % (version, platform, sha256)

def _ahab_prebuilt_impl(rctx):
    directory = _getenv(rctx, _LOCAL)
    if directory:
        origin = _local_binary(rctx, directory)
    else:
        origin = _released_binary(rctx)
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
