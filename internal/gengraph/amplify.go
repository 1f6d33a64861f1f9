package gengraph

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"strconv"

	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"

	"github.com/ahab-go/ahab/internal/aquery/analysispb"
)

// Amplify writes copies of a real binary dump (--output=proto) to w as one
// bigger graph, for benchmarking on the structure of real Bazel output
// (see docs/performance.md). Without renumber the copies share the
// original's ids: its actions are written again for every copy and the
// rest once (a dump may not define an id twice), so the result is one
// graph whose findings are the original's, repeated. With renumber, copy k
// moves every id past those of copy k-1, into one id space shared by all
// kinds as a stitched dump would, and suffixes its target labels with
// "_k": every copy's findings are its own, as in a monorepo of many
// similar packages. Configurations and rule classes are written once.
func Amplify(w io.Writer, dump []byte, copies int, renumber bool) (Stats, error) {
	if copies < 1 {
		return Stats{}, fmt.Errorf("copies: %d, expected at least 1", copies)
	}
	var c analysispb.ActionGraphContainer
	if err := proto.Unmarshal(dump, &c); err != nil {
		return Stats{}, fmt.Errorf("not a binary aquery dump: %v", err)
	}
	// Ids are moved in steps of the largest id of any kind.
	var largest uint32
	for _, a := range c.GetArtifacts() {
		largest = max(largest, a.GetId())
	}
	for _, t := range c.GetTargets() {
		largest = max(largest, t.GetId())
	}
	for _, d := range c.GetDepSetOfFiles() {
		largest = max(largest, d.GetId())
	}
	for _, p := range c.GetPathFragments() {
		largest = max(largest, p.GetId())
	}
	if renumber && uint64(copies)*(uint64(largest)+1) > 1<<32 {
		return Stats{}, errors.New("copies: too many to renumber within 32-bit ids")
	}
	bw := bufio.NewWriterSize(w, 1<<20)
	var st Stats
	var werr error
	emit := func(num protowire.Number, m proto.Message) {
		if werr != nil {
			return
		}
		body, err := proto.Marshal(m)
		if err != nil {
			werr = err
			return
		}
		b := protowire.AppendTag(nil, num, protowire.BytesType)
		b = protowire.AppendVarint(b, uint64(len(body)))
		bw.Write(b)
		bw.Write(body)
		st.Bytes += int64(len(b) + len(body))
	}
	for k := range copies {
		step := uint32(0)
		suffix := ""
		if renumber {
			step = uint32(k) * (largest + 1)
			suffix = "_" + strconv.Itoa(k)
		}
		move := func(id uint32) uint32 {
			if id == 0 {
				return 0 // no id
			}
			return id + step
		}
		moveAll := func(ids []uint32) []uint32 {
			out := make([]uint32, len(ids))
			for i, id := range ids {
				out[i] = move(id)
			}
			return out
		}
		// Without renumber, the copies after the first are their actions.
		whole := k == 0 || renumber
		for _, a := range c.GetArtifacts() {
			if !whole {
				break
			}
			emit(analysispb.ContainerArtifacts, &analysispb.Artifact{Id: move(a.GetId()), PathFragmentId: move(a.GetPathFragmentId()), IsTreeArtifact: a.GetIsTreeArtifact()})
			st.Artifacts++
		}
		for _, a := range c.GetActions() {
			b := proto.Clone(a).(*analysispb.Action)
			b.TargetId = move(b.GetTargetId())
			b.InputDepSetIds = moveAll(b.GetInputDepSetIds())
			b.OutputIds = moveAll(b.GetOutputIds())
			b.PrimaryOutputId = move(b.GetPrimaryOutputId())
			emit(analysispb.ContainerActions, b)
			st.Actions++
		}
		for _, t := range c.GetTargets() {
			if !whole {
				break
			}
			emit(analysispb.ContainerTargets, &analysispb.Target{Id: move(t.GetId()), Label: t.GetLabel() + suffix, RuleClassId: t.GetRuleClassId()})
			st.Targets++
		}
		for _, d := range c.GetDepSetOfFiles() {
			if !whole {
				break
			}
			emit(analysispb.ContainerDepSetOfFiles, &analysispb.DepSetOfFiles{Id: move(d.GetId()),
				DirectArtifactIds: moveAll(d.GetDirectArtifactIds()), TransitiveDepSetIds: moveAll(d.GetTransitiveDepSetIds())})
			st.DepSets++
		}
		if k == 0 {
			for _, x := range c.GetConfiguration() {
				emit(analysispb.ContainerConfiguration, x)
			}
			for _, x := range c.GetRuleClasses() {
				emit(analysispb.ContainerRuleClasses, x)
			}
		}
		for _, p := range c.GetPathFragments() {
			if !whole {
				break
			}
			emit(analysispb.ContainerPathFragments, &analysispb.PathFragment{Id: move(p.GetId()), Label: p.GetLabel(), ParentId: move(p.GetParentId())})
			st.PathFragments++
		}
	}
	if werr != nil {
		return st, werr
	}
	return st, bw.Flush()
}
