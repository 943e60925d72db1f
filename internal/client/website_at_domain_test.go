package client_test

import (
	"net/http"
	"strings"
	"testing"
)

// TestUndecodableRecordAtDomainNotRepeated: the client registers
// the user information of a domain the server returns (user:password@host,
// stored by the web interface from a pasted URL) as it decodes the record
// (website_wire.go). A record it cannot decode (here created_at is no
// time; any field the decode refuses) returned before the registration,
// and the error quotes the answer's first 120 characters, domain included:
// the password reached the error the provider shows and logs (review
// rev44an). The domain is registered before any field is decoded now, and
// found in a body cut short too (addDomainSecrets).
func TestUndecodableRecordAtDomainNotRepeated(t *testing.T) {
	t.Parallel()
	// A password of each case's own: the redactor is the process's, and
	// one case's registration must not hide another's leak.
	for name, body := range map[string]string{
		"field refused": `{"data":{"id":7,"domain":"admin:s3cr3t-pw-refused@example.com",` +
			`"created_at":"yesterday","updated_at":"2026-01-01 00:00:00"}}`,
		// an answer cut short (a proxy's time limit), complete as HTTP
		"truncated": `{"data":{"id":7,"domain":"admin:s3cr3t-pw-truncated@example.com","privacy":0,"ema`,
	} {
		c := stubServer(t, http.StatusOK, body)
		_, err := c.GetWebsite(ctx(t), 7)
		if err == nil {
			t.Fatalf("%s: the undecodable record was accepted", name)
		}
		if strings.Contains(err.Error(), "s3cr3t-pw") {
			t.Errorf("%s: the error repeats the text before \"@\" of the domain the server returned: %v", name, err)
		}
	}
}
