"""One genrule per case: a command that writes the single output $@."""

def case(name, cmd, srcs = []):
    native.genrule(
        name = name,
        srcs = srcs,
        outs = [name + ".out"],
        cmd = cmd,
    )

# FILES makes a scratch directory $d holding eight small files, created in an
# order that is neither sorted nor reversed, so directory order shows.
FILES = "d=$$(mktemp -d) && for f in k3 a9 zz m1 b2 q7 c4 x0; do printf '%s\\n' $$f > $$d/$$f; done && "

def _run_shell_impl(ctx):
    out = ctx.actions.declare_file(ctx.label.name + ".out")
    ctx.actions.run_shell(
        outputs = [out],
        command = ctx.attr.command,
        arguments = ctx.attr.args_before + [out.path],
        mnemonic = "RunShellCase",
    )
    return [DefaultInfo(files = depset([out]))]

# run_shell_case runs `command` with ctx.actions.run_shell; the arguments are
# args_before followed by the output's path, so the script sees them as $1...
run_shell_case = rule(
    implementation = _run_shell_impl,
    attrs = {
        "command": attr.string(mandatory = True),
        "args_before": attr.string_list(),
    },
)
