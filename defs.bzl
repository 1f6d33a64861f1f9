"""Public API of Ahab: targets that analyze this workspace under `bazel run`.

    load("@ahab//:defs.bzl", "ahab", "ahab_check", "ahab_explain", "ahab_update")

Every macro declares one executable target. Ahab runs `bazel aquery` itself,
which no build action may do, so these targets are run with `bazel run`, never
built as tests. Arguments after `--` reach the binary:
`bazel run //:hermeticity -- --shut-up`. See docs/bazel.md.
"""

load("//private:ahab.bzl", "ahab_rule")
load("//private:macros.bzl", "baseline_path", "check_workspace_path", "inline_files")

def ahab(
        name,
        label = None,
        configs = [],
        compilation_mode = None,
        shut_up = False,
        no_fail = False,
        write_json = None,
        explain_json = None,
        expect_json = None,
        repro_specs = [],
        exceptions = [],
        exception_sets = [],
        compat = None,
        sarif = None,
        **kwargs):
    """Analyzes `label` and reports what makes the build depend on the machine.

    Args:
      name: the target's name.
      label: the query expression to analyze, e.g. `//...` or
        `//... - //experimental/...`; required unless `explain_json` is set.
      configs: names passed as `--config=NAME` to the analysis, in order.
      compilation_mode: `fastbuild`, `dbg` or `opt` instead of the default.
      shut_up: suppress the sign-off.
      no_fail: exit 0 even when violations are found.
      write_json: also write the report to this path, relative to the
        workspace root.
      explain_json: a saved report (label) to print instead of analyzing.
      expect_json: a saved report (label) the findings must match exactly.
      repro_specs: reproducibility specs, each a label of a JSON file or a
        dict of programs written inline; later entries override earlier ones.
      exceptions: exceptions, each a label of a JSON file or a single
        exception written inline as a dict.
      exception_sets: ready-made exception sets by name, e.g. `host-cc`
        for a C/C++ toolchain Bazel autoconfigured from this machine
        (the README's "Exceptions" lists them).
      compat: `"0.2"` judges exactly as Ahab 0.2 did, for a baseline it
        recorded; unset is Ahab's own judgement.
      sarif: also write the findings as a SARIF 2.1.0 log to this path,
        relative to the workspace root, for code scanning.
      **kwargs: passed to the rule (visibility, tags, ...).
    """
    if not label and not explain_json:
        fail("%s: needs a `label` to analyze, unless `explain_json` is set" % name)
    if no_fail and expect_json:
        fail("%s: `no_fail` cannot be combined with `expect_json`, whose whole point is to fail on a difference" % name)
    if write_json != None:
        check_workspace_path(name, "write_json", write_json)
    if sarif != None:
        check_workspace_path(name, "sarif", sarif)
    ahab_rule(
        name = name,
        label = label or "",
        configs = configs,
        compilation_mode = compilation_mode or "",
        shut_up = shut_up,
        no_fail = no_fail,
        write_json = write_json or "",
        sarif = sarif or "",
        explain_json = explain_json,
        expect_json = expect_json,
        repro_specs = inline_files(name, "repro_specs", repro_specs),
        exceptions = inline_files(name, "exceptions", exceptions),
        exception_sets = exception_sets,
        compat = compat or "",
        **kwargs
    )

def ahab_check(
        name,
        label,
        baseline,
        configs = [],
        compilation_mode = None,
        shut_up = False,
        repro_specs = [],
        exceptions = [],
        exception_sets = [],
        compat = None,
        **kwargs):
    """Fails with a diff unless the findings match `baseline` exactly.

    Prints nothing and exits 0 on a match: the target to run in CI.

    Args:
      name: the target's name.
      label: the query expression to analyze.
      baseline: the label of the report `ahab_update` records.
      configs: as for `ahab`.
      compilation_mode: as for `ahab`.
      shut_up: as for `ahab`.
      repro_specs: as for `ahab`.
      exceptions: as for `ahab`.
      exception_sets: as for `ahab`.
      compat: as for `ahab`.
      **kwargs: passed to the rule (visibility, tags, ...).
    """
    ahab(
        name = name,
        label = label,
        expect_json = baseline,
        configs = configs,
        compilation_mode = compilation_mode,
        shut_up = shut_up,
        repro_specs = repro_specs,
        exceptions = exceptions,
        exception_sets = exception_sets,
        compat = compat,
        **kwargs
    )

def ahab_update(
        name,
        label,
        baseline,
        configs = [],
        compilation_mode = None,
        shut_up = False,
        repro_specs = [],
        exceptions = [],
        exception_sets = [],
        compat = None,
        **kwargs):
    """Records the current findings in `baseline`, in the source tree.

    The file is written relative to the workspace root whatever directory
    `bazel run` is started from, so `baseline` must be in this repository.

    Args:
      name: the target's name.
      label: the query expression to analyze.
      baseline: the label of the report to write; give `ahab_check` the same.
      configs: as for `ahab`.
      compilation_mode: as for `ahab`.
      shut_up: as for `ahab`.
      repro_specs: as for `ahab`.
      exceptions: as for `ahab`.
      exception_sets: as for `ahab`.
      compat: as for `ahab`.
      **kwargs: passed to the rule (visibility, tags, ...).
    """
    ahab(
        name = name,
        label = label,
        write_json = baseline_path(name, baseline),
        no_fail = True,
        configs = configs,
        compilation_mode = compilation_mode,
        shut_up = shut_up,
        repro_specs = repro_specs,
        exceptions = exceptions,
        exception_sets = exception_sets,
        compat = compat,
        **kwargs
    )

def ahab_explain(name, report, shut_up = False, **kwargs):
    """Prints a saved report without analyzing anything.

    Exits 1 when the report holds violations, like a run that found them.

    Args:
      name: the target's name.
      report: the label of a report written by `ahab_update` or `write_json`.
      shut_up: as for `ahab`.
      **kwargs: passed to the rule (visibility, tags, ...).
    """
    ahab(
        name = name,
        explain_json = report,
        shut_up = shut_up,
        **kwargs
    )
