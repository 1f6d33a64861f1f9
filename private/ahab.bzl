"""The rule behind every public macro: a launcher that `bazel run` executes.

Ahab has to run Bazel itself (`bazel info`, then `bazel aquery`), which no
action may do, so the rule only writes a script that calls the Ahab binary
with the flags its attributes spell out (reference §10.2).
"""

load("@bazel_skylib//lib:shell.bzl", "shell")

def _runfile(file):
    # `bazel run` starts the launcher in the runfiles tree of the main
    # repository, where every runfile sits at its short path (`../repo/...`
    # for other repositories), so this is absolute once RUNFILES is known.
    return '"$RUNFILES"/' + shell.quote(file.short_path)

def _ahab_impl(ctx):
    words = [_runfile(ctx.executable._ahab)]
    if ctx.attr.compat:
        words.append(shell.quote("--compat=" + ctx.attr.compat))
    words.extend([shell.quote("--config=" + config) for config in ctx.attr.configs])
    if ctx.attr.compilation_mode:
        words.append(shell.quote("--compilation-mode=" + ctx.attr.compilation_mode))
    if ctx.attr.shut_up:
        words.append(shell.quote("--shut-up"))
    if ctx.attr.no_fail:
        words.append(shell.quote("--no-fail"))
    if ctx.attr.label:
        # A default, so that `bazel run //:target -- //x/...` analyses
        # //x/... instead of both.
        words.append(shell.quote("--default-label=" + ctx.attr.label))
    if ctx.attr.write_json:
        words.append(shell.quote("--write-json"))
        words.append('"$BUILD_WORKSPACE_DIRECTORY"/' + shell.quote(ctx.attr.write_json))
    if ctx.attr.sarif:
        words.append(shell.quote("--sarif"))
        words.append('"$BUILD_WORKSPACE_DIRECTORY"/' + shell.quote(ctx.attr.sarif))

    inputs = []
    for flag, files in [
        ("--explain-json", [ctx.file.explain_json] if ctx.file.explain_json else []),
        ("--expect-json", [ctx.file.expect_json] if ctx.file.expect_json else []),
        ("--repro-specs", ctx.files.repro_specs),
        ("--exceptions-json", ctx.files.exceptions),
    ]:
        for file in files:
            words.append(shell.quote(flag))
            words.append(_runfile(file))
            inputs.append(file)
    for exception_set in ctx.attr.exception_sets:
        words.append(shell.quote("--exceptions-json=ahab:" + exception_set))

    launcher = ctx.actions.declare_file(ctx.label.name + ".bash")
    ctx.actions.expand_template(
        template = ctx.file._template,
        output = launcher,
        substitutions = {
            "%COMMAND%": " \\\n  ".join(words),
            "%LABEL%": str(ctx.label),
        },
        is_executable = True,
    )
    runfiles = ctx.runfiles(files = [ctx.executable._ahab] + inputs)
    runfiles = runfiles.merge(ctx.attr._ahab[DefaultInfo].default_runfiles)
    return [DefaultInfo(executable = launcher, runfiles = runfiles)]

ahab_rule = rule(
    implementation = _ahab_impl,
    executable = True,
    doc = "Runs Ahab on this workspace under `bazel run`; use the macros in `@ahab//:defs.bzl`.",
    attrs = {
        "compat": attr.string(
            doc = "Judge exactly as that version of Ahab did (`--compat`); empty is Ahab's own judgement.",
            values = ["", "0.2"],
        ),
        "compilation_mode": attr.string(
            doc = "Passed as `--compilation_mode` to the analysis; empty keeps Bazel's default.",
            values = ["", "dbg", "fastbuild", "opt"],
        ),
        "configs": attr.string_list(
            doc = "Each becomes `--config=NAME` on the analysis, in this order.",
        ),
        "exception_sets": attr.string_list(
            doc = "Ready-made exception sets, by name (`--exceptions-json=ahab:NAME`), e.g. `host-cc`.",
        ),
        "exceptions": attr.label_list(
            doc = "Exception files (`--exceptions-json`), in this order.",
            allow_files = [".json"],
        ),
        "expect_json": attr.label(
            doc = "A saved report to compare with (`--expect-json`).",
            allow_single_file = [".json"],
        ),
        "explain_json": attr.label(
            doc = "A saved report to print without analyzing (`--explain-json`).",
            allow_single_file = [".json"],
        ),
        "label": attr.string(
            doc = "The query expression to analyze when the command line names none (`--default-label`), passed verbatim (`//...`, `//... - //x/...`).",
        ),
        "no_fail": attr.bool(
            doc = "Exit 0 even when violations are found (`--no-fail`).",
        ),
        "repro_specs": attr.label_list(
            doc = "Reproducibility spec files (`--repro-specs`), in this order; later ones win.",
            allow_files = [".json"],
        ),
        "sarif": attr.string(
            doc = "Write the findings as a SARIF 2.1.0 log to this path, relative to the workspace root (`--sarif`).",
        ),
        "shut_up": attr.bool(
            doc = "Suppress the sign-off (`--shut-up`).",
        ),
        "write_json": attr.string(
            doc = "Write the report to this path, relative to the workspace root (`--write-json`).",
        ),
        "_ahab": attr.label(
            default = Label("//:ahab"),
            executable = True,
            cfg = "exec",
        ),
        "_template": attr.label(
            default = Label("//private:launcher.bash.tpl"),
            allow_single_file = True,
        ),
    },
)
