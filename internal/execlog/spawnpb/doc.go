// Package spawnpb holds the Go code generated from Bazel's spawn.proto
// (package tools.protos): the SpawnExec messages of
// --execution_log_json_file and --execution_log_binary_file, and the
// ExecLogEntry messages of --execution_log_compact_file.
//
// spawn.proto is vendored verbatim from bazelbuild/bazel
// (src/main/protobuf/spawn.proto, a version with ExecLogEntry, RunfilesTree
// and SymlinkEntrySet, as Bazel 8 writes them) and must not be edited;
// refresh it by copying the newer file over it. Bazel 4.2.3's version has
// the same field numbers for everything it writes (its progress_message,
// field 9, is reserved here and skipped as unknown).
//
// Regenerate with `go generate ./internal/execlog/spawnpb`. It needs:
//   - protoc, from Debian's protobuf-compiler package
//     (`apt-get install protobuf-compiler`), at /usr/bin/protoc; it also
//     provides google/protobuf/duration.proto and timestamp.proto;
//   - protoc-gen-go v1.36.12 on PATH, the version of
//     google.golang.org/protobuf in go.mod:
//     `go install google.golang.org/protobuf/cmd/protoc-gen-go@v1.36.12`
//     (it lands in $(go env GOPATH)/bin).
//
// internal/execlog reads it; internal/execlog/protolog (the plain
// writers and readers), the log generator internal/genlog and
// bench/difflog use the generated types.
package spawnpb

//go:generate /usr/bin/protoc -I. --go_out=. --go_opt=module=github.com/ahab-go/ahab/internal/execlog/spawnpb --go_opt=Mspawn.proto=github.com/ahab-go/ahab/internal/execlog/spawnpb spawn.proto
