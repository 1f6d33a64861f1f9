package cli

import (
	"context"
	"fmt"

	"github.com/ahab-go/ahab/internal/action"
)

// runAqueryCommand is `ahab aquery-command [flags] LABEL...`: it prints the
// command that takes an aquery dump the way Ahab does, sentinels and all,
// so that a dump saved for --aquery-file shows what a live run would.
// Without the sentinels no environment leak can show in a dump.
func runAqueryCommand(args []string, sys System) error {
	o, _, err := parseAnalysis(args)
	if err != nil {
		return err
	}
	if o.help {
		fmt.Fprint(sys.Stdout, "Usage: ahab aquery-command [--config NAME]... [--compilation-mode MODE] [--bazel-flag FLAG]... [--output-base DIR] LABEL...\n\n"+
			"Prints the command that writes an aquery dump as Ahab takes it (USER and HOSTNAME\n"+
			"set to its sentinels, the output base pinned), to save and analyze later with\n"+
			"--aquery-file. It asks `bazel info` for the output base unless --output-base gives it.\n\n"+
			exitStatusHelp)
		return nil
	}
	if o.aqueryFile != "" || o.explainJSON != "" {
		return usageError{"ahab aquery-command prints a command for a LABEL; --aquery-file and --explain-json do not apply"}
	}
	runner := o.runner(sys, nil)
	if err := inWorkspace(runner.Dir); err != nil {
		return err
	}
	req, err := aqueryRequest(context.Background(), o, runner, nil)
	if err != nil {
		return err
	}
	argv, err := req.Args()
	if err != nil {
		return err
	}
	words := []string{"env", "USER=" + action.UserSentinel, "HOSTNAME=" + action.HostnameSentinel, runner.Bazel}
	words = append(words, argv...)
	line := shellJoin(words) + " > aquery.pb"
	if runner.Dir != "" {
		line = "cd " + shellJoin([]string{runner.Dir}) + " && " + line
	}
	fmt.Fprintln(sys.Stdout, line)
	return nil
}
