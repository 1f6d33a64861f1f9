package report

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"slices"
	"strconv"
	"strings"

	"github.com/ahab-go/ahab/internal/finding"
	"github.com/ahab-go/ahab/internal/program"
)

// ReadJSONFile reads a report written by WriteJSONFile or by the original
// (§8.4). Errors name the file: `failed to read JSON report from <path>:
// <cause>` when it cannot be read, `<path> is not a report Ahab wrote:
// <cause>` when it is not a report.
func ReadJSONFile(path string) (*finding.Set, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("failed to read JSON report from %s: %w", path, causeOf(err))
	}
	set, err := decodeReport(data)
	if err != nil {
		return nil, fmt.Errorf("%s is not a report Ahab wrote: %w", path, err)
	}
	return set, nil
}

// ReadJSON reads a report from r (§8.4). Unknown fields are ignored
// anywhere, the optional fields (synonym, extension, any_of, present) may
// be left out, and entries for the same finding are summed. The error says
// what is wrong and where, without a file name.
func ReadJSON(r io.Reader) (*finding.Set, error) {
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, err
	}
	return decodeReport(data)
}

// maxOccurrences bounds the sum of all counts so that no count, and no
// total a printer computes, can overflow.
const maxOccurrences = math.MaxInt64

func decodeReport(data []byte) (*finding.Set, error) {
	if set, ok := readCanonical(data); ok {
		return set, nil
	}
	return decodeCarefully(data)
}

// sourceByName and locationByName are the inverses of Source.String and
// Location.String.
func sourceByName(name string) (finding.Source, bool) {
	for _, src := range []finding.Source{finding.User, finding.Hostname} {
		if src.String() == name {
			return src, true
		}
	}
	return 0, false
}

func locationByName(name string) (finding.Location, bool) {
	for _, loc := range []finding.Location{finding.Argument, finding.ParamFile, finding.EnvVar} {
		if loc.String() == name {
			return loc, true
		}
	}
	return 0, false
}

// decodeCarefully decodes any report §8.4 accepts and says precisely what
// is wrong with one it does not.
func decodeCarefully(data []byte) (*finding.Set, error) {
	if !json.Valid(data) {
		// Decoded again only to say where it goes wrong, with
		// encoding/json's offsets.
		var top any
		err := json.Unmarshal(data, &top)
		var se *json.SyntaxError
		if errors.As(err, &se) {
			return nil, fmt.Errorf("invalid JSON at byte %d: %s", se.Offset, se.Error())
		}
		return nil, fmt.Errorf("invalid JSON: %v", err)
	}
	if firstByte(data) != '{' {
		return nil, fmt.Errorf("expected an object, found %s", describe(data))
	}
	// The document is valid, so the decoder's errors below cannot happen.
	// It walks the top-level object and the violations array one entry at
	// a time: a report of a million findings is never decoded whole.
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.Token() // {
	var set *finding.Set
	for dec.More() {
		key, _ := dec.Token()
		if key != "violations" {
			var skip json.RawMessage
			dec.Decode(&skip)
			continue
		}
		// A repeated key is decoded again; the last one counts, as it
		// would in a map.
		var err error
		if set, err = decodeViolations(dec); err != nil {
			return nil, err
		}
	}
	if set == nil {
		return nil, errors.New(`missing field "violations"`)
	}
	return set, nil
}

// decodeViolations decodes the array of entries the decoder is at, one
// entry at a time. Reports in the layout Ahab writes never come this way
// (readCanonical reads them), so this path is for the odd hand-edited one.
func decodeViolations(dec *json.Decoder) (*finding.Set, error) {
	tok, _ := dec.Token()
	if tok != json.Delim('[') {
		return nil, fmt.Errorf("violations: expected an array, found %s", describeToken(tok))
	}
	set := finding.NewSet()
	total := uint64(0)
	for i := 1; dec.More(); i++ {
		var raw json.RawMessage
		dec.Decode(&raw)
		f, n, err := decodeEntry(raw)
		if err != nil {
			return nil, fmt.Errorf("violation %d: %w", i, err)
		}
		if n > maxOccurrences-total {
			return nil, fmt.Errorf("violation %d: counts add up to more than %d", i, uint64(maxOccurrences))
		}
		total += n
		set.Add(f, int(n))
	}
	dec.Token() // ]
	return set, nil
}

// describeToken names the kind of value a token starts.
func describeToken(tok json.Token) string {
	switch tok.(type) {
	case json.Delim:
		if tok == json.Delim('{') {
			return "an object"
		}
		return "an array"
	case string:
		return "a string"
	case bool:
		return "a boolean"
	case nil:
		return "null"
	}
	return "a number"
}

func decodeEntry(raw json.RawMessage) (finding.Finding, uint64, error) {
	var f finding.Finding
	o, err := asObject(raw)
	if err != nil {
		return f, 0, err
	}
	rawCount, ok := o["count"]
	if !ok {
		return f, 0, errors.New(`missing field "count"`)
	}
	n, err := strconv.ParseUint(string(rawCount), 10, 64)
	if err != nil || n == 0 {
		return f, 0, fmt.Errorf("count: %s is not a positive integer", rawCount)
	}
	v, err := o.object("violation")
	if err != nil {
		return f, 0, err
	}
	f, err = decodeFinding(v)
	if err != nil {
		return f, 0, fmt.Errorf("violation: %w", err)
	}
	return f, n, nil
}

func decodeFinding(o object) (finding.Finding, error) {
	var f finding.Finding
	tag, err := o.str("kind")
	if err != nil {
		return f, err
	}
	kind, ok := finding.KindByTag(tag)
	if !ok {
		tags := make([]string, 0, 10)
		for _, k := range finding.Kinds() {
			tags = append(tags, k.String())
		}
		return f, fmt.Errorf("kind: unknown kind %q, expected one of: %s", tag, strings.Join(tags, ", "))
	}
	f.Kind = kind
	action, err := o.object("action")
	if err != nil {
		return f, err
	}
	if f.Action.Mnemonic, err = action.str("mnemonic"); err != nil {
		return f, fmt.Errorf("action: %w", err)
	}
	if f.Action.Target, err = action.str("target"); err != nil {
		return f, fmt.Errorf("action: %w", err)
	}
	switch kind {
	case finding.EnvironmentLeak:
		src, err := o.str("source")
		if err != nil {
			return f, err
		}
		var ok bool
		if f.Source, ok = sourceByName(src); !ok {
			return f, fmt.Errorf("source: unknown source %q, expected one of: user, hostname", src)
		}
		if f.Sentinel, err = o.str("sentinel"); err != nil {
			return f, err
		}
		if f.Site, err = decodeSite(o); err != nil {
			return f, err
		}
	case finding.BadPath:
		f.Actual, err = o.str("actual")
	case finding.ExecutionRequirement:
		f.Requirement, err = o.str("requirement")
	case finding.AbsolutePath:
		if f.Path, err = o.str("path"); err == nil {
			f.Site, err = decodeSite(o)
		}
	case finding.WorkspaceStatus:
		f.Path, err = o.str("path")
	default:
		err = decodeProgramFields(o, &f)
	}
	return f, err
}

func decodeSite(parent object) (finding.Site, error) {
	var s finding.Site
	o, err := parent.object("site")
	if err != nil {
		return s, err
	}
	loc, err := o.str("location")
	if err != nil {
		return s, fmt.Errorf("site: %w", err)
	}
	var ok bool
	if s.Location, ok = locationByName(loc); !ok {
		return s, fmt.Errorf("site: unknown location %q, expected one of: argument, param_file, env_var", loc)
	}
	switch s.Location {
	case finding.ParamFile:
		s.ExecPath, err = o.str("exec_path")
	case finding.EnvVar:
		s.Key, err = o.str("key")
	}
	if err == nil {
		s.Value, err = o.str("value")
	}
	if err != nil {
		return s, fmt.Errorf("site: %w", err)
	}
	return s, nil
}

func decodeProgramFields(o object, f *finding.Finding) error {
	p, err := o.object("program")
	if err != nil {
		return err
	}
	if f.Program, err = decodeProgram(p); err != nil {
		return fmt.Errorf("program: %w", err)
	}
	rawWrappers, ok := o["wrappers"]
	if !ok {
		return errors.New(`missing field "wrappers"`)
	}
	wrappers, err := asArray(rawWrappers)
	if err != nil {
		return fmt.Errorf("wrappers: %w", err)
	}
	for i, raw := range wrappers {
		wo, err := asObject(raw)
		if err == nil {
			var w program.ID
			if w, err = decodeProgram(wo); err == nil {
				f.Wrappers = append(f.Wrappers, w)
				continue
			}
		}
		return fmt.Errorf("wrappers: %d: %w", i+1, err)
	}
	if f.Kind == finding.NeverReproducible || f.Kind == finding.ConditionalReproducibility {
		if raw, ok := o["synonym"]; ok && !isNull(raw) {
			so, err := asObject(raw)
			if err != nil {
				return fmt.Errorf("synonym: %w", err)
			}
			syn, err := decodeProgram(so)
			if err != nil {
				return fmt.Errorf("synonym: %w", err)
			}
			f.Synonym = &syn
		}
	}
	if f.Kind == finding.ConditionalReproducibility {
		rawUnmet, ok := o["unmet"]
		if !ok {
			return errors.New(`missing field "unmet"`)
		}
		items, err := asArray(rawUnmet)
		if err != nil {
			return fmt.Errorf("unmet: %w", err)
		}
		for i, raw := range items {
			u, err := decodeUnmet(raw)
			if err != nil {
				return fmt.Errorf("unmet: %d: %w", i+1, err)
			}
			f.Unmet = append(f.Unmet, u)
		}
		// The original holds unmet conditions as a sorted set.
		slices.SortFunc(f.Unmet, finding.CompareUnmet)
		f.Unmet = slices.CompactFunc(f.Unmet, func(a, b finding.Unmet) bool { return finding.CompareUnmet(a, b) == 0 })
	}
	return nil
}

func decodeUnmet(raw json.RawMessage) (finding.Unmet, error) {
	var u finding.Unmet
	o, err := asObject(raw)
	if err != nil {
		return u, err
	}
	if u.Because, err = o.str("because"); err != nil {
		return u, err
	}
	if u.AnyOf, err = o.strSet("any_of"); err != nil {
		return u, err
	}
	u.Present, err = o.strSet("present")
	return u, err
}

// decodeProgram reads {"origin": O, "path": …} with O one of "system",
// {"main": {"extension": …}} or {"module": {"name": …, "extension": …}}.
func decodeProgram(o object) (program.ID, error) {
	var id program.ID
	var err error
	if id.Path, err = o.str("path"); err != nil {
		return id, err
	}
	raw, ok := o["origin"]
	if !ok {
		return id, errors.New(`missing field "origin"`)
	}
	var tag string
	if json.Unmarshal(raw, &tag) == nil && !isNull(raw) {
		if tag != "system" {
			return id, fmt.Errorf(`origin: unknown origin %q, expected "system", {"main": …} or {"module": …}`, tag)
		}
		id.Origin.Kind = program.System
		return id, nil
	}
	origin, err := asObject(raw)
	if err != nil || len(origin) != 1 {
		return id, errors.New(`origin: expected "system", {"main": …} or {"module": …}`)
	}
	if body, ok := origin["main"]; ok {
		bo, err := asObject(body)
		if err != nil {
			return id, fmt.Errorf("origin: main: %w", err)
		}
		id.Origin.Kind = program.Main
		if id.Origin.Extension, id.Origin.HasExtension, err = bo.optStr("extension"); err != nil {
			return id, fmt.Errorf("origin: main: %w", err)
		}
		return id, nil
	}
	body, ok := origin["module"]
	if !ok {
		return id, errors.New(`origin: expected "system", {"main": …} or {"module": …}`)
	}
	bo, err := asObject(body)
	if err != nil {
		return id, fmt.Errorf("origin: module: %w", err)
	}
	id.Origin.Kind = program.Module
	if id.Origin.Module, err = bo.str("name"); err != nil {
		return id, fmt.Errorf("origin: module: %w", err)
	}
	if id.Origin.Extension, id.Origin.HasExtension, err = bo.optStr("extension"); err != nil {
		return id, fmt.Errorf("origin: module: %w", err)
	}
	return id, nil
}

// object is a JSON object whose members are decoded on demand. Members
// nobody asks for are ignored (§8.4).
type object map[string]json.RawMessage

func isNull(raw json.RawMessage) bool {
	return string(bytes.TrimSpace(raw)) == "null"
}

func firstByte(raw json.RawMessage) byte {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		return 0
	}
	return raw[0]
}

func asObject(raw json.RawMessage) (object, error) {
	if firstByte(raw) != '{' {
		return nil, fmt.Errorf("expected an object, found %s", describe(raw))
	}
	var o object
	if err := json.Unmarshal(raw, &o); err != nil {
		return nil, err
	}
	return o, nil
}

func asArray(raw json.RawMessage) ([]json.RawMessage, error) {
	if firstByte(raw) != '[' {
		return nil, fmt.Errorf("expected an array, found %s", describe(raw))
	}
	var a []json.RawMessage
	if err := json.Unmarshal(raw, &a); err != nil {
		return nil, err
	}
	return a, nil
}

func describe(raw json.RawMessage) string {
	switch firstByte(raw) {
	case '{':
		return "an object"
	case '[':
		return "an array"
	case '"':
		return "a string"
	case 'n':
		return "null"
	case 't', 'f':
		return "a boolean"
	}
	return "a number"
}

func (o object) object(key string) (object, error) {
	raw, ok := o[key]
	if !ok {
		return nil, fmt.Errorf("missing field %q", key)
	}
	v, err := asObject(raw)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", key, err)
	}
	return v, nil
}

func (o object) str(key string) (string, error) {
	raw, ok := o[key]
	if !ok {
		return "", fmt.Errorf("missing field %q", key)
	}
	return decodeString(key, raw)
}

func decodeString(key string, raw json.RawMessage) (string, error) {
	if firstByte(raw) != '"' {
		return "", fmt.Errorf("%s: expected a string, found %s", key, describe(raw))
	}
	var s string
	if err := json.Unmarshal(raw, &s); err != nil {
		return "", fmt.Errorf("%s: %w", key, err)
	}
	return s, nil
}

// optStr reads a string that may be null or left out.
func (o object) optStr(key string) (string, bool, error) {
	raw, ok := o[key]
	if !ok || isNull(raw) {
		return "", false, nil
	}
	s, err := decodeString(key, raw)
	return s, err == nil, err
}

// strSet reads an optional list of strings as the sorted set the original
// keeps (§8.1: any_of and present).
func (o object) strSet(key string) ([]string, error) {
	raw, ok := o[key]
	if !ok {
		return nil, nil
	}
	items, err := asArray(raw)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", key, err)
	}
	var out []string
	for _, item := range items {
		s, err := decodeString(key, item)
		if err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	slices.Sort(out)
	return slices.Compact(out), nil
}
