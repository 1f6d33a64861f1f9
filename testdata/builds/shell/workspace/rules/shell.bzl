"""A Starlark rule that runs a shell command with ctx.actions.run_shell."""

def _shell_output_impl(ctx):
    out = ctx.actions.declare_file(ctx.label.name + ".txt")
    ctx.actions.run_shell(
        outputs = [out],
        command = ctx.attr.command,
        arguments = [out.path],
        mnemonic = "ShellOutput",
        progress_message = "Writing %s" % out.short_path,
    )
    return [DefaultInfo(files = depset([out]))]

shell_output = rule(
    implementation = _shell_output_impl,
    doc = "Runs `command` with bash; the output's path is $1.",
    attrs = {
        "command": attr.string(mandatory = True, doc = "A bash script that writes $1."),
    },
)
