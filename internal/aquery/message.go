package aquery

import (
	"google.golang.org/protobuf/proto"

	"github.com/ahab-go/ahab/internal/action"
	"github.com/ahab-go/ahab/internal/aquery/analysispb"
	"github.com/ahab-go/ahab/internal/wire"
)

// message hands over one element that protojson or prototext has decoded
// into its generated message, found at the given place, as element does
// for an element's bytes. jsonproto and textproto are decoded once, by
// the protobuf module, which checks what element checks in the binary
// formats (UTF-8, types), so the message only has to be taken apart.
func (d *elementDecoder) message(m proto.Message, at place) error {
	switch e := m.(type) {
	case *analysispb.Action:
		a := actionOf(e)
		r := &d.refs
		r.target, r.configuration, r.primaryOutput = e.TargetId, e.ConfigurationId, e.PrimaryOutputId
		r.aspects, r.inputs, r.outputs = e.AspectDescriptorIds, e.InputDepSetIds, e.OutputIds
		if d.graph != nil {
			d.graph.action(at, r)
		}
		if d.fn == nil {
			return nil
		}
		d.actions++
		return wire.FromCaller(d.fn(0, a))
	case *analysispb.Artifact:
		return d.graph.artifact(at, e.Id, e.PathFragmentId)
	case *analysispb.Target:
		return d.graph.target(at, e.Id, []byte(e.Label), e.RuleClassId)
	case *analysispb.DepSetOfFiles:
		d.direct = append(append(d.direct[:0], e.DirectArtifactIds...), e.TransitiveDepSetIds...)
		return d.graph.depSet(at, e.Id, d.direct, len(e.DirectArtifactIds))
	case *analysispb.PathFragment:
		return d.graph.pathFragment(at, e.Id, []byte(e.Label), e.ParentId)
	case *analysispb.Configuration:
		if d.configuration != nil && d.graph != nil {
			d.configuration(e.Id, e.Checksum)
		}
		return d.graph.other(at, e.Id)
	case interface{ GetId() uint32 }: // the elements nothing reads but their id
		return d.graph.other(at, e.GetId())
	}
	return nil
}

// actionOf is the action a decoded message describes; it shares the
// message's strings and lists.
func actionOf(e *analysispb.Action) *Action {
	a := &Action{
		Action: action.Action{
			Mnemonic:  e.Mnemonic,
			TargetID:  e.TargetId,
			Arguments: e.Arguments,
		},
		ConfigurationID: e.ConfigurationId,
		InputDepSets:    e.InputDepSetIds,
		OutputIDs:       e.OutputIds,
	}
	for _, kv := range e.EnvironmentVariables {
		a.Env = append(a.Env, action.EnvVar{Key: kv.Key, Value: kv.Value})
	}
	for _, kv := range e.ExecutionInfo {
		a.ExecutionInfo = append(a.ExecutionInfo, kv.Key)
	}
	for _, pf := range e.ParamFiles {
		a.ParamFiles = append(a.ParamFiles, action.ParamFile{ExecPath: pf.ExecPath, Lines: pf.Arguments})
	}
	return a
}
