package client

import (
	"net/url"
	"testing"
)

// Each type a WebsiteInput field may have is encoded as the API reads it,
// a pointer by what it points to and a nil one not at all (a list too: a
// new set attribute is left out while its plan value is unknown, and a nil
// []string is sent as an empty list, which clears it); another type is
// refused (form panics naming the field).
func TestSetFormField(t *testing.T) {
	t.Parallel()
	s, n, b, f, l := "x", 7, true, false, []string{"a", "b"}
	for _, tc := range []struct {
		in   any
		want []string // nil: not sent
	}{
		{"x", []string{"x"}}, {"", []string{""}}, {12, []string{"12"}}, {true, []string{"1"}}, {false, []string{"0"}},
		{[]string{"a", "b"}, []string{"a\nb"}}, {[]string{}, []string{""}},
		{&s, []string{"x"}}, {&n, []string{"7"}}, {&b, []string{"1"}}, {&f, []string{"0"}},
		{(*string)(nil), nil}, {(*int)(nil), nil}, {(*bool)(nil), nil},
		{&l, []string{"a\nb"}}, {(*[]string)(nil), nil},
	} {
		v := url.Values{}
		if !setFormField(v, "f", tc.in) {
			t.Errorf("%T %#v: not encoded", tc.in, tc.in)
			continue
		}
		if got := v["f"]; len(got) != len(tc.want) || (len(got) == 1 && got[0] != tc.want[0]) {
			t.Errorf("%T %#v: form %q, want %q", tc.in, tc.in, got, tc.want)
		}
	}
	if setFormField(url.Values{}, "f", 1.5) || setFormField(url.Values{}, "f", new(int64)) {
		t.Error("a float64 or an *int64 was encoded")
	}
}

// An update that writes exclude_ips back alone sends nothing else, so the
// server keeps every other field as stored; a store ignores the flag.
func TestFormOnlyExcludeIPs(t *testing.T) {
	pw := "secret"
	in := WebsiteInput{Domain: "example.com", Privacy: 2, Email: true, ExcludeBots: true, Password: &pw,
		ExcludeParams: []string{"utm"}, ExcludeIPs: []string{"1.2.3.4", "5.6.7.8"}, OnlyExcludeIPs: true}
	got := in.form(false)
	if len(got) != 1 || got.Get("exclude_ips") != "1.2.3.4\n5.6.7.8" {
		t.Errorf("update form = %v, want exclude_ips alone", got)
	}
	if store := in.form(true); store.Get("domain") != "example.com" || store.Get("exclude_bots") != "1" {
		t.Errorf("store form = %v, want every field", store)
	}
}

// SendsOnUpdate tells what an update's form holds, so that what the
// provider records about a request it lost the answer of follows what was
// sent (a write-back of exclude_ips alone).
func TestSendsOnUpdate(t *testing.T) {
	pw := "secret"
	full := WebsiteInput{Domain: "example.com", Password: &pw, ExcludeParams: []string{"utm"}, ExcludeIPs: []string{"1.2.3.4"}}
	for _, tc := range []struct {
		name string
		in   WebsiteInput
		want map[string]bool
	}{
		{"every field", full, map[string]bool{"password": true, "exclude_params": true, "exclude_ips": true, "domain": false}},
		{"exclude_ips alone", func() WebsiteInput { in := full; in.OnlyExcludeIPs = true; return in }(),
			map[string]bool{"password": false, "exclude_params": false, "exclude_ips": true, "privacy": false}},
		{"lists left out", func() WebsiteInput {
			in := full
			in.Password, in.OmitExcludeParams, in.OmitExcludeIPs = nil, true, true
			return in
		}(), map[string]bool{"password": false, "exclude_params": false, "exclude_ips": false, "privacy": true}},
		{"a nil list is sent empty", WebsiteInput{}, map[string]bool{"exclude_params": true, "exclude_ips": true}},
	} {
		for name, want := range tc.want {
			if got := tc.in.SendsOnUpdate(name); got != want {
				t.Errorf("%s: SendsOnUpdate(%q) = %v, want %v", tc.name, name, got, want)
			}
		}
	}
}

// OnlyExcludeIPs with OmitExcludeIPs builds a form whose
// exclude_ips key holds no value: url.Values.Encode sends nothing, yet
// SendsOnUpdate reports the list sent (the key is present). The provider
// does not combine the two today (the update applies locally instead),
// but the bookkeeping that follows the request's form then records a list
// that was never sent (recordWrittenIPs, keepUnsettled).
func TestSendsOnUpdate_onlyAndOmitSendNothing(t *testing.T) {
	in := WebsiteInput{ExcludeIPs: []string{"1.2.3.4"}, OnlyExcludeIPs: true, OmitExcludeIPs: true}
	if body := in.form(false).Encode(); body != "" {
		t.Fatalf("the form encodes %q, want nothing", body)
	}
	if in.SendsOnUpdate("exclude_ips") {
		t.Errorf("SendsOnUpdate(\"exclude_ips\") = true for a form that encodes nothing")
	}
}
