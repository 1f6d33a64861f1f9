"""release_tarball: the release's .tar.gz, packed by @releasetools//:mktar."""

def _release_tarball_impl(ctx):
    out = ctx.actions.declare_file(ctx.attr.prefix + ".tar.gz")
    args = ctx.actions.args()
    args.add("--out", out)
    args.add("--prefix", ctx.attr.prefix)
    args.add("--mtime", ctx.attr.mtime)
    inputs = []
    for target, name in ctx.attr.srcs.items():
        for f in target.files.to_list():
            args.add("%s=%s" % (name, f.path))
            inputs.append(f)
    ctx.actions.run(
        executable = ctx.executable._mktar,
        arguments = [args],
        inputs = inputs,
        outputs = [out],
        mnemonic = "ReleaseTarball",
        progress_message = "Packing %s" % out.short_path,
    )
    return [DefaultInfo(files = depset([out]))]

release_tarball = rule(
    implementation = _release_tarball_impl,
    attrs = {
        "srcs": attr.label_keyed_string_dict(allow_files = True, mandatory = True),
        "prefix": attr.string(mandatory = True),
        "mtime": attr.string(default = "0"),
        "_mktar": attr.label(
            default = "@releasetools//:mktar",
            executable = True,
            cfg = "exec",
        ),
    },
)
