package bazel

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/ahab-go/ahab/internal/action"
	"github.com/ahab-go/ahab/internal/quote"
)

// The aquery output formats Ahab can decode.
const (
	OutputProto         = "proto"
	OutputStreamedProto = "streamed_proto"
)

// AqueryRequest is one `bazel aquery` invocation (§2 step 3).
type AqueryRequest struct {
	OutputBase      string
	Configs         []string // each becomes --config=<c>, in order
	CompilationMode string   // "" = none; else --compilation_mode=<m> after the configs
	Flags           []string // the user's extra aquery flags, verbatim, after --compilation_mode and before --output
	Output          string   // OutputProto (the default when "") or OutputStreamedProto
	Label           string   // the query expression, one argv element, last
}

// Args returns the argv after the executable (§2 step 3):
//
//	--output_base=<OB> --output_user_root=<parent(OB)> aquery
//	[--config=<c>…] [--compilation_mode=<m>] [flags…]
//	--output=<proto|streamed_proto> --include_param_files <LABEL>
//
// Pinning both the output base and its user root makes the sentinel-laden
// aquery share the server and caches `bazel info` reported, instead of
// starting a second server elsewhere. --compilation_mode comes after the
// configs so it beats a mode chosen by a named config.
func (q AqueryRequest) Args() ([]string, error) {
	root, err := OutputUserRoot(q.OutputBase)
	if err != nil {
		return nil, err
	}
	output := q.Output
	switch output {
	case "":
		output = OutputProto
	case OutputProto, OutputStreamedProto:
	default:
		return nil, fmt.Errorf("aquery output %s is not supported, expected one of: %s, %s",
			quote.Quote(output), OutputProto, OutputStreamedProto)
	}
	args := make([]string, 0, 6+len(q.Configs)+len(q.Flags))
	args = append(args, "--output_base="+q.OutputBase, "--output_user_root="+root, "aquery")
	for _, c := range q.Configs {
		args = append(args, "--config="+c)
	}
	if q.CompilationMode != "" {
		args = append(args, "--compilation_mode="+q.CompilationMode)
	}
	args = append(args, q.Flags...)
	args = append(args, "--output="+output, "--include_param_files", q.Label)
	return args, nil
}

// OutputUserRoot is the parent directory of outputBase with Rust's
// Path::parent semantics (§2 step 2), which Go's filepath.Dir does not
// share: trailing slashes, repeated slashes and "." components are
// ignored ("/a/b/"→"/a", "/a/b/."→"/a", "/a//b"→"/a"), "/a"→"/", a bare
// relative name has the empty parent ("foo"→""), and the root has none.
func OutputUserRoot(outputBase string) (string, error) {
	parent, ok := rustParent(outputBase)
	if !ok {
		return "", fmt.Errorf("output_base %s has no parent directory", quote.Quote(outputBase))
	}
	if !utf8.ValidString(parent) {
		return "", fmt.Errorf("output_base parent of %s is not valid UTF-8", quote.Quote(outputBase))
	}
	return parent, nil
}

// rustParent follows std::path::Components on Unix: the part before the
// body is the root "/" or, for a relative path, a leading "." component;
// body components are separated by runs of '/', and empty or "."
// components in the body do not count. The parent exists when the last
// component is a name, "." or ".."; it is the original text up to that
// component, without trailing separators and "." components.
func rustParent(path string) (string, bool) {
	prefix := 0 // bytes before the body
	switch {
	case strings.HasPrefix(path, "/"):
		prefix = 1
	case path == "." || strings.HasPrefix(path, "./"):
		prefix = 1 // a leading "." is a CurDir component, kept
	}
	rest := path
	for len(rest) > prefix {
		var name string
		rest, name = cutLastComponent(rest, prefix)
		if name != "" && name != "." {
			return trimEmptyComponents(rest, prefix), true
		}
	}
	if prefix == 1 && path[0] == '.' {
		return "", true // the parent of "." is ""
	}
	return "", false // the root, or the empty path
}

// cutLastComponent removes the last body component and its separator.
func cutLastComponent(path string, prefix int) (rest, name string) {
	body := path[prefix:]
	i := strings.LastIndexByte(body, '/')
	if i < 0 {
		return path[:prefix], body
	}
	return path[:prefix+i], body[i+1:]
}

func trimEmptyComponents(path string, prefix int) string {
	for len(path) > prefix {
		rest, name := cutLastComponent(path, prefix)
		if name != "" && name != "." {
			break
		}
		path = rest
	}
	return path
}

// Aquery runs `bazel aquery` for q and hands its stdout to consume while
// Bazel runs; stdout is never buffered whole (the reference's original
// needed memory proportional to it). USER and HOSTNAME are set to the
// sentinels (§2: set even when absent, so whatever copies them into the
// graph is caught); every other variable comes from r.Env. Stdin is the
// null device.
//
// If consume returns nil before the end of stdout, the rest is drained so
// Bazel does not block. If consume fails while Bazel still writes, Bazel is
// killed and the error is a *DecodeError wrapping consume's error — unless
// Bazel failed by itself, whose *ExitError (with its stderr) explains more:
// a failing Bazel usually leaves output that does not decode.
func (r *Runner) Aquery(ctx context.Context, q AqueryRequest, consume func(stdout io.Reader) error) error {
	args, err := q.Args()
	if err != nil {
		return err
	}
	p, err := r.start(ctx, Invocation{Command: aqueryCommand, Args: args, Env: withSentinels(r.environ())}, true)
	if err != nil {
		return err
	}
	defer p.stdout.Close()
	go func() {
		<-p.exited
		// Bazel has exited and its tree is gone: what it wrote is in the
		// pipe, and a reader that still blocks waitDelay later waits on a
		// process outside the tree that holds the pipe.
		t := time.NewTimer(waitDelay)
		defer t.Stop()
		select {
		case <-t.C:
		case <-p.killNow:
		}
		_ = p.stdout.SetReadDeadline(time.Now())
	}()

	out := &eofReader{r: p.stdout}
	consumeErr := consume(out)
	killed := false
	switch {
	case consumeErr == nil:
		if err := drain(out); err != nil && Stopped(ctx) == nil {
			consumeErr = err
		}
	case !out.atEOF:
		// Bazel is still writing output nobody will read. Closing our end
		// first makes a writer blocked on the pipe fail at once.
		_ = p.stdout.Close()
		killed = true
		p.kill()
	}
	p.wait()
	p.kill() // ends the deadline goroutine

	if p.stop != nil {
		return &StoppedError{Command: aqueryCommand, Cause: p.stop}
	}
	state := p.cmd.ProcessState
	if state != nil && !state.Success() {
		switch {
		case state.Exited() && !killed && consumeErr == nil && out.atEOF && out.n > 0:
			// Bazel failed, but what it printed is a whole graph: with
			// --keep_going, that of the targets it could analyse.
			return &IncompleteError{Exit: exitError(aqueryCommand, state, p.stderr)}
		case state.Exited() && !killed:
			// Bazel failed by itself: its stderr says why, and any decoding
			// error is only a consequence.
			return exitError(aqueryCommand, state, p.stderr)
		case killed:
			// We stopped Bazel while it was still writing, because its
			// output could not be decoded; however it ended (killed, or
			// exiting on the broken pipe, as a shell script does with
			// status 141), the decoding error is the cause.
			return &DecodeError{Err: consumeErr}
		default:
			// Killed by someone else (the OOM killer, say).
			return exitError(aqueryCommand, state, p.stderr)
		}
	}
	if consumeErr != nil {
		return &DecodeError{Err: consumeErr}
	}
	if p.waitErr != nil {
		return fmt.Errorf("`%s`: %w", aqueryCommand, p.waitErr)
	}
	return nil
}

// eofReader records whether its reader reached the end, which tells a
// consumer that failed on truncated output (Bazel is exiting) from one
// that failed mid-stream (Bazel must be stopped).
type eofReader struct {
	r     io.Reader
	atEOF bool
	n     int64 // bytes read
}

func (e *eofReader) Read(p []byte) (int, error) {
	n, err := e.r.Read(p)
	e.n += int64(n)
	if errors.Is(err, os.ErrDeadlineExceeded) {
		// Bazel exited a while ago (see Aquery): the rest of the pipe
		// belongs to a process it left behind, not to its output.
		err = io.EOF
	}
	if errors.Is(err, io.EOF) {
		e.atEOF = true
	}
	return n, err
}

// withSentinels returns env with every USER and HOSTNAME entry replaced by
// the sentinels (§2), appended last.
func withSentinels(env []string) []string {
	out := make([]string, 0, len(env)+2)
	for _, kv := range env {
		name, _, _ := strings.Cut(kv, "=")
		if sameVariable(name, "USER") || sameVariable(name, "HOSTNAME") {
			continue
		}
		out = append(out, kv)
	}
	return append(out, "USER="+action.UserSentinel, "HOSTNAME="+action.HostnameSentinel)
}

// sameVariable compares variable names as the OS does: Windows ignores case.
func sameVariable(a, b string) bool {
	if runtime.GOOS == "windows" {
		return strings.EqualFold(a, b)
	}
	return a == b
}
