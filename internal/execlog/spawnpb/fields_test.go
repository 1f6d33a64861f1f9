package spawnpb

import (
	"testing"

	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"

	"github.com/ahab-go/ahab/internal/wire"
)

func TestFieldNumbersMatchTheProto(t *testing.T) {
	directEntries := (&ExecLogEntry_SymlinkEntrySet{}).ProtoReflect().Descriptor().Fields().ByName("direct_entries").Message()
	for _, tc := range []struct {
		msg  proto.Message
		nums map[string]protowire.Number
	}{
		{&SpawnExec{}, map[string]protowire.Number{
			"command_args":          SpawnExecCommandArgs,
			"environment_variables": SpawnExecEnvironmentVariables,
			"inputs":                SpawnExecInputs,
			"listed_outputs":        SpawnExecListedOutputs,
			"remotable":             SpawnExecRemotable,
			"cacheable":             SpawnExecCacheable,
			"mnemonic":              SpawnExecMnemonic,
			"actual_outputs":        SpawnExecActualOutputs,
			"runner":                SpawnExecRunner,
			"cache_hit":             SpawnExecCacheHit,
			"status":                SpawnExecStatus,
			"exit_code":             SpawnExecExitCode,
			"remote_cacheable":      SpawnExecRemoteCacheable,
			"target_label":          SpawnExecTargetLabel,
		}},
		{&File{}, map[string]protowire.Number{
			"path":                FilePath,
			"digest":              FileDigest,
			"is_tool":             FileIsTool,
			"symlink_target_path": FileSymlinkTargetPath,
		}},
		{&Digest{}, map[string]protowire.Number{"hash": DigestHash, "size_bytes": DigestSizeBytes}},
		{&EnvironmentVariable{}, map[string]protowire.Number{"name": EnvironmentVariableName, "value": EnvironmentVariableValue}},
		{&ExecLogEntry{}, map[string]protowire.Number{
			"id":                 EntryID,
			"invocation":         EntryInvocation,
			"file":               EntryFile,
			"directory":          EntryDirectory,
			"unresolved_symlink": EntryUnresolvedSymlink,
			"input_set":          EntryInputSet,
			"spawn":              EntrySpawn,
			"symlink_action":     EntrySymlinkAction,
			"symlink_entry_set":  EntrySymlinkEntrySet,
			"runfiles_tree":      EntryRunfilesTree,
		}},
		{&ExecLogEntry_Invocation{}, map[string]protowire.Number{"workspace_runfiles_directory": InvocationWorkspaceRunfilesDirectory}},
		{&ExecLogEntry_File{}, map[string]protowire.Number{"path": EntryFilePath, "digest": EntryFileDigest}},
		{&ExecLogEntry_Directory{}, map[string]protowire.Number{"path": DirectoryPath, "files": DirectoryFiles}},
		{&ExecLogEntry_UnresolvedSymlink{}, map[string]protowire.Number{"path": UnresolvedSymlinkPath, "target_path": UnresolvedSymlinkTargetPath}},
		{&ExecLogEntry_InputSet{}, map[string]protowire.Number{"input_ids": InputSetInputIDs, "transitive_set_ids": InputSetTransitiveSetIDs}},
		{&ExecLogEntry_SymlinkEntrySet{}, map[string]protowire.Number{
			"direct_entries":     SymlinkEntrySetDirectEntries,
			"transitive_set_ids": SymlinkEntrySetTransitiveSetIDs,
		}},
		{&ExecLogEntry_RunfilesTree{}, map[string]protowire.Number{
			"path":                     RunfilesTreePath,
			"input_set_id":             RunfilesTreeInputSetID,
			"symlinks_id":              RunfilesTreeSymlinksID,
			"root_symlinks_id":         RunfilesTreeRootSymlinksID,
			"empty_files":              RunfilesTreeEmptyFiles,
			"repo_mapping_manifest":    RunfilesTreeRepoMappingManifest,
			"legacy_external_runfiles": RunfilesTreeLegacyExternalRunfiles,
		}},
		{&ExecLogEntry_Output{}, map[string]protowire.Number{"invalid_output_path": OutputInvalidOutputPath, "output_id": OutputOutputID}},
		{&ExecLogEntry_Spawn{}, map[string]protowire.Number{
			"args":             SpawnArgs,
			"env_vars":         SpawnEnvVars,
			"input_set_id":     SpawnInputSetID,
			"tool_set_id":      SpawnToolSetID,
			"outputs":          SpawnOutputs,
			"target_label":     SpawnTargetLabel,
			"mnemonic":         SpawnMnemonic,
			"exit_code":        SpawnExitCode,
			"status":           SpawnStatus,
			"runner":           SpawnRunner,
			"cache_hit":        SpawnCacheHit,
			"remotable":        SpawnRemotable,
			"cacheable":        SpawnCacheable,
			"remote_cacheable": SpawnRemoteCacheable,
		}},
	} {
		if err := wire.CheckNumbers(tc.msg.ProtoReflect().Descriptor(), tc.nums); err != nil {
			t.Error(err)
		}
	}
	if err := wire.CheckNumbers(directEntries, map[string]protowire.Number{"key": MapEntryKey, "value": MapEntryValue}); err != nil {
		t.Error(err)
	}
}
