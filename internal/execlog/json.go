package execlog

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"regexp"
	"strings"

	"google.golang.org/protobuf/encoding/protojson"

	"github.com/ahab-go/ahab/internal/execlog/spawnpb"
	"github.com/ahab-go/ahab/internal/spawn"
)

// readJSON reads --execution_log_json_file: SpawnExec messages in protobuf
// JSON, one after another with or without whitespace between them. Each
// object is cut out with encoding/json's streaming decoder (which holds one
// object at a time) and decoded with protojson, which accepts both the
// lowerCamelCase names Bazel prints and the proto names. Unknown fields are
// skipped: Bazel 4.2.3 writes progressMessage and remoteCacheHit, which
// this version of spawn.proto reserves or renames.
func readJSON(br *bufio.Reader, name string, fn func(*spawn.Spawn) error) error {
	dec := json.NewDecoder(br)
	opts := protojson.UnmarshalOptions{DiscardUnknown: true}
	var raw json.RawMessage
	for i := 1; ; i++ {
		start := dec.InputOffset()
		raw = raw[:0]
		err := dec.Decode(&raw)
		if err == io.EOF {
			return nil
		}
		entry := fmt.Sprintf("spawn %d", i)
		if err != nil {
			return jsonError(name, entry, start, err)
		}
		// InputOffset was where the previous value ended; the object starts
		// after the whitespace that follows it.
		start = dec.InputOffset() - int64(len(raw))
		if raw[0] != '{' {
			return &Error{File: name, Entry: entry, Offset: start, Err: fmt.Errorf("a JSON %s, expected a SpawnExec object", jsonKind(raw[0]))}
		}
		var se spawnpb.SpawnExec
		if err := opts.Unmarshal(raw, &se); err != nil {
			return &Error{File: name, Entry: entry, Offset: start, Err: errors.New(protojsonError(err))}
		}
		sp := fromSpawnExec(&se)
		if err := fn(sp); err != nil {
			return err
		}
	}
}

func jsonError(name, entry string, start int64, err error) error {
	if se, ok := errors.AsType[*json.SyntaxError](err); ok {
		return &Error{File: name, Entry: entry, Offset: start, Err: fmt.Errorf("invalid JSON at byte %d: %v", se.Offset, se)}
	}
	if err == io.ErrUnexpectedEOF {
		return &Error{File: name, Entry: entry, Offset: start, Err: fmt.Errorf("%w, expected a complete JSON object", err)}
	}
	return &Error{File: name, Entry: entry, Offset: start, Err: readError(err)}
}

func jsonKind(c byte) string {
	switch c {
	case '[':
		return "array"
	case '"':
		return "string"
	case 't', 'f':
		return "boolean"
	case 'n':
		return "null"
	}
	return "number"
}

// fromSpawnExec converts a generated SpawnExec into the model.
func fromSpawnExec(se *spawnpb.SpawnExec) *spawn.Spawn {
	sp := &spawn.Spawn{
		Mnemonic:        se.GetMnemonic(),
		Target:          se.GetTargetLabel(),
		Args:            se.GetCommandArgs(),
		Outputs:         se.GetListedOutputs(),
		ExitCode:        se.GetExitCode(),
		Status:          se.GetStatus(),
		Runner:          se.GetRunner(),
		CacheHit:        se.GetCacheHit(),
		Remotable:       se.GetRemotable(),
		Cacheable:       se.GetCacheable(),
		RemoteCacheable: se.GetRemoteCacheable(),
	}
	for _, e := range se.GetEnvironmentVariables() {
		sp.Env = append(sp.Env, spawn.EnvVar{Name: e.GetName(), Value: e.GetValue()})
	}
	for _, f := range se.GetInputs() {
		sp.Inputs = append(sp.Inputs, fromFile(f))
	}
	for _, f := range se.GetActualOutputs() {
		sp.OutputFiles = append(sp.OutputFiles, fromFile(f))
	}
	normalize(sp)
	return sp
}

func fromFile(f *spawnpb.File) spawn.File {
	return spawn.File{
		Path:          f.GetPath(),
		Digest:        spawn.Digest{Hash: f.GetDigest().GetHash(), Size: f.GetDigest().GetSizeBytes()},
		SymlinkTarget: f.GetSymlinkTargetPath(),
		Tool:          f.GetIsTool(),
	}
}

// protojsonError rewords protojson's "proto: (line 1:36): invalid value"
// as "invalid value (line 1, column 36 of the object)": our errors already
// say what was being read, and where the object starts.
func protojsonError(err error) string {
	s := strings.TrimPrefix(err.Error(), "proto: ")
	s = strings.TrimPrefix(s, "proto:\u00a0") // protobuf-go sometimes uses a non-breaking space
	s = strings.TrimSpace(s)
	if m := protojsonPosition.FindStringSubmatch(s); m != nil {
		prefix := strings.TrimSpace(m[1])
		if prefix != "" {
			prefix += ": "
		}
		return fmt.Sprintf("%s%s (line %s, column %s of the object)", prefix, m[4], m[2], m[3])
	}
	return s
}

var protojsonPosition = regexp.MustCompile(`^(.*?)\(line (\d+):(\d+)\): (.*)$`)
