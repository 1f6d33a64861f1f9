package python

import "strings"

// Pools of workers (multiprocessing.Pool, concurrent.futures' executors)
// run the program's functions on what they are given: what a function
// gives reaches what the pool's map or future gives, in the order of what
// it was given; how many workers there are reaches nothing. The orders
// that follow the workers (imap_unordered, as_completed) are the table's.

func init() {
	for name, h := range map[string]handler{
		"multiprocessing.Pool": hPool, "multiprocessing.pool.Pool": hPool, "multiprocessing.pool.ThreadPool": hPool,
		"concurrent.futures.ThreadPoolExecutor": hPool, "concurrent.futures.ProcessPoolExecutor": hPool,
		"multiprocessing.pool.Pool.map": hPoolMap, "multiprocessing.pool.Pool.imap": hPoolMap,
		"multiprocessing.pool.Pool.imap_unordered": hPoolMap, "multiprocessing.pool.Pool.map_async": hPoolMap,
		"multiprocessing.pool.Pool.starmap": hPoolMap, "multiprocessing.pool.Pool.starmap_async": hPoolMap,
		"concurrent.futures.Executor.map": hPoolMap,
		"multiprocessing.pool.Pool.apply": hPoolApply, "multiprocessing.pool.Pool.apply_async": hPoolApply,
		"concurrent.futures.Executor.submit":   hPoolApply,
		"multiprocessing.pool.AsyncResult.get": hHeld, "concurrent.futures.Future.result": hHeld,
		"concurrent.futures.as_completed": hAsCompleted,
	} {
		handlers[name] = h
	}
}

// hPool makes a pool: an object of the class the table's entry returns,
// which holds nothing of its arguments. Its initializer runs in each
// worker, where what it prints goes where the program's output goes.
func hPool(r *run, fr *frame, c *call) (value, bool) {
	f, ok := r.lib.Function(Language, c.name)
	if !ok || f.Returns == "" {
		return value{}, false
	}
	if init, ok := c.kwarg("initializer"); ok && init.kind != kNone {
		ic := &call{fr: fr, x: c.x}
		if a, ok := c.kwarg("initargs"); ok {
			items, exact := r.iterate(fr, a, c.node())
			ic.args, ic.varargs = items, !exact
		}
		r.callValue(fr, init, ic)
	}
	c.placed = true
	return value{kind: kObject, obj: &object{class: f.Returns}}, true
}

// hPoolMap is a pool's map and its kin: the function called on each item
// (starmap and an executor's map of several iterables: on each item's
// parts), the results in the items' order; the _async ones give an
// AsyncResult that holds them.
func hPoolMap(r *run, fr *frame, c *call) (value, bool) {
	if len(c.args) < 2 || c.varargs {
		return value{}, false
	}
	name := methodName(c.name)
	star := strings.HasPrefix(name, "starmap")
	iterable := c.args[1]
	if strings.HasPrefix(c.name, "concurrent.") && len(c.args) > 2 {
		iterable, _ = hZip(r, fr, &call{fr: fr, x: c.x, args: c.args[1:]})
		star = true
	}
	items, exact := r.iterate(fr, iterable, c.node())
	out := newList(kList, nil)
	one := func(it value) value {
		args := []value{it}
		varargs := false
		if star {
			var whole bool
			args, whole = r.iterate(fr, it, c.node())
			varargs = !whole
		}
		return r.callValue(fr, c.args[0], &call{fr: fr, x: c.x, args: args, varargs: varargs})
	}
	if exact && len(items) <= maxUnroll {
		for _, it := range items {
			out.obj.push(one(it))
		}
	} else {
		out.obj.addMore(one(joinAll(items)))
	}
	out.obj.whole = r.orderOf(iterable)
	if strings.HasSuffix(name, "_async") {
		return r.holding("multiprocessing.pool.AsyncResult", out), true
	}
	return out, true
}

// hPoolApply is apply, apply_async and an executor's submit: the function
// called with the arguments given; the latter two give what holds it.
func hPoolApply(r *run, fr *frame, c *call) (value, bool) {
	if len(c.args) == 0 {
		return value{}, false
	}
	ac := &call{fr: fr, x: c.x}
	if strings.HasPrefix(c.name, "concurrent.") {
		ac.args, ac.kw, ac.varargs = c.args[1:], c.kw, c.varargs
	} else {
		if a, ok := c.arg(1, "args"); ok {
			items, exact := r.iterate(fr, a, c.node())
			ac.args, ac.varargs = items, !exact
		}
		if kw, ok := c.arg(2, "kwds"); ok {
			ac.kw = append(ac.kw, kwArg{v: withTaints(unknown, r.deep(kw, true))})
		}
	}
	got := r.callValue(fr, c.args[0], ac)
	switch methodName(c.name) {
	case "apply":
		return got, true
	case "submit":
		return r.holding("concurrent.futures.Future", got), true
	}
	return r.holding("multiprocessing.pool.AsyncResult", got), true
}

// holding is an object of a class that gives v when asked (a future).
func (r *run) holding(class string, v value) value {
	return value{kind: kObject, obj: &object{class: class, held: &v}}
}

// hHeld is what a future or an AsyncResult holds.
func hHeld(r *run, fr *frame, c *call) (value, bool) {
	if c.recv == nil || c.recv.kind != kObject || c.recv.obj.held == nil {
		return value{}, false
	}
	// Taken from where it came (as_completed), it carries that order.
	return withTaints(*c.recv.obj.held, c.recv.taints.union(c.recv.obj.whole)), true
}

// hAsCompleted is concurrent.futures.as_completed: the futures it is
// given, in the order the table says they come in.
func hAsCompleted(r *run, fr *frame, c *call) (value, bool) {
	if len(c.args) == 0 {
		return value{}, false
	}
	items, _ := r.iterate(fr, c.args[0], c.node())
	out := newList(kList, nil)
	out.obj.addMore(joinAll(items))
	out.obj.whole = r.orderOf(c.args[0])
	return out, true
}
