package analysispb

import "google.golang.org/protobuf/encoding/protowire"

// The field numbers of ActionGraphContainer, for code that reads or writes
// the container with protowire, one element at a time, rather than through
// the generated message (fields_test.go checks them against the
// descriptor).
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
