package bazel

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/ahab-go/ahab/internal/action"
)

const failStderr = "Starting local Bazel server and connecting to it...\nERROR: Skipping '//nope': no such package 'nope'"

func TestOutputBase(t *testing.T) {
	t.Run("argv_environment_and_parse", func(t *testing.T) {
		f := newFakeBazel(t)
		r := f.runner("ok", "AHAB_FAKE_BAZEL_OUTPUT_BASE=/home/mark/.cache/bazel/_bazel_mark/0123")
		got, err := r.OutputBase(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		if got != "/home/mark/.cache/bazel/_bazel_mark/0123" {
			t.Errorf("OutputBase = %q", got)
		}
		c := f.onlyCall(t)
		if want := []string{"info", "--platforms=@platforms//host"}; !slices.Equal(c.args, want) {
			t.Errorf("argv = %q, want %q", c.args, want)
		}
		// §2 step 1: the environment is unchanged, so the real identity.
		if c.user != "mark" || c.hostname != "workstation" {
			t.Errorf("USER=%q HOSTNAME=%q, want the user's own", c.user, c.hostname)
		}
	})
	t.Run("absent_user_and_hostname_stay_absent", func(t *testing.T) {
		f := newFakeBazel(t)
		r := &Runner{Bazel: f.path, Env: []string{
			"PATH=" + os.Getenv("PATH"), "AHAB_FAKE_BAZEL_RECORD=" + f.record, "AHAB_FAKE_BAZEL_OUTPUT_BASE=/ob",
		}}
		if _, err := r.OutputBase(context.Background()); err != nil {
			t.Fatal(err)
		}
		if c := f.onlyCall(t); c.user != "unset" || c.hostname != "unset" {
			t.Errorf("USER=%q HOSTNAME=%q, want both unset", c.user, c.hostname)
		}
	})
	for _, tc := range []struct {
		name, mode, want string
	}{
		{"bazel_fails", "fail", "`bazel info` exited with exit status: 1:\n" + failStderr},
		{"bazel_is_killed", "killed", "`bazel info` exited with signal: killed:\n"},
		{"no_output_base_key", "garbage", "`bazel info` did not report an \"output_base\" key"},
		{"non_utf8", "non-utf8", "`bazel info` produced non-UTF-8 output: invalid UTF-8 at byte 18"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFakeBazel(t)
			got, err := f.runner(tc.mode).OutputBase(context.Background())
			if err == nil || err.Error() != tc.want {
				t.Fatalf("OutputBase = %q, %v; want error %q", got, err, tc.want)
			}
		})
	}
	t.Run("bazel_failure_is_an_ExitError", func(t *testing.T) {
		f := newFakeBazel(t)
		_, err := f.runner("fail").OutputBase(context.Background())
		var exitErr *ExitError
		if !errors.As(err, &exitErr) || exitErr.ExitCode != 1 || exitErr.Command != "bazel info" {
			t.Errorf("error %#v is not an ExitError for bazel info with code 1", err)
		}
	})
	t.Run("missing_executable", func(t *testing.T) {
		r := &Runner{Bazel: "ahab-test-no-such-bazel", Env: []string{}}
		_, err := r.OutputBase(context.Background())
		want := "failed to spawn `bazel info` subprocess: exec: \"ahab-test-no-such-bazel\": executable file not found in $PATH"
		if err == nil || err.Error() != want {
			t.Fatalf("OutputBase error = %v, want %s", err, want)
		}
		var spawnErr *SpawnError
		if !errors.As(err, &spawnErr) || spawnErr.Executable != "ahab-test-no-such-bazel" {
			t.Errorf("error %#v is not a SpawnError naming the executable", err)
		}
	})
	t.Run("missing_executable_by_path", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "bazelisk")
		_, err := (&Runner{Bazel: path, Env: []string{}}).OutputBase(context.Background())
		if err == nil || !strings.HasPrefix(err.Error(), "failed to spawn `bazel info` subprocess: ") || !strings.Contains(err.Error(), path) {
			t.Fatalf("OutputBase error = %v, want a spawn error naming %s", err, path)
		}
	})
}

// The default executable is "bazel", looked up on PATH.
func TestDefaultExecutableIsBazelOnPath(t *testing.T) {
	f := newFakeBazel(t)
	env := f.env("ok", "AHAB_FAKE_BAZEL_OUTPUT_BASE=/ob")
	t.Setenv("PATH", f.dir)
	if _, err := (&Runner{Env: env}).OutputBase(context.Background()); err != nil {
		t.Fatal(err)
	}
	f.onlyCall(t)
}

func TestWorkingDirectoryOfBazel(t *testing.T) {
	f := newFakeBazel(t)
	dir := t.TempDir()
	r := f.runner("ok", "AHAB_FAKE_BAZEL_OUTPUT_BASE=/ob/x", "AHAB_FAKE_BAZEL_DUMP="+filepath.Join(mustAbs(t, "testdata"), "dump.bin"))
	r.Dir = dir
	if _, err := r.OutputBase(context.Background()); err != nil {
		t.Fatal(err)
	}
	if err := r.Aquery(context.Background(), AqueryRequest{OutputBase: "/ob/x", Label: "//..."}, discard); err != nil {
		t.Fatal(err)
	}
	// An empty Dir inherits ours.
	r.Dir = ""
	if _, err := r.OutputBase(context.Background()); err != nil {
		t.Fatal(err)
	}
	cwd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	calls := f.calls(t)
	want := []string{realPath(t, dir), realPath(t, dir), realPath(t, cwd)}
	var got []string
	for _, c := range calls {
		got = append(got, c.cwd)
	}
	if !slices.Equal(got, want) {
		t.Errorf("working directories = %q, want %q", got, want)
	}
}

func TestAquery(t *testing.T) {
	dump := filepath.Join(mustAbs(t, "testdata"), "dump.bin")
	dumpBytes, err := os.ReadFile(dump)
	if err != nil {
		t.Fatal(err)
	}
	req := AqueryRequest{
		OutputBase:      "/home/mark/.cache/bazel/_bazel_mark/0123",
		Configs:         []string{"ci", "linux"},
		CompilationMode: "opt",
		Flags:           []string{"--keep_going"},
		Output:          "streamed_proto",
		Label:           "//... - //third_party/...",
	}

	t.Run("argv_environment_and_stdout", func(t *testing.T) {
		f := newFakeBazel(t)
		r := f.runner("ok", "AHAB_FAKE_BAZEL_DUMP="+dump, "AHAB_FAKE_BAZEL_PROBE=kept")
		var got []byte
		err := r.Aquery(context.Background(), req, func(stdout io.Reader) error {
			var err error
			got, err = io.ReadAll(stdout)
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, dumpBytes) {
			t.Errorf("consume got %d bytes, want the %d bytes of %s", len(got), len(dumpBytes), dump)
		}
		c := f.onlyCall(t)
		want := []string{
			"--output_base=/home/mark/.cache/bazel/_bazel_mark/0123",
			"--output_user_root=/home/mark/.cache/bazel/_bazel_mark",
			"aquery", "--config=ci", "--config=linux", "--compilation_mode=opt", "--keep_going",
			"--output=streamed_proto", "--include_param_files", "//... - //third_party/...",
		}
		if !slices.Equal(c.args, want) {
			t.Errorf("argv =\n  %q\nwant\n  %q", c.args, want)
		}
		if c.user != action.UserSentinel || c.hostname != action.HostnameSentinel {
			t.Errorf("USER=%q HOSTNAME=%q, want the sentinels", c.user, c.hostname)
		}
		if c.probe != "kept" {
			t.Errorf("AHAB_FAKE_BAZEL_PROBE=%q, want the inherited %q", c.probe, "kept")
		}
		if c.stdin != "unknown" && c.stdin != os.DevNull {
			t.Errorf("stdin is %q, want %s", c.stdin, os.DevNull)
		}
		// SIGINT (bit 2 of the mask) must not reach Bazel ignored: we
		// catch it while Bazel runs, and must not pass SIG_IGN on.
		if mask, err := strconv.ParseUint(c.sigign, 16, 64); err == nil && mask&(1<<1) != 0 {
			t.Errorf("bazel started with SIGINT ignored (SigIgn %s)", c.sigign)
		}
	})
	t.Run("sentinels_are_set_even_when_absent", func(t *testing.T) {
		f := newFakeBazel(t)
		r := &Runner{Bazel: f.path, Env: []string{
			"PATH=" + os.Getenv("PATH"), "AHAB_FAKE_BAZEL_RECORD=" + f.record, "AHAB_FAKE_BAZEL_DUMP=" + dump,
		}}
		if err := r.Aquery(context.Background(), req, discard); err != nil {
			t.Fatal(err)
		}
		if c := f.onlyCall(t); c.user != action.UserSentinel || c.hostname != action.HostnameSentinel {
			t.Errorf("USER=%q HOSTNAME=%q, want the sentinels", c.user, c.hostname)
		}
	})
	t.Run("the_users_environment_is_not_modified", func(t *testing.T) {
		f := newFakeBazel(t)
		r := f.runner("ok", "AHAB_FAKE_BAZEL_DUMP="+dump)
		before := slices.Clone(r.Env)
		if err := r.Aquery(context.Background(), req, discard); err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(r.Env, before) {
			t.Errorf("Runner.Env changed to %q", r.Env)
		}
	})
	t.Run("bad_request_runs_nothing", func(t *testing.T) {
		f := newFakeBazel(t)
		err := f.runner("ok").Aquery(context.Background(), AqueryRequest{OutputBase: "/", Label: "//..."}, discard)
		if err == nil || err.Error() != `output_base "/" has no parent directory` {
			t.Errorf("Aquery error = %v", err)
		}
		if calls := f.calls(t); len(calls) != 0 {
			t.Errorf("bazel ran %d times", len(calls))
		}
	})
	t.Run("bazel_fails", func(t *testing.T) {
		f := newFakeBazel(t)
		var got []byte
		err := f.runner("fail").Aquery(context.Background(), req, func(stdout io.Reader) error {
			var err error
			got, err = io.ReadAll(stdout)
			return err
		})
		// The consumer took what Bazel printed as whole, as a decoder does
		// with the graph --keep_going prints: the run is incomplete, and
		// Bazel's own error says why.
		want := "`bazel aquery` exited with exit status: 1:\n" + failStderr
		incomplete, ok := errors.AsType[*IncompleteError](err)
		if !ok || incomplete.Exit.Error() != want {
			t.Fatalf("Aquery error = %v, want an IncompleteError of %s", err, want)
		}
		// A consumer that fails on what Bazel printed is Bazel's failure.
		err = f.runner("fail").Aquery(context.Background(), req, func(stdout io.Reader) error {
			io.ReadAll(stdout)
			return errors.New("not a graph")
		})
		if err == nil || err.Error() != want {
			t.Fatalf("Aquery error = %v, want %s", err, want)
		}
		if string(got) != "partial output\n" {
			t.Errorf("consume got %q", got)
		}
	})
	t.Run("bazel_killed_by_someone_else", func(t *testing.T) {
		f := newFakeBazel(t)
		err := f.runner("killed").Aquery(context.Background(), req, discard)
		want := "`bazel aquery` exited with signal: killed:\n"
		if err == nil || err.Error() != want {
			t.Errorf("Aquery error = %q, want %q", err, want)
		}
	})
	t.Run("bazel_failure_beats_the_consume_error", func(t *testing.T) {
		f := newFakeBazel(t)
		decodeFailure := errors.New("truncated message")
		err := f.runner("fail").Aquery(context.Background(), req, func(stdout io.Reader) error {
			io.ReadAll(stdout)
			return decodeFailure
		})
		var exitErr *ExitError
		if !errors.As(err, &exitErr) || exitErr.ExitCode != 1 || exitErr.Stderr != failStderr {
			t.Errorf("Aquery error = %v, want Bazel's own failure", err)
		}
		if errors.Is(err, decodeFailure) {
			t.Errorf("Aquery error %v wraps the consume error, want only Bazel's", err)
		}
	})
	t.Run("consume_error_after_success", func(t *testing.T) {
		f := newFakeBazel(t)
		decodeFailure := errors.New("action 3 (byte 17): truncated message")
		err := f.runner("ok", "AHAB_FAKE_BAZEL_DUMP="+dump).Aquery(context.Background(), req, func(stdout io.Reader) error {
			io.ReadAll(stdout)
			return decodeFailure
		})
		want := "failed to decode analysis.ActionGraphContainer from `bazel aquery` output: action 3 (byte 17): truncated message"
		if !errors.Is(err, decodeFailure) || err.Error() != want {
			t.Errorf("Aquery error = %v, want %s", err, want)
		}
	})
	t.Run("consume_error_mid_stream_kills_bazel", func(t *testing.T) {
		f := newFakeBazel(t)
		done := filepath.Join(t.TempDir(), "done")
		r := f.runner("large", "AHAB_FAKE_BAZEL_SIZE=1000000000", "AHAB_FAKE_BAZEL_DONE="+done)
		decodeFailure := errors.New("bad tag")
		start := time.Now()
		err := r.Aquery(context.Background(), req, func(stdout io.Reader) error {
			stdout.Read(make([]byte, 4096))
			return decodeFailure
		})
		if !errors.Is(err, decodeFailure) {
			t.Errorf("Aquery error = %v, want it to wrap %v", err, decodeFailure)
		}
		var decodeErr *DecodeError
		if !errors.As(err, &decodeErr) {
			t.Errorf("Aquery error %#v is not a DecodeError", err)
		}
		if elapsed := time.Since(start); elapsed > 3*time.Second {
			t.Errorf("Aquery took %v after consume gave up; Bazel was not stopped", elapsed)
		}
		if _, err := os.Stat(done); err == nil {
			t.Errorf("bazel wrote all of its output; it should have been stopped")
		}
	})
	t.Run("consume_returning_early_drains_the_rest", func(t *testing.T) {
		f := newFakeBazel(t)
		done := filepath.Join(t.TempDir(), "done")
		r := f.runner("large", "AHAB_FAKE_BAZEL_SIZE=1000000", "AHAB_FAKE_BAZEL_DONE="+done)
		err := r.Aquery(context.Background(), req, func(stdout io.Reader) error {
			_, err := stdout.Read(make([]byte, 10))
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := os.Stat(done); err != nil {
			t.Errorf("bazel did not finish writing: %v", err)
		}
	})
	t.Run("missing_executable", func(t *testing.T) {
		r := &Runner{Bazel: "ahab-test-no-such-bazel", Env: []string{}}
		called := false
		err := r.Aquery(context.Background(), req, func(io.Reader) error { called = true; return nil })
		want := "failed to spawn `bazel aquery` subprocess: exec: \"ahab-test-no-such-bazel\": executable file not found in $PATH"
		if err == nil || err.Error() != want {
			t.Errorf("Aquery error = %v, want %s", err, want)
		}
		if called {
			t.Errorf("consume was called although bazel never started")
		}
	})
	t.Run("cancelled_context_stops_bazel", func(t *testing.T) {
		f := newFakeBazel(t)
		started := filepath.Join(t.TempDir(), "started")
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		go func() {
			for ctx.Err() == nil {
				if _, err := os.Stat(started); err == nil {
					cancel()
					return
				}
				time.Sleep(10 * time.Millisecond)
			}
		}()
		err := f.runner("sleep", "AHAB_FAKE_BAZEL_STARTED="+started).Aquery(ctx, req, discard)
		if !errors.Is(err, context.Canceled) || err.Error() != "`bazel aquery` was stopped: context canceled" {
			t.Errorf("Aquery error = %v, want it stopped by the cancelled context", err)
		}
	})
}

// A 50 MB aquery output reaches consume while Bazel is still writing it,
// and without being held in memory.
func TestAqueryStreamsLargeOutput(t *testing.T) {
	const size = 50 << 20
	f := newFakeBazel(t)
	done := filepath.Join(t.TempDir(), "done")
	r := f.runner("large", "AHAB_FAKE_BAZEL_SIZE="+strconv.Itoa(size), "AHAB_FAKE_BAZEL_DONE="+done)

	var total int64
	var reads int
	bazelDoneAtFirstRead := true
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	err := r.Aquery(context.Background(), AqueryRequest{OutputBase: "/ob/x", Label: "//..."}, func(stdout io.Reader) error {
		buf := make([]byte, 64<<10)
		for {
			n, err := stdout.Read(buf)
			if reads == 0 && n > 0 {
				_, statErr := os.Stat(done)
				bazelDoneAtFirstRead = statErr == nil
			}
			reads++
			total += int64(n)
			if err == io.EOF {
				return nil
			}
			if err != nil {
				return err
			}
		}
	})
	runtime.ReadMemStats(&after)
	if err != nil {
		t.Fatal(err)
	}
	if total != size {
		t.Errorf("consume read %d bytes, want %d", total, size)
	}
	if bazelDoneAtFirstRead {
		t.Errorf("bazel had written all its output before consume read any: it was buffered")
	}
	if reads < 100 {
		t.Errorf("consume needed only %d reads for %d bytes", reads, size)
	}
	if allocated := after.TotalAlloc - before.TotalAlloc; allocated > 8<<20 {
		t.Errorf("streaming %d bytes allocated %d bytes", size, allocated)
	}
}

func discard(stdout io.Reader) error {
	_, err := io.Copy(io.Discard, stdout)
	return err
}

func mustAbs(t *testing.T, path string) string {
	t.Helper()
	abs, err := filepath.Abs(path)
	if err != nil {
		t.Fatal(err)
	}
	return abs
}

// realPath resolves symlinks, as the fake's `pwd -P` does.
func realPath(t *testing.T, path string) string {
	t.Helper()
	real, err := filepath.EvalSymlinks(path)
	if err != nil {
		t.Fatal(err)
	}
	return real
}

// A process Bazel leaves behind in its session is killed when Bazel
// exits: it cannot keep Ahab reading, nor outlive the command.
func TestAqueryKillsWhatBazelLeaves(t *testing.T) {
	f := newFakeBazel(t)
	started := filepath.Join(t.TempDir(), "started")
	var got []byte
	err := f.runner("orphan", "AHAB_FAKE_BAZEL_STARTED="+started).Aquery(context.Background(), AqueryRequest{OutputBase: "/ob/x", Label: "//..."}, func(stdout io.Reader) error {
		var err error
		got, err = io.ReadAll(stdout)
		return err
	})
	if err != nil || string(got) != "graph\n" {
		t.Fatalf("Aquery = %q, %v; want the graph and no error", got, err)
	}
	pid := readPID(t, started+".child")
	if p, ok := readProc(pid); ok {
		t.Errorf("the process Bazel left behind still runs: %+v", p)
	}
}

// A process outside Bazel's session holding its stdout open does not keep
// Ahab reading once Bazel has exited: the read ends waitDelay later, with
// what Bazel wrote.
func TestAqueryStopsReadingAfterBazelExits(t *testing.T) {
	f := newFakeBazel(t)
	started := filepath.Join(t.TempDir(), "started")
	var got []byte
	err := f.runner("daemon", "AHAB_FAKE_BAZEL_STARTED="+started).Aquery(context.Background(), AqueryRequest{OutputBase: "/ob/x", Label: "//..."}, func(stdout io.Reader) error {
		var err error
		got, err = io.ReadAll(stdout)
		return err
	})
	if pid := readPID(t, started+".child"); pid > 0 {
		syscall.Kill(pid, syscall.SIGKILL)
	}
	if err != nil || string(got) != "graph\n" {
		t.Fatalf("Aquery = %q, %v; want the graph and no error", got, err)
	}
}

func readPID(t *testing.T, path string) int {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
	if err != nil {
		t.Fatal(err)
	}
	return pid
}
