"""A Starlark rule whose action reads only the stable workspace status."""

def _stable_status_impl(ctx):
    out = ctx.actions.declare_file(ctx.label.name + ".txt")

    # ctx.info_file is bazel-out/stable-status.txt; unlike a stamped genrule,
    # the action does not also get volatile-status.txt as an input.
    ctx.actions.run_shell(
        inputs = [ctx.info_file],
        outputs = [out],
        command = "grep \"^$1 \" \"$2\" > \"$3\"",
        arguments = [ctx.attr.key, ctx.info_file.path, out.path],
        mnemonic = "StableStatus",
        progress_message = "Reading %s from the stable status" % ctx.attr.key,
    )
    return [DefaultInfo(files = depset([out]))]

stable_status = rule(
    implementation = _stable_status_impl,
    doc = "Writes the line of stable-status.txt that has `key`.",
    attrs = {
        "key": attr.string(mandatory = True, doc = "A key of stable-status.txt, e.g. BUILD_HOST."),
    },
)
