package aquery

import (
	"errors"

	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"

	"github.com/ahab-go/ahab/internal/action"
	"github.com/ahab-go/ahab/internal/aquery/analysispb"
	"github.com/ahab-go/ahab/internal/wire"
)

// The container's fields, by the names the decoder uses.
const (
	fieldArtifacts         = analysispb.ContainerArtifacts
	fieldActions           = analysispb.ContainerActions
	fieldTargets           = analysispb.ContainerTargets
	fieldDepSetOfFiles     = analysispb.ContainerDepSetOfFiles
	fieldConfiguration     = analysispb.ContainerConfiguration
	fieldAspectDescriptors = analysispb.ContainerAspectDescriptors
	fieldRuleClasses       = analysispb.ContainerRuleClasses
	fieldPathFragments     = analysispb.ContainerPathFragments
)

// entryNames names one element of each container field in errors.
var entryNames = [...]string{
	fieldArtifacts:         "artifact",
	fieldActions:           "action",
	fieldTargets:           "target",
	fieldDepSetOfFiles:     "dep set",
	fieldConfiguration:     "configuration",
	fieldAspectDescriptors: "aspect descriptor",
	fieldRuleClasses:       "rule class",
	fieldPathFragments:     "path fragment",
}

func isContainerField(num protowire.Number) bool {
	return num >= fieldArtifacts && num <= fieldPathFragments
}

// elementDecoder decodes the elements of an ActionGraphContainer one at a
// time. The elements checks read are decoded by hand with protowire: that
// avoids building the generated message only to copy it, and lets strings be
// interned as they are copied out of the reused buffer. The checks are the
// ones prost made for the original: a known field with the wrong wire type
// and invalid UTF-8 in any string field are errors, unknown fields are
// skipped.
type elementDecoder struct {
	graph   graphSink // nil when only validating (format detection)
	fn      func(worker int, a *Action) error
	actions int       // how many actions went to fn
	pipe    *pipeline // decodes elements in parallel when not nil
	strs    interner
	// owned says the bodies handed to action are never reused, so argument
	// and value strings may share their memory instead of being copied.
	// Short vocabulary (mnemonics, keys) is interned all the same, since
	// callers keep it after the action is gone.
	owned bool
	// configuration is Options.Configurations.
	configuration func(id uint32, checksum string)
	// reuse hands fn the same Action every time, its slices emptied and
	// refilled: fn must not keep the Action or its slices, only strings.
	reuse  *Action
	refs   actionRefs // the last action's references
	direct []uint32   // scratch for dep sets
	trans  []uint32
}

// place is where an element is in the dump: its kind (the container
// field), its number among the elements of that kind, from 1, and the byte
// offset where it starts, or -1 when the format has none.
type place struct {
	off   int64
	index int
	num   protowire.Number
}

func (p place) entry() entryName { return entryName{p.num, p.index} }

// element decodes the body of one container element, found at the given
// place.
func (d *elementDecoder) element(num protowire.Number, body []byte, at place) error {
	switch num {
	case fieldActions:
		a, err := d.action(body)
		if err != nil {
			return err
		}
		if d.graph != nil {
			d.graph.action(at, &d.refs)
		}
		if d.fn == nil {
			return nil
		}
		d.actions++
		return wire.FromCaller(d.fn(0, a))
	case fieldArtifacts:
		return d.artifact(body, at)
	case fieldTargets:
		return d.target(body, at)
	case fieldDepSetOfFiles:
		return d.depSet(body, at)
	case fieldPathFragments:
		return d.pathFragment(body, at)
	case fieldConfiguration:
		return d.other(body, at, &analysispb.Configuration{})
	case fieldAspectDescriptors:
		return d.other(body, at, &analysispb.AspectDescriptor{})
	case fieldRuleClasses:
		return d.other(body, at, &analysispb.RuleClass{})
	}
	return nil
}

// other checks an element nothing reads but its id, so that a dump the
// original refused (say, invalid UTF-8 in a configuration's mnemonic) is
// refused here too. These elements are few and small.
func (d *elementDecoder) other(body []byte, at place, m interface {
	proto.Message
	GetId() uint32
}) error {
	if err := wire.Check(body, m.ProtoReflect().Descriptor(), elementLevel); err != nil {
		return err
	}
	if err := proto.Unmarshal(body, m); err != nil {
		return errors.New(trimProtoPrefix(err.Error()))
	}
	if c, ok := m.(*analysispb.Configuration); ok && d.configuration != nil && d.graph != nil {
		d.configuration(c.GetId(), c.GetChecksum())
	}
	if d.graph != nil {
		return d.graph.other(at, m.GetId())
	}
	return nil
}

// The nesting levels of the fields the decoder reads, counted as prost
// counts them from the container down (wire.RecursionLimit): a field of
// the container, of one of its elements, of a message inside an element
// (a param file, an environment variable).
const (
	containerLevel = wire.RecursionLimit
	elementLevel   = containerLevel - 1
	nestedLevel    = containerLevel - 2
)

// The descriptors of the elements the decoder reads, which name their
// fields in errors.
var (
	actionDesc       = (&analysispb.Action{}).ProtoReflect().Descriptor()
	artifactDesc     = (&analysispb.Artifact{}).ProtoReflect().Descriptor()
	targetDesc       = (&analysispb.Target{}).ProtoReflect().Descriptor()
	depSetDesc       = (&analysispb.DepSetOfFiles{}).ProtoReflect().Descriptor()
	pathFragmentDesc = (&analysispb.PathFragment{}).ProtoReflect().Descriptor()
	keyValueDesc     = (&analysispb.KeyValuePair{}).ProtoReflect().Descriptor()
	paramFileDesc    = (&analysispb.ParamFile{}).ProtoReflect().Descriptor()
)

func (d *elementDecoder) action(b []byte) (*Action, error) {
	var a *Action
	if d.reuse != nil {
		a = d.reuse
		*a = Action{
			Action: action.Action{
				Arguments:     a.Arguments[:0],
				Env:           a.Env[:0],
				ExecutionInfo: a.ExecutionInfo[:0],
				ParamFiles:    a.ParamFiles[:0],
			},
			InputDepSets: a.InputDepSets[:0],
			OutputIDs:    a.OutputIDs[:0],
		}
	} else {
		a = new(Action)
		// Compile lines run to hundreds of arguments: size the slice once
		// rather than growing it through every power of two.
		if n := countArguments(b); n > 0 {
			a.Arguments = make([]string, 0, n)
		}
	}
	r := &d.refs
	r.configuration, r.primaryOutput = 0, 0
	r.aspects, r.outputs = r.aspects[:0], r.outputs[:0]
	f := wire.NewFields(b, actionDesc, elementLevel)
	for {
		// Arguments are most of a dump: the fast path takes them
		// (BenchmarkDecodeGenerated, two workers: 4% less CPU, medians of
		// 5 interleaved runs).
		if s, ok := f.TakeStr(argumentsTag); ok {
			a.Arguments = append(a.Arguments, d.value(s))
			continue
		}
		if !f.Next() {
			break
		}
		switch f.Num {
		case analysispb.ActionArguments:
			a.Arguments = append(a.Arguments, d.value(f.Str()))
		case analysispb.ActionTargetID:
			a.TargetID = f.Uint32()
		case analysispb.ActionMnemonic:
			a.Mnemonic = d.strs.intern(f.Str())
		case analysispb.ActionEnvironmentVariables:
			m := f.Sub(keyValueDesc)
			k, v := keyValue(&m)
			if m.Err() != nil {
				f.Fail(m.Err())
				break
			}
			a.Env = append(a.Env, action.EnvVar{Key: d.strs.intern(k), Value: d.value(v)})
		case analysispb.ActionInputDepSetIDs:
			a.InputDepSets = f.AppendUint32s(a.InputDepSets)
		case analysispb.ActionExecutionInfo:
			m := f.Sub(keyValueDesc)
			k, _ := keyValue(&m)
			if m.Err() != nil {
				f.Fail(m.Err())
				break
			}
			a.ExecutionInfo = append(a.ExecutionInfo, d.strs.intern(k))
		case analysispb.ActionParamFiles:
			// A reused action's param files keep their lines' capacity.
			var lines []string
			if n := len(a.ParamFiles); n < cap(a.ParamFiles) {
				lines = a.ParamFiles[:n+1][n].Lines[:0]
			}
			m := f.Sub(paramFileDesc)
			pf := d.paramFile(&m, lines)
			if m.Err() != nil {
				f.Fail(m.Err())
				break
			}
			a.ParamFiles = append(a.ParamFiles, pf)
		// References, read to be checked.
		case analysispb.ActionAspectDescriptorIDs:
			r.aspects = f.AppendUint32s(r.aspects)
		case analysispb.ActionOutputIDs:
			r.outputs = f.AppendUint32s(r.outputs)
		case analysispb.ActionConfigurationID:
			r.configuration = f.Uint32()
			a.ConfigurationID = r.configuration
		case analysispb.ActionPrimaryOutputID:
			r.primaryOutput = f.Uint32()
		// Fields nothing reads, checked as prost checked them.
		case analysispb.ActionActionKey, analysispb.ActionExecutionPlatform, analysispb.ActionTemplateContent,
			analysispb.ActionFileContents, analysispb.ActionUnresolvedSymlinkTarget, analysispb.ActionProgressMessage:
			f.Str()
		case analysispb.ActionDiscoversInputs, analysispb.ActionIsExecutable:
			f.Bool()
		case analysispb.ActionSubstitutions:
			m := f.Sub(keyValueDesc)
			keyValue(&m)
			f.Fail(m.Err())
		}
		// Field 20 is reserved: Next skipped it like any unknown field.
	}
	if err := f.Err(); err != nil {
		return nil, err
	}
	r.target, r.inputs = a.TargetID, a.InputDepSets
	a.OutputIDs = append(a.OutputIDs, r.outputs...)
	return a, nil
}

// argumentsTag is the one-byte tag of an action's arguments.
var argumentsTag = byte(protowire.EncodeTag(analysispb.ActionArguments, protowire.BytesType))

// countArguments counts the arguments field of an action's body. A
// malformed body counts short; the decoding pass reports the error.
func countArguments(b []byte) int {
	n := 0
	for len(b) > 0 {
		num, typ, k := protowire.ConsumeTag(b)
		if k < 0 {
			return n
		}
		m := protowire.ConsumeFieldValue(num, typ, b[k:])
		if m < 0 {
			return n
		}
		if num == analysispb.ActionArguments {
			n++
		}
		b = b[k+m:]
	}
	return n
}

// value is an argument or environment value as a string.
func (d *elementDecoder) value(b []byte) string {
	if d.owned {
		return ownedString(b)
	}
	return d.strs.value(b)
}

// keyValue reads a KeyValuePair; an error is left in f.
func keyValue(f *wire.Fields) (key, value []byte) {
	for f.Next() {
		switch f.Num {
		case analysispb.KeyValueKey:
			key = f.Str()
		case analysispb.KeyValueValue:
			value = f.Str()
		}
	}
	return key, value
}

// paramFile reads a ParamFile, appending its lines to lines; an error is
// left in f.
func (d *elementDecoder) paramFile(f *wire.Fields, lines []string) action.ParamFile {
	pf := action.ParamFile{Lines: lines}
	for f.Next() {
		switch f.Num {
		case analysispb.ParamFileExecPath:
			pf.ExecPath = d.value(f.Str())
		case analysispb.ParamFileArguments:
			pf.Lines = append(pf.Lines, d.value(f.Str()))
		}
	}
	return pf
}

func (d *elementDecoder) artifact(b []byte, at place) error {
	var id, fragmentID uint32
	f := wire.NewFields(b, artifactDesc, elementLevel)
	for f.Next() {
		switch f.Num {
		case analysispb.ArtifactID:
			id = f.Uint32()
		case analysispb.ArtifactPathFragmentID:
			fragmentID = f.Uint32()
		case analysispb.ArtifactIsTreeArtifact:
			f.Bool()
		}
	}
	if err := f.Err(); err != nil {
		return err
	}
	if d.graph != nil {
		return d.graph.artifact(at, id, fragmentID)
	}
	return nil
}

func (d *elementDecoder) target(b []byte, at place) error {
	var id, ruleClass uint32
	var label []byte
	f := wire.NewFields(b, targetDesc, elementLevel)
	for f.Next() {
		switch f.Num {
		case analysispb.TargetID:
			id = f.Uint32()
		case analysispb.TargetLabel:
			label = f.Str()
		case analysispb.TargetRuleClassID:
			ruleClass = f.Uint32()
		}
	}
	if err := f.Err(); err != nil {
		return err
	}
	if d.graph != nil {
		return d.graph.target(at, id, label, ruleClass)
	}
	return nil
}

func (d *elementDecoder) depSet(b []byte, at place) error {
	var id uint32
	d.direct, d.trans = d.direct[:0], d.trans[:0]
	f := wire.NewFields(b, depSetDesc, elementLevel)
	for f.Next() {
		switch f.Num {
		case analysispb.DepSetID:
			id = f.Uint32()
		case analysispb.DepSetTransitiveDepSetIDs:
			d.trans = f.AppendUint32s(d.trans)
		case analysispb.DepSetDirectArtifactIDs:
			d.direct = f.AppendUint32s(d.direct)
		}
	}
	if err := f.Err(); err != nil {
		return err
	}
	if d.graph != nil {
		d.direct = append(d.direct, d.trans...)
		return d.graph.depSet(at, id, d.direct, len(d.direct)-len(d.trans))
	}
	return nil
}

func (d *elementDecoder) pathFragment(b []byte, at place) error {
	var id, parent uint32
	var label []byte
	f := wire.NewFields(b, pathFragmentDesc, elementLevel)
	for f.Next() {
		switch f.Num {
		case analysispb.PathFragmentID:
			id = f.Uint32()
		case analysispb.PathFragmentLabel:
			label = f.Str()
		case analysispb.PathFragmentParentID:
			parent = f.Uint32()
		}
	}
	if err := f.Err(); err != nil {
		return err
	}
	if d.graph != nil {
		// Not interned: Bazel already shares path prefixes through parent
		// ids, so labels rarely repeat.
		return d.graph.pathFragment(at, id, label, parent)
	}
	return nil
}
