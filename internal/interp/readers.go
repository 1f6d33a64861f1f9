package interp

import (
	"github.com/ahab-go/ahab/internal/awk"
	"github.com/ahab-go/ahab/internal/code"
	"github.com/ahab-go/ahab/internal/csource"
	"github.com/ahab-go/ahab/internal/javascript"
	"github.com/ahab-go/ahab/internal/perl"
)

// Readers are the readers of every language Ahab reads besides the shell,
// whose reader the Runner calls itself.
func Readers() map[string]code.Reader {
	return map[string]code.Reader{
		code.Awk:        awk.Reader{},
		code.C:          csource.Reader{},
		code.Perl:       perl.Reader{},
		code.JavaScript: javascript.Reader{},
	}
}
