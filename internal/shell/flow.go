package shell

// The data flow is a graph whose nodes are the places a value can be:
//
//   - a command (what it prints, and what it writes);
//   - a pipe, a command substitution or a process substitution (what was
//     written into it);
//   - a source of variation;
//   - the two ends: sink (a file) and uncaptured (the script's own
//     standard output and error, which Bazel does not keep).
//
// An edge says the value of one node becomes part of another:
//
//   - a command's standard output goes where its redirections, its pipe
//     or its substitution send it;
//   - a command that writes content to files named by its arguments
//     (tar -f, gcc -o, tee, an unknown tool) has an edge to the sink;
//   - a pipe, or a here-document, feeds every command reading standard
//     input;
//   - a value in a command's argument or environment feeds the command,
//     except a path (see flowsInto in analyze.go): `cat $tmp/x` reads the
//     file, it does not print its name;
//   - a source feeds the command, substitution or variable it appears in.
//
// A source reaches a file when the sink can be reached from it. Sorting
// undoes an order: a source of kind Order does not pass through sort.

type nodeKind uint8

const (
	sinkNode nodeKind = iota
	uncapturedNode
	commandNode
	pipeNode // pipes and substitutions
	sourceNode
)

type node struct {
	kind  nodeKind
	index int // commandNode: the command; sourceNode: the occurrence
	sorts bool
	edges []int
}

type graph struct {
	nodes []node
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

// reachesSinkUnsorted says whether the sink can be reached from start
// without passing through a command that sorts what it reads.
func (g *graph) reachesSinkUnsorted(start int) bool {
	seen := make([]bool, len(g.nodes))
	seen[start] = true
	stack := []int{start}
	for len(stack) > 0 {
		n := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if n == sinkID {
			return true
		}
		if g.nodes[n].sorts {
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

// firstCommand is the lowest-numbered command fed directly or through
// pipes and substitutions from start whose own value reaches the sink, or
// -1.
func (g *graph) firstCommand(start int, toSink []bool, order bool) int {
	best := -1
	seen := make([]bool, len(g.nodes))
	seen[start] = true
	stack := []int{start}
	for len(stack) > 0 {
		n := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		nd := &g.nodes[n]
		if nd.kind == commandNode && n != start {
			if toSink[n] && (!order || g.reachesSinkUnsorted(n)) && (best < 0 || nd.index < best) {
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
