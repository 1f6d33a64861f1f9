"""Where rules_pkg 0.7 wants pkg_zip loaded from: @rules_pkg//pkg:zip.bzl."""

load("//pkg/private/zip:zip.bzl", _pkg_zip = "pkg_zip")

pkg_zip = _pkg_zip
