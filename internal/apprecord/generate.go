package apprecord

import (
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
)

// Generator draws a seeded random sequence of Website API calls (store,
// update by PUT and PATCH, show, list with search, sort and pages, delete)
// with valid and hostile values. The same seed, acceptance and answers give
// the same calls.
type Generator struct {
	rng    *rand.Rand
	tag    string  // "df<seed>": in every domain, the lists search for it
	accept float64 // how often a value is drawn from the accepted ones
	n      int     // domains drawn so far
	used   []string
}

// NewGenerator starts the sequence of seed. accept is how often a value is
// one the application accepts (0.85, say); 0 draws every value from the
// whole range, valid and hostile alike.
func NewGenerator(seed int64, accept float64) *Generator {
	return &Generator{
		rng:    rand.New(rand.NewPCG(uint64(seed), 0x61707072)), //nolint:gosec // a test sequence, not a secret
		tag:    "df" + strconv.FormatInt(seed, 10),
		accept: accept,
	}
}

// Unknown ids: no website ever has them.
const (
	unknownID   = "0"
	unknownHigh = "99999999"
)

// Next is the next call, given how many websites the sequence has created
// so far (a path names one of them as "#k").
func (g *Generator) Next(created int) Call {
	switch r := g.rng.Float64(); {
	case r < 0.35:
		return Call{Method: "POST", Path: "/websites", Form: g.form(true)}
	case r < 0.60:
		return Call{Method: "GET", Path: "/websites", Query: g.query()}
	case r < 0.72:
		return Call{Method: "PATCH", Path: g.path(created), Form: g.form(false)}
	case r < 0.84:
		return Call{Method: "PUT", Path: g.path(created), Form: g.form(false)}
	case r < 0.93:
		return Call{Method: "GET", Path: g.path(created)}
	default:
		return Call{Method: "DELETE", Path: g.path(created)}
	}
}

// path names a website of the sequence, or one that never exists.
func (g *Generator) path(created int) string {
	if created == 0 || g.rng.Float64() < 0.2 {
		return "/websites/" + g.pick([]string{unknownID, unknownHigh})
	}
	return "/websites/#" + strconv.Itoa(g.rng.IntN(created))
}

func (g *Generator) pick(from []string) string { return from[g.rng.IntN(len(from))] }

// value is one of ok (accepted values) or, unless the draw keeps to the
// accepted ones, of ok and bad together.
func (g *Generator) value(ok, bad []string) string {
	if g.rng.Float64() < g.accept {
		return g.pick(ok)
	}
	return g.pick(append(append([]string{}, ok...), bad...))
}

var (
	privacyOK  = []string{"0", "1", "2"}
	binaryOK   = []string{"0", "1"}
	integerBad = []string{"", " 1", "-1", "01", "1.0", "3", "99999999999", "true", "yes"}
	passwords  = []string{"a", "ünïcödé", "日本語", "emoji 😀", `quote"s`, `back\slash`, "<b>html</b>", "tab\there",
		"line\nbreak", "crlf\r\nx", " padded ", "\u200bzero", "null", "0"}
	passwordsBad = []string{"", " ", strings.Repeat("x", 129)}
	listEntries  = []string{"1.2.3.4", "10.0.0.0/8", "2001:db8::/32", "::1", "utm_source", "ref", "ünï",
		"1.2.3.4/33", "256.1.1.1", "bad ip", " lead", "trail ", " ", "", "ref\r", strings.Repeat("a", 300)}
	listSeparators = []string{"\n", "\r\n", "\n\n", ","}
)

// domain draws a domain: a new one of the sequence in one of the forms the
// application canonicalises or refuses, or one already used. Every domain
// the application may accept holds the tag: domains are unique across all
// users of an installation, so an untagged one (an IP address) could be
// taken by another user, and the recording would not replay.
func (g *Generator) domain() string {
	if len(g.used) > 0 && g.rng.Float64() < 0.1 {
		return g.pick(g.used)
	}
	g.n++
	d := fmt.Sprintf("d%d-%s.example.com", g.rng.IntN(31), g.tag)
	ok := []string{d, strings.ToUpper(d), " " + d + " ", "www." + d, "https://" + d,
		fmt.Sprintf("sub%d.%s", g.rng.IntN(64), d)}
	bad := []string{"", "localhost", "not a domain", "user@" + d, d + ":8080", d + ".", "https://" + d + "/",
		"http://" + d + "/path?q=1", "bücher-" + g.tag + ".example", "xn--bcher-kva-" + g.tag + ".example",
		strings.Repeat("a", 260) + ".com"}
	v := g.value(ok, bad)
	g.used = append(g.used, v)
	return v
}

// list draws an exclude_ips or exclude_params text.
func (g *Generator) list() string {
	if g.rng.Float64() < 0.1 {
		return g.pick([]string{"", " ", "\n"})
	}
	sep := g.pick(listSeparators)
	parts := make([]string, 1+g.rng.IntN(5))
	for i := range parts {
		parts[i] = g.pick(listEntries)
	}
	return strings.Join(parts, sep)
}

// form draws a store's (with a domain, most of the time) or an update's
// fields, each present or not.
func (g *Generator) form(store bool) Pairs {
	f := Pairs{}
	add := func(k string, p float64, v func() string) {
		if g.rng.Float64() < p {
			f = append(f, Pair{Key: k, Value: v()})
		}
	}
	domainP := 0.3
	if store {
		domainP = 0.95
	}
	add("domain", domainP, g.domain)
	add("privacy", 0.6, func() string { return g.value(privacyOK, integerBad) })
	add("password", 0.4, func() string { return g.value(passwords, passwordsBad) })
	add("email", 0.6, func() string { return g.value(binaryOK, integerBad) })
	add("exclude_bots", 0.5, func() string { return g.value(binaryOK, integerBad) })
	add("exclude_params", 0.5, g.list)
	add("exclude_ips", 0.5, g.list)
	return f
}

// query draws a list's parameters, each present or not.
func (g *Generator) query() Pairs {
	q := Pairs{}
	add := func(k string, p float64, ok, bad []string) {
		if g.rng.Float64() < p {
			q = append(q, Pair{Key: k, Value: g.value(ok, bad)})
		}
	}
	add("search", 0.9, []string{g.tag}, []string{"", "%", "_", "EXAMPLE", "d1"})
	add("search_by", 0.4, []string{"domain"}, []string{"id", "x"})
	add("sort_by", 0.4, []string{"id", "domain"}, []string{"x"})
	add("sort", 0.4, []string{"asc", "desc"}, []string{"x"})
	add("per_page", 0.4, []string{"10", "25", "50", "100"}, []string{"0", "7", "x"})
	add("page", 0.4, []string{"1", "2"}, []string{"0", "x"})
	return q
}
