package spec

import (
	"slices"

	"github.com/ahab-go/ahab/internal/effect"
	"github.com/ahab-go/ahab/internal/jsonfile"
)

// behaviourReader collects the behaviour fields of a spec object, which
// may come in any order, and checks them once the object is read.
type behaviourReader struct {
	seen        bool
	options     []string
	bundleFirst bool
	b           Behaviour
}

func (br *behaviourReader) field(r reader, field string) error {
	d := r.d
	br.seen = true
	var err error
	switch field {
	case "options":
		br.options, err = d.Strings("a sequence of option declarations")
	case "bundle_first":
		br.bundleFirst, err = d.Bool("true or false")
	case "operands":
		var l RoleList
		if l, err = r.roleList(); err == nil {
			br.b.Operands = l
		}
	case "stdin":
		br.b.Stdin, err = r.stdin()
	case "stdout":
		br.b.Stdout, err = r.output()
	case "effects":
		err = d.Array("a sequence of effects", func() error {
			e, err := r.effect()
			br.b.Effects = append(br.b.Effects, e)
			return err
		})
	case "sets":
		err = d.Array("a sequence of facts", func() error {
			f, err := r.fact()
			br.b.Sets = append(br.b.Sets, f)
			return err
		})
	case "removes":
		br.b.Removes, err = r.values()
	case "keeps":
		err = d.Array("a sequence of what it keeps", func() error {
			e, err := r.effect()
			if err == nil && !slices.Contains(keepable, e.Value) {
				err = d.Errorf("keeps: %s is not kept by a copy, expected one of %s", jsonfile.Backquote(e.Value.String()), backquoteList(valueNames(keepable)))
			}
			br.b.Keeps = append(br.b.Keeps, e)
			return err
		})
	case "writes_elsewhere":
		br.b.WritesElsewhere, err = d.Bool("true or false")
	case "computes":
		if br.b.Computes, err = d.String("a computation name"); err == nil && !slices.Contains(ComputationNames(), br.b.Computes) {
			err = d.Errorf("unknown computation %s, expected one of %s", jsonfile.Backquote(br.b.Computes), backquoteList(ComputationNames()))
		}
	case "cases":
		err = d.Array("a sequence of cases", func() error {
			c, err := r.caseOf()
			br.b.Cases = append(br.b.Cases, c)
			return err
		})
	}
	return err
}

// keepable are the values a program's copies may keep of what they copy
// that the analysis follows (Behaviour.Keeps).
var keepable = []effect.Value{effect.Mode}

func valueNames(vs []effect.Value) []string {
	names := make([]string, len(vs))
	for i, v := range vs {
		names[i] = v.String()
	}
	return names
}

// finish compiles the option grammar, which needs bundle_first, and
// returns the behaviour.
func (br *behaviourReader) finish(r reader) (*Behaviour, error) {
	g, err := ParseOptions(br.options, br.bundleFirst)
	if err != nil {
		return nil, r.d.Errorf("options: %v", err)
	}
	br.b.Options = g
	b := br.b
	if err := b.checkConditions(); err != nil {
		return nil, r.d.Errorf("%v", err)
	}
	return &b, nil
}

// values reads a `removes`: a list of the names of values.
func (r reader) values() ([]effect.Value, error) {
	d := r.d
	names, err := d.Strings("a sequence of values")
	if err != nil {
		return nil, err
	}
	var vs []effect.Value
	for _, n := range names {
		v, err := effect.Parse(n)
		if err != nil {
			return nil, d.Errorf("removes: %v", err)
		}
		vs = append(vs, v)
	}
	return vs, nil
}

func (r reader) roleList() (RoleList, error) {
	d := r.d
	list, err := d.Strings("a sequence of roles")
	if err != nil {
		return RoleList{}, err
	}
	l, err := ParseRoleList(list)
	if err != nil {
		return RoleList{}, d.Errorf("operands: %v", err)
	}
	return l, nil
}

func (r reader) stdin() (Role, error) {
	d := r.d
	s, err := d.String("a role")
	if err != nil {
		return Role{}, err
	}
	switch s {
	case "unless-operands":
		return Role{Kind: Unless}, nil
	case "arguments":
		return Role{Kind: Arguments}, nil
	}
	role, err := ParseRole(s)
	if err != nil {
		return Role{}, d.Errorf("stdin: %v", err)
	}
	switch role.Kind {
	case Value, Ignored, Code:
		return role, nil
	}
	return Role{}, d.Errorf("stdin: %s cannot be standard input's role, expected one of `value`, `ignored`, `unless-operands`, `arguments`, `code:LANGUAGE`", jsonfile.Backquote(s))
}

func (r reader) output() (Output, error) {
	d := r.d
	s, err := d.String("one of " + backquoteList(outputNames[:]))
	if err != nil {
		return 0, err
	}
	for i, n := range outputNames {
		if n == s {
			return Output(i), nil
		}
	}
	return 0, d.Errorf("stdout: unknown variant %s, expected one of %s", jsonfile.Backquote(s), backquoteList(outputNames[:]))
}

func (r reader) effect() (Effect, error) {
	d := r.d
	var e Effect
	seen := false
	err := d.Fields("an effect object", effectFields, func(field string) error {
		var err error
		switch field {
		case "value":
			seen = true
			var s string
			if s, err = d.String("a value"); err == nil {
				var perr error
				if e.Value, perr = effect.Parse(s); perr != nil {
					err = d.Errorf("%v", perr)
				}
			}
		case "because":
			e.Because, err = d.String("a string")
		case "when":
			e.When, err = r.condition()
		case "unless":
			e.Unless, err = r.globList()
		}
		return err
	})
	if err == nil && !seen {
		err = d.Errorf("missing field `value`")
	}
	return e, err
}

func (r reader) fact() (Fact, error) {
	d := r.d
	var f Fact
	err := d.Fields("a fact object", factFields, func(field string) error {
		var err error
		switch field {
		case "fact":
			f.Name, err = d.String("a fact, such as fixed:mtime")
		case "when":
			f.When, err = r.condition()
		}
		return err
	})
	if err == nil && f.Name == "" {
		err = d.Errorf("missing field `fact`")
	}
	return f, err
}

func (r reader) caseOf() (Case, error) {
	d := r.d
	var c Case
	err := d.Fields("a case object", caseFields, func(field string) error {
		var err error
		switch field {
		case "when":
			c.When, err = r.condition()
		case "operands":
			var l RoleList
			if l, err = r.roleList(); err == nil {
				c.Operands = &l
			}
		case "stdin":
			var role Role
			if role, err = r.stdin(); err == nil {
				c.Stdin = &role
			}
		case "stdout":
			var o Output
			if o, err = r.output(); err == nil {
				c.Stdout = &o
			}
		case "roles":
			c.Roles = map[string]Role{}
			err = d.Object("a map from options to roles", func(option string) error {
				s, err := d.String("a role")
				if err != nil {
					return err
				}
				role, err := ParseRole(s)
				if err != nil {
					return d.Errorf("roles: %s: %v", jsonfile.Backquote(option), err)
				}
				c.Roles[option] = role
				return nil
			})
		case "removes":
			c.Removes, err = r.values()
		}
		return err
	})
	if err == nil && c.When == nil {
		err = d.Errorf("missing field `when`")
	}
	return c, err
}

// condition reads a `when`: a list of patterns, any of which present
// makes it hold, or an object with a guard ("family" and "off", which the
// last fact that speaks to them decides), "all", patterns every one of
// which must be present, and "none", patterns none of which may be.
func (r reader) condition() (*Condition, error) {
	d := r.d
	if d.IsArray() {
		globs, err := r.globList()
		if err != nil {
			return nil, err
		}
		return &Condition{Guard: Guard{Family: normalizeGlobs(globs)}}, nil
	}
	c := &Condition{}
	err := d.Fields("a list of patterns or a condition object", conditionFields, func(field string) error {
		var err error
		switch field {
		case "family":
			c.Family, err = r.globList()
		case "off":
			c.Off, err = r.globList()
		case "all":
			c.All, err = r.globList()
		case "none":
			c.None, err = r.globList()
		}
		return err
	})
	c.Family, c.Off, c.All, c.None = normalizeGlobs(c.Family), normalizeGlobs(c.Off), normalizeGlobs(c.All), normalizeGlobs(c.None)
	return c, err
}
