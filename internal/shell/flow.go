package shell

import (
	"slices"

	"github.com/ahab-go/ahab/internal/effect"
)

// The data flow is a graph whose nodes are the places a value can be:
//
//   - a command (what it prints, and what it writes);
//   - a pipe, a command substitution or a process substitution (what was
//     written into it);
//   - a file the script writes or reads, by name (files.go): a file the
//     action declares as an output, or one whose name cannot be known,
//     feeds the sink;
//   - a source of variation;
//   - the two ends: sink (an output) and uncaptured (the script's own
//     standard output and error, which Bazel does not keep).
//
// An edge says the value of one node becomes part of another:
//
//   - a command's standard output goes where its redirections, its pipe
//     or its substitution send it;
//   - a command that writes content to files named by its arguments
//     (tar -f, gcc -o, tee) has an edge to each file; one we know nothing
//     about has an edge to the sink;
//   - a file feeds every command that reads it (cat, cp, tar);
//   - a pipe, or a here-document, feeds every command reading standard
//     input;
//   - a value in a command's argument or environment feeds the command,
//     except a path (see flowsInto in analyze.go): `cat $tmp/x` reads the
//     file, it does not print its name;
//   - a source feeds the command, substitution or variable it appears in.
//
// A source reaches an output when the sink can be reached from it, except
// through a command that removes its value: an order does not pass
// through sort.

type nodeKind uint8

const (
	sinkNode nodeKind = iota
	uncapturedNode
	commandNode
	pipeNode // pipes and substitutions
	sourceNode
	fileNode
)

type node struct {
	kind    nodeKind
	index   int // commandNode: the command; sourceNode: the occurrence
	removes []effect.Value
	edges   []int
}

type graph struct {
	nodes []node
	// sinkReach remembers toSink's answer per value.
	sinkReach map[effect.Value][]bool
}

const (
	sinkID       = 0
	uncapturedID = 1
)

func newGraph() graph {
	return graph{nodes: []node{{kind: sinkNode}, {kind: uncapturedNode}}}
}

func (g *graph) add(kind nodeKind, index int) int {
	g.nodes = append(g.nodes, node{kind: kind, index: index})
	return len(g.nodes) - 1
}

func (g *graph) edge(from, to int) {
	if from == to {
		return
	}
	n := &g.nodes[from]
	for _, e := range n.edges {
		if e == to {
			return
		}
	}
	n.edges = append(n.edges, to)
}

// reaching returns the nodes from which target can be reached.
func (g *graph) reaching(target int) []bool {
	reverse := make([][]int, len(g.nodes))
	for from, n := range g.nodes {
		for _, to := range n.edges {
			reverse[to] = append(reverse[to], from)
		}
	}
	seen := make([]bool, len(g.nodes))
	seen[target] = true
	stack := []int{target}
	for len(stack) > 0 {
		n := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, from := range reverse[n] {
			if !seen[from] {
				seen[from] = true
				stack = append(stack, from)
			}
		}
	}
	return seen
}

// toSink returns, for each node, whether v can flow from it to the sink:
// along edges, never through a command that removes v from what it reads
// (a node that removes v can still reach the sink with its own product).
// It is one walk back from the sink per value, remembered.
func (g *graph) toSink(v effect.Value) []bool {
	if r, ok := g.sinkReach[v]; ok && len(r) == len(g.nodes) {
		return r
	}
	reverse := make([][]int, len(g.nodes))
	for from, n := range g.nodes {
		for _, to := range n.edges {
			reverse[to] = append(reverse[to], from)
		}
	}
	seen := make([]bool, len(g.nodes))
	seen[sinkID] = true
	stack := []int{sinkID}
	for len(stack) > 0 {
		m := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if m != sinkID && slices.Contains(g.nodes[m].removes, v) {
			continue
		}
		for _, from := range reverse[m] {
			if !seen[from] {
				seen[from] = true
				stack = append(stack, from)
			}
		}
	}
	if g.sinkReach == nil {
		g.sinkReach = map[effect.Value][]bool{}
	}
	g.sinkReach[v] = seen
	return seen
}

// firstCommand is the lowest-numbered command fed directly or through
// pipes, substitutions and files from start whose own product carries v to
// the sink, or -1.
func (g *graph) firstCommand(start int, v effect.Value) int {
	toSink := g.toSink(v)
	best := -1
	seen := make([]bool, len(g.nodes))
	seen[start] = true
	stack := []int{start}
	for len(stack) > 0 {
		n := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		nd := &g.nodes[n]
		if nd.kind == commandNode && n != start {
			if toSink[n] && !slices.Contains(nd.removes, v) && (best < 0 || nd.index < best) {
				best = nd.index
			}
			continue
		}
		for _, to := range nd.edges {
			if !seen[to] {
				seen[to] = true
				stack = append(stack, to)
			}
		}
	}
	return best
}

// reachesWithout says whether v flows from start to target without
// passing through a command that removes it.
func (g *graph) reachesWithout(start, target int, v effect.Value) bool {
	seen := make([]bool, len(g.nodes))
	seen[start] = true
	stack := []int{start}
	for len(stack) > 0 {
		n := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if n == target {
			return true
		}
		if n != start && slices.Contains(g.nodes[n].removes, v) {
			continue
		}
		for _, to := range g.nodes[n].edges {
			if !seen[to] {
				seen[to] = true
				stack = append(stack, to)
			}
		}
	}
	return false
}
