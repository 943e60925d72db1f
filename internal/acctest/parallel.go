package acctest

import (
	"fmt"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
)

// What lets the acceptance tests run beside each other: each has its own
// emulator, and what they would share in the process (the users' keys,
// values learnt as a test runs) gets names of its own.

// Serial keeps t from running beside other acceptance tests; why says
// what it shares. Against the in-process emulators New and NewWorkdir run
// every other top-level test in parallel (t.Parallel: each has its own
// emulator, and the provider and the CLI's working directory are its own
// too; a test whose subtests call them says so with Parent), so a test that
// sets the process's environment (t.Setenv, which Go refuses in a parallel
// test), changes what every provider the harness starts does, or counts
// requests whose number depends on timing must say so. Call it first,
// before New, NewWorkdir or Parent.
func Serial(t *testing.T, why string) {
	t.Helper()
	if why == "" {
		t.Fatal("acctest.Serial: say why the test cannot run beside others")
	}
	serialTests.Store(topLevel(t), why)
}

// serialTests holds the top-level tests marked by Serial, parallelTests
// those that New or NewWorkdir made parallel, parentTests those that
// called Parent, New or NewWorkdir (in the live mode too).
var serialTests, parallelTests, parentTests sync.Map

// parallel runs t beside the other acceptance tests, unless it is a
// subtest (its parent decides, and must have: see requireParent), marked
// Serial, or in the live mode (an installation's throttle is shared; make
// testacc-live runs one test at a time).
func parallel(t *testing.T) {
	t.Helper()
	if strings.Contains(t.Name(), "/") {
		requireParent(t)
		return
	}
	parentTests.Store(t.Name(), true) // its subtests run within it
	if LiveMode() {
		return
	}
	if _, serial := serialTests.Load(t.Name()); serial {
		return
	}
	if _, done := parallelTests.LoadOrStore(t.Name(), true); !done {
		t.Parallel()
	}
}

// Parent is for a top-level test whose subtests call New or NewWorkdir
// (which leave a subtest's running beside others to its parent): it runs t
// beside the other acceptance tests as New does a test of its own, unless
// t is marked Serial or in the live mode. Its subtests then run one after
// the other. In a repeat pass (EnvRepeatPass), it skips t unless t is
// marked CLIDependent, as New would each subtest; without TF_ACC, it skips
// too. Call it after CLIDependent, Serial and NeedsEmulator, before the
// subtests.
func Parent(t *testing.T) {
	t.Helper()
	if strings.Contains(t.Name(), "/") {
		t.Fatal("acctest.Parent is for a top-level test")
	}
	parent(t)
}

// parent is Parent without the check that t is a top-level test (the
// harness's tests run it in a subtest, which parallel leaves alone).
func parent(t *testing.T) {
	t.Helper()
	if os.Getenv(resource.EnvTfAcc) == "" {
		t.Skip("acceptance test: set TF_ACC=1 (make test does)")
	}
	startHarness(t)
	parentTests.Store(topLevel(t), true)
	parallel(t)
}

// requireParent fails subtest t unless its top-level test called Parent
// (or New or NewWorkdir itself) or is marked Serial. Without either, the
// top-level test would run neither beside the others nor with a reason:
// its subtests, one after the other, would hold up every parallel test of
// the package until they end.
func requireParent(t *testing.T) {
	t.Helper()
	if name := topLevel(t); !decidedParent(name) {
		t.Fatalf("%s: its subtests start acceptance tests: call acctest.Parent(t) in it first, "+
			"or acctest.Serial(t, why) if it cannot run beside others", name)
	}
}

// decidedParent reports whether the top-level test name called Parent,
// New or NewWorkdir or is marked Serial.
func decidedParent(name string) bool {
	_, isParent := parentTests.Load(name)
	_, isSerial := serialTests.Load(name)
	return isParent || isSerial
}

// keyVar starts the names of the variables that carry the users' keys into
// the configurations: keyVar_<n>, one per key, from TF_VAR_keyVar_<n>.
const keyVar = "analytics_acc_api_key"

// keyVars is the process's registry of the users' keys: each distinct key
// gets the next number (never anything derived from the key), and its
// variable is set once in the process's environment, for every CLI the
// tests start, and never unset: no two keys share a name, so tests running
// in parallel do not disturb each other.
var keyVars struct {
	sync.Mutex
	names map[string]string
}

// keyVarOf is the name of the variable that carries key, set in the
// process's environment.
func keyVarOf(key string) string {
	keyVars.Lock()
	defer keyVars.Unlock()
	if name, ok := keyVars.names[key]; ok {
		return name
	}
	if keyVars.names == nil {
		keyVars.names = map[string]string{}
	}
	name := fmt.Sprintf("%s_%d", keyVar, len(keyVars.names)+1)
	if err := os.Setenv("TF_VAR_"+name, key); err != nil {
		panic(fmt.Sprintf("acctest: setting TF_VAR_%s: %v", name, err))
	}
	keyVars.names[key] = name
	return name
}

// processVars numbers the variables of ProcessVariable.
var processVars atomic.Int64

// ProcessVariable is a Terraform variable of its own for a value a test
// learns only as it runs (e.g. in a step's PreConfig), in a test that runs
// in parallel, where t.Setenv is refused: its name is prefix and a number
// no other variable of the process has, and set puts the value in the
// process's environment (TF_VAR_<name>, never unset) for the CLIs started
// after. Not for secrets.
func ProcessVariable(prefix string) (name string, set func(value string)) {
	name = fmt.Sprintf("%s_%d", prefix, processVars.Add(1))
	return name, func(value string) {
		if err := os.Setenv("TF_VAR_"+name, value); err != nil {
			panic(fmt.Sprintf("acctest: setting TF_VAR_%s: %v", name, err))
		}
	}
}
