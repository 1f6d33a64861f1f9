"""A Starlark rule that runs a shell command, with or without the default shell environment."""

def _shell_output_impl(ctx):
    out = ctx.actions.declare_file(ctx.label.name + ".txt")
    ctx.actions.run_shell(
        inputs = ctx.files.srcs,
        outputs = [out],
        command = ctx.attr.command,
        arguments = [out.path] + [f.path for f in ctx.files.srcs],
        env = ctx.attr.env,
        use_default_shell_env = ctx.attr.use_default_shell_env,
        mnemonic = "ShellOutput",
        progress_message = "Writing %s" % out.short_path,
    )
    return [DefaultInfo(files = depset([out]))]

shell_output = rule(
    implementation = _shell_output_impl,
    doc = "Runs `command` with bash; the output's path is $1, the sources' paths follow.",
    attrs = {
        "command": attr.string(mandatory = True, doc = "A bash script that writes $1."),
        "srcs": attr.label_list(allow_files = True, doc = "Inputs, passed as $2 and on."),
        "env": attr.string_dict(doc = "The action's environment, when use_default_shell_env is False."),
        "use_default_shell_env": attr.bool(doc = "Whether the action gets --action_env's variables instead of env."),
    },
)
