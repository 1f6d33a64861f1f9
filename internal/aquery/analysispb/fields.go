package analysispb

import "google.golang.org/protobuf/encoding/protowire"

// Field numbers, for the code that reads or writes the container and its
// elements with protowire, one element at a time, rather than through the
// generated messages (fields_test.go checks every one against the
// descriptors).

// ActionGraphContainer.
const (
	ContainerArtifacts         protowire.Number = 1
	ContainerActions           protowire.Number = 2
	ContainerTargets           protowire.Number = 3
	ContainerDepSetOfFiles     protowire.Number = 4
	ContainerConfiguration     protowire.Number = 5
	ContainerAspectDescriptors protowire.Number = 6
	ContainerRuleClasses       protowire.Number = 7
	ContainerPathFragments     protowire.Number = 8
)

// Action. Field 20 is reserved (see doc.go).
const (
	ActionTargetID                protowire.Number = 1
	ActionAspectDescriptorIDs     protowire.Number = 2
	ActionActionKey               protowire.Number = 3
	ActionMnemonic                protowire.Number = 4
	ActionConfigurationID         protowire.Number = 5
	ActionArguments               protowire.Number = 6
	ActionEnvironmentVariables    protowire.Number = 7
	ActionInputDepSetIDs          protowire.Number = 8
	ActionOutputIDs               protowire.Number = 9
	ActionDiscoversInputs         protowire.Number = 10
	ActionExecutionInfo           protowire.Number = 11
	ActionParamFiles              protowire.Number = 12
	ActionPrimaryOutputID         protowire.Number = 13
	ActionExecutionPlatform       protowire.Number = 14
	ActionTemplateContent         protowire.Number = 15
	ActionSubstitutions           protowire.Number = 16
	ActionFileContents            protowire.Number = 17
	ActionUnresolvedSymlinkTarget protowire.Number = 18
	ActionIsExecutable            protowire.Number = 19
	ActionProgressMessage         protowire.Number = 21
)

// Artifact.
const (
	ArtifactID             protowire.Number = 1
	ArtifactPathFragmentID protowire.Number = 2
	ArtifactIsTreeArtifact protowire.Number = 3
)

// Target.
const (
	TargetID          protowire.Number = 1
	TargetLabel       protowire.Number = 2
	TargetRuleClassID protowire.Number = 3
)

// DepSetOfFiles.
const (
	DepSetID                  protowire.Number = 1
	DepSetTransitiveDepSetIDs protowire.Number = 2
	DepSetDirectArtifactIDs   protowire.Number = 3
)

// PathFragment.
const (
	PathFragmentID       protowire.Number = 1
	PathFragmentLabel    protowire.Number = 2
	PathFragmentParentID protowire.Number = 3
)

// KeyValuePair.
const (
	KeyValueKey   protowire.Number = 1
	KeyValueValue protowire.Number = 2
)

// ParamFile.
const (
	ParamFileExecPath  protowire.Number = 1
	ParamFileArguments protowire.Number = 2
)
