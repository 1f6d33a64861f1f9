"""Where rules_pkg 0.6's users load the rules from: @rules_pkg//:pkg.bzl."""

load("//pkg:pkg.bzl", _pkg_tar = "pkg_tar", _pkg_zip = "pkg_zip")

pkg_tar = _pkg_tar
pkg_zip = _pkg_zip
