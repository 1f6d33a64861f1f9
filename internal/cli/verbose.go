package cli

import (
	"fmt"
	"io"
	"strings"

	"github.com/ahab-go/ahab/internal/aquery"
)

// printAction dumps one action for --verbose. The layout is for people
// reading along, not a format to parse.
func printAction(w io.Writer, i int, a *aquery.Action) {
	var b strings.Builder
	fmt.Fprintf(&b, "action %d:\n  mnemonic: %q\n  target id: %d\n", i, a.Mnemonic, a.TargetID)
	for _, arg := range a.Arguments {
		fmt.Fprintf(&b, "  argument: %q\n", arg)
	}
	for _, e := range a.Env {
		fmt.Fprintf(&b, "  env: %q = %q\n", e.Key, e.Value)
	}
	for _, k := range a.ExecutionInfo {
		fmt.Fprintf(&b, "  execution info: %q\n", k)
	}
	for _, pf := range a.ParamFiles {
		fmt.Fprintf(&b, "  param file %q:\n", pf.ExecPath)
		for _, l := range pf.Lines {
			fmt.Fprintf(&b, "    %q\n", l)
		}
	}
	if len(a.InputDepSets) > 0 {
		fmt.Fprintf(&b, "  input dep sets: %v\n", a.InputDepSets)
	}
	io.WriteString(w, b.String())
}
