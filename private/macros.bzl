"""Load-time helpers of the public macros: inline JSON files and baseline paths."""

load("@bazel_skylib//rules:write_file.bzl", "write_file")

def inline_files(name, kind, values):
    """Turns each inline dict of `values` into a generated JSON file.

    Reference §10.3: the dict at index i is written to `<name>.<kind>.<i>.json`
    and its label takes the dict's place, so the list order stays the order of
    the flags on Ahab's command line.

    Args:
      name: the macro's target name.
      kind: `repro_specs` or `exceptions`; also picks the document's shape.
      values: labels and dicts, in the user's order.

    Returns:
      The list of labels to hand to the rule.
    """
    labels = []
    for i, value in enumerate(values):
        if type(value) == "dict":
            if kind == "repro_specs":
                doc = {"programs": value}
            else:
                doc = {"exceptions": [value]}
            out = "%s.%s.%d.json" % (name, kind, i)
            write_file(
                name = "_" + out,
                out = out,
                content = [json.encode_indent(doc, indent = "  "), ""],
                tags = ["manual"],
            )
            labels.append(":" + out)
        elif type(value) in ("string", "Label"):
            labels.append(value)
        else:
            fail("%s: %s[%d]: expected a dict or a label, got %s" % (name, kind, i, type(value)))
    return labels

def _is_main_repository(repository):
    # `native.repository_name()` is "@" in the main repository on Bazel 4 to 6
    # and "" on later versions; an explicit `@//` or `@@//` means the main one.
    return repository in ("", "@", "@@")

def _split_label(baseline):
    # Bazel 4.2.3 has no `native.package_relative_label`, so parse the label
    # the way Bazel would, relative to the package being loaded.
    repository = native.repository_name()
    text = baseline
    if text.startswith("@"):
        # `@repo` alone is short for `@repo//:repo`.
        repository, separator, rest = text.partition("//")
        text = "//" + rest if separator else "//:" + repository.lstrip("@")
    if text.startswith("//"):
        package, colon, target = text[2:].partition(":")
        if not colon:
            target = package.rpartition("/")[2]
    else:
        package = native.package_name()
        target = text[1:] if text.startswith(":") else text
    return repository, package, target

def baseline_path(name, baseline):
    """The workspace-relative path of `baseline`, a label of a file.

    Reference §10.3: `ahab_update` writes the baseline relative to the
    workspace root, so a label in any other repository cannot be written.

    Args:
      name: the macro's target name, for error messages.
      baseline: the label, as a string or a Label.

    Returns:
      `package/file`, or `file` at the root.
    """
    if type(baseline) == "Label":
        repository, package, target = baseline.workspace_name, baseline.package, baseline.name
    elif hasattr(native, "package_relative_label"):
        label = native.package_relative_label(baseline)
        repository, package, target = label.workspace_name, label.package, label.name
    else:
        repository, package, target = _split_label(baseline)
    if not _is_main_repository(repository):
        fail("%s: baseline %r is in another repository, so this workspace cannot write it" % (name, baseline))
    if not target:
        fail("%s: baseline %r names no file, expected //package:file" % (name, baseline))
    return package + "/" + target if package else target

def check_workspace_path(name, attribute, path):
    """Fails unless `path` stays inside the workspace it is relative to.

    Args:
      name: the macro's target name, for error messages.
      attribute: the attribute holding the path, for error messages.
      path: the path to check.
    """
    if not path or path.startswith("/") or ".." in path.split("/"):
        fail("%s: %s %r leaves the workspace, expected a path relative to the workspace root" % (name, attribute, path))
