package hostiletest

import (
	"crypto/sha256"
	"encoding/base32"
	"fmt"
	"strings"
)

// Canary is a secret made to be found: a random-looking core between characters
// that every encoding writes differently. Any 10 characters of the core
// found in what the provider says is a leak, whatever the form around it.
type Canary struct {
	Name  string // what the secret is, e.g. "API key"
	Value string // the secret as the user gives it
	Core  string // 16 capitals and digits, fixed by Name
}

// Specials surround every canary's core: each escapes differently in JSON
// (Go's and PHP's), URLs (query and path) and HTML.
const Specials = `/+="\<&?#`

// WindowLen is the length of the pieces of a core that count as a leak.
const WindowLen = 10

// NewCanary makes a canary called name; value builds the secret around
// the core (nil: Wrap). The core looks random but is the base32 of the
// name's SHA-256, so that every run of a test plants the same bytes: a leak
// that depends on them shows every time, not once in a while.
func NewCanary(name string, value func(core string) string) Canary {
	sum := sha256.Sum256([]byte("hostiletest canary: " + name))
	core := base32.StdEncoding.EncodeToString(sum[:])[:16] // capitals and 2-7
	if value == nil {
		value = Wrap
	}
	return Canary{Name: name, Value: value(core), Core: core}
}

// Wrap puts core between Specials and spaces: `/+="\<&?# core #?&<\"=+/`.
func Wrap(core string) string {
	return Specials + " " + core + " " + reverse(Specials)
}

func reverse(s string) string {
	b := []byte(s)
	for i, j := 0, len(b)-1; i < j; i, j = i+1, j-1 {
		b[i], b[j] = b[j], b[i]
	}
	return string(b)
}

// Leak is a canary found on a channel.
type Leak struct {
	Canary  string // the canary's name
	Channel string // where it was found
	Context string // the text around it, with every canary masked
}

func (l Leak) String() string {
	return fmt.Sprintf("%s leaks in %s: …%s…", l.Canary, l.Channel, l.Context)
}

// Find reports each canary of which a piece (WindowLen characters of its
// core) is in text, once per canary, with the text around its first piece.
func Find(channel, text string, canaries []Canary) []Leak {
	var leaks []Leak
	for _, c := range canaries {
		at := -1
		for i := 0; i+WindowLen <= len(c.Core); i++ {
			if j := strings.Index(text, c.Core[i:i+WindowLen]); j >= 0 && (at < 0 || j < at) {
				at = j
			}
		}
		if at < 0 {
			continue
		}
		from, to := max(0, at-60), min(len(text), at+WindowLen+60)
		leaks = append(leaks, Leak{Canary: c.Name, Channel: channel, Context: Mask(text[from:to], canaries)})
	}
	return leaks
}

// Mask replaces every run of text covered by pieces of a canary's core with
// «name», so that a report can quote the text around a leak without the
// secret.
func Mask(text string, canaries []Canary) string {
	owner := make([]int, len(text)) // 1 + index of the canary covering each byte
	for ci, c := range canaries {
		for i := 0; i+WindowLen <= len(c.Core); i++ {
			w := c.Core[i : i+WindowLen]
			for off := 0; ; {
				j := strings.Index(text[off:], w)
				if j < 0 {
					break
				}
				for k := off + j; k < off+j+WindowLen; k++ {
					owner[k] = ci + 1
				}
				off += j + 1
			}
		}
	}
	var b strings.Builder
	for i := 0; i < len(text); i++ {
		if owner[i] == 0 {
			b.WriteByte(text[i])
			continue
		}
		b.WriteString("«" + canaries[owner[i]-1].Name + "»")
		for i+1 < len(text) && owner[i+1] == owner[i] {
			i++
		}
	}
	return b.String()
}
