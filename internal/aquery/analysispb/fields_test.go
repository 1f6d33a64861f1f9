package analysispb

import (
	"testing"

	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/reflect/protoreflect"
)

func TestContainerFieldNumbersMatchTheProto(t *testing.T) {
	fields := (&ActionGraphContainer{}).ProtoReflect().Descriptor().Fields()
	for name, want := range map[string]protowire.Number{
		"artifacts":          ContainerArtifacts,
		"actions":            ContainerActions,
		"targets":            ContainerTargets,
		"dep_set_of_files":   ContainerDepSetOfFiles,
		"configuration":      ContainerConfiguration,
		"aspect_descriptors": ContainerAspectDescriptors,
		"rule_classes":       ContainerRuleClasses,
		"path_fragments":     ContainerPathFragments,
	} {
		f := fields.ByName(protoreflectName(name))
		if f == nil || f.Number() != want {
			t.Errorf("ActionGraphContainer.%s: constant %d, descriptor %v", name, want, f)
		}
	}
}

func protoreflectName(s string) protoreflect.Name { return protoreflect.Name(s) }
