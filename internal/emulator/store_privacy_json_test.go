package emulator

import "testing"

// The store's password rule is Rule::requiredIf($this->input('privacy') ==
// 2), PHP's loose comparison (the application's public StoreWebsiteRequest;
// the message is required's). In PHP 8, true == 2 is true, and a JSON
// "privacy": true passes integer (filter_var(true, FILTER_VALIDATE_INT) is
// 1) and between:0,2 (size 1): the application answers 422 "The password
// field is required.". The emulator decides "privacy is 2" with
// phpNumeric, which is false for a boolean, and stores the website.
func TestStorePrivacyTrueJSONRequiresPassword(t *testing.T) {
	t.Parallel()
	s, _ := newTestServer(t, Options{})
	r := do(t, s, call{method: "POST", path: "/api/v1/websites", key: keyA, ctype: "application/json",
		body: `{"domain":"json-true.example","privacy":true}`})
	expect(t, r, 422, `{"message":{"password":["The password field is required."]},"status":422}`)
}
