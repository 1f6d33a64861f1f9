package outdiff

import (
	"bytes"
	"crypto/sha256"
	"fmt"
	"io/fs"
	"slices"
	"strconv"
	"strings"
	"time"
)

// A member is one entry of an archive, as the readers of every format
// give it: its name, its metadata as named fields, and its contents.
type member struct {
	name   string
	fields []field
	data   []byte
	sum    [sha256.Size]byte
	// follows: the member's contents follow from the others' (an ar
	// symbol table holds their offsets).
	follows bool
}

// A field is one item of a member's metadata.
type field struct {
	name  string // "mtime", "uid", "mode"
	value string // as reports show it
	// class is what a difference in the field is, whatever its values;
	// None for what the value's bytes name (a link's target, a comment).
	class Class
	t     time.Time // a time field's value
}

func (m *member) add(f field) { m.fields = append(m.fields, f) }

func timeField(name string, t time.Time) field {
	return field{name: name, value: t.UTC().Format(time.RFC3339Nano), class: Time, t: t}
}

func modeField(name string, perm fs.FileMode) field {
	return field{name: name, value: fmt.Sprintf("%04o", uint32(perm)), class: Permissions}
}

func numField(name string, n int64, class Class) field {
	return field{name: name, value: strconv.FormatInt(n, 10), class: class}
}

// readMembers reads an archive's members.
func (r *run) readMembers(format Format, s side, b *budget) ([]member, error) {
	var ms []member
	var err error
	switch format {
	case Tar:
		ms, err = readTar(s, b)
	case Zip:
		ms, err = readZip(s, b)
	case Ar:
		ms, err = readAr(s, b)
	case Cpio:
		ms, err = readCpio(s, b)
	}
	for i := range ms {
		ms[i].sum = sha256.Sum256(ms[i].data)
	}
	return ms, err
}

// diffArchive compares two archives member by member.
func (r *run) diffArchive(c *collector, name string, format Format, s [2]side, depth int) error {
	var ms [2][]member
	for i := range s {
		var err error
		if ms[i], err = r.readMembers(format, s[i], r.budget[i]); err != nil {
			return fmt.Errorf("build %d's: %w", i+1, err)
		}
	}
	r.diffMembers(c, name, ms[0], ms[1], depth)
	return nil
}

// memberKey names a member for pairing: its name, and which of the members
// of that name it is.
type memberKey struct {
	name string
	n    int
}

func keys(ms []member) []memberKey {
	seen := map[string]int{}
	ks := make([]memberKey, len(ms))
	for i, m := range ms {
		ks[i] = memberKey{m.name, seen[m.name]}
		seen[m.name]++
	}
	return ks
}

func memberAt(k memberKey) string {
	if k.n > 0 {
		return fmt.Sprintf("member %s (#%d of that name)", k.name, k.n+1)
	}
	return "member " + k.name
}

// diffMembers compares the members of two archives: which there are, in
// which order, and for each pair its metadata and contents.
func (r *run) diffMembers(c *collector, name string, a, b []member, depth int) {
	ka, kb := keys(a), keys(b)
	inB := make(map[memberKey]int, len(kb))
	for i, k := range kb {
		inB[k] = i
	}
	inA := make(map[memberKey]bool, len(ka))
	for _, k := range ka {
		inA[k] = true
	}
	var onlyA, onlyB []int
	for i, k := range ka {
		if _, ok := inB[k]; !ok {
			onlyA = append(onlyA, i)
		}
	}
	for i, k := range kb {
		if !inA[k] {
			onlyB = append(onlyB, i)
		}
	}
	// Order: the members both have, in each one's order.
	var common [2][]memberKey
	for _, k := range ka {
		if _, ok := inB[k]; ok {
			common[0] = append(common[0], k)
		}
	}
	for _, k := range kb {
		if inA[k] {
			common[1] = append(common[1], k)
		}
	}
	if i := firstDifferent(common[0], common[1]); i >= 0 {
		why := fmt.Sprintf("the same %d members in another order", len(common[0]))
		if len(onlyA)+len(onlyB) > 0 {
			why = fmt.Sprintf("the %d members both have, in another order", len(common[0]))
		}
		c.add(Difference{At: "members", What: "order", Old: common[0][i].name, New: common[1][i].name, Class: Order,
			Why: why + fmt.Sprintf(", first at member %d", i+1)})
	}
	// Members of one side only: paired in order, so that a name that
	// differs by a path or a random part is classified.
	for i := range max(len(onlyA), len(onlyB)) {
		switch {
		case i < len(onlyA) && i < len(onlyB):
			ma, mb := &a[onlyA[i]], &b[onlyB[i]]
			na, nb := []byte(ma.name), []byte(mb.name)
			class, why := r.d.classify.span(na, nb, whole(na, nb))
			c.add(Difference{At: "members", What: "name", Old: ma.name, New: mb.name, Class: class, Why: why})
		case i < len(onlyA):
			c.add(Difference{At: "member " + a[onlyA[i]].name, What: "only in build 1", Old: a[onlyA[i]].name, Class: Unclassified})
		default:
			c.add(Difference{At: "member " + b[onlyB[i]].name, What: "only in build 2", New: b[onlyB[i]].name, Class: Unclassified})
		}
	}
	for i, k := range ka {
		j, ok := inB[k]
		if !ok {
			continue
		}
		r.diffMember(c, memberAt(k), &a[i], &b[j], depth)
	}
}

func firstDifferent(a, b []memberKey) int {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return i
		}
	}
	return -1
}

// diffMember compares two versions of one member.
func (r *run) diffMember(c *collector, at string, a, b *member, depth int) {
	for _, fa := range a.fields {
		i := slices.IndexFunc(b.fields, func(f field) bool { return f.name == fa.name })
		if i < 0 {
			continue
		}
		fb := b.fields[i]
		if fa.value == fb.value {
			continue
		}
		diff := Difference{At: at, What: fa.name, Old: fa.value, New: fb.value, Class: fa.class}
		switch fa.class {
		case Time:
			diff.Why = r.d.classify.fieldTime(fa.t, fb.t)
		case None:
			// A name or a link target: its bytes may say more.
			va, vb := []byte(fa.value), []byte(fb.value)
			diff.Class, diff.Why = r.d.classify.span(va, vb, whole(va, vb))
		case Unclassified:
			// A number of the file system (an inode, a device): what
			// differs there says nothing of the builds.
		default:
			diff.Why = r.d.classify.fieldValue(fa.class, ownerRoles[fa.name], fa.value, fb.value)
		}
		c.add(diff)
	}
	for _, fb := range b.fields {
		if !slices.ContainsFunc(a.fields, func(f field) bool { return f.name == fb.name }) {
			c.add(Difference{At: at, What: fb.name, New: fb.value, Class: fb.class, Why: "only build 2's has it"})
		}
	}
	for _, fa := range a.fields {
		if !slices.ContainsFunc(b.fields, func(f field) bool { return f.name == fa.name }) {
			c.add(Difference{At: at, What: fa.name, Old: fa.value, Class: fa.class, Why: "only build 1's has it"})
		}
	}
	if a.sum == b.sum {
		return
	}
	if a.follows {
		c.add(Difference{At: at, What: "contents", Old: sizeString(int64(len(a.data))), New: sizeString(int64(len(b.data))),
			Class: Unclassified, Why: "it indexes the other members", Follows: true})
		return
	}
	inside := r.diagnose(a.name, [2]side{
		{r: bytes.NewReader(a.data), size: int64(len(a.data))},
		{r: bytes.NewReader(b.data), size: int64(len(b.data))},
	}, depth+1)
	c.add(Difference{At: at, What: "contents", Old: sizeString(int64(len(a.data))), New: sizeString(int64(len(b.data))),
		Class: inside.Class, Why: "inside, " + string(inside.Format), Inside: inside})
	if inside.Partial != "" {
		c.partial(at + ": " + inside.Partial)
	}
}

// ownerRoles are the needles' roles of the owner fields of archives.
var ownerRoles = map[string]string{"uid": "uid", "gid": "gid", "owner": "user", "group": "group"}

// fieldValue says what two values of a field of class are, from the
// builds' values: the needle of the field's role if it has one, else any
// of the class.
func (c *classifier) fieldValue(class Class, role, old, new string) string {
	var what []string
	for i, v := range []string{old, new} {
		best := -1
		for j, n := range c.needles[i] {
			if n.class == class && n.value == v && (best < 0 || n.role == role && c.needles[i][best].role != role) {
				best = j
			}
		}
		if best >= 0 {
			what = append(what, c.needles[i][best].what)
		}
	}
	return strings.Join(what, " and ")
}
