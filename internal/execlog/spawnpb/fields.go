package spawnpb

import "google.golang.org/protobuf/encoding/protowire"

// Field numbers, for the execution-log reader, which decodes these
// messages with protowire rather than through the generated types
// (fields_test.go checks every one against the descriptors). Only the
// fields the reader uses have one.

// SpawnExec. Bazel 4.2.3 also writes field 9, progress_message, which
// later versions reserve, and calls field 13 remote_cache_hit.
const (
	SpawnExecCommandArgs          protowire.Number = 1
	SpawnExecEnvironmentVariables protowire.Number = 2
	SpawnExecInputs               protowire.Number = 4
	SpawnExecListedOutputs        protowire.Number = 5
	SpawnExecRemotable            protowire.Number = 6
	SpawnExecCacheable            protowire.Number = 7
	SpawnExecMnemonic             protowire.Number = 10
	SpawnExecActualOutputs        protowire.Number = 11
	SpawnExecRunner               protowire.Number = 12
	SpawnExecCacheHit             protowire.Number = 13
	SpawnExecStatus               protowire.Number = 14
	SpawnExecExitCode             protowire.Number = 15
	SpawnExecRemoteCacheable      protowire.Number = 16
	SpawnExecTargetLabel          protowire.Number = 18
)

// File.
const (
	FilePath              protowire.Number = 1
	FileDigest            protowire.Number = 2
	FileIsTool            protowire.Number = 3
	FileSymlinkTargetPath protowire.Number = 4
)

// Digest. The hash function's name (3) is the same for every file of a
// log, and unread.
const (
	DigestHash      protowire.Number = 1
	DigestSizeBytes protowire.Number = 2
)

// EnvironmentVariable.
const (
	EnvironmentVariableName  protowire.Number = 1
	EnvironmentVariableValue protowire.Number = 2
)

// ExecLogEntry: an id, then one payload, each field its own kind of entry.
const (
	EntryID                protowire.Number = 1
	EntryInvocation        protowire.Number = 2
	EntryFile              protowire.Number = 3
	EntryDirectory         protowire.Number = 4
	EntryUnresolvedSymlink protowire.Number = 5
	EntryInputSet          protowire.Number = 6
	EntrySpawn             protowire.Number = 7
	EntrySymlinkAction     protowire.Number = 8
	EntrySymlinkEntrySet   protowire.Number = 9
	EntryRunfilesTree      protowire.Number = 10
)

// ExecLogEntry.Invocation.
const InvocationWorkspaceRunfilesDirectory protowire.Number = 2

// ExecLogEntry.File.
const (
	EntryFilePath   protowire.Number = 1
	EntryFileDigest protowire.Number = 2
)

// ExecLogEntry.Directory.
const (
	DirectoryPath  protowire.Number = 1
	DirectoryFiles protowire.Number = 2
)

// ExecLogEntry.UnresolvedSymlink.
const (
	UnresolvedSymlinkPath       protowire.Number = 1
	UnresolvedSymlinkTargetPath protowire.Number = 2
)

// ExecLogEntry.InputSet (fields 1 to 3 are reserved: an older layout's).
const (
	InputSetTransitiveSetIDs protowire.Number = 4
	InputSetInputIDs         protowire.Number = 5
)

// ExecLogEntry.SymlinkEntrySet, and the entries of its map.
const (
	SymlinkEntrySetDirectEntries    protowire.Number = 1
	SymlinkEntrySetTransitiveSetIDs protowire.Number = 2
	MapEntryKey                     protowire.Number = 1
	MapEntryValue                   protowire.Number = 2
)

// ExecLogEntry.RunfilesTree.
const (
	RunfilesTreePath                   protowire.Number = 1
	RunfilesTreeInputSetID             protowire.Number = 2
	RunfilesTreeSymlinksID             protowire.Number = 3
	RunfilesTreeRootSymlinksID         protowire.Number = 4
	RunfilesTreeEmptyFiles             protowire.Number = 5
	RunfilesTreeRepoMappingManifest    protowire.Number = 6
	RunfilesTreeLegacyExternalRunfiles protowire.Number = 7
)

// ExecLogEntry.Output.
const (
	OutputInvalidOutputPath protowire.Number = 4
	OutputOutputID          protowire.Number = 5
)

// ExecLogEntry.Spawn.
const (
	SpawnArgs            protowire.Number = 1
	SpawnEnvVars         protowire.Number = 2
	SpawnInputSetID      protowire.Number = 4
	SpawnToolSetID       protowire.Number = 5
	SpawnOutputs         protowire.Number = 6
	SpawnTargetLabel     protowire.Number = 7
	SpawnMnemonic        protowire.Number = 8
	SpawnExitCode        protowire.Number = 9
	SpawnStatus          protowire.Number = 10
	SpawnRunner          protowire.Number = 11
	SpawnCacheHit        protowire.Number = 12
	SpawnRemotable       protowire.Number = 13
	SpawnCacheable       protowire.Number = 14
	SpawnRemoteCacheable protowire.Number = 15
)
