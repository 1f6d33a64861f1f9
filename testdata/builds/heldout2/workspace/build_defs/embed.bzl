"""embed_resources: compiles files into a C source as byte arrays."""

def _embed_resources_impl(ctx):
    out = ctx.actions.declare_file(ctx.label.name + ".c")
    args = ctx.actions.args()
    args.add("--symbol", ctx.attr.symbol)
    args.add("--output", out)
    args.add_all(ctx.files.srcs)
    ctx.actions.run(
        executable = ctx.executable._embed,
        arguments = [args],
        inputs = ctx.files.srcs,
        outputs = [out],
        mnemonic = "EmbedResources",
        progress_message = "Embedding %d files into %s" % (len(ctx.files.srcs), out.short_path),
    )
    return [DefaultInfo(files = depset([out]))]

embed_resources = rule(
    implementation = _embed_resources_impl,
    attrs = {
        "srcs": attr.label_list(allow_files = True, mandatory = True),
        "symbol": attr.string(mandatory = True),
        "_embed": attr.label(
            default = "//build_defs:embed",
            executable = True,
            cfg = "exec",
        ),
    },
)
