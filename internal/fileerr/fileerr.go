// Package fileerr words the errors about files Ahab reads and writes the
// one way its messages do, `failed to read <what> from <path>: <cause>`,
// with the cause stripped of the operation and path that *fs.PathError
// would repeat, and the path quoted when it could break the line.
package fileerr

import (
	"errors"
	"fmt"
	"io/fs"
	"os"

	"github.com/ahab-go/ahab/internal/quote"
)

// Read is the error for a file that could not be read.
func Read(what, path string, err error) error {
	return fmt.Errorf("failed to read %s from %s: %w", what, quote.IfNeeded(path), Cause(err))
}

// Write is the error for a file that could not be written.
func Write(what, path string, err error) error {
	return fmt.Errorf("failed to write %s to %s: %w", what, quote.IfNeeded(path), Cause(err))
}

// Cause drops the operation and path from a *fs.PathError or an
// *os.LinkError: the message around it names the file already, and a
// temporary file's name would only confuse.
func Cause(err error) error {
	if pe, ok := errors.AsType[*fs.PathError](err); ok {
		return pe.Err
	}
	if le, ok := errors.AsType[*os.LinkError](err); ok {
		return le.Err
	}
	return err
}
