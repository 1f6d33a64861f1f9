package wire

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/ahab-go/ahab/internal/quote"
)

// Formats names the formats a reader reads, or a writer writes, for its
// Format type's String and Parse.
type Formats[F ~int] struct {
	// What the formats are, for errors: "aquery output format".
	What string
	// Names names the formats by value, from 0.
	Names []string
	// Detect says that the zero value asks the reader to recognise the
	// format from the content: its name is no name a user may give.
	Detect bool
}

// String names f.
func (fs Formats[F]) String(f F) string {
	if f >= 0 && int(f) < len(fs.Names) {
		return fs.Names[f]
	}
	return "Format(" + strconv.Itoa(int(f)) + ")"
}

// Parse parses a format's name.
func (fs Formats[F]) Parse(s string) (F, error) {
	names := fs.Names
	first := 0
	if fs.Detect {
		names, first = names[1:], 1
	}
	for f, name := range names {
		if name == s {
			return F(f + first), nil
		}
	}
	return 0, fmt.Errorf("unknown %s %s, expected one of: %s", fs.What, quote.Value(s), strings.Join(names, ", "))
}

// LooksLikeJSON reports whether b starts as protobuf JSON does: optional
// white space, "{", optional white space, then `"` or "}" (or nothing
// more). No binary protobuf stream Bazel writes starts so.
func LooksLikeJSON(b []byte) bool {
	b = skipSpace(b)
	if len(b) == 0 || b[0] != '{' {
		return false
	}
	b = skipSpace(b[1:])
	return len(b) == 0 || b[0] == '"' || b[0] == '}'
}

func skipSpace(b []byte) []byte {
	for len(b) > 0 && (b[0] == ' ' || b[0] == '\t' || b[0] == '\n' || b[0] == '\r') {
		b = b[1:]
	}
	return b
}
