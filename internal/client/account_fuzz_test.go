package client

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"reflect"
	"testing"
)

// wireOfAccount is a as the application writes it: switches as 1 or 0.
func wireOfAccount(a *Account) []byte {
	features := map[string]any{}
	for name, n := range map[string]*int{"websites": a.Plan.Features.Websites, "pageviews": a.Plan.Features.Pageviews} {
		if n != nil {
			features[name] = *n
		}
	}
	for name, b := range map[string]*bool{"api": a.Plan.Features.API, "email_reports": a.Plan.Features.EmailReports,
		"data_export": a.Plan.Features.DataExport} {
		if b != nil {
			features[name] = map[bool]int{true: 1, false: 0}[*b]
		}
	}
	b, err := json.Marshal(map[string]any{"data": map[string]any{
		"id": a.ID, "name": a.Name, "email": a.Email, "locale": a.Locale, "timezone": a.Timezone, "created_at": a.CreatedAt,
		"plan": map[string]any{"id": a.Plan.ID, "name": a.Plan.Name, "features": features},
	}, "status": 200})
	if err != nil {
		panic(err)
	}
	return b
}

// FuzzAccount: GET /account answered 200 with any body, the API key (drawn
// by the fuzzer) planted in it in one of its forms. No panic; no channel of
// an error (its text, every field of *APIError) holds a piece of the key in
// any form; an accepted account
// round-trips: sent again as the application writes it (features as
// numbers, switches as 1 or 0), it reads as the same Account.
func FuzzAccount(f *testing.F) {
	for _, s := range []string{
		`{"data":{"id":1,"name":"A","email":"a@example.test","locale":"en","timezone":"UTC","plan":{"id":1,"name":"Default","features":{"pageviews":1000,"websites":-1,"email_reports":1,"data_export":1,"api":1}},"created_at":"2024-01-01T00:00:00.000000Z"},"status":200}`,
		`{"data":{"id":"7","plan":{"id":"2","features":{"websites":"3","email_reports":false,"api":"1","pageviews":1e3}}}}`,
		`{"data":{"id":7,"plan":{"features":{"websites":[1],"email_reports":{},"api":null}}}}`,
		`{"data":{"id":7,"plan":null}}`,
		`{"data":{"name":"no id"}}`,
		`{"data":[]}`,
	} {
		f.Add([]byte(s), uint(0), seedKey, uint8(0))
	}
	f.Add([]byte(`{"data":{"id":7,"name":"`), uint(24), seedOddKey, uint8(3))
	f.Fuzz(func(t *testing.T, body []byte, keyAt uint, key string, form uint8) {
		secrets := meaningful([]string{string(body)}, key)
		for _, b := range [][]byte{body, plant(body, keyAt, formOf(key, form))} {
			a, err := newFuzzClient(t, key, "", http.StatusOK, nil, b).Account(context.Background())
			checkChannels(t, err, fmt.Sprintf("%q", b), secrets...)
			if err != nil {
				continue
			}
			if p := a.Plan.Features.Websites; p != nil {
				if n, ok := a.WebsiteLimit(); ok != (*p >= 0) || (ok && n != *p) {
					t.Errorf("WebsiteLimit() = %d, %v for websites %d", n, ok, *p)
				}
			}
			again, err := newFuzzClient(t, key, "", http.StatusOK, nil, wireOfAccount(a)).Account(context.Background())
			if err != nil || !reflect.DeepEqual(a, again) {
				t.Errorf("%s: the account %+v does not round-trip: %+v, %v", b, a, again, err)
			}
		}
	})
}
