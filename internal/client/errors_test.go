package client_test

import (
	"strings"
	"testing"

	"github.com/analytics-tf/terraform-provider-analytics/internal/client"
)

// An error answer (non-2xx) that carries a "password" member as text is
// quoted with it redacted, as an undecodable 2xx answer is: in the error's
// text and in every field of the APIError.
func TestErrorAnswersWithoutPasswords(t *testing.T) {
	t.Parallel()
	const pw = "hunter2-Secret-pw"
	for _, tc := range []struct {
		name   string
		status int
		body   string
	}{
		{"400 without message", 400, `{"error":"bad request","password":"` + pw + `"}`},
		{"400 message object", 400, `{"message":{"password":"` + pw + `","note":"x"}}`},
		{"422 message object", 422, `{"message":{"password":"` + pw + `"}}`},
		{"404 not the API", 404, `{"data":{"id":1,"password":"` + pw + `"}}`},
		{"409 nested", 409, `{"errors":[{"website":{"password":"` + pw + `"}}]}`},
		// Not JSON as a whole: a PHP warning after the record, an answer
		// cut short, inside the password or after it.
		{"200, PHP warning after", 200, `{"data":{"id":1,"password":"` + pw + `"}}<br />` + "\n<b>Warning</b>: x"},
		{"200, cut in the password", 200, `{"data":{"id":1,"password" : "` + pw[:12]},
		{"500, cut after the password", 500, `{"data":{"id":1,"password":"` + pw + `","domain":"exa`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			_, err := stubServer(t, tc.status, tc.body).GetWebsite(ctx(t), 1)
			apiErr, ok := client.AsAPIError(err)
			if !ok {
				t.Fatalf("error %v is no *APIError", err)
			}
			for what, s := range map[string]string{"Error()": err.Error(), "Message": apiErr.Message,
				"Snippet": apiErr.Snippet, "Location": apiErr.Location} {
				if strings.Contains(s, pw) {
					t.Errorf("%s quotes the password: %s", what, s)
				}
			}
			if !strings.Contains(err.Error()+apiErr.Message+apiErr.Snippet, "[REDACTED]") {
				t.Errorf("the error does not quote the answer, redacted: %v (snippet %q)", err, apiErr.Snippet)
			}
		})
	}
}
