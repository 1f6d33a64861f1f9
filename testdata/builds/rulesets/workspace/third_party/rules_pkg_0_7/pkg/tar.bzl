"""Where rules_pkg 0.7 wants pkg_tar loaded from: @rules_pkg//pkg:tar.bzl."""

load("//pkg/private/tar:tar.bzl", _pkg_tar = "pkg_tar")

pkg_tar = _pkg_tar
