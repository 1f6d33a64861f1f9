package gengraph

import (
	"bufio"
	"encoding/json"
	"strconv"

	"google.golang.org/protobuf/encoding/protowire"

	"github.com/ahab-go/ahab/internal/aquery/analysispb"
)

// The generator writes the wire format by hand, with the container's field
// numbers from analysispb, so that it never holds more than one element in
// memory.

// jsonNames are the protojson names of the container fields.
var jsonNames = map[protowire.Number]string{
	analysispb.ContainerArtifacts:     "artifacts",
	analysispb.ContainerActions:       "actions",
	analysispb.ContainerTargets:       "targets",
	analysispb.ContainerDepSetOfFiles: "depSetOfFiles",
	analysispb.ContainerConfiguration: "configuration",
	analysispb.ContainerRuleClasses:   "ruleClasses",
	analysispb.ContainerPathFragments: "pathFragments",
}

// kv is a KeyValuePair.
type kv struct{ key, value string }

// strs is a list of strings kept in one reused byte arena, so that every
// action's arguments are built in the same memory.
type strs struct {
	buf  []byte
	ends []int
}

func (l *strs) reset()   { l.buf, l.ends = l.buf[:0], l.ends[:0] }
func (l *strs) len() int { return len(l.ends) }

func (l *strs) at(i int) []byte {
	start := 0
	if i > 0 {
		start = l.ends[i-1]
	}
	return l.buf[start:l.ends[i]]
}

// add appends one string made of the concatenation of parts.
func (l *strs) add(parts ...string) {
	for _, p := range parts {
		l.buf = append(l.buf, p...)
	}
	l.ends = append(l.ends, len(l.buf))
}

// addNum appends prefix + n + suffix.
func (l *strs) addNum(prefix string, n uint64, suffix string) {
	l.buf = append(l.buf, prefix...)
	l.buf = strconv.AppendUint(l.buf, n, 10)
	l.buf = append(l.buf, suffix...)
	l.ends = append(l.ends, len(l.buf))
}

// paramFile is a ParamFile; lines lives in its own arena.
type paramFile struct {
	execPath string
	lines    strs
}

// actionMsg is one Action element as the generator builds it.
type actionMsg struct {
	targetID, configID uint32
	key                string
	mnemonic           string
	args               strs
	env                []kv
	inputs             []uint32
	outputs            []uint32
	execInfo           []kv
	params             []paramFile // only params[:nParams] are used
	nParams            int
	platform           string
}

func (a *actionMsg) reset() {
	a.args.reset()
	a.env = a.env[:0]
	a.inputs = a.inputs[:0]
	a.outputs = a.outputs[:0]
	a.execInfo = a.execInfo[:0]
	a.nParams = 0
}

// newParamFile returns a cleared param file of a, reusing its arena.
func (a *actionMsg) newParamFile(execPath string) *paramFile {
	if a.nParams == len(a.params) {
		a.params = append(a.params, paramFile{})
	}
	p := &a.params[a.nParams]
	a.nParams++
	p.execPath = execPath
	p.lines.reset()
	return p
}

// encoder writes the elements of one container in one of the formats.
type encoder interface {
	// section is called before the first element of a container field.
	section(num protowire.Number)
	artifact(id, fragment uint32)
	action(a *actionMsg)
	target(id uint32, label string, ruleClass uint32)
	depSet(id uint32, transitive, direct []uint32)
	configuration(id uint32, mnemonic, platform, checksum string, isTool bool)
	ruleClass(id uint32, name string)
	pathFragment(id uint32, label string, parent uint32)
	finish()
}

// protoEncoder writes --output=proto, or --output=streamed_proto when
// streamed is set: there every element is its own length-delimited
// ActionGraphContainer, as Bazel ≥ 7 writes it.
type protoEncoder struct {
	w        *bufio.Writer
	streamed bool
	num      protowire.Number
	body     []byte // the element being built, reused
	head     []byte
}

func (e *protoEncoder) section(num protowire.Number) { e.num = num }

// flush writes the element in e.body.
func (e *protoEncoder) flush() {
	e.head = e.head[:0]
	if e.streamed {
		n := protowire.SizeTag(e.num) + protowire.SizeBytes(len(e.body))
		e.head = protowire.AppendVarint(e.head, uint64(n))
	}
	e.head = protowire.AppendTag(e.head, e.num, protowire.BytesType)
	e.head = protowire.AppendVarint(e.head, uint64(len(e.body)))
	e.w.Write(e.head)
	e.w.Write(e.body)
	e.body = e.body[:0]
}

func appendUint(b []byte, num protowire.Number, v uint32) []byte {
	if v == 0 {
		return b // proto3 leaves zero scalars out
	}
	b = protowire.AppendTag(b, num, protowire.VarintType)
	return protowire.AppendVarint(b, uint64(v))
}

func appendString(b []byte, num protowire.Number, s string) []byte {
	if s == "" {
		return b
	}
	b = protowire.AppendTag(b, num, protowire.BytesType)
	return protowire.AppendString(b, s)
}

func appendRaw(b []byte, num protowire.Number, s []byte) []byte {
	b = protowire.AppendTag(b, num, protowire.BytesType)
	return protowire.AppendBytes(b, s)
}

// appendPacked writes a repeated uint32 packed, as Bazel does.
func appendPacked(b []byte, num protowire.Number, vs []uint32) []byte {
	if len(vs) == 0 {
		return b
	}
	n := 0
	for _, v := range vs {
		n += protowire.SizeVarint(uint64(v))
	}
	b = protowire.AppendTag(b, num, protowire.BytesType)
	b = protowire.AppendVarint(b, uint64(n))
	for _, v := range vs {
		b = protowire.AppendVarint(b, uint64(v))
	}
	return b
}

func appendKVs(b []byte, num protowire.Number, kvs []kv) []byte {
	for _, p := range kvs {
		n := 0
		if p.key != "" {
			n += 1 + protowire.SizeBytes(len(p.key))
		}
		if p.value != "" {
			n += 1 + protowire.SizeBytes(len(p.value))
		}
		b = protowire.AppendTag(b, num, protowire.BytesType)
		b = protowire.AppendVarint(b, uint64(n))
		b = appendString(b, 1, p.key)
		b = appendString(b, 2, p.value)
	}
	return b
}

func (e *protoEncoder) artifact(id, fragment uint32) {
	e.body = appendUint(e.body, 1, id)
	e.body = appendUint(e.body, 2, fragment)
	e.flush()
}

func (e *protoEncoder) action(a *actionMsg) {
	b := e.body
	b = appendUint(b, 1, a.targetID)
	b = appendString(b, 3, a.key)
	b = appendString(b, 4, a.mnemonic)
	b = appendUint(b, 5, a.configID)
	for i := range a.args.len() {
		b = appendRaw(b, 6, a.args.at(i))
	}
	b = appendKVs(b, 7, a.env)
	b = appendPacked(b, 8, a.inputs)
	b = appendPacked(b, 9, a.outputs)
	b = appendKVs(b, 11, a.execInfo)
	for _, p := range a.params[:a.nParams] {
		n := 1 + protowire.SizeBytes(len(p.execPath))
		for i := range p.lines.len() {
			n += 1 + protowire.SizeBytes(len(p.lines.at(i)))
		}
		b = protowire.AppendTag(b, 12, protowire.BytesType)
		b = protowire.AppendVarint(b, uint64(n))
		b = appendString(b, 1, p.execPath)
		for i := range p.lines.len() {
			b = appendRaw(b, 2, p.lines.at(i))
		}
	}
	if len(a.outputs) > 0 {
		b = appendUint(b, 13, a.outputs[0])
	}
	b = appendString(b, 14, a.platform)
	e.body = b
	e.flush()
}

func (e *protoEncoder) target(id uint32, label string, ruleClass uint32) {
	e.body = appendUint(e.body, 1, id)
	e.body = appendString(e.body, 2, label)
	e.body = appendUint(e.body, 3, ruleClass)
	e.flush()
}

func (e *protoEncoder) depSet(id uint32, transitive, direct []uint32) {
	e.body = appendUint(e.body, 1, id)
	e.body = appendPacked(e.body, 2, transitive)
	e.body = appendPacked(e.body, 3, direct)
	e.flush()
}

func (e *protoEncoder) configuration(id uint32, mnemonic, platform, checksum string, isTool bool) {
	e.body = appendUint(e.body, 1, id)
	e.body = appendString(e.body, 2, mnemonic)
	e.body = appendString(e.body, 3, platform)
	e.body = appendString(e.body, 4, checksum)
	if isTool {
		e.body = appendUint(e.body, 5, 1)
	}
	e.flush()
}

func (e *protoEncoder) ruleClass(id uint32, name string) {
	e.body = appendUint(e.body, 1, id)
	e.body = appendString(e.body, 2, name)
	e.flush()
}

func (e *protoEncoder) pathFragment(id uint32, label string, parent uint32) {
	e.body = appendUint(e.body, 1, id)
	e.body = appendString(e.body, 2, label)
	e.body = appendUint(e.body, 3, parent)
	e.flush()
}

func (e *protoEncoder) finish() {}

// jsonEncoder writes --output=jsonproto in the layout Bazel prints
// (protojson field names, zero values left out).
type jsonEncoder struct {
	w        *bufio.Writer
	sections int
	elements int
	buf      []byte
}

func (e *jsonEncoder) section(num protowire.Number) {
	if e.sections == 0 {
		e.w.WriteString("{\n")
	} else {
		e.w.WriteString("],\n")
	}
	e.sections++
	e.elements = 0
	e.w.WriteString("  " + strconv.Quote(jsonNames[num]) + ": [")
}

// open starts an element object.
func (e *jsonEncoder) open() {
	if e.elements > 0 {
		e.w.WriteString(", ")
	}
	e.elements++
	e.buf = append(e.buf[:0], '{')
}

func (e *jsonEncoder) close() {
	e.buf = append(e.buf, '}')
	e.w.Write(e.buf)
}

func (e *jsonEncoder) key(k string) {
	if e.buf[len(e.buf)-1] != '{' {
		e.buf = append(e.buf, ", "...)
	}
	e.buf = append(e.buf, '"')
	e.buf = append(e.buf, k...)
	e.buf = append(e.buf, "\": "...)
}

func (e *jsonEncoder) uint(k string, v uint32) {
	if v == 0 {
		return
	}
	e.key(k)
	e.buf = strconv.AppendUint(e.buf, uint64(v), 10)
}

func (e *jsonEncoder) str(k string, s string) {
	if s == "" {
		return
	}
	e.key(k)
	e.quote([]byte(s))
}

func (e *jsonEncoder) quote(s []byte) {
	q, _ := json.Marshal(string(s)) // a string always marshals
	e.buf = append(e.buf, q...)
}

// array writes k's list of n elements, nothing when it is empty (protojson
// leaves empty repeated fields out).
func (e *jsonEncoder) array(k string, n int, elem func(i int)) {
	if n == 0 {
		return
	}
	e.key(k)
	e.buf = append(e.buf, '[')
	for i := range n {
		if i > 0 {
			e.buf = append(e.buf, ", "...)
		}
		elem(i)
	}
	e.buf = append(e.buf, ']')
}

func (e *jsonEncoder) uints(k string, vs []uint32) {
	e.array(k, len(vs), func(i int) { e.buf = strconv.AppendUint(e.buf, uint64(vs[i]), 10) })
}

func (e *jsonEncoder) list(k string, l *strs) {
	e.array(k, l.len(), func(i int) { e.quote(l.at(i)) })
}

func (e *jsonEncoder) kvs(k string, kvs []kv) {
	e.array(k, len(kvs), func(i int) {
		e.buf = append(e.buf, '{')
		e.str("key", kvs[i].key)
		e.str("value", kvs[i].value)
		e.buf = append(e.buf, '}')
	})
}

func (e *jsonEncoder) artifact(id, fragment uint32) {
	e.open()
	e.uint("id", id)
	e.uint("pathFragmentId", fragment)
	e.close()
}

func (e *jsonEncoder) action(a *actionMsg) {
	e.open()
	e.uint("targetId", a.targetID)
	e.str("actionKey", a.key)
	e.str("mnemonic", a.mnemonic)
	e.uint("configurationId", a.configID)
	e.list("arguments", &a.args)
	e.kvs("environmentVariables", a.env)
	e.uints("inputDepSetIds", a.inputs)
	e.uints("outputIds", a.outputs)
	e.kvs("executionInfo", a.execInfo)
	e.array("paramFiles", a.nParams, func(i int) {
		e.buf = append(e.buf, '{')
		e.str("execPath", a.params[i].execPath)
		e.list("arguments", &a.params[i].lines)
		e.buf = append(e.buf, '}')
	})
	if len(a.outputs) > 0 {
		e.uint("primaryOutputId", a.outputs[0])
	}
	e.str("executionPlatform", a.platform)
	e.close()
}

func (e *jsonEncoder) target(id uint32, label string, ruleClass uint32) {
	e.open()
	e.uint("id", id)
	e.str("label", label)
	e.uint("ruleClassId", ruleClass)
	e.close()
}

func (e *jsonEncoder) depSet(id uint32, transitive, direct []uint32) {
	e.open()
	e.uint("id", id)
	e.uints("transitiveDepSetIds", transitive)
	e.uints("directArtifactIds", direct)
	e.close()
}

func (e *jsonEncoder) configuration(id uint32, mnemonic, platform, checksum string, isTool bool) {
	e.open()
	e.uint("id", id)
	e.str("mnemonic", mnemonic)
	e.str("platformName", platform)
	e.str("checksum", checksum)
	if isTool {
		e.key("isTool")
		e.buf = append(e.buf, "true"...)
	}
	e.close()
}

func (e *jsonEncoder) ruleClass(id uint32, name string) {
	e.open()
	e.uint("id", id)
	e.str("name", name)
	e.close()
}

func (e *jsonEncoder) pathFragment(id uint32, label string, parent uint32) {
	e.open()
	e.uint("id", id)
	e.str("label", label)
	e.uint("parentId", parent)
	e.close()
}

func (e *jsonEncoder) finish() {
	if e.sections == 0 {
		e.w.WriteString("{\n}\n")
		return
	}
	e.w.WriteString("]\n}\n")
}
