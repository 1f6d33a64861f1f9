"""Module extensions of Ahab (bzlmod)."""

load("//private:prebuilt.bzl", "prebuilt_repository")

def _prebuilt_impl(_module_ctx):
    prebuilt_repository()

prebuilt = module_extension(
    implementation = _prebuilt_impl,
    doc = "Declares @ahab_prebuilt, the Ahab binary for the host (see //private:prebuilt.bzl).",
)
