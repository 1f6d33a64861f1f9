package interp

import (
	"github.com/ahab-go/ahab/internal/awk"
	"github.com/ahab-go/ahab/internal/code"
	"github.com/ahab-go/ahab/internal/csource"
	"github.com/ahab-go/ahab/internal/javascript"
	"github.com/ahab-go/ahab/internal/make"
	"github.com/ahab-go/ahab/internal/perl"
	"github.com/ahab-go/ahab/internal/python"
)

// Readers are the readers of every language Ahab reads besides the shell,
// whose reader the Runner calls itself.
func Readers() map[string]code.Reader {
	return map[string]code.Reader{
		code.Awk:        awk.Reader{},
		code.C:          csource.Reader{},
		code.Perl:       perl.Reader{},
		code.JavaScript: javascript.Reader{},
		code.Make:       make.Reader{},
		code.Python:     python.Reader{},
	}
}

// UsesFile is Uses of a source named by its exec path, with what it
// includes from the workspace: a C source's quoted headers, read through
// the runner's files. The shell's reader has a source's path where it asks
// what a compiled source uses, and can call this in place of Uses.
func (r *Runner) UsesFile(language, execPath string) []string {
	if r.files == nil {
		return nil
	}
	if language == code.C {
		return csource.UsesFile(execPath, r.files, r.lib)
	}
	src, err := r.files.Read(execPath)
	if err != nil {
		return nil
	}
	return r.Uses(language, src.Text)
}
