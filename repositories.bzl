"""WORKSPACE setup for Ahab (Bazel without bzlmod).

    load("@ahab//:repositories.bzl", "ahab_dependencies")

    ahab_dependencies()
"""

load("@bazel_tools//tools/build_defs/repo:http.bzl", "http_archive")
load("@bazel_tools//tools/build_defs/repo:utils.bzl", "maybe")
load("//private:prebuilt.bzl", "DEFAULT_URL_TEMPLATES", "prebuilt_repository", _ahab_prebuilt = "ahab_prebuilt")

ahab_prebuilt = _ahab_prebuilt

def ahab_dependencies(url_templates = DEFAULT_URL_TEMPLATES):
    """Declares what Ahab needs; repositories already declared are kept.

    Args:
      url_templates: where the release archives are published, with
        `{version}` and `{platform}` placeholders; override to use a mirror.
    """
    maybe(
        http_archive,
        name = "bazel_skylib",
        sha256 = "bc283cdfcd526a52c3201279cda4bc298652efa898b10b4db0837dc51652756f",
        urls = [
            "https://mirror.bazel.build/github.com/bazelbuild/bazel-skylib/releases/download/1.7.1/bazel-skylib-1.7.1.tar.gz",
            "https://github.com/bazelbuild/bazel-skylib/releases/download/1.7.1/bazel-skylib-1.7.1.tar.gz",
        ],
    )
    if not native.existing_rule("ahab_prebuilt"):
        prebuilt_repository(url_templates = url_templates)
