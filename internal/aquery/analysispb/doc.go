// Package analysispb holds the Go code generated from Bazel's
// analysis_v2.proto (package analysis): the ActionGraphContainer that
// `bazel aquery --output=proto|streamed_proto|jsonproto` prints.
//
// analysis_v2.proto is vendored from bazelbuild/bazel
// (src/main/protobuf/analysis_v2.proto): the Bazel 8 version with
// path_fragments, param_files and execution_info as KeyValuePair, brought to
// the version the original Ahab decodes with, where Action's field 20
// (scheduling_dep_dep_set_ids) is reserved and field 21 is
// `string progress_message`. Those two changes were made by hand from
// upstream's description, the one comment on progress_message included,
// since upstream's newest file could not be fetched where this was done;
// refresh the file by copying upstream's newer one over it. Do not edit it
// otherwise. It imports
// src/main/protobuf/build.proto for CqueryResult, which is vendored verbatim
// in blazequerypb/ and mapped to that import path with protoc's
// virtual=disk form of -I.
//
// Regenerate with `go generate ./internal/aquery/analysispb`. It needs:
//   - protoc, from Debian's protobuf-compiler package
//     (`apt-get install protobuf-compiler`), at /usr/bin/protoc;
//   - protoc-gen-go v1.36.12 on PATH, the version of
//     google.golang.org/protobuf in go.mod:
//     `go install google.golang.org/protobuf/cmd/protoc-gen-go@v1.36.12`
//     (it lands in $(go env GOPATH)/bin).
//
// Only internal/aquery imports this package.
package analysispb

//go:generate /usr/bin/protoc -I. -Isrc/main/protobuf/build.proto=blazequerypb/build.proto --go_out=. --go_opt=module=github.com/ahab-go/ahab/internal/aquery/analysispb --go_opt=Manalysis_v2.proto=github.com/ahab-go/ahab/internal/aquery/analysispb --go_opt=Msrc/main/protobuf/build.proto=github.com/ahab-go/ahab/internal/aquery/analysispb/blazequerypb analysis_v2.proto src/main/protobuf/build.proto
