package bazel

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"
)

// infoArgs is the whole `bazel info` argv after the executable (§2 step
// 1). The host platform is pinned because `bazel info` resolves
// --platforms without the main repository's mapping; no key is named, so
// Bazel prints all of them; no --config is forwarded.
var infoArgs = []string{"info", "--platforms=@platforms//host"}

// OutputBase runs `bazel info` with the user's environment unchanged (so
// with the real USER and HOSTNAME, §2 step 1) and returns its output_base.
func (r *Runner) OutputBase(ctx context.Context) (string, error) {
	return r.outputBase(ctx, infoArgs)
}

// OutputBaseOnly is OutputBase asking `bazel info` for the one key,
// output_base, which spares Bazel working out the others (the heap's
// size, the server's log…): a third of the command's time on a warm
// server (bench/warm.sh).
func (r *Runner) OutputBaseOnly(ctx context.Context) (string, error) {
	return r.outputBase(ctx, append(slices.Clone(infoArgs), "output_base"))
}

func (r *Runner) outputBase(ctx context.Context, args []string) (string, error) {
	var stdout bytes.Buffer
	if err := r.Run(ctx, Invocation{Command: infoCommand, Args: args, Stdout: &stdout}); err != nil {
		return "", err
	}
	return parseInfo(stdout.Bytes(), len(args) > len(infoArgs))
}

// parseInfo extracts output_base from `bazel info` output (§2 step 1):
// each line is split at its first ':', key and value are trimmed, lines
// without ':' are ignored. Should a key repeat, the last one wins. Asked
// for the one key (only), Bazel prints its value alone on a line: an
// absolute path.
func parseInfo(stdout []byte, only bool) (string, error) {
	if !utf8.Valid(stdout) {
		return "", fmt.Errorf("`%s` produced non-UTF-8 output: %w", infoCommand, invalidUTF8(stdout))
	}
	if value := strings.TrimSpace(string(stdout)); only && strings.HasPrefix(value, "/") && !strings.Contains(value, "\n") {
		return value, nil
	}
	outputBase, found := "", false
	for line := range strings.Lines(string(stdout)) {
		key, value, ok := strings.Cut(line, ":")
		if ok && strings.TrimSpace(key) == "output_base" {
			outputBase, found = strings.TrimSpace(value), true
		}
	}
	if !found {
		return "", errors.New("`bazel info` did not report an \"output_base\" key")
	}
	return outputBase, nil
}

// invalidUTF8 says where the first invalid byte of b is.
func invalidUTF8(b []byte) error {
	for i := 0; i < len(b); {
		r, size := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && size <= 1 {
			return fmt.Errorf("invalid UTF-8 at byte %d", i)
		}
		i += size
	}
	return errors.New("invalid UTF-8")
}
