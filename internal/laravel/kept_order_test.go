package laravel

import (
	"slices"
	"strings"
	"testing"
)

// KeptOrder finds an order of the lines that Trim leaves whole exactly when
// one exists (tried by brute force), and keeps an order that already is.
func TestKeptOrder(t *testing.T) {
	t.Parallel()
	for _, lines := range [][]string{
		{},
		{"1.2.3.4"},
		{" 1.2.3.4"},
		{"1.2.3.4 "},
		{"1.2.3.4", "5.6.7.8"},
		{" 1.2.3.4", "5.6.7.8"},
		{"1.2.3.4 ", "5.6.7.8"},
		{"1.2.3.4 ", " 5.6.7.8"},
		{" 1.2.3.4", "5.6.7.8 "},
		{" 1.2.3.4 ", "5.6.7.8"},
		{" 1.2.3.4 ", "5.6.7.8", "9.9.9.9"},
		{"  ", "a", "b"},
		{"  ", "a"},
		{"a ", "b ", "c"},
		{" a", " b", "c "},
		{" a", " b", "c"},
		{"\u00a0a", "b\u200b", "c"},
		{"\xff ", "a"},
		{"\xff\u00a0", "a"},
	} {
		got, ok := KeptOrder(lines)
		if !sameLines(got, lines) {
			t.Errorf("KeptOrder(%q) = %q, not the same lines", lines, got)
		}
		if want := anyKeptOrder(lines); ok != want {
			t.Errorf("KeptOrder(%q) ok = %v, want %v", lines, ok, want)
		}
		if ok && !kept(got) {
			t.Errorf("KeptOrder(%q) = %q, which Trim changes to %q", lines, got, Trim(strings.Join(got, "\n")))
		}
		if kept(lines) && !slices.Equal(got, lines) {
			t.Errorf("KeptOrder(%q) = %q, want the order given, which Trim keeps", lines, got)
		}
	}
}

func kept(lines []string) bool {
	v := strings.Join(lines, "\n")
	return Trim(v) == v && (len(lines) != 1 || lines[0] != "")
}

func sameLines(a, b []string) bool {
	a, b = slices.Clone(a), slices.Clone(b)
	slices.Sort(a)
	slices.Sort(b)
	return slices.Equal(a, b)
}

// anyKeptOrder tries every order of lines.
func anyKeptOrder(lines []string) bool {
	if kept(lines) {
		return true
	}
	for i := range lines {
		rest := slices.Concat(lines[:i], lines[i+1:])
		if permutations(rest, func(p []string) bool { return kept(slices.Concat([]string{lines[i]}, p)) }) {
			return true
		}
	}
	return false
}

func permutations(lines []string, f func([]string) bool) bool {
	if len(lines) <= 1 {
		return f(lines)
	}
	for i := range lines {
		rest := slices.Concat(lines[:i], lines[i+1:])
		if permutations(rest, func(p []string) bool { return f(slices.Concat([]string{lines[i]}, p)) }) {
			return true
		}
	}
	return false
}
