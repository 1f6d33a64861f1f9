package outdiff

import (
	"bytes"
	"debug/dwarf"
	"debug/elf"
	"fmt"
	"slices"
	"strings"
)

// diffELF compares two ELF files (objects, libraries, executables) with
// debug/elf and debug/dwarf: their headers, which sections they have, and
// in each section that differs, what differs: the strings of a string
// table, the compile units' DWARF attributes and line-table files, the
// order of the symbols, else the first differing byte.
func (r *run) diffELF(c *collector, s [2]side) (err error) {
	// debug/elf and debug/dwarf are not written for hostile input and
	// have panicked on some: a file they cannot read is compared as bytes.
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("malformed ELF: %v", p)
		}
	}()
	var fs [2]*elf.File
	for i := range s {
		f, err := elf.NewFile(s[i].r)
		if err != nil {
			return fmt.Errorf("build %d's: %w", i+1, err)
		}
		fs[i] = f
	}
	a, b := fs[0], fs[1]
	start := c.count()
	for _, h := range []struct{ what, old, new string }{
		{"class", a.Class.String(), b.Class.String()},
		{"machine", a.Machine.String(), b.Machine.String()},
		{"type", a.Type.String(), b.Type.String()},
	} {
		if h.old != h.new {
			c.add(Difference{At: "ELF header", What: h.what, Old: h.old, New: h.new, Class: Unclassified})
		}
	}
	dwarfDone := r.diffDWARF(c, a, b)
	type key struct {
		name string
		n    int
	}
	index := func(f *elf.File) (map[key]*elf.Section, []key) {
		m, seen := map[key]*elf.Section{}, map[string]int{}
		var order []key
		for _, sec := range f.Sections {
			if sec.Type == elf.SHT_NULL {
				continue
			}
			k := key{sec.Name, seen[sec.Name]}
			seen[sec.Name]++
			m[k] = sec
			order = append(order, k)
		}
		return m, order
	}
	sa, orderA := index(a)
	sb, orderB := index(b)
	for _, k := range orderA {
		if sb[k] == nil {
			c.add(Difference{At: "section " + k.name, What: "only in build 1", Class: Unclassified})
		}
	}
	for _, k := range orderB {
		if sa[k] == nil {
			c.add(Difference{At: "section " + k.name, What: "only in build 2", Class: Unclassified})
		}
	}
	// A build id that differs is held back until the rest is compared.
	type heldBack struct {
		at   int
		diff Difference
	}
	var ids []heldBack
	for _, k := range orderA {
		x, y := sa[k], sb[k]
		if y == nil {
			continue
		}
		id, err := r.diffSection(c, x, y, a, b, dwarfDone)
		if err != nil {
			return err
		}
		if id != nil {
			ids = append(ids, heldBack{len(c.diag.Differences), *id})
		}
	}
	// Nothing else differs: the id hashes nothing that differs, so it was
	// made up (--build-id=uuid).
	random := c.count() == start && len(ids) == 1 && sameHeaders(a, b)
	for n, id := range ids {
		if random {
			id.diff.Class, id.diff.Follows, id.diff.Why = Random, false, "the build id alone differs, so it hashes nothing that does: a random one"
		}
		c.insert(id.at+n, id.diff)
	}
	return nil
}

// sameHeaders says whether two ELF files have the same file, program and
// section headers.
func sameHeaders(a, b *elf.File) bool {
	return a.FileHeader == b.FileHeader &&
		slices.EqualFunc(a.Progs, b.Progs, func(x, y *elf.Prog) bool { return x.ProgHeader == y.ProgHeader }) &&
		slices.EqualFunc(a.Sections, b.Sections, func(x, y *elf.Section) bool { return x.SectionHeader == y.SectionHeader })
}

// diffSection compares two versions of one section. A build id that
// differs is returned, not added: whether it follows from the rest is
// known once the rest is compared.
func (r *run) diffSection(c *collector, x, y *elf.Section, a, b *elf.File, dwarfDone bool) (*Difference, error) {
	at := "section " + x.Name
	if x.Type == elf.SHT_NOBITS || y.Type == elf.SHT_NOBITS {
		if x.Size != y.Size {
			c.add(Difference{At: at, What: "size", Old: sizeString(int64(x.Size)), New: sizeString(int64(y.Size)), Class: Unclassified})
		}
		return nil, nil
	}
	da, err := r.sectionData(0, x)
	if err != nil {
		return nil, err
	}
	db, err := r.sectionData(1, y)
	if err != nil {
		return nil, err
	}
	if bytes.Equal(da, db) {
		return nil, nil
	}
	switch {
	case x.Type == elf.SHT_NOTE && strings.Contains(x.Name, "build-id"):
		return &Difference{At: at, What: "build id", Old: hexAt(da, max(0, len(da)-20)), New: hexAt(db, max(0, len(db)-20)),
			Class: Unclassified, Why: "a hash of the rest of the file", Follows: true}, nil
	case strings.HasPrefix(x.Name, ".debug_") && dwarfDone:
		c.add(Difference{At: at, What: "contents", Old: sizeString(int64(len(da))), New: sizeString(int64(len(db))),
			Class: Unclassified, Why: "DWARF, compared by its attributes", Follows: true})
	case x.Type == elf.SHT_REL || x.Type == elf.SHT_RELA:
		c.add(Difference{At: at, What: "contents", Old: sizeString(int64(len(da))), New: sizeString(int64(len(db))),
			Class: Unclassified, Why: "relocations, which follow the sections they apply to", Follows: true})
	case x.Type == elf.SHT_SYMTAB || x.Type == elf.SHT_DYNSYM:
		r.diffSymbols(c, at, x.Type, a, b)
	case x.Type == elf.SHT_STRTAB || x.Flags&elf.SHF_STRINGS != 0:
		r.d.diffStrings(c, at, da, db)
	default:
		r.d.diffBinary(c, at, da, db)
	}
	return nil, nil
}

// sectionData reads a section's contents, decompressed, within side i's
// budget.
func (r *run) sectionData(i int, sec *elf.Section) ([]byte, error) {
	return r.budget[i].readAll(sec.Open())
}

// diffStrings compares two string tables (NUL-separated strings): the
// same strings in another order, or each string of one version only,
// paired in order with one of the other.
func (d *Diagnoser) diffStrings(c *collector, at string, a, b []byte) {
	sa, sb := bytes.Split(a, []byte{0}), bytes.Split(b, []byte{0})
	if moved, ok := reordered(sa, sb); ok {
		c.add(Difference{At: at, What: "order", Old: excerptLine(sa[moved], 0), New: excerptLine(sb[moved], 0), Class: Order,
			Why: fmt.Sprintf("the same %d strings in another order", len(sa))})
		return
	}
	count := func(ss [][]byte) map[string]int {
		m := map[string]int{}
		for _, s := range ss {
			m[string(s)]++
		}
		return m
	}
	ca, cb := count(sa), count(sb)
	var onlyA, onlyB [][]byte
	for _, s := range sa {
		if cb[string(s)] > 0 {
			cb[string(s)]--
		} else {
			onlyA = append(onlyA, s)
		}
	}
	for _, s := range sb {
		if ca[string(s)] > 0 {
			ca[string(s)]--
		} else {
			onlyB = append(onlyB, s)
		}
	}
	if len(onlyA) == 0 && len(onlyB) == 0 {
		return
	}
	for i := range max(len(onlyA), len(onlyB)) {
		switch {
		case i < len(onlyA) && i < len(onlyB):
			d.linePair(c, at, "string", onlyA[i], onlyB[i])
		case i < len(onlyA):
			c.add(Difference{At: at, What: "string only in build 1", Old: excerptLine(onlyA[i], 0), Class: Unclassified})
		default:
			c.add(Difference{At: at, What: "string only in build 2", New: excerptLine(onlyB[i], 0), Class: Unclassified})
		}
	}
}

// diffSymbols compares two symbol tables: their names in another order,
// names of one version only, or values that moved with the sections.
func (r *run) diffSymbols(c *collector, at string, typ elf.SectionType, a, b *elf.File) {
	read := func(f *elf.File) ([]elf.Symbol, error) {
		if typ == elf.SHT_DYNSYM {
			return f.DynamicSymbols()
		}
		return f.Symbols()
	}
	ya, errA := read(a)
	yb, errB := read(b)
	if errA != nil || errB != nil {
		c.add(Difference{At: at, What: "contents", Class: Unclassified, Why: "a symbol table that could not be read"})
		return
	}
	names := func(ys []elf.Symbol) [][]byte {
		ns := make([][]byte, len(ys))
		for i, y := range ys {
			ns[i] = []byte(y.Name)
		}
		return ns
	}
	na, nb := names(ya), names(yb)
	if moved, ok := reordered(na, nb); ok {
		c.add(Difference{At: at, What: "order", Old: string(na[moved]), New: string(nb[moved]), Class: Order,
			Why: fmt.Sprintf("the same %d symbols in another order", len(na))})
		return
	}
	if !slices.EqualFunc(na, nb, bytes.Equal) {
		before := len(c.diag.Differences) + c.diag.More
		r.d.diffStrings(c, at, bytes.Join(na, []byte{0}), bytes.Join(nb, []byte{0}))
		if len(c.diag.Differences)+c.diag.More > before {
			return
		}
	}
	c.add(Difference{At: at, What: "values", Class: Unclassified, Why: "the same symbols at other addresses or sizes", Follows: true})
}

// A compileUnit is what DWARF says of one compile unit that may differ
// between builds: its name, directory, producer and the files of its
// line table.
type compileUnit struct {
	attrs [][2]string // attribute name, value
	files []string
}

// maxUnits bounds how many compile units are compared.
const maxUnits = 10000

// diffDWARF compares the compile units of two ELF files' DWARF, when both
// have it and it reads, and says whether it did.
func (r *run) diffDWARF(c *collector, a, b *elf.File) bool {
	var units [2][]compileUnit
	for i, f := range []*elf.File{a, b} {
		if !r.dwarfFits(i, f) {
			return false
		}
		d, err := f.DWARF()
		if err != nil {
			return false
		}
		if units[i], err = readUnits(d); err != nil {
			return false
		}
	}
	if len(units[0]) == 0 && len(units[1]) == 0 {
		return false
	}
	if len(units[0]) != len(units[1]) {
		c.add(Difference{At: "DWARF", What: "compile units", Old: fmt.Sprint(len(units[0])), New: fmt.Sprint(len(units[1])), Class: Unclassified})
	}
	for i := range min(len(units[0]), len(units[1])) {
		ua, ub := &units[0][i], &units[1][i]
		at := fmt.Sprintf("DWARF compile unit %d", i+1)
		if len(ua.attrs) > 0 && ua.attrs[0][0] == "DW_AT_name" {
			at = "DWARF compile unit " + ua.attrs[0][1]
		}
		for _, x := range ua.attrs {
			j := slices.IndexFunc(ub.attrs, func(y [2]string) bool { return y[0] == x[0] })
			if j < 0 || ub.attrs[j][1] == x[1] {
				continue
			}
			r.d.linePair(c, at, x[0], []byte(x[1]), []byte(ub.attrs[j][1]))
		}
		if !slices.Equal(ua.files, ub.files) {
			r.d.diffStrings(c, at+", line table", []byte(strings.Join(ua.files, "\x00")), []byte(strings.Join(ub.files, "\x00")))
		}
	}
	return true
}

// dwarfFits says whether f's DWARF sections fit in side i's budget once
// decompressed: f.DWARF decompresses them whole.
func (r *run) dwarfFits(i int, f *elf.File) bool {
	var size uint64
	for _, s := range f.Sections {
		if strings.HasPrefix(s.Name, ".debug_") || strings.HasPrefix(s.Name, ".zdebug_") {
			size += s.Size
		}
	}
	b := r.budget[i]
	if size > uint64(max(b.expand, 0)) {
		return false
	}
	b.expand -= int64(size)
	return true
}

// unitAttrs are the attributes of a compile unit that are compared, as
// DWARF spells them.
var unitAttrs = []struct {
	attr dwarf.Attr
	name string
}{
	{dwarf.AttrName, "DW_AT_name"},
	{dwarf.AttrCompDir, "DW_AT_comp_dir"},
	{dwarf.AttrProducer, "DW_AT_producer"},
}

func readUnits(d *dwarf.Data) ([]compileUnit, error) {
	var units []compileUnit
	rd := d.Reader()
	for len(units) < maxUnits {
		e, err := rd.Next()
		if err != nil {
			return nil, err
		}
		if e == nil {
			break
		}
		if e.Tag != dwarf.TagCompileUnit && e.Tag != dwarf.TagPartialUnit {
			rd.SkipChildren()
			continue
		}
		var u compileUnit
		for _, attr := range unitAttrs {
			if v, ok := e.Val(attr.attr).(string); ok {
				u.attrs = append(u.attrs, [2]string{attr.name, v})
			}
		}
		if lr, err := d.LineReader(e); err == nil && lr != nil {
			for _, f := range lr.Files() {
				if f != nil {
					u.files = append(u.files, f.Name)
				}
			}
		}
		units = append(units, u)
		rd.SkipChildren()
	}
	return units, nil
}
