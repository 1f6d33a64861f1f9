// Package mode names the two judgements Ahab can pass on a build: its
// own, the default, and Ahab 0.2's exactly (--compat 0.2), which gives the
// original's reports byte for byte so that its users' baselines keep
// matching until they choose to move.
package mode

import (
	"fmt"

	"github.com/ahab-go/ahab/internal/quote"
)

// Mode is a judgement.
type Mode uint8

const (
	// Default is Ahab's own judgement: it sees inside shell scripts, judges
	// the host's tools by name, and fixes what Ahab 0.2 misjudged.
	Default Mode = iota
	// Ahab02 is the original Ahab 0.2's judgement, exactly.
	Ahab02
)

// String is the mode's name in reports and on the command line.
func (m Mode) String() string {
	if m == Ahab02 {
		return "0.2"
	}
	return "default"
}

// Parse reads a --compat value: "0.2" is the only version there is.
func Parse(version string) (Mode, error) {
	if version == "0.2" {
		return Ahab02, nil
	}
	return Default, fmt.Errorf("unknown version %s, expected 0.2 (the only judgement Ahab keeps besides its own)", quote.Value(version))
}

// Describe says in words which judgement m is, for messages.
func (m Mode) Describe() string {
	if m == Ahab02 {
		return "Ahab 0.2's judgement (--compat 0.2)"
	}
	return "Ahab's own judgement (the default)"
}
