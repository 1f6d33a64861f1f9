package analyze

import (
	"slices"
	"strings"
	"sync"

	"github.com/ahab-go/ahab/internal/action"
	"github.com/ahab-go/ahab/internal/check"
	"github.com/ahab-go/ahab/internal/finding"
)

// Configurer supplies what a build's configurations give its actions
// beyond what the dump shows of them: Bazel's proto aquery omits the
// environment of some actions (C++ and test actions, in 4.2.3) and never
// shows a variable inherited from whoever runs Bazel, while the
// configuration holds both.
type Configurer struct {
	// Applies says whether a configuration may give an action of this
	// mnemonic environment the dump does not show. Dump keeps what the
	// last step needs of those actions and of every shell action.
	Applies func(mnemonic string) bool
	// Read is called once the graph has been read, with the checksum of
	// every configuration it names, by its id in the dump; it returns
	// what each gives (a configuration it leaves out gives nothing).
	Read func(checksums map[uint32]string) map[uint32]Configuration
}

// Configuration is what one configuration gives actions beyond what the
// dump shows.
type Configuration struct {
	// Inherited names the variables its actions inherit from whoever runs
	// Bazel (--action_env=NAME): reported on its shell actions, by the
	// environment leak check (check.EnvLeakOf).
	Inherited []string
	// Env is the environment an action of a mnemonic gets from it: only
	// the variables the action's dump entry lacks are judged, as any
	// environment is, by the checks that judge one.
	Env func(mnemonic string) []action.EnvVar
}

// configured is what the last step needs of one action.
type configured struct {
	mnemonic uint32 // index into worker.mnemonics
	targetID uint32
	config   uint32   // the configuration's id in the dump
	shown    []string // the names of the environment the dump shows
	shell    string   // argv[0] of a shell action (bash -c), or ""
	record   int      // index into worker.byAction, with Options.ByAction
}

// configurations gathers the checksums Decode reports, from any goroutine.
type configurations struct {
	mu        sync.Mutex
	checksums map[uint32]string
}

func (c *configurations) add(id uint32, checksum string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.checksums == nil {
		c.checksums = map[uint32]string{}
	}
	c.checksums[id] = checksum
}

// remember keeps what the last step needs of a, when a configuration may
// give it something: a shell action (what inherits), or one Applies
// names. A superset of shell actions is kept (a genrule, or "-c" in the
// command line); the check decides.
func (w *worker) remember(c *Configurer, a *action.Action, configID uint32) {
	shell := ""
	if len(a.Arguments) > 1 && slices.Contains(a.Arguments[1:], "-c") {
		shell = strings.Clone(a.Arguments[0])
	}
	if shell == "" && a.Mnemonic != "Genrule" && !c.Applies(a.Mnemonic) {
		return
	}
	var shown []string
	for _, e := range a.Env {
		shown = append(shown, strings.Clone(e.Key))
	}
	w.configured = append(w.configured, configured{mnemonic: w.mnemonicIndex(a.Mnemonic), targetID: a.TargetID,
		config: configID, shown: shown, shell: shell, record: len(w.byAction) - 1})
}

// mnemonicIndex interns a mnemonic in the worker's table.
func (w *worker) mnemonicIndex(m string) uint32 {
	i, ok := w.mnemonic[m]
	if !ok {
		if w.mnemonic == nil {
			w.mnemonic = make(map[string]uint32)
		}
		i = uint32(len(w.mnemonics))
		w.mnemonic[m] = i
		w.mnemonics = append(w.mnemonics, strings.Clone(m))
	}
	return i
}

// envKinds are the kinds of the checks that judge an environment.
var envKinds = []finding.Kind{finding.EnvironmentLeak, finding.BadPath, finding.AbsolutePath}

// checkConfigured is the last step: it asks the Configurer what each
// configuration gives, and judges what the remembered actions get of it
// that their dump entries lack, with the checks of checks that judge an
// environment (the environment leak check with the configuration's
// inherited variables).
func checkConfigured(c *Configurer, checksums map[uint32]string, checks []*check.Check, workers []*worker) *finding.Set {
	set := finding.NewSet()
	configs := c.Read(checksums)
	if len(configs) == 0 {
		return set
	}
	byConfig := map[uint32][]*check.Check{}
	checksFor := func(id uint32, cfg Configuration) []*check.Check {
		if cs, ok := byConfig[id]; ok {
			return cs
		}
		var cs []*check.Check
		for _, ch := range checks {
			if ch.Stage != check.CommandLine || !judgesEnvironment(ch) {
				continue
			}
			if slices.Contains(ch.Kinds, finding.EnvironmentLeak) {
				ch = check.EnvLeakOf(cfg.Inherited)
			}
			cs = append(cs, ch)
		}
		byConfig[id] = cs
		return cs
	}
	for _, w := range workers {
		for _, r := range w.configured {
			cfg, ok := configs[r.config]
			if !ok {
				continue
			}
			a := action.Action{Mnemonic: w.mnemonics[r.mnemonic], TargetID: r.targetID}
			if r.shell != "" {
				a.Arguments = []string{r.shell, "-c"}
			}
			if cfg.Env != nil {
				for _, e := range cfg.Env(a.Mnemonic) {
					if !slices.Contains(r.shown, e.Key) {
						a.Env = append(a.Env, e)
					}
				}
			}
			if len(a.Env) == 0 && (len(cfg.Inherited) == 0 || r.shell == "" && a.Mnemonic != "Genrule") {
				continue
			}
			check.Run(checksFor(r.config, cfg), check.CommandLine, &a, func(f finding.Finding) {
				set.Add(f, 1)
				if w.byAction != nil {
					rec := &w.byAction[r.record]
					rec.findings = append(rec.findings, f)
				}
			})
		}
		w.configured = nil
	}
	return set
}

// judgesEnvironment says whether every kind a check reports is one an
// environment can give rise to.
func judgesEnvironment(c *check.Check) bool {
	for _, k := range c.Kinds {
		if !slices.Contains(envKinds, k) {
			return false
		}
	}
	return len(c.Kinds) > 0
}
