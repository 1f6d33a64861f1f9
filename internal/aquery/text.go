package aquery

import (
	"fmt"
	"io"
	"slices"

	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/encoding/prototext"

	"github.com/ahab-go/ahab/internal/action"
	"github.com/ahab-go/ahab/internal/aquery/analysispb"
)

// text decodes jsonproto or textproto. Unlike the binary formats these are
// read whole and unmarshalled into the generated container: they are not
// streamed. Bazel's jsonproto is rare and not used for huge graphs, and
// textproto is what tests write by hand.
func (s *stream) text(d *elementDecoder, format Format) error {
	data, err := io.ReadAll(s.br)
	s.off += int64(len(data))
	if err != nil {
		return s.errorAt("", s.off, readError(err))
	}
	var c analysispb.ActionGraphContainer
	switch format {
	case JSONProto:
		err = protojson.UnmarshalOptions{DiscardUnknown: true}.Unmarshal(data, &c)
	case TextProto:
		err = prototext.UnmarshalOptions{DiscardUnknown: true}.Unmarshal(data, &c)
	}
	if err != nil {
		return s.errorAt("", -1, fmt.Errorf("invalid %v: %s", format, trimProtoPrefix(err.Error())))
	}
	s.tick()
	return fromContainer(&c, d)
}

// fromContainer feeds a decoded container to d, actions last (the order of
// the fields does not matter to the result).
func fromContainer(c *analysispb.ActionGraphContainer, d *elementDecoder) error {
	b := d.graph
	for _, t := range c.GetTargets() {
		b.target(t.GetId(), []byte(t.GetLabel()))
	}
	for _, a := range c.GetArtifacts() {
		b.artifact(a.GetId(), a.GetPathFragmentId())
	}
	for _, f := range c.GetPathFragments() {
		b.pathFragment(f.GetId(), []byte(f.GetLabel()), f.GetParentId())
	}
	for _, ds := range c.GetDepSetOfFiles() {
		direct := ds.GetDirectArtifactIds()
		b.depSet(ds.GetId(), append(slices.Clip(direct), ds.GetTransitiveDepSetIds()...), len(direct))
	}
	for _, pa := range c.GetActions() {
		d.actions++
		if err := d.fn(fromProtoAction(pa, &d.strs)); err != nil {
			return err
		}
	}
	return nil
}

func fromProtoAction(pa *analysispb.Action, strs *interner) *Action {
	a := &Action{InputDepSets: pa.GetInputDepSetIds()}
	a.TargetID = pa.GetTargetId()
	a.Mnemonic = strs.intern([]byte(pa.GetMnemonic()))
	a.Arguments = pa.GetArguments()
	for _, kv := range pa.GetEnvironmentVariables() {
		a.Env = append(a.Env, action.EnvVar{Key: strs.intern([]byte(kv.GetKey())), Value: kv.GetValue()})
	}
	for _, kv := range pa.GetExecutionInfo() {
		a.ExecutionInfo = append(a.ExecutionInfo, strs.intern([]byte(kv.GetKey())))
	}
	for _, pf := range pa.GetParamFiles() {
		a.ParamFiles = append(a.ParamFiles, action.ParamFile{ExecPath: pf.GetExecPath(), Lines: pf.GetArguments()})
	}
	return a
}
