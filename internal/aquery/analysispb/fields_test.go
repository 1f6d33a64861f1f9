package analysispb

import (
	"testing"

	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"

	"github.com/ahab-go/ahab/internal/wire"
)

func TestFieldNumbersMatchTheProto(t *testing.T) {
	for _, tc := range []struct {
		msg  proto.Message
		nums map[string]protowire.Number
	}{
		{&ActionGraphContainer{}, map[string]protowire.Number{
			"artifacts":          ContainerArtifacts,
			"actions":            ContainerActions,
			"targets":            ContainerTargets,
			"dep_set_of_files":   ContainerDepSetOfFiles,
			"configuration":      ContainerConfiguration,
			"aspect_descriptors": ContainerAspectDescriptors,
			"rule_classes":       ContainerRuleClasses,
			"path_fragments":     ContainerPathFragments,
		}},
		{&Action{}, map[string]protowire.Number{
			"target_id":                 ActionTargetID,
			"aspect_descriptor_ids":     ActionAspectDescriptorIDs,
			"action_key":                ActionActionKey,
			"mnemonic":                  ActionMnemonic,
			"configuration_id":          ActionConfigurationID,
			"arguments":                 ActionArguments,
			"environment_variables":     ActionEnvironmentVariables,
			"input_dep_set_ids":         ActionInputDepSetIDs,
			"output_ids":                ActionOutputIDs,
			"discovers_inputs":          ActionDiscoversInputs,
			"execution_info":            ActionExecutionInfo,
			"param_files":               ActionParamFiles,
			"primary_output_id":         ActionPrimaryOutputID,
			"execution_platform":        ActionExecutionPlatform,
			"template_content":          ActionTemplateContent,
			"substitutions":             ActionSubstitutions,
			"file_contents":             ActionFileContents,
			"unresolved_symlink_target": ActionUnresolvedSymlinkTarget,
			"is_executable":             ActionIsExecutable,
			"progress_message":          ActionProgressMessage,
		}},
		{&Artifact{}, map[string]protowire.Number{
			"id":               ArtifactID,
			"path_fragment_id": ArtifactPathFragmentID,
			"is_tree_artifact": ArtifactIsTreeArtifact,
		}},
		{&Target{}, map[string]protowire.Number{
			"id":            TargetID,
			"label":         TargetLabel,
			"rule_class_id": TargetRuleClassID,
		}},
		{&DepSetOfFiles{}, map[string]protowire.Number{
			"id":                     DepSetID,
			"transitive_dep_set_ids": DepSetTransitiveDepSetIDs,
			"direct_artifact_ids":    DepSetDirectArtifactIDs,
		}},
		{&PathFragment{}, map[string]protowire.Number{
			"id":        PathFragmentID,
			"label":     PathFragmentLabel,
			"parent_id": PathFragmentParentID,
		}},
		{&KeyValuePair{}, map[string]protowire.Number{"key": KeyValueKey, "value": KeyValueValue}},
		{&ParamFile{}, map[string]protowire.Number{"exec_path": ParamFileExecPath, "arguments": ParamFileArguments}},
	} {
		if err := wire.CheckNumbers(tc.msg.ProtoReflect().Descriptor(), tc.nums); err != nil {
			t.Error(err)
		}
	}
}
