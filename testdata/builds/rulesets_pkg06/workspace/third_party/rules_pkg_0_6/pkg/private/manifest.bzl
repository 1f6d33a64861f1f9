"""The manifest a pkg_* rule writes for its tool: which file goes where."""

def destination(f, strip_prefix):
    """Where f goes in the archive, relative to package_dir.

    With no strip_prefix a file goes by its base name (rules_pkg's
    "flatten" default); with "." by its path inside its package.
    """
    if strip_prefix == ".":
        package = f.owner.package
        if package and f.short_path.startswith(package + "/"):
            return f.short_path[len(package) + 1:]
        return f.short_path
    return f.basename

def write_manifest(ctx, srcs, strip_prefix, symlinks = {}):
    """Declares NAME.manifest and writes one entry per file and symlink."""
    entries = []
    for f in srcs:
        entries.append({"type": "file", "dest": destination(f, strip_prefix), "src": f.path})
    for link, target in symlinks.items():
        entries.append({"type": "symlink", "dest": link, "src": target})
    manifest = ctx.actions.declare_file(ctx.label.name + ".manifest")
    ctx.actions.write(manifest, json.encode(entries) + "\n")
    return manifest
