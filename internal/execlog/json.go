package execlog

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/ahab-go/ahab/internal/spawn"
	"github.com/ahab-go/ahab/internal/wire"
)

// readJSON reads --execution_log_json_file: SpawnExec messages in protobuf
// JSON, one after another with or without whitespace between them.
//
// It is a decoder of its own rather than encoding/json and protojson:
// those read a generated log of 100k spawns at 48 MB/s (bench/difflog
// -mode proto), this decoder at 340 MB/s (BenchmarkRead/100k/json; see
// docs/performance.md), and a JSON log is the largest of the three. It knows SpawnExec's fields by both the
// lowerCamelCase names Bazel prints and the proto names protojson also
// accepts, reads int64 values quoted or not, and skips unknown fields
// (Bazel 4.2.3 writes progressMessage, and remoteCacheHit, which later
// versions call cacheHit). FuzzJSONMatchesProtojson holds it to protojson.
func readJSON(br *bufio.Reader, name string, reuse bool, fn func(*spawn.Spawn) error) error {
	c := objectCutter{br: br}
	p := jsonParser{strs: strs{borrow: reuse}}
	sp := new(spawn.Spawn)
	for i := 1; ; i++ {
		obj, start, err := c.next()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return &Error{File: name, Entry: fmt.Sprintf("spawn %d", i), Offset: start, Err: err}
		}
		if !reuse {
			sp = new(spawn.Spawn)
		}
		if err := p.spawnExec(obj, sp); err != nil {
			return &Error{File: name, Entry: fmt.Sprintf("spawn %d", i), Offset: start, Err: err}
		}
		normalize(sp)
		if err := fn(sp); err != nil {
			return err
		}
	}
}

// objectCutter cuts top-level JSON objects out of a stream, each into a
// buffer that grows only as its bytes arrive.
type objectCutter struct {
	br    *bufio.Reader
	off   int64
	buf   []byte
	stack []byte // the brackets open
}

// next returns the next object's bytes and offset, or io.EOF when only
// whitespace is left.
func (c *objectCutter) next() ([]byte, int64, error) {
	// Skip whitespace.
	for {
		b, err := c.br.ReadByte()
		if err == io.EOF {
			return nil, c.off, io.EOF
		}
		if err != nil {
			return nil, c.off, wire.ReadError(err)
		}
		c.off++
		if isJSONSpace(b) {
			continue
		}
		if b != '{' {
			return nil, c.off - 1, fmt.Errorf("%s, expected a SpawnExec object", jsonToken(b))
		}
		break
	}
	start := c.off - 1
	c.buf = append(c.buf[:0], '{')
	c.stack = append(c.stack[:0], '}')
	inString, escaped := false, false
	for {
		chunk, err := c.br.Peek(max(1, c.br.Buffered()))
		if len(chunk) == 0 {
			if err == io.EOF {
				return nil, start, fmt.Errorf("%w after %d bytes, expected a complete JSON object", io.ErrUnexpectedEOF, len(c.buf))
			}
			return nil, start, wire.ReadError(err)
		}
		n := 0
		for n < len(chunk) && len(c.stack) > 0 {
			b := chunk[n]
			n++
			switch {
			case escaped:
				escaped = false
			case inString:
				if b == '\\' {
					escaped = true
				} else if b == '"' {
					inString = false
				}
			case b == '"':
				inString = true
			case b == '{':
				c.stack = append(c.stack, '}')
			case b == '[':
				c.stack = append(c.stack, ']')
			case b == '}' || b == ']':
				if want := c.stack[len(c.stack)-1]; b != want {
					return nil, start, fmt.Errorf("mismatched %q at byte %d, expected %q", b, c.off+int64(n)-1, want)
				}
				c.stack = c.stack[:len(c.stack)-1]
			}
		}
		c.buf = append(c.buf, chunk[:n]...)
		c.br.Discard(n)
		c.off += int64(n)
		if len(c.stack) == 0 {
			return c.buf, start, nil
		}
	}
}

func isJSONSpace(b byte) bool { return b == ' ' || b == '\t' || b == '\n' || b == '\r' }

// jsonToken names what a value starting with b is, for errors.
func jsonToken(b byte) string {
	switch {
	case b == '[':
		return "a JSON array"
	case b == '"':
		return "a JSON string"
	case b == 't' || b == 'f':
		return "a JSON boolean"
	case b == 'n':
		return "a JSON null"
	case b == '-' || '0' <= b && b <= '9':
		return "a JSON number"
	}
	return "invalid character " + strconv.QuoteRune(rune(b))
}

// jsonParser decodes one object. Strings borrow the object's bytes (or, when
// they hold escapes, arena) when strs.borrow is set.
type jsonParser struct {
	b     []byte
	i     int
	strs  strs
	arena []byte
}

// jsonError is a parse error at a byte of the object.
type jsonError struct {
	at  int
	msg string
}

func (e *jsonError) Error() string { return e.msg }

func (p *jsonParser) fail(format string, args ...any) error {
	return &jsonError{at: p.i, msg: fmt.Sprintf(format, args...)}
}

// spawnExec decodes a SpawnExec object into sp.
func (p *jsonParser) spawnExec(obj []byte, sp *spawn.Spawn) error {
	p.b, p.i = obj, 0
	p.arena = p.arena[:0]
	*sp = spawn.Spawn{
		Args: sp.Args[:0], Env: sp.Env[:0], Inputs: sp.Inputs[:0],
		Outputs: sp.Outputs[:0], OutputFiles: sp.OutputFiles[:0],
	}
	err := p.object(func(key string) error {
		var err error
		switch key {
		case "commandArgs", "command_args":
			err = p.array(func() error {
				s, err := p.str()
				sp.Args = append(sp.Args, s)
				return err
			})
		case "environmentVariables", "environment_variables":
			err = p.array(func() error {
				var e spawn.EnvVar
				err := p.object(func(key string) error {
					switch key {
					case "name":
						return p.strField(&e.Name)
					case "value":
						return p.strField(&e.Value)
					}
					return p.skip(0)
				})
				sp.Env = append(sp.Env, e)
				return err
			})
		case "inputs":
			err = p.array(func() error {
				f, err := p.file()
				sp.Inputs = append(sp.Inputs, f)
				return err
			})
		case "listedOutputs", "listed_outputs":
			err = p.array(func() error {
				s, err := p.str()
				sp.Outputs = append(sp.Outputs, s)
				return err
			})
		case "actualOutputs", "actual_outputs":
			err = p.array(func() error {
				f, err := p.file()
				sp.OutputFiles = append(sp.OutputFiles, f)
				return err
			})
		case "mnemonic":
			err = p.strField(&sp.Mnemonic)
		case "targetLabel", "target_label":
			err = p.strField(&sp.Target)
		case "runner":
			err = p.strField(&sp.Runner)
		case "status":
			err = p.strField(&sp.Status)
		case "exitCode", "exit_code":
			var v int64
			if v, err = p.integer(32); err == nil {
				sp.ExitCode = int32(v)
			}
		case "remotable":
			err = p.boolField(&sp.Remotable)
		case "cacheable":
			err = p.boolField(&sp.Cacheable)
		case "remoteCacheable", "remote_cacheable":
			err = p.boolField(&sp.RemoteCacheable)
		case "cacheHit", "cache_hit":
			err = p.boolField(&sp.CacheHit)
		default:
			err = p.skip(0)
		}
		if err != nil {
			return fieldError(key, err)
		}
		return nil
	})
	if err == nil {
		p.ws()
		if p.i != len(p.b) {
			err = p.fail("invalid character %q after the object", p.b[p.i])
		}
	}
	return p.located(err)
}

// located adds where in the object an error happened.
func (p *jsonParser) located(err error) error {
	if je, ok := errors.AsType[*jsonError](err); ok {
		return fmt.Errorf("%w (at byte %d of the object)", err, je.at)
	}
	return err
}

// fieldError names the field an error is in.
func fieldError(key string, err error) error {
	return &fieldErr{key: key, err: err}
}

type fieldErr struct {
	key string
	err error
}

func (e *fieldErr) Error() string { return e.key + ": " + e.err.Error() }
func (e *fieldErr) Unwrap() error { return e.err }

// file decodes a File object: path, digest, isTool, symlinkTargetPath.
func (p *jsonParser) file() (spawn.File, error) {
	var f spawn.File
	err := p.object(func(key string) error {
		var err error
		switch key {
		case "path":
			err = p.strField(&f.Path)
		case "symlinkTargetPath", "symlink_target_path":
			err = p.strField(&f.SymlinkTarget)
		case "isTool", "is_tool":
			err = p.boolField(&f.Tool)
		case "digest":
			err = p.object(func(key string) error {
				switch key {
				case "hash":
					return p.strField(&f.Digest.Hash)
				case "sizeBytes", "size_bytes":
					v, err := p.integer(64)
					f.Digest.Size = v
					return err
				}
				return p.skip(0)
			})
		default:
			err = p.skip(0)
		}
		if err != nil {
			return fieldError(key, err)
		}
		return nil
	})
	return f, err
}

func (p *jsonParser) ws() {
	for p.i < len(p.b) && isJSONSpace(p.b[p.i]) {
		p.i++
	}
}

// null consumes a null (protobuf JSON's way of leaving a field at its
// default) and reports whether there was one.
func (p *jsonParser) null() bool {
	p.ws()
	if len(p.b)-p.i >= 4 && string(p.b[p.i:p.i+4]) == "null" {
		p.i += 4
		return true
	}
	return false
}

// object calls field for each key of an object, with p positioned at the
// key's value; null is an empty object.
func (p *jsonParser) object(field func(key string) error) error {
	if p.null() {
		return nil
	}
	if p.i >= len(p.b) || p.b[p.i] != '{' {
		return p.unexpected("an object")
	}
	p.i++
	p.ws()
	if p.i < len(p.b) && p.b[p.i] == '}' {
		p.i++
		return nil
	}
	for {
		p.ws()
		key, err := p.rawString()
		if err != nil {
			return err
		}
		p.ws()
		if p.i >= len(p.b) || p.b[p.i] != ':' {
			return p.unexpected("':' after an object key")
		}
		p.i++
		if err := field(key); err != nil {
			return err
		}
		p.ws()
		if p.i < len(p.b) && p.b[p.i] == ',' {
			p.i++
			continue
		}
		if p.i < len(p.b) && p.b[p.i] == '}' {
			p.i++
			return nil
		}
		return p.unexpected("',' or '}' in an object")
	}
}

// array calls elem for each element of an array; null is an empty array.
func (p *jsonParser) array(elem func() error) error {
	if p.null() {
		return nil
	}
	if p.i >= len(p.b) || p.b[p.i] != '[' {
		return p.unexpected("an array")
	}
	p.i++
	p.ws()
	if p.i < len(p.b) && p.b[p.i] == ']' {
		p.i++
		return nil
	}
	for {
		p.ws()
		if err := elem(); err != nil {
			return err
		}
		p.ws()
		if p.i < len(p.b) && p.b[p.i] == ',' {
			p.i++
			continue
		}
		if p.i < len(p.b) && p.b[p.i] == ']' {
			p.i++
			return nil
		}
		return p.unexpected("',' or ']' in an array")
	}
}

func (p *jsonParser) unexpected(want string) error {
	if p.i >= len(p.b) {
		return p.fail("the object ends, expected %s", want)
	}
	return p.fail("%s, expected %s", jsonToken(p.b[p.i]), want)
}

func (p *jsonParser) strField(dst *string) error {
	if p.null() {
		*dst = ""
		return nil
	}
	s, err := p.str()
	*dst = s
	return err
}

// str decodes a string value.
func (p *jsonParser) str() (string, error) {
	p.ws()
	return p.rawString()
}

// rawString decodes the string at p.i: borrowed from the object when it
// has no escapes, else unescaped into the arena (borrowing) or a new
// string.
func (p *jsonParser) rawString() (string, error) {
	if p.i >= len(p.b) || p.b[p.i] != '"' {
		return "", p.unexpected("a string")
	}
	p.i++
	start := p.i
	for p.i < len(p.b) {
		switch c := p.b[p.i]; {
		case c == '"':
			s := p.strs.of(p.b[start:p.i])
			p.i++
			return s, nil
		case c == '\\':
			return p.escaped(start)
		case c < 0x20:
			return "", p.fail("control character %#x in a string", c)
		}
		p.i++
	}
	return "", p.fail("the object ends inside a string")
}

// escaped decodes a string with escapes, from its first escape on.
func (p *jsonParser) escaped(start int) (string, error) {
	mark := len(p.arena)
	buf := append(p.arena, p.b[start:p.i]...)
	for p.i < len(p.b) {
		c := p.b[p.i]
		switch {
		case c == '"':
			p.i++
			p.arena = buf
			if p.strs.borrow {
				return p.strs.of(buf[mark:]), nil
			}
			return string(buf[mark:]), nil
		case c < 0x20:
			return "", p.fail("control character %#x in a string", c)
		case c != '\\':
			buf = append(buf, c)
			p.i++
			continue
		}
		if p.i+1 >= len(p.b) {
			break
		}
		e := p.b[p.i+1]
		p.i += 2
		switch e {
		case '"', '\\', '/':
			buf = append(buf, e)
		case 'b':
			buf = append(buf, '\b')
		case 'f':
			buf = append(buf, '\f')
		case 'n':
			buf = append(buf, '\n')
		case 'r':
			buf = append(buf, '\r')
		case 't':
			buf = append(buf, '\t')
		case 'u':
			r, ok := p.hex4()
			if !ok {
				return "", p.fail(`invalid \u escape`)
			}
			if utf16.IsSurrogate(r) {
				// A pair makes one rune; a lone half is U+FFFD, as
				// encoding/json reads it.
				r2 := rune(-1)
				if p.i+1 < len(p.b) && p.b[p.i] == '\\' && p.b[p.i+1] == 'u' {
					save := p.i
					p.i += 2
					if x, ok := p.hex4(); ok {
						r2 = x
					} else {
						p.i = save
					}
				}
				if d := utf16.DecodeRune(r, r2); d != utf8.RuneError {
					r = d
				} else {
					r = utf8.RuneError
					if r2 >= 0 && !utf16.IsSurrogate(r2) {
						buf = utf8.AppendRune(buf, r)
						r = r2
					}
				}
			}
			buf = utf8.AppendRune(buf, r)
		default:
			return "", p.fail("invalid escape \\%c in a string", e)
		}
	}
	return "", p.fail("the object ends inside a string")
}

func (p *jsonParser) hex4() (rune, bool) {
	if p.i+4 > len(p.b) {
		return 0, false
	}
	var r rune
	for _, c := range p.b[p.i : p.i+4] {
		r <<= 4
		switch {
		case '0' <= c && c <= '9':
			r |= rune(c - '0')
		case 'a' <= c && c <= 'f':
			r |= rune(c - 'a' + 10)
		case 'A' <= c && c <= 'F':
			r |= rune(c - 'A' + 10)
		default:
			return 0, false
		}
	}
	p.i += 4
	return r, true
}

func (p *jsonParser) boolField(dst *bool) error {
	p.ws()
	switch {
	case p.null():
		*dst = false
	case len(p.b)-p.i >= 4 && string(p.b[p.i:p.i+4]) == "true":
		p.i += 4
		*dst = true
	case len(p.b)-p.i >= 5 && string(p.b[p.i:p.i+5]) == "false":
		p.i += 5
		*dst = false
	default:
		return p.unexpected("true or false")
	}
	return nil
}

// integer decodes an integer of the given bit size, as a number or, the
// way protobuf JSON writes 64-bit ones, a string. Like protojson, it takes
// an exponent that leaves a whole number ("1e3").
func (p *jsonParser) integer(bits int) (int64, error) {
	if p.null() {
		return 0, nil
	}
	var text string
	if p.i < len(p.b) && p.b[p.i] == '"' {
		save := p.strs
		p.strs.borrow = true
		s, err := p.rawString()
		p.strs = save
		if err != nil {
			return 0, err
		}
		text = s
	} else {
		start := p.i
		for p.i < len(p.b) && isNumberByte(p.b[p.i]) {
			p.i++
		}
		if p.i == start {
			return 0, p.unexpected("an integer")
		}
		text = string(p.b[start:p.i])
	}
	if !validJSONNumber(text) {
		return 0, p.fail("invalid integer %q", text)
	}
	if v, err := strconv.ParseInt(text, 10, bits); err == nil {
		return v, nil
	}
	f, err := strconv.ParseFloat(text, 64)
	if err != nil || f != math.Trunc(f) || f < -math.Ldexp(1, bits-1) || f >= math.Ldexp(1, bits-1) {
		return 0, p.fail("invalid integer %q", text)
	}
	return int64(f), nil
}

func isNumberByte(c byte) bool {
	return c == '-' || c == '+' || c == '.' || c == 'e' || c == 'E' || '0' <= c && c <= '9'
}

// validJSONNumber reports whether s is a number as JSON spells it: no
// leading "+", no leading zeros, digits around the point.
func validJSONNumber(s string) bool {
	i := 0
	if i < len(s) && s[i] == '-' {
		i++
	}
	digits := func() int {
		n := 0
		for i < len(s) && '0' <= s[i] && s[i] <= '9' {
			i++
			n++
		}
		return n
	}
	first := i
	n := digits()
	if n == 0 || n > 1 && s[first] == '0' {
		return false
	}
	if i < len(s) && s[i] == '.' {
		i++
		if digits() == 0 {
			return false
		}
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		if digits() == 0 {
			return false
		}
	}
	return i == len(s)
}

// maxJSONDepth bounds the nesting of an unknown field's value.
const maxJSONDepth = 100

// skip skips a value of any kind, checking that it is well-formed.
func (p *jsonParser) skip(depth int) error {
	if depth > maxJSONDepth {
		return p.fail("values nested too deeply")
	}
	p.ws()
	if p.i >= len(p.b) {
		return p.unexpected("a value")
	}
	switch c := p.b[p.i]; {
	case c == '{':
		return p.object(func(string) error { return p.skip(depth + 1) })
	case c == '[':
		return p.array(func() error { return p.skip(depth + 1) })
	case c == '"':
		save := p.strs
		p.strs.borrow = true // a skipped string need not be kept
		_, err := p.rawString()
		p.strs = save
		return err
	case c == 't' || c == 'f':
		var b bool
		return p.boolField(&b)
	case c == 'n':
		if !p.null() {
			return p.unexpected("a value")
		}
		return nil
	case c == '-' || '0' <= c && c <= '9':
		start := p.i
		for p.i < len(p.b) && isNumberByte(p.b[p.i]) {
			p.i++
		}
		if !validJSONNumber(string(p.b[start:p.i])) {
			return p.fail("invalid number %q", p.b[start:p.i])
		}
		return nil
	}
	return p.unexpected("a value")
}
